import IPSDoctorReport
import IPSDoctorSupport

/// `0xd00d2bad`: the app used too many of a key system resource.
package struct SystemResourcesExhaustedRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "system-resources-exhausted",
    title: "Excessive System Resource Use",
    summary: "The system killed the app (0xd00d2bad) for excessive use of key system resources.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    rationale: """
      Termination code `0xd00d2bad` means the system killed the app because it used too many of \
      a key system resource (Apple's SIGKILL documentation) — for example threads, file \
      descriptors, Mach ports or kernel objects created without bound.
      """,
    remedy: """
      Look for unbounded creation of system objects: threads (`Thread`, many concurrent \
      `DispatchQueue`s blocked at once), file handles or sockets that are never closed, timers, \
      observers. Limit parallelism (an `OperationQueue` with `maxConcurrentOperationCount`, a \
      `TaskGroup` with a bounded number of children) and close resources deterministically.
      """,
    references: ["https://developer.apple.com/documentation/xcode/sigkill"],
    examples: [
      .triggers(
        "0xd00d2bad",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "RUNNINGBOARD", code: 0xd00d2bad),
          threads: [.main(ExampleReport.idleMainThread)]),
        .definite, summaryContains: ["0xd00d2bad"]),
      .ignores(
        "disk space reclaim",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "SPRINGBOARD", code: 0xbaddd15c),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  /// Inline (see `TerminationCodes`).
  static let codes = TerminationCodes(0xd00d2bad)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    var summary = context.killedSentence(match) + " for excessive use of key system resources."
    if context.report.threads.count > 64 {
      summary += " The report lists \(context.report.threads.count) threads, which suggests unbounded thread creation."
    }
    if let text = context.quotedTerminationDescription() { summary += " The termination description reads \(text)." }
    return finding(confidence: .definite, summary: summary, evidence: [match.evidence])
  }
}
