import IPSDoctorReport
import IPSDoctorSupport

/// Which process of a jetsam event (bug_type 298) the report is about, and how much memory the
/// processes used.
struct JetsamAnalysis: Sendable {
  struct Entry: Sendable {
    var index: Int
    var process: JetsamSummary.Process
    var path: String { "processes[\(index)]" }
  }

  /// Reasons that mean the process crossed its own memory limit.
  static let limitReasons: Set<String> = ["per-process-limit", "highwater"]

  /// Kill reasons of memory pressure on the whole system (xnu's kill causes): the process was
  /// chosen to free memory for others, not for crossing its own limit.
  static let systemPressureReasons: Set<String> = [
    "vm-pageshortage", "vm-thrashing", "proc-thrashing", "fc-thrashing", "zone-map-exhaustion",
    "vm-compressor-thrashing", "vm-compressor-space-shortage", "low-swap", "lowswap",
    "sustained-memory-pressure", "vm-pageout-starvation", "vnode-limit", "disk-space-shortage",
    "idle-exit", "long-idle-exit",
  ]

  /// The kill reason a crash report's `JETSAM` termination names as the first word of its
  /// indicator or of one of its reasons ("vm-pageshortage 512000KB"), when it is one of
  /// ``limitReasons`` or ``systemPressureReasons``.
  static func terminationReason(_ termination: Termination?) -> (reason: String, path: String)? {
    guard let termination, termination.namespace == "JETSAM" else { return nil }
    var texts: [(String, String)] = []
    if let indicator = termination.indicator { texts.append((indicator, "termination.indicator")) }
    for (index, reason) in termination.reasons.enumerated() { texts.append((reason, "termination.reasons[\(index)]")) }
    for (text, path) in texts {
      guard let word = text.split(separator: " ").first.map(String.init) else { continue }
      if limitReasons.contains(word) || systemPressureReasons.contains(word) { return (word, path) }
    }
    return nil
  }

  /// Well-known system processes (a highwater kill of one of them is not the app's limit).
  static let systemProcesses: Set<String> = [
    "SpringBoard", "backboardd", "mediaserverd", "assertiond", "locationd", "kernel_task", "launchd",
    "configd", "powerd", "wifid", "bluetoothd", "searchd", "mds", "cloudd", "nsurlsessiond",
    "mediaanalysisd", "photoanalysisd", "assetsd", "itunesstored", "dasd", "runningboardd",
    "WindowServer", "coreduetd", "healthd", "CommCenter", "imagent", "apsd", "suggestd",
  ]

  var jetsam: JetsamSummary
  /// Names the report's header gives for the app, if any.
  var appNames: Set<String>
  /// The process killed for crossing its own limit (the app's, when the header names it).
  var limitKill: Entry?

  init?(_ context: borrowing DiagnosisContext) {
    guard let jetsam = context.report.jetsam else { return nil }
    self.jetsam = jetsam
    var names = Set<String>()
    for name in [context.report.header.appName, context.report.header.name, context.report.processName] {
      if let name, !name.isEmpty { names.insert(name) }
    }
    if let bundle = context.report.header.bundleID ?? context.report.bundleID,
      let last = bundle.split(separator: ".").last
    {
      names.insert(String(last))
    }
    appNames = names
    // The first limit kill (of the app, when the header names it).
    for (index, process) in jetsam.processes.enumerated() {
      guard let reason = process.reason, Self.limitReasons.contains(reason) else { continue }
      if reason == "highwater" && Self.isSystem(process) { continue }
      if !names.isEmpty && !(process.name.map { Self.matches($0, names) } ?? false) { continue }
      limitKill = Entry(index: index, process: process)
      break
    }
  }

  static func isSystem(_ process: JetsamSummary.Process) -> Bool {
    if process.states.contains("daemon") { return true }
    return process.name.map { systemProcesses.contains($0) } ?? false
  }

  /// Jetsam truncates names to 16 or 32 characters: compare by prefix.
  static func matches(_ processName: String, _ names: Set<String>) -> Bool {
    names.contains { $0 == processName || ($0.hasPrefix(processName) && processName.count >= 15) }
  }

  /// The app's own entry, when the header names the app.
  var appEntry: Entry? {
    guard !appNames.isEmpty else { return nil }
    return jetsam.processes.enumerated().first(where: { item in
      item.element.name.map { Self.matches($0, appNames) } ?? false
    }).map { Entry(index: $0.offset, process: $0.element) }
  }

  /// "240.0 MB", from rpages × pageSize.
  func footprint(_ process: JetsamSummary.Process) -> String? {
    guard let bytes = jetsam.residentBytes(process) else { return nil }
    return Self.megabytes(bytes)
  }

  /// "240.0 MB": `bytes` in mebibytes, rounded to a tenth. The whole mebibytes and the rest are
  /// scaled apart, so that any `UInt64` (a page count times a page size from the file) fits.
  static func megabytes(_ bytes: UInt64) -> String {
    let tenths = bytes / 1_048_576 * 10 + (bytes % 1_048_576 * 10 + 524_288) / 1_048_576
    return "\(tenths / 10).\(tenths % 10) MB"
  }

  /// "`name` (pid 12, 240.0 MB)"
  func describe(_ process: JetsamSummary.Process) -> String {
    var details: [String] = []
    if let pid = process.pid { details.append("pid \(pid)") }
    if let bytes = jetsam.residentBytes(process) { details.append(Self.megabytes(bytes)) }
    if let reason = process.reason, !reason.isEmpty { details.append(CodeSpan.markdown(reason)) }
    let name = CodeSpan.markdown(process.name.flatMap { $0.isEmpty ? nil : $0 } ?? "unnamed")
    return details.isEmpty ? name : name + " (" + details.joined(separator: ", ") + ")"
  }
}
