import IPSDoctorJSON
import IPSDoctorSupport

/// Reads MetricKit's `MXDiagnosticPayload` JSON and a bare `MXCallStackTree`.
///
/// One payload holds many diagnostics: each becomes a report of its own, labelled with its list
/// and index (`crashDiagnostics[0]`). A crash keeps its Mach exception, signal, termination reason
/// and VM region; a hang, a CPU or disk-write exception and a slow launch are named for what they
/// are (a resource report), never diagnosed as crashes. Each call stack is a thread, read from its
/// root frame down the first `subFrames` (the caller of each frame).
///
/// Frames have no symbols: each names its binary's UUID and the offset into its text segment, which
/// `--dsym` symbolicates. On iOS 14 and macOS 12 that offset holds the binary's load address
/// instead; a value of 4 GiB or more at or below the frame's address can only be that, and is read
/// so, with a warning.
enum MetricKitReader {
  static let diagnosticLists = [
    "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics",
    "appLaunchDiagnostics",
  ]

  static func isPayload(_ root: JSONNode) -> Bool {
    guard root.kind == .object else { return false }
    if root["callStacks"]?.kind == .array { return true }
    return diagnosticLists.contains { root[$0]?.kind == .array }
  }

  /// The payload's diagnostics, each with its label; a bare call-stack tree is one report with none.
  static func read(_ root: JSONNode) -> Result<[(label: String?, report: CrashReport)], ReportError> {
    if root["callStacks"]?.kind == .array {
      var report = CrashReport(format: .json, kind: .unknown)
      report.source = .metrickit
      readTree(root, into: &report)
      report.warnings.append(
        ReportWarning(
          location: "callStacks", message: "a MetricKit call-stack tree without its diagnostic: no crash facts"))
      report.missing = report.missingParts()
      return .success([(nil, report)])
    }
    var reports: [(label: String?, report: CrashReport)] = []
    for list in diagnosticLists {
      guard let diagnostics = root[list], diagnostics.kind == .array else { continue }
      for (index, diagnostic) in diagnostics.elements.enumerated() where diagnostic.kind == .object {
        reports.append((list + "[\(index)]", read(diagnostic, list: list)))
      }
    }
    shareExecutable(across: &reports)
    guard !reports.isEmpty else {
      var error = ReportError(message: "not a crash report: a MetricKit payload with no diagnostics")
      error.notACrash = "a MetricKit payload with no diagnostics"
      return .failure(error)
    }
    return .success(reports)
  }

  /// One payload is one app's: the executable a main thread showed in one diagnostic (see
  /// ``markMainThread(in:hang:rootSamples:)``) is the app's in the others too (the aggregated
  /// stacks of CPU and disk-write exceptions do not reach `main`).
  static func shareExecutable(across reports: inout [(label: String?, report: CrashReport)]) {
    var executable: (key: String, name: String)?
    for entry in reports {
      if let image = entry.report.images.first(where: { $0.source == "P" }), let name = image.name {
        executable = (image.uuid ?? name, name)
        break
      }
    }
    guard let executable else { return }
    for index in reports.indices {
      for image in reports[index].report.images.indices
      where (reports[index].report.images[image].uuid ?? reports[index].report.images[image].name) == executable.key {
        reports[index].report.images[image].source = "P"
      }
      if reports[index].report.processName == nil { reports[index].report.processName = executable.name }
    }
  }

  static func read(_ diagnostic: JSONNode, list: String) -> CrashReport {
    var report = CrashReport(format: .json, kind: list == "crashDiagnostics" ? .crash : .resource)
    report.source = .metrickit
    let meta = diagnostic["diagnosticMetaData"]
    report.appVersion = meta?["appVersion"]?.string
    report.buildVersion = meta?["appBuildVersion"]?.string
    report.bundleID = meta?["bundleIdentifier"]?.string
    report.osVersion = meta?["osVersion"]?.string.map(OSVersion.init(displayString:))
    report.modelCode = meta?["deviceType"]?.string
    report.cpuType = meta?["platformArchitecture"]?.string
    if let tree = diagnostic["callStackTree"] { readTree(tree, into: &report, hang: list == "hangDiagnostics") }
    if let meta {
      if list == "crashDiagnostics" {
        readCrash(meta, into: &report)
      } else {
        readResource(meta, list: list, into: &report)
      }
    }
    report.missing = report.missingParts()
    return report
  }

