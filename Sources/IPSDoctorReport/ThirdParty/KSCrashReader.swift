import IPSDoctorJSON
import IPSDoctorSupport

/// Reads a KSCrash JSON report and the forks that keep its layout (Bugsnag's `KSCrashReport`,
/// SentryCrash, Embrace): `report`, `system`, `binary_images`, `crash.error`, `crash.threads`.
///
/// Each fact goes where Apple's report keeps it: the Mach exception and signal, the uncaught
/// `NSException`, threads with frames keyed to their images, the crashed thread's registers. What
/// the reporter adds of its own is not taken for Apple's words: KSCrash's `diagnosis` text is
/// not read, and a report the app itself filed (`user`) is named as a handled error, not a crash.
enum KSCrashReader {
  /// Whether `root` is a KSCrash report: a `report` object beside a crash, system, image or user
  /// section.
  static func isReport(_ root: JSONNode) -> Bool {
    guard root.kind == .object, let report = root["report"], report.kind == .object else { return false }
    return root["crash"] != nil || root["binary_images"] != nil || root["system"] != nil || root["user"] != nil
  }

  static func read(_ root: JSONNode) -> Result<CrashReport, ReportError> {
    let crash = root["crash"]
    let error = crash?["error"]
    let threadList = crash?["threads"]
    let hasThreads = threadList.map { $0.kind == .array && $0.count > 0 } ?? false
    guard error?["type"]?.string != nil || hasThreads else {
      var error = ReportError(message: "not a crash report: a KSCrash report with no crash in it")
      error.notACrash = "a KSCrash report with no crash in it"
      return .failure(error)
    }
    var report = CrashReport(format: .json, kind: .crash)
    report.source = isBugsnag(root) ? .bugsnag : .kscrash
    readHeader(root, into: &report)
    readImages(root["binary_images"], into: &report)
    if let threadList, threadList.kind == .array {
      readThreads(threadList, into: &report)
    }
    if let error { readError(error, into: &report) }
    nameFaultFromSyndrome(error, in: &report)
    if root["recrash_report"] != nil || crash?["recrash_report"] != nil {
      report.warnings.append(
        ReportWarning(
          location: "recrash_report", message: "ignored the reporter's own crash while it wrote this report"))
    }
    report.missing = report.missingParts()
    return .success(report)
  }

  /// Bugsnag's fork keeps its event state in `user` (`handledState`, `state`).
  static func isBugsnag(_ root: JSONNode) -> Bool {
    guard let user = root["user"], user.kind == .object else { return false }
    return user["handledState"] != nil || user["state"]?["crash"] != nil
  }

  static func readHeader(_ root: JSONNode, into report: inout CrashReport) {
    let system = root["system"]
    let header = root["report"]
    report.processName =
      header?["process_name"]?.string ?? system?["process_name"]?.string ?? system?["CFBundleExecutable"]?.string
    report.processPath = system?["CFBundleExecutablePath"]?.string
    report.bundleID = system?["CFBundleIdentifier"]?.string
    report.appVersion = system?["CFBundleShortVersionString"]?.string
    report.buildVersion = system?["CFBundleVersion"]?.string
    if let name = system?["system_name"]?.string {
      let version = system?["system_version"]?.string
      report.osVersion = OSVersion(
        train: version.map { name + " " + $0 } ?? name, build: system?["os_version"]?.string)
    }
    report.modelCode = system?["machine"]?.string
    report.cpuType = system?["cpu_arch"]?.string
    report.pid = system?["process_id"]?.number?.int
    report.parentProcess = system?["parent_process_name"]?.string
    report.captureTime = header?["timestamp"]?.string
    report.incidentID = header?["id"]?.string
  }

