import IPSDoctorSupport

/// `EXC_CRASH (SIGTERM)`, `(SIGQUIT)`, `(SIGHUP)` or `(SIGINT)`: another process asked the app to
/// quit.
package struct TerminatedBySignalRule: DiagnosisRule {
  package init() {}

  static let signals: [String: String] = [
    "SIGTERM":
      "a termination request (`SIGTERM`), as sent by launchd, RunningBoard or `kill` when a process should quit",
    "SIGQUIT":
      "a quit request (`SIGQUIT`), which the system sends to processes that must stop — for example an extension or a process its manager gave up on",
    "SIGHUP": "a hang-up (`SIGHUP`), sent when the controlling terminal or session ended",
    "SIGINT": "an interrupt (`SIGINT`), as sent by Control-C in a terminal or a debugger",
  ]

  package static let description = RuleDescription(
    id: "terminated-by-signal",
    title: "Terminated By Another Process",
    summary: "Another process asked the app to quit with a termination signal (SIGTERM, SIGQUIT, SIGHUP or SIGINT).",
    category: .systemTermination,
    severity: .warning,
    tier: .family,
    outranks: [ProtectionFailureRule.self],
    rationale: """
      `EXC_CRASH` with `SIGTERM`, `SIGQUIT`, `SIGHUP` or `SIGINT` means the process received a \
      signal from another process rather than faulting. On iOS this usually means the system \
      (launchd, RunningBoard) stopped the process — during an app update, a device restart, or \
      because a manager process gave up on it; on macOS, the user, a script or a parent process \
      may have sent it. The termination's `byProc` names the sender when recorded.
      """,
    remedy: """
      Usually nothing to fix. If the app should clean up on such a request, handle it (for \
      example with `DispatchSource.makeSignalSource(signal: SIGTERM)` after ignoring the default \
      action) and exit promptly. If the report recurs, find out which process sends the signal \
      (the termination's "by" process) and why.
      """,
    references: ["https://developer.apple.com/documentation/xcode/understanding-the-exception-types-in-a-crash-report"],
    examples: [
      .triggers(
        "SIGTERM from launchd",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGTERM"),
          termination: ExampleReport.Termination(
            namespace: "SIGNAL", code: 15, indicator: "Terminated: 15", byProcess: "launchd", byPID: 1),
          threads: [.main(ExampleReport.idleMainThread)]),
        .likely, summaryContains: ["SIGTERM", "`launchd`"]),
      .ignores(
        "SIGQUIT in an extension (extension-launch-hang)",
        ExampleReport(
          processPath: "/private/var/containers/Bundle/Application/0C7E/Example.app/PlugIns/Keyboard.appex/Keyboard",
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGQUIT"),
          threads: [.main(ExampleReport.idleMainThread)])),
      .ignores(
        "SIGKILL from the watchdog",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0x8badf00d),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let signal = context.report.exception?.signal,
      let name = Self.signals.keys.first(where: { signal.hasPrefix($0) }), let meaning = Self.signals[name]
    else { return nil }
    if name == "SIGQUIT", context.processIsAppExtension { return nil }
    if context.report.exception?.subtype?.contains("LAUNCH_HANG") == true { return nil }
    var evidence = [Evidence("exception.signal", signal)]
    var summary = "\(context.processDisplayName) did not crash: it received \(meaning)."
    if let termination = context.report.termination, let sender = termination.byProc {
      summary +=
        " The signal came from \(CodeSpan.markdown(sender))" + (termination.byPid.map { " (pid \($0))" } ?? "") + "."
      evidence.append(Evidence("termination.byProc", sender))
    }
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }
}
