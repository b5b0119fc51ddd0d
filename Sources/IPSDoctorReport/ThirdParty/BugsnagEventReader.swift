import IPSDoctorJSON
import IPSDoctorSupport

/// Reads a Bugsnag event payload: `exceptions[]` (`errorClass`, `message`, `stacktrace`),
/// `threads[]`, `app`, `device`, `unhandled`, `severityReason`; a delivery payload's `events[]`
/// holds them (the first is read). Frames name their Mach-O file, UUID and load address, which
/// become the report's images.
///
/// A handled error (`unhandled: false`, a JavaScript promise rejection reported as handled) is
/// named as such, not diagnosed as a crash; an app hang (`App Hang`, `Fatal App Hang`) is a hang.
enum BugsnagEventReader {
  static func isEvent(_ root: JSONNode) -> Bool {
    guard root.kind == .object else { return false }
    if let event = ThirdPartyJSON.first(root["events"]) { return isEvent(event) }
    return root["exceptions"]?.kind == .array && (root["unhandled"] != nil || root["severityReason"] != nil)
  }

  static func read(_ root: JSONNode) -> Result<CrashReport, ReportError> {
    var event = root
    var report = CrashReport(format: .json, kind: .crash)
    if let events = root["events"], let first = ThirdPartyJSON.first(events) {
      event = first
      if events.count > 1 {
        report.warnings.append(
          ReportWarning(location: "events", message: "read the first of \(events.count) events"))
      }
    }
    report.source = .bugsnag
    readHeader(event, into: &report)
    var images: [String: Int] = [:]
    if let threads = event["threads"], threads.kind == .array {
      for (position, entry) in threads.elements.enumerated() where entry.kind == .object {
        let id = entry["id"]?.string.flatMap { Int($0) } ?? entry["id"]?.number?.int
        var thread = CrashThread(index: id ?? position)
        if let name = entry["name"]?.string, !name.isEmpty { thread.name = name }
        thread.triggered = entry["errorReportingThread"]?.kind == .true
        thread.frames = frames(entry["stacktrace"], images: &images, report: &report)
        report.threads.append(thread)
      }
      report.faultingThread = report.threads.firstIndex(where: \.triggered)
    }
    let exceptions = event["exceptions"]
    let first = ThirdPartyJSON.first(exceptions)
    let errorClass = first?["errorClass"]?.string
    let message = first?["message"]?.string
    if errorClass == "App Hang" || errorClass == "Fatal App Hang"
      || event["severityReason"]?["type"]?.string == "appHang"
    {
      if report.threads.isEmpty {
        report.threads = [CrashThread(index: 0, frames: frames(first?["stacktrace"], images: &images, report: &report))]
      }
      AppHang.read(
        label: errorClass, message: message, fatal: event["unhandled"]?.kind == .true, into: &report)
      report.missing = report.missingParts()
      return .success(report)
    }
    if event["unhandled"]?.kind != .true {
      report.kind = .unknown
      report.isNonFatal = true
      let what = [errorClass, message].compactMap { $0 }.joined(separator: ": ")
      report.warnings.append(
        ReportWarning(location: "unhandled", message: "a handled error the app reported, not a crash: " + what))
      report.missing = report.missingParts()
      return .success(report)
    }
    let error = event["metaData"]?["error"]
    if error?["type"]?.string == "nsexception" || error?["nsexception"] != nil {
      var language = ExceptionReason(name: errorClass, composedMessage: message)
      language.type = "objc-exception"
      language.className = "NSException"
      report.exceptionReason = language
      let thrown = frames(first?["stacktrace"], images: &images, report: &report)
      if !thrown.isEmpty { report.lastExceptionBacktrace = thrown }
    }
    if let signal = error?["signal"]?["name"]?.string {
      var exception = report.exception ?? ExceptionInfo()
      exception.signal = signal
      report.exception = exception
    }
    if let mach = error?["mach"], let name = mach["exception_name"]?.string {
      var exception = report.exception ?? ExceptionInfo()
      exception.type = name
      report.exception = exception
    }
    report.missing = report.missingParts()
    return .success(report)
  }

  static func readHeader(_ event: JSONNode, into report: inout CrashReport) {
    let app = event["app"]
    let device = event["device"]
    report.bundleID = app?["id"]?.string
    report.appVersion = app?["version"]?.string
    report.buildVersion = app?["bundleVersion"]?.string
    report.processName = event["metaData"]?["app"]?["name"]?.string
    if let name = device?["osName"]?.string {
      let version = device?["osVersion"]?.string
      report.osVersion = OSVersion(
        train: version.map { name + " " + $0 } ?? name, build: device?["runtimeVersions"]?["osBuild"]?.string)
    }
    report.modelCode = device?["model"]?.string
    report.cpuType = app?["binaryArch"]?.string
    report.captureTime = device?["time"]?.string
  }

  /// The frames of a stack trace, adding each Mach-O file they name to the report's images.
  static func frames(_ list: JSONNode?, images: inout [String: Int], report: inout CrashReport) -> [Frame] {
    guard let list, list.kind == .array else { return [] }
    var frames: [Frame] = []
    frames.reserveCapacity(list.count)
    for entry in list.elements where entry.kind == .object {
      let address = ThirdPartyJSON.address(entry["frameAddress"])
      let load = ThirdPartyJSON.address(entry["machoLoadAddress"])
      let path = entry["machoFile"]?.string
      var index: Int?
      if let path {
        if let known = images[path] {
          index = known
        } else {
          let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
          report.images.append(BinaryImage(name: name, path: path, uuid: entry["machoUUID"]?.string, base: load))
          index = report.images.count - 1
          images[path] = index
        }
      }
      let symbol = entry["method"]?.string
      frames.append(
        Frame(
          imageIndex: index, imageOffset: ThirdPartyJSON.difference(address, load), symbol: symbol,
          symbolLocation: symbol == nil
            ? nil : ThirdPartyJSON.difference(address, ThirdPartyJSON.address(entry["symbolAddress"])),
          imageName: index.map { report.images[$0].name } ?? nil, address: address))
    }
    return frames
  }
}
