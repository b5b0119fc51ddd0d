import IPSDoctorSupport

/// A system watchdog report (bug_type 409): a system service stopped checking in.
package struct SystemWatchdogReportRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "system-watchdog",
    title: "System Watchdog Report",
    summary:
      "A system watchdog report (bug_type 409) records a system service that stopped responding; it is not an app crash.",
    category: .otherReports,
    severity: .note,
    tier: .family,
    rationale: """
      bug_type 409 reports come from the system's userspace watchdog, which restarts or reports \
      system services (for example WindowServer or a daemon) that stop checking in. They \
      describe the system's health, not a crash of an app.
      """,
    remedy: """
      Nothing to fix in the app. If the reports recur, install OS updates and file a Feedback \
      report with the file attached.
      """,
    references: ["https://developer.apple.com/documentation/xcode/interpreting-the-json-format-of-a-crash-report"],
    examples: [
      .triggers(
        "watchdog report",
        .systemWatchdog(
          process: "WindowServer", event: "userspace watchdog timeout",
          reason: "no successful checkins from com.apple.WindowServer in 120 seconds"),
        .definite, summaryContains: ["WindowServer", "no successful checkins"]),
      .ignores(
        "a stackshot",
        .stackshot(reason: "hang")),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .watchdog else { return nil }
    var evidence: [Evidence] = [Evidence("bug_type", context.report.bugType?.rawValue ?? "409")]
    var summary = "This is a system watchdog report (bug_type 409), not an app crash."
    if let name = context.report.processName {
      summary += " Process: \(CodeSpan.markdown(name))."
      evidence.append(Evidence("procName", name))
    }
    let resource = context.report.resource
    for key in ["event", "reason", "description"] {
      if let value = resource?[key] {
        summary += " \(key.prefix(1).uppercased() + key.dropFirst()): \"\(value)\"."
        evidence.append(Evidence(key, value))
      }
    }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }
}
