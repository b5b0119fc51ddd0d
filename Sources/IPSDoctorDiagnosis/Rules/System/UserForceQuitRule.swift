import IPSDoctorReport
import IPSDoctorSupport

/// `0xdeadfa11` ("dead fall"): the user force-quit the app.
package struct UserForceQuitRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "user-force-quit",
    title: "User Force Quit",
    summary: "The user force-quit the app (0xdeadfa11); this is not a crash.",
    category: .systemTermination,
    severity: .warning,
    tier: .specific,
    rationale: """
      Termination code `0xdeadfa11` ("dead fall") was written when the user force-quit an app \
      that had stopped responding, by holding the power button and then the Home button \
      (Technical Note TN2151). It is not in Apple's current list of SIGKILL codes. The app was \
      probably unresponsive, so look at the main thread: it may show a hang worth fixing.
      """,
    remedy: """
      Nothing crashed. If the main thread in the report is blocked (waiting on a lock, a \
      semaphore or synchronous I/O), treat it like a hang and move that work off the main \
      thread.
      """,
    references: ["https://developer.apple.com/library/archive/technotes/tn2151/_index.html"],
    examples: [
      .triggers(
        "0xdeadfa11",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "SPRINGBOARD", code: 0xdeadfa11),
          threads: [.main(ExampleReport.blockedMainThread)]),
        .likely, summaryContains: ["0xdeadfa11", "semaphore_wait_trap"]),
      .ignores(
        "watchdog timeout",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0x8badf00d),
          threads: [.main(ExampleReport.blockedMainThread)])),
    ])

  /// Inline (see `TerminationCodes`).
  static let codes = TerminationCodes(0xdeadfa11)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    var evidence = [match.evidence]
    var summary =
      context.killedSentence(match, by: "The user")
      + " (force quit, usually because the app stopped responding). This is not a crash."
    if let thread = context.mainOrFirstThread {
      let frames = context.topFrames(of: thread, limit: 3)
      if !frames.isEmpty {
        summary += " The main thread was in " + DiagnosisContext.frameList(frames) + "."
        evidence += frames
      }
    }
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }
}
