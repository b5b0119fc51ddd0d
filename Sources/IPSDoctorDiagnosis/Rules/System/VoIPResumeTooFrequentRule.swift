import IPSDoctorReport
import IPSDoctorSupport

/// `0xbad22222`: a VoIP app was resumed too often.
package struct VoIPResumeTooFrequentRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "voip-resume-too-frequent",
    title: "VoIP App Resumed Too Frequently",
    summary: "The system killed a VoIP app (0xbad22222) because it was resumed too frequently.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    rationale: """
      Termination code `0xbad22222` means the system killed a VoIP app for resuming too often \
      (Apple's SIGKILL documentation). Older VoIP apps kept sockets open with keep-alive \
      handlers and woke the app repeatedly; the system limits how often that may happen.
      """,
    remedy: """
      Use PushKit VoIP pushes (reported to CallKit) instead of keep-alive sockets and timers, and \
      do not schedule background wake-ups more often than needed. Check code that reconnects \
      network sockets every time the app is resumed.
      """,
    references: ["https://developer.apple.com/documentation/xcode/sigkill"],
    examples: [
      .triggers(
        "termination code 0xbad22222",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "SPRINGBOARD", code: 0xbad22222),
          threads: [.main(ExampleReport.idleMainThread)]),
        .definite, summaryContains: ["0xbad22222"]),
      .ignores(
        "VoIP push not reported (0xbaadca11)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0xbaadca11),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  /// Inline (see `TerminationCodes`).
  static let codes = TerminationCodes(0xbad22222)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    return finding(
      confidence: .definite,
      summary: context.killedSentence(match) + ": the VoIP app was resumed too frequently.",
      evidence: [match.evidence])
  }
}