  static func readImages(_ list: JSONNode?, into report: inout CrashReport) {
    guard let list, list.kind == .array else { return }
    for entry in list.elements where entry.kind == .object {
      let path = entry["name"]?.string
      let name = path.map { String($0.split(separator: "/", omittingEmptySubsequences: false).last ?? "") }
      var image = BinaryImage(
        name: name, path: path, uuid: entry["uuid"]?.string, base: entry["image_addr"]?.number?.uint64)
      image.size = entry["image_size"]?.number?.uint64
      report.images.append(image)
      // The image's `__crash_info` messages: what Apple's report keeps as Application Specific
      // Information under the image's name.
      var lines: [String] = []
      for key in ["crash_info_message", "crash_info_message2"] {
        guard let message = entry[key]?.string else { continue }
        lines += message.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }.filter {
          !$0.isEmpty
        }
      }
      if !lines.isEmpty { report.applicationSpecificInfo.append(ApplicationSpecificInfo(image: name, lines: lines)) }
    }
  }

  static func readThreads(_ list: JSONNode, into report: inout CrashReport) {
    var imageAt: [UInt64: Int] = [:]
    for (index, image) in report.images.enumerated() {
      if let base = image.base, imageAt[base] == nil { imageAt[base] = index }
    }
    for (position, entry) in list.elements.enumerated() where entry.kind == .object {
      var thread = CrashThread(index: entry["index"]?.number?.int ?? position)
      thread.name = entry["name"]?.string
      thread.queue = entry["dispatch_queue"]?.string
      thread.triggered = entry["crashed"]?.kind == .true
      if let contents = entry["backtrace"]?["contents"], contents.kind == .array {
        thread.frames.reserveCapacity(contents.count)
        for frame in contents.elements where frame.kind == .object {
          thread.frames.append(self.frame(frame, imageAt: imageAt))
        }
      }
      var state = ThreadState()
      if let basic = entry["registers"]?["basic"], basic.kind == .object {
        for (key, value) in basic.members {
          guard let name = key.string, let number = value.number?.uint64 else { continue }
          state.registers.append(.init(name: name, value: number))
        }
      }
      // The exception registers ARM gives the fault (`esr`, `far`), which Apple's report keeps
      // beside the others and describes.
      if let trap = entry["registers"]?["exception"], trap.kind == .object {
        for name in ["esr", "far"] {
          if let number = trap[name]?.number?.uint64 { state.registers.append(.init(name: name, value: number)) }
        }
        state.esrDescription = state["esr"].flatMap(ExceptionSyndrome.description)
      }
      if !state.registers.isEmpty { thread.state = state }
      report.threads.append(thread)
    }
    report.faultingThread = report.threads.firstIndex(where: \.triggered)
  }

  static func frame(_ entry: JSONNode, imageAt: [UInt64: Int]) -> Frame {
    let address = entry["instruction_addr"]?.number?.uint64
    let base = entry["object_addr"]?.number?.uint64
    let symbolAddress = entry["symbol_addr"]?.number?.uint64
    var offset: UInt64?
    if let address, let base, base != 0, address >= base { offset = address &- base }
    var symbolLocation: UInt64?
    if let address, let symbolAddress, symbolAddress != 0, address >= symbolAddress {
      symbolLocation = address &- symbolAddress
    }
    let symbol = entry["symbol_name"]?.string
    return Frame(
      imageIndex: base.flatMap { imageAt[$0] }, imageOffset: offset, symbol: symbol,
      symbolLocation: symbol == nil ? nil : symbolLocation, imageName: entry["object_name"]?.string,
      address: address)
  }

  /// Mach exception numbers as `<mach/exception_types.h>` names them.
  static let machExceptionNames: [UInt64: String] = [
    1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION", 5: "EXC_SOFTWARE",
    6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT", 10: "EXC_CRASH",
    11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
  ]

  /// The kernel's return codes an `EXC_BAD_ACCESS` carries as its first code.
  static let badAccessCodeNames: [UInt64: String] = [
    1: "KERN_INVALID_ADDRESS", 2: "KERN_PROTECTION_FAILURE", 0x101: "EXC_ARM_DA_ALIGN", 0x102: "EXC_ARM_DA_DEBUG",
  ]

  static func readError(_ error: JSONNode, into report: inout CrashReport) {
    let type = error["type"]?.string
    let reason = error["reason"]?.string
    switch type {
    case "user" where error["user_reported"]?["language"]?.string == "react-native":
      // sentry-cocoa's React Native fatal handler files the JavaScript error that RCTFatal is
      // about to end the app with as a user report in this language (and terminates the program):
      // kept in React Native's own words for it.
      let name = error["user_reported"]?["name"]?.string ?? reason ?? ""
      report.applicationSpecificInfo.append(
        ApplicationSpecificInfo(image: "React Native", lines: ["Unhandled JS Exception: " + name]))
      report.warnings.append(
        ReportWarning(
          location: "crash.error.user_reported",
          message: "a JavaScript error React Native's fatal handler reported before ending the app"))
      return
    case "user":
      // Filed by the app through the reporter's API: the signal is the reporter's placeholder.
      report.kind = .unknown
      report.isNonFatal = true
      let name = error["user_reported"]?["name"]?.string
      let what = [name, reason].compactMap { $0 }.joined(separator: ": ")
      report.warnings.append(
        ReportWarning(
          location: "crash.error", message: "a handled error the app reported itself, not a crash: " + what))
      return
    case "termination", "memory_termination":
      let stated = error["termination_reason"]?.string
      let memory = error["memory_termination"]
      let level = memory?["memory_level"]?.string
      let footprint = memory?["memory_footprint"]?.number?.uint64
      let limit = memory?["memory_limit"]?.number?.uint64
      var overLimit = false
      if let footprint, let limit, limit > 0 { overLimit = footprint >= limit }
      // Only a stated memory kill is one; any other termination the reporter could not explain.
      if stated == "memory_limit" || (type == "memory_termination" && (level == "terminal" || overLimit)) {
        var termination = Termination(namespace: "JETSAM")
        termination.reasons = [stated ?? "memory_termination"]
        report.termination = termination
      }
      return
    default:
      break
    }
    var exception = ExceptionInfo()
    if let mach = error["mach"], mach.kind == .object {
      let number = mach["exception"]?.number?.uint64
      exception.type = mach["exception_name"]?.string ?? number.flatMap { machExceptionNames[$0] }
      let code = mach["code"]?.number?.uint64 ?? 0
      let subcode = mach["subcode"]?.number?.uint64 ?? 0
      if number != nil && number != 0 {
        exception.rawCodes = [code, subcode]
        exception.codes = "0x" + hex16(code) + ", 0x" + hex16(subcode)
      }
      if let codeName = mach["code_name"]?.string {
        let address = error["address"]?.number?.uint64
        exception.subtype = address.map { codeName + " at 0x" + hex16($0) } ?? codeName
      }
    }
    if let signal = error["signal"], signal.kind == .object {
      let number = signal["signal"]?.number?.uint64
      if number != 0 { exception.signal = signal["name"]?.string }
    }
    if exception.type == "0" || exception.type?.isEmpty == true { exception.type = nil }
    if exception.type != nil || exception.signal != nil { report.exception = exception }

    if let thrown = error["nsexception"], thrown.kind == .object {
      var language = ExceptionReason(
        name: thrown["name"]?.string, composedMessage: thrown["reason"]?.string ?? reason)
      language.type = "objc-exception"
      language.className = "NSException"
      report.exceptionReason = language
    }
    if let thrown = error["cpp_exception"], thrown.kind == .object {
      // The C++ exception's type and `what()`, in the words libc++abi prints for them.
      let name = thrown["name"]?.string.map(demangledTypeName) ?? "an unknown type"
      let what = reason.map { ": " + $0 } ?? ""
      report.applicationSpecificInfo.append(
        ApplicationSpecificInfo(image: "KSCrash", lines: ["uncaught exception of type " + name + what]))
    }
    if type == "deadlock" {
      // KSCrash's watchdog found the main thread blocked; its Apple-style text says so in these words.
      report.applicationSpecificInfo.append(
        ApplicationSpecificInfo(image: "KSCrash", lines: ["Application main thread deadlocked"]))
    }
  }

  /// Names an `EXC_BAD_ACCESS` whose Mach code is not one of the kernel's return codes (early
  /// KSCrash wrote the fault address's low bits there) from the crashed thread's exception
  /// syndrome, as the kernel does: a translation fault is `KERN_INVALID_ADDRESS`, a permission
  /// fault `KERN_PROTECTION_FAILURE`, at the fault address.
  static func nameFaultFromSyndrome(_ error: JSONNode?, in report: inout CrashReport) {
    guard var exception = report.exception, exception.type == "EXC_BAD_ACCESS", exception.subtype == nil,
      badAccessCodeNames[exception.rawCodes.first ?? 0] == nil,
      let state = report.crashedThread?.state,
      let description = state.esrDescription
    else { return }
    let name: String
    if description.contains("Translation fault") {
      name = "KERN_INVALID_ADDRESS"
    } else if description.contains("Permission fault") {
      name = "KERN_PROTECTION_FAILURE"
    } else {
      return
    }
    let address = state["far"] ?? error?["address"]?.number?.uint64
    exception.subtype = address.map { name + " at 0x" + hex16($0) } ?? name
    report.exception = exception
  }

  /// An Itanium-mangled type name as C++ spells it: `11MyException` → `MyException`,
  /// `N3app5ErrorE` → `app::Error`; anything else as it is.
  static func demangledTypeName(_ mangled: String) -> String {
    var rest = Substring(mangled)
    let nested = rest.hasPrefix("N") && rest.hasSuffix("E")
    if nested { rest = rest.dropFirst().dropLast() }
    var parts: [Substring] = []
    while !rest.isEmpty {
      let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
      guard let length = Int(digits), length > 0, length <= rest.count - digits.count else { return mangled }
      rest = rest.dropFirst(digits.count)
      parts.append(rest.prefix(length))
      rest = rest.dropFirst(length)
    }
    guard !parts.isEmpty, nested || parts.count == 1 else { return mangled }
    return parts.joined(separator: "::")
  }

  /// `value` in 16 hexadecimal digits, as Apple writes codes and addresses.
  static func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
  }
}
