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
    if isAppHang(type: type, mechanism: mechanism?["type"]?.string) {
      if report.threads.isEmpty {
        // The hang's stack is the main thread's.
        report.threads = [CrashThread(index: 0, frames: frames(entry["stacktrace"], imageAt: imageAt))]
      }
      AppHang.read(label: type, message: value, fatal: type?.hasPrefix("Fatal") ?? false, into: &report)
      return
    }
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

  /// Sentry's app hang events: mechanism `AppHang`, type `App Hanging` or `App Hang Fully Blocked`,
  /// `App Hang Non Fully Blocked`, `Fatal App Hang …`.
  static func isAppHang(type: String?, mechanism: String?) -> Bool {
    if mechanism == "AppHang" { return true }
    guard let type else { return false }
    return type == "App Hanging" || type.hasPrefix("App Hang ") || type.hasPrefix("Fatal App Hang")
  }

  /// The exception of a report that has only its type and value (Sentry's raw text): a Mach
  /// exception ("EXC_BAD_ACCESS: Exception 1, Code 1, Subcode 16", sentry-cocoa's wording), a
  /// signal ("SIGABRT: Signal 6, Code 0"), an app hang, or an exception's name and reason.
  static func readException(type: String?, value: String?, into report: inout CrashReport) {
    guard let type else { return }
    if isAppHang(type: type, mechanism: nil) {
      AppHang.read(label: type, message: value, fatal: type.hasPrefix("Fatal"), into: &report)
      return
    }
    let words = (value ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
    func number(after label: String) -> UInt64? {
      guard let index = words.firstIndex(of: label), index + 1 < words.count else { return nil }
      let word = words[index + 1]
      return word.hasPrefix("0x") ? UInt64(word.dropFirst(2), radix: 16) : UInt64(word)
    }
    if type.hasPrefix("EXC_") {
      var exception = ExceptionInfo(type: type)
      if let code = number(after: "Code") {
        let subcode = number(after: "Subcode") ?? 0
        exception.rawCodes = [code, subcode]
        exception.codes = "0x" + KSCrashReader.hex16(code) + ", 0x" + KSCrashReader.hex16(subcode)
        if type == "EXC_BAD_ACCESS", let name = KSCrashReader.badAccessCodeNames[code] {
          exception.subtype = name + " at 0x" + KSCrashReader.hex16(subcode)
        }
      } else if let value, value.hasPrefix("KERN_") {
        exception.subtype = value
      }
      report.exception = exception
    } else if type.hasPrefix("SIG"), type.allSatisfy({ $0.isUppercase || $0.isNumber }) {
      report.exception = ExceptionInfo(signal: type)
    } else if !type.contains(" ") {
      var language = ExceptionReason(name: type, composedMessage: value)
      // "NSInvalidArgumentException", "NSRangeException": an Objective-C exception's name.
      if type.hasSuffix("Exception") {
        language.type = "objc-exception"
        language.className = "NSException"
      }
      report.exceptionReason = language
    }
  }
}