  /// What a hang, CPU, disk-write or launch diagnostic measured, under the name of what it is.
  static func readResource(_ meta: JSONNode, list: String, into report: inout CrashReport) {
    var summary = ResourceSummary()
    let measures: [(key: String, event: String)]
    switch list {
    case "hangDiagnostics":
      measures = [("hangDuration", "hang")]
      summary.measure = .hang
    case "cpuExceptionDiagnostics":
      measures = [("totalCPUTime", "CPU exception"), ("totalSampledTime", "")]
      summary.measure = .cpu
    case "diskWriteExceptionDiagnostics":
      measures = [("writesCaused", "disk writes exception")]
      summary.measure = .diskWrites
    default:
      measures = [("launchDuration", "slow launch")]
      summary.measure = .launch
    }
    for (key, event) in measures {
      guard let value = meta[key]?.string ?? meta[key]?.number?.description else { continue }
      if !event.isEmpty && summary.event == nil { summary.event = event + " (" + value + ")" }
      summary.fields.append(.init(key: key, value: value))
    }
    if summary.event == nil { summary.event = measures.first?.event }
    // "CPU exception (1.5 min of CPU time in 3 min)": the time used over the time sampled.
    if summary.measure == .cpu, let used = summary["totalCPUTime"], let sampled = summary["totalSampledTime"] {
      summary.event = "CPU exception (" + used + " of CPU time in " + sampled + ")"
    }
    if summary.measure == .diskWrites, let written = summary["writesCaused"] {
      summary.event = "disk writes exception (" + written + " written)"
    }
    report.resource = summary
  }

  /// Mach exception, signal, termination reason, VM region and (iOS 17) the Objective-C exception.
  static func readCrash(_ meta: JSONNode, into report: inout CrashReport) {
    var exception = ExceptionInfo()
    if let number = meta["exceptionType"]?.number?.uint64 {
      exception.type = KSCrashReader.machExceptionNames[number] ?? "EXC_" + String(number)
    }
    if let number = meta["signal"]?.number?.uint64 { exception.signal = signalNames[number] }
    let code = meta["exceptionCode"]?.number?.uint64
    if let code { exception.rawCodes = [code] }
    let region = meta["virtualMemoryRegionInfo"]?.string
    report.vmRegionInfo = region
    // The kernel's code names the fault; without a known code, a VM region that says the address
    // is in no region states the same fault.
    let unmapped = region?.contains("is not in any region") == true ? "KERN_INVALID_ADDRESS" : nil
    if exception.type == "EXC_BAD_ACCESS", let name = code.flatMap({ KSCrashReader.badAccessCodeNames[$0] }) ?? unmapped
    {
      exception.subtype = faultAddress(region).map { name + " at 0x" + KSCrashReader.hex16($0) } ?? name
    }
    if exception.type != nil || exception.signal != nil { report.exception = exception }
    if let reason = meta["terminationReason"]?.string { report.termination = termination(reason) }
    if let thrown = meta["objectiveCexceptionReason"], thrown.kind == .object {
      var language = ExceptionReason(
        name: thrown["exceptionName"]?.string, composedMessage: thrown["composedMessage"]?.string)
      language.type = "objc-exception"
      language.className = thrown["className"]?.string
      report.exceptionReason = language
    }
  }

  static let signalNames: [UInt64: String] = [
    1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE",
    9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
  ]

  /// The address a VM region description starts with ("0 is not in any region", "0x10 is not in
  /// any region").
  static func faultAddress(_ region: String?) -> UInt64? {
    guard let region, let word = region.split(separator: " ").first else { return nil }
    if word.hasPrefix("0x") { return UInt64(word.dropFirst(2), radix: 16) }
    return UInt64(word)
  }

  /// "Namespace SIGNAL, Code 0xb" (MetricKit's form of Apple's termination reason).
  static func termination(_ text: String) -> Termination {
    var termination = Termination()
    for part in text.split(separator: ",") {
      let words = part.split(separator: " ")
      guard words.count >= 2 else { continue }
      if words[0] == "Namespace" { termination.namespace = String(words[1]) }
      if words[0] == "Code" {
        let value = words[1]
        termination.code = value.hasPrefix("0x") ? UInt64(value.dropFirst(2), radix: 16) : UInt64(value)
      }
    }
    termination.reasons = [text]
    return termination
  }

