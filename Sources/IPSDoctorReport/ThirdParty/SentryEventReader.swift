import IPSDoctorJSON
import IPSDoctorSupport

/// Reads a Sentry event (JSON): `exception.values[]` with its `mechanism`, `threads.values[]` with
/// stack traces (oldest frame first, as Sentry writes them), `debug_meta.images` and
/// `contexts.os/device/app`.
///
/// An event whose exception was handled (`mechanism.handled: true`) is named as a handled error,
/// not diagnosed as a crash.
enum SentryEventReader {
  static func isEvent(_ root: JSONNode) -> Bool {
    root.kind == .object && root["event_id"] != nil && (root["exception"] != nil || root["threads"] != nil)
  }

  static func read(_ root: JSONNode) -> Result<CrashReport, ReportError> {
    let values = root["exception"]?["values"]
    // Sentry lists chained exceptions oldest first: the last is the one that ended the app.
    let exception = ThirdPartyJSON.last(values)
    let threadList = root["threads"]?["values"]
    guard exception != nil || (threadList.map { $0.kind == .array && $0.count > 0 } ?? false) else {
      var error = ReportError(message: "not a crash report: a Sentry event with no exception or threads")
      error.notACrash = "a Sentry event with no exception or threads"
      return .failure(error)
    }
    var report = CrashReport(format: .json, kind: .crash)
    report.source = .sentryEvent
    readContexts(root, into: &report)
    readImages(root["debug_meta"]?["images"], into: &report)
    var imageAt: [UInt64: Int] = [:]
    for (index, image) in report.images.enumerated() {
      if let base = image.base, imageAt[base] == nil { imageAt[base] = index }
    }
    if let threadList, threadList.kind == .array {
      for (position, entry) in threadList.elements.enumerated() where entry.kind == .object {
        var thread = CrashThread(index: entry["id"]?.number?.int ?? position)
        let name = entry["name"]?.string
        if let name, name.contains("."), !name.contains(" ") { thread.queue = name } else { thread.name = name }
        thread.triggered = entry["crashed"]?.kind == .true
        thread.frames = frames(entry["stacktrace"], imageAt: imageAt)
        if thread.triggered { thread.state = registers(entry["stacktrace"]?["registers"]) }
        report.threads.append(thread)
      }
      report.faultingThread = report.threads.firstIndex(where: \.triggered)
    }
    if let exception { readException(exception, imageAt: imageAt, into: &report) }
    report.missing = report.missingParts()
    return .success(report)
  }

  static func readContexts(_ root: JSONNode, into report: inout CrashReport) {
    let contexts = root["contexts"]
    if let os = contexts?["os"] {
      let name = os["name"]?.string
      let version = os["version"]?.string
      if name != nil || version != nil {
        report.osVersion = OSVersion(
          train: [name, version].compactMap { $0 }.joined(separator: " "), build: os["build"]?.string)
      }
    }
    report.modelCode = contexts?["device"]?["model"]?.string
    report.cpuType = contexts?["device"]?["arch"]?.string
    let app = contexts?["app"]
    report.bundleID = app?["app_identifier"]?.string
    report.appVersion = app?["app_version"]?.string
    report.buildVersion = app?["app_build"]?.string
    report.processName = app?["app_name"]?.string
    report.captureTime = root["timestamp"]?.string
  }

  static func readImages(_ list: JSONNode?, into report: inout CrashReport) {
    guard let list, list.kind == .array else { return }
    for entry in list.elements where entry.kind == .object {
      let path = entry["code_file"]?.string
      let name = path.map { String($0.split(separator: "/", omittingEmptySubsequences: false).last ?? "") }
      var image = BinaryImage(
        name: name, path: path, uuid: entry["debug_id"]?.string ?? entry["uuid"]?.string,
        base: ThirdPartyJSON.address(entry["image_addr"]))
      image.size = ThirdPartyJSON.address(entry["image_size"])
      report.images.append(image)
    }
  }

  /// The frames of a stack trace, the crashing one first (Sentry lists the oldest first).
  static func frames(_ stacktrace: JSONNode?, imageAt: [UInt64: Int]) -> [Frame] {
    guard let list = stacktrace?["frames"], list.kind == .array else { return [] }
    var frames: [Frame] = []
    frames.reserveCapacity(list.count)
    for entry in list.elements where entry.kind == .object {
      let address = ThirdPartyJSON.address(entry["instruction_addr"])
      let base = ThirdPartyJSON.address(entry["image_addr"])
      let symbolAddress = ThirdPartyJSON.address(entry["symbol_addr"])
      var symbol = entry["function"]?.string
      if symbol == "<redacted>" { symbol = nil }
      let path = entry["package"]?.string
      var frame = Frame(
        imageIndex: base.flatMap { imageAt[$0] },
        imageOffset: ThirdPartyJSON.difference(address, base),
        symbol: symbol, symbolLocation: symbol == nil ? nil : ThirdPartyJSON.difference(address, symbolAddress),
        imageName: path.map { String($0.split(separator: "/", omittingEmptySubsequences: false).last ?? "") },
        address: address)
      frame.sourceFile = entry["filename"]?.string
      frame.sourceLine = entry["lineno"]?.number?.int
      frames.append(frame)
    }
    frames.reverse()
    return frames
  }

  static func registers(_ object: JSONNode?) -> ThreadState? {
    guard let object, object.kind == .object else { return nil }
    var state = ThreadState()
    for (key, value) in object.members {
      guard let name = key.string, let number = ThirdPartyJSON.address(value) else { continue }
      state.registers.append(.init(name: name, value: number))
    }
    return state.registers.isEmpty ? nil : state
  }

  static func readException(_ entry: JSONNode, imageAt: [UInt64: Int], into report: inout CrashReport) {
    let mechanism = entry["mechanism"]
    let type = entry["type"]?.string
    let value = entry["value"]?.string
    if mechanism?["handled"]?.kind == .true {
      report.kind = .unknown
      report.isNonFatal = true
      let what = [type, value].compactMap { $0 }.joined(separator: ": ")
      report.warnings.append(
        ReportWarning(location: "exception", message: "a handled error the app reported, not a crash: " + what))
      return
    }
    var exception = ExceptionInfo()
    if let mach = mechanism?["meta"]?["mach_exception"], mach.kind == .object {
      let number = mach["exception"]?.number?.uint64
      exception.type = mach["name"]?.string ?? number.flatMap { KSCrashReader.machExceptionNames[$0] }
      let code = mach["code"]?.number?.uint64 ?? 0
      exception.rawCodes = [code, mach["subcode"]?.number?.uint64 ?? 0]
      if exception.type == "EXC_BAD_ACCESS", let codeName = KSCrashReader.badAccessCodeNames[code] {
        let address = ThirdPartyJSON.address(mechanism?["data"]?["relevant_address"])
        exception.subtype = address.map { codeName + " at 0x" + KSCrashReader.hex16($0) } ?? codeName
      }
    }
    exception.signal = mechanism?["meta"]?["signal"]?["name"]?.string
    if exception.type != nil || exception.signal != nil { report.exception = exception }
    if mechanism?["type"]?.string == "nsexception" {
      var language = ExceptionReason(name: type, composedMessage: value)
      language.type = "objc-exception"
      language.className = "NSException"
      report.exceptionReason = language
      // The exception's own stack is where it was thrown.
      let thrown = frames(entry["stacktrace"], imageAt: imageAt)
      if !thrown.isEmpty { report.lastExceptionBacktrace = thrown }
    }
  }
}
