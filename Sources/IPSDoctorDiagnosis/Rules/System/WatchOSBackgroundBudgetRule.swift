import IPSDoctorSupport

/// `0xc51bad01` / `0xc51bad02` / `0xc51bad03`: a watchOS app exceeded its background budget.
package struct WatchOSBackgroundBudgetRule: DiagnosisRule {
  package init() {}

  static let kinds: [UInt64: String] = [
    0xc51bad01: "it used too much CPU time while running a background task",
    0xc51bad02: "it did not finish a background task within the allotted time",
    0xc51bad03:
      "it did not finish a background task within the allotted time while the system was busy; the system, not only the app, was short of time",
  ]

  /// The codes of `kinds`, inline (see `TerminationCodes`; a test checks they are the keys).
  static let codes = TerminationCodes(0xc51bad01, 0xc51bad02, 0xc51bad03)

  package static let description = RuleDescription(
    id: "watchos-background-budget",
    title: "Background Budget Exceeded On watchOS",
    summary: "The system killed a watchOS app that exceeded its background CPU or time budget.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    rationale: """
      watchOS kills apps whose background tasks overrun: `0xc51bad01` (too much CPU time in a \
      background task), `0xc51bad02` (a background task did not complete in time) and \
      `0xc51bad03` (did not complete in time, and the system was busy overall — less likely to \
      be the app's fault).
      """,
    remedy: """
      Do less per background refresh: fetch only what the complication or snapshot needs, \
      defer heavy processing to the iPhone or to when the app is active, and call \
      `setTaskCompletedWithSnapshot(_:)` on every `WKRefreshBackgroundTask` as soon as the work \
      is done.
      """,
    references: ["https://developer.apple.com/documentation/xcode/sigkill"],
    examples: [
      .triggers(
        "background CPU budget",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "CAROUSEL", code: 0xc51bad01),
          threads: [.main(ExampleReport.idleMainThread)]),
        .definite, summaryContains: ["0xc51bad01", "CPU time"]),
      .triggers(
        "system busy (warning)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "CAROUSEL", code: 0xc51bad03),
          threads: [.main(ExampleReport.idleMainThread)]),
        .definite, summaryContains: ["0xc51bad03", "system was busy"]),
      .ignores(
        "iOS background task (0x2182bad2)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "RUNNINGBOARD", code: 0x2182bad2),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes), let what = Self.kinds[match.code]
    else { return nil }
    return finding(
      confidence: .definite, summary: context.killedSentence(match) + ": " + what + ".",
      evidence: [match.evidence], severity: match.code == 0xc51bad03 ? .warning : .error)
  }
}
