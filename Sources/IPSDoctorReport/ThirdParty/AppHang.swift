/// An app hang a crash reporter recorded (Sentry's `App Hanging`, Bugsnag's `App Hang`): a
/// resource report measuring the hang, its stack the main thread's.
enum AppHang {
  /// Makes `report` a hang: its duration read from the reporter's message ("App hanging for at
  /// least 2000 ms.", "… within 2000 milliseconds"), the crashed (or main, or only) thread taken
  /// for the main thread. A fatal hang ended the app; any other did not.
  static func read(label: String?, message: String?, fatal: Bool, into report: inout CrashReport) {
    report.kind = .resource
    report.exception = nil
    report.exceptionReason = nil
    report.lastExceptionBacktrace = nil
    report.isNonFatal = !fatal
    var summary = ResourceSummary()
    summary.measure = .hang
    var duration: String?
    if let message, let range = message.firstRange(of: " for ") ?? message.firstRange(of: " within ") {
      var text = message[range.upperBound...].trimmingWhitespace()
      if text.hasSuffix(".") { text.removeLast() }
      if !text.isEmpty { duration = text }
    }
    summary.event = duration.map { "hang (" + $0 + ")" } ?? "hang"
    if let duration { summary.fields.append(.init(key: "hangDuration", value: duration)) }
    if let label { summary.fields.append(.init(key: "type", value: label)) }
    if let message { summary.fields.append(.init(key: "message", value: message)) }
    report.resource = summary
    let main =
      report.threads.firstIndex(where: \.triggered) ?? report.threads.firstIndex(where: \.isMainThread)
      ?? (report.threads.count == 1 ? 0 : nil)
    if let main {
      report.threads[main].triggered = false
      if report.threads[main].queue == nil && report.threads[main].name == nil {
        report.threads[main].queue = "com.apple.main-thread"
      }
    }
    report.faultingThread = main
  }
}
