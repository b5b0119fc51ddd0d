import IPSDoctorSupport

/// `0x2182bad2` / `0x2182bad3` / `0x2182bad4`: a background task, background URL session or
/// background fetch did not complete in time.
package struct BackgroundTaskTimeoutRule: DiagnosisRule {
  package init() {}

  static let kinds: [UInt64: (what: String, fix: String)] = [
    0x2182bad2: (
      "a background task did not complete in time",
      "End every `beginBackgroundTask` with `endBackgroundTask(_:)` (also in its expiration handler), and for `BGTaskScheduler` tasks call `setTaskCompleted(success:)` on every path, including from `expirationHandler`."
    ),
    0x2182bad3: (
      "a background URL session's events were not finished in time",
      "Keep the completion handler passed to `application(_:handleEventsForBackgroundURLSession:completionHandler:)` and call it on the main thread from `urlSessionDidFinishEvents(forBackgroundURLSession:)`, after processing the session's events quickly."
    ),
    0x2182bad4: (
      "a background fetch did not complete in time",
      "Call the background-fetch completion handler (or `BGAppRefreshTask.setTaskCompleted(success:)`) within about 30 seconds, on every path, and stop work in the task's `expirationHandler`."
    ),
  ]

  /// The codes of `kinds`, inline (see `TerminationCodes`; a test checks they are the keys).
  static let codes = TerminationCodes(0x2182bad2, 0x2182bad3, 0x2182bad4)

  package static let description = RuleDescription(
    id: "background-task-timeout",
    title: "Background Task Timed Out",
    summary: "The system killed the app because a background task, URL session or fetch did not finish in time.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    rationale: """
      Apple documents three termination codes for background work that overruns its time: \
      `0x2182bad2` (a background task failed to complete in time), `0x2182bad3` (a background \
      URL session failed to complete in time) and `0x2182bad4` (a background fetch failed to \
      complete in time). The app asked for background time and did not tell the system it had \
      finished before the time ran out.
      """,
    remedy: """
      Report completion on every path and stop work when the expiration handler runs:

      ```swift
      BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
        let operation = RefreshOperation()
        task.expirationHandler = { operation.cancel() }
        operation.completionBlock = { task.setTaskCompleted(success: !operation.isCancelled) }
        queue.addOperation(operation)
      }
      ```
      """,
    references: ["https://developer.apple.com/documentation/xcode/sigkill"],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes), let kind = Self.kinds[match.code]
    else { return nil }
    var evidence = [match.evidence]
    var summary = context.killedSentence(match) + ": " + kind.what + "."
    if let text = context.quotedTerminationDescription() {
      summary += " The termination description reads \(text)."
      if let first = context.terminationTexts.first, first.path != match.evidence.path {
        evidence.append(Evidence(first.path, first.text))
      }
    }
    return finding(
      confidence: .definite, summary: summary, evidence: evidence,
      remedy: kind.fix + "\n\n" + Self.description.remedy)
  }

  static let examples: [RuleExample] = [
    .triggers(
      "background URL session overran",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "RUNNINGBOARD", code: 0x2182bad3),
        threads: [.main(ExampleReport.idleMainThread)]),
      .definite, summaryContains: ["0x2182bad3", "background URL session"]),
    .triggers(
      "background task overran",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "RUNNINGBOARD", code: 0x2182bad2),
        threads: [.main(ExampleReport.idleMainThread)]),
      .definite, summaryContains: ["0x2182bad2", "background task"]),
    .ignores(
      "file lock at suspension (0xdead10cc)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "RUNNINGBOARD", code: 0xdead10cc),
        threads: [.main(ExampleReport.idleMainThread)])),
  ]
}