  /// The call stacks as threads (the attributed one first marked as the crashed or sampled
  /// thread), and the binaries their frames name as images.
  ///
  /// The main thread is the one that starts in dyld (every other thread starts in
  /// `libsystem_pthread`), and the image its outermost frame calls is the app's executable
  /// (`main`). A hang's call stack is the main thread's: Apple's hang diagnostic measures how long
  /// the main thread was blocked. MetricKit names no queues; the main thread is labelled with the
  /// main queue's label, as Apple's and Crashlytics' reports label it. Without an attributed
  /// stack (the aggregated stacks of a CPU or disk-write exception), the stack with the most
  /// samples is the sampled one.
  static func readTree(_ tree: JSONNode, into report: inout CrashReport, hang: Bool = false) {
    guard let stacks = tree["callStacks"], stacks.kind == .array else { return }
    var images: [String: Int] = [:]
    var quirk = false
    var rootSamples: [UInt64] = []
    for stack in stacks.elements where stack.kind == .object {
      var thread = CrashThread(index: report.threads.count)
      thread.triggered = stack["threadAttributed"]?.kind == .true && report.kind == .crash
      if stack["threadAttributed"]?.kind == .true && report.faultingThread == nil {
        report.faultingThread = thread.index
      }
      // Root frame, then its first sub-frame, and so on: each caller below its callee. Bounded by
      // the tree's own size, so a cycle cannot be built from JSON.
      var next = ThirdPartyJSON.first(stack["callStackRootFrames"])
      rootSamples.append(next?["sampleCount"]?.number?.uint64 ?? 0)
      while let node = next, node.kind == .object {
        thread.frames.append(frame(node, images: &images, report: &report, quirk: &quirk))
        next = ThirdPartyJSON.first(node["subFrames"])
      }
      report.threads.append(thread)
    }
    markMainThread(in: &report, hang: hang, rootSamples: rootSamples)
    if quirk {
      report.warnings.append(
        ReportWarning(
          location: "callStackTree",
          message:
            "offsetIntoBinaryTextSegment holds each binary's load address (MetricKit of iOS 14 and macOS 12): offsets read as address minus it"
        ))
    }
  }

  /// The names dyld's image has in MetricKit's stacks (`dyld` since iOS 15, `libdyld.dylib` before).
  static let dyldNames: Set<String> = ["dyld", "libdyld.dylib"]

  static func markMainThread(in report: inout CrashReport, hang: Bool, rootSamples: [UInt64]) {
    var main: Int?
    for index in report.threads.indices {
      let frames = report.threads[index].frames
      guard frames.count >= 2, let outermost = frames.last?.imageName, dyldNames.contains(outermost),
        let executable = frames[frames.count - 2].imageIndex, report.images.indices.contains(executable),
        let name = report.images[executable].name, !dyldNames.contains(name)
      else { continue }
      main = main ?? index
      report.images[executable].source = "P"
      if report.processName == nil { report.processName = name }
    }
    if hang {
      // The attributed stack, or the only one, whichever thread it starts in.
      main = report.faultingThread ?? (report.threads.count == 1 ? 0 : main)
    }
    if let main {
      report.threads[main].queue = "com.apple.main-thread"
      if hang && report.faultingThread == nil { report.faultingThread = main }
    }
    if report.kind == .resource && report.faultingThread == nil && rootSamples.count == report.threads.count {
      report.faultingThread = report.threads.indices.max { rootSamples[$0] < rootSamples[$1] }
    }
  }

  static func frame(
    _ node: JSONNode, images: inout [String: Int], report: inout CrashReport, quirk: inout Bool
  ) -> Frame {
    let address = node["address"]?.number?.uint64
    var offset = node["offsetIntoBinaryTextSegment"]?.number?.uint64
    var base: UInt64?
    if let value = offset, let address {
      if value >= 1 << 32 && value <= address {
        // No text segment is 4 GiB long: the value is the load address.
        quirk = true
        base = value
        offset = address &- value
      } else if value <= address {
        base = address &- value
      }
    }
    let name = node["binaryName"]?.string
    let uuid = node["binaryUUID"]?.string
    var index: Int?
    if let key = uuid ?? name {
      if let known = images[key] {
        index = known
      } else {
        // MetricKit names no paths: which binaries are the app's own is not known.
        report.images.append(BinaryImage(name: name, uuid: uuid, base: base))
        index = report.images.count - 1
        images[key] = index
      }
    }
    return Frame(imageIndex: index, imageOffset: offset, symbol: nil, imageName: name, address: address)
  }
}
