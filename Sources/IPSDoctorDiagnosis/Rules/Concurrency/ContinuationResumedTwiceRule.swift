import IPSDoctorSupport

/// A `CheckedContinuation` resumed a second time: "SWIFT TASK CONTINUATION MISUSE: f() tried to
/// resume its continuation more than once".
package struct ContinuationResumedTwiceRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "continuation-resumed-twice",
    title: "Checked Continuation Resumed More Than Once",
    summary: "A CheckedContinuation was resumed a second time, which the Swift runtime treats as a fatal error.",
    category: .concurrency,
    severity: .error,
    tier: .exact,
    rationale: """
      `withCheckedContinuation` / `withCheckedThrowingContinuation` hand the app a continuation that \
      must be resumed exactly once. A second `resume(returning:)` or `resume(throwing:)` is a fatal \
      error: "SWIFT TASK CONTINUATION MISUSE: <function> tried to resume its continuation more than \
      once, returning …!" (swiftlang/swift stdlib/public/Concurrency/CheckedContinuation.swift). \
      The function named in the message is the one that created the continuation.

      Typical causes: a delegate callback that fires repeatedly (`locationManager(_:didUpdateLocations:)`, \
      progress callbacks, `URLSession` delegate events) resuming the same stored continuation; a \
      completion-based API that calls its handler twice (success then failure, or once per item); a \
      timeout path and a result path both resuming. (The opposite misuse, never resuming, is only \
      logged — "leaked its continuation" — and hangs the task instead of crashing.)
      """,
    remedy: """
      Resume exactly once. Store the continuation in an optional and clear it when you resume \
      (`continuation?.resume(…); continuation = nil`), on the same actor or under a lock, so every \
      later callback finds nothing to resume. For callbacks that keep firing, use an \
      `AsyncStream` instead of a continuation.
      """,
    references: [
      "https://developer.apple.com/documentation/swift/checkedcontinuation",
      "https://github.com/swiftlang/swift/blob/main/stdlib/public/Concurrency/CheckedContinuation.swift",
    ],
    examples: Examples.all)

  static let marker = "SWIFT TASK CONTINUATION MISUSE"
  static let twice = "tried to resume its continuation more than once"

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let text = context.reasonText(containing: Self.twice),
      text.detail.contains(Self.marker)
    else { return nil }
    var evidence = [text]
    let function = SymbolText.between(text.detail, Self.marker + ": ", " " + Self.twice)
    let outcome: String? =
      text.detail.contains("more than once, throwing")
      ? "throwing" : text.detail.contains("more than once, returning") ? "returning" : nil

    // The app frame that called resume the second time: the first app frame below the
    // `CheckedContinuation.resume…` frame on the crashed thread.
    var caller: DiagnosisContext.AppFrame?
    if let backtrace = context.crashedBacktrace {
      let resume = context.firstFrame(in: backtrace, containing: "Continuation.resume")
      if let resume { evidence.append(resume.evidence) }
      caller = context.appFrame(in: backtrace, from: (resume?.index ?? -1) + 1)
    }
    if let caller { evidence.append(caller.evidence) }
    if let queue = context.crashedQueueEvidence { evidence.append(queue) }

    var summary = "The Swift runtime stopped the app because the checked continuation created in "
    summary += function.map { "\(CodeSpan.markdown($0))" } ?? "a function of the app"
    summary += " was resumed a second time"
    if let outcome { summary += ", with `resume(\(outcome):)`" }
    summary += " (\(text.path))."
    if let caller {
      summary += " The second resume came from \(caller.quotedName) (\(caller.evidence.path))"
      if let thread = context.crashedThread { summary += " on \(context.threadDescription(thread))" }
      summary += "."
      if let name = caller.name,
        name.contains("didUpdate") || name.contains("delegate")
          || name.contains("Delegate")
      {
        summary += " A delegate callback that can fire more than once is resuming the same continuation."
      }
    }
    return finding(
      confidence: .definite, summary: summary, evidence: evidence,
      remedy: remedy(function: function, caller: caller?.name),
      verification: [
        "A unit test that fires the callback twice (and the error path after the success path) and checks the awaiting call returns once without trapping."
      ])
  }

  private func remedy(function: String?, caller: String?) -> String {
    var text = Self.description.remedy + "\n\n"
    let owner = caller.flatMap { SymbolText.typeName(ofFunction: SymbolText.enclosingFunction($0)) }
    let site = caller.map { "\(CodeSpan.markdown(SymbolText.enclosingFunction($0)))" } ?? "the callback"
    let made = function.map { "\(CodeSpan.markdown($0))" } ?? "the function that creates the continuation"
    text +=
      "Keep the continuation that \(made) creates in one place and hand it out once; in \(site), take it before resuming:\n\n"
    text += """
      ```swift
      \(owner.map { "extension \($0) {" } ?? "// In the type that owns the continuation:")
        // var continuation: CheckedContinuation<Value, Error>?  (set by \(function ?? "the async function"))
        // Call this from \(RuleText.removingBackticks(site)) instead of resuming directly.
        func finish(with result: Result<Value, Error>) {
          guard let continuation else { return }  // already resumed: ignore later callbacks
          self.continuation = nil
          continuation.resume(with: result)
        }
      \(owner == nil ? "" : "}")
      ```
      """
    return text
  }
}

extension ContinuationResumedTwiceRule {
  enum Examples {
    /// A Swift runtime trap with `message`, raised from `CheckedContinuation.resume(returning:)`
    /// when `resumeFrame`, in the app's location delegate.
    static func report(_ message: String, resumeFrame: Bool = true) -> ExampleReport {
      let resume: [ExampleReport.Frame] =
        resumeFrame ? [.frame(.libswiftConcurrency, "CheckedContinuation.resume(returning:)")] : []
      return ExampleReport(
        exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"), asi: ["libswiftCore.dylib": [message]],
        threads: [
          .main(
            [.frame(.libswiftConcurrency, "_assertionFailure(_:_:file:line:flags:)")] + resume + [
              .frame(.app, "LocationProvider.locationManager(_:didUpdateLocations:)"),
              .frame(.app, "@objc LocationProvider.locationManager(_:didUpdateLocations:)"),
            ])
        ])
    }

    static let all: [RuleExample] = [
      .triggers(
        "a location callback resumes the continuation again",
        report(
          "_Concurrency/CheckedContinuation.swift:169: Fatal error: SWIFT TASK CONTINUATION MISUSE: currentLocation() tried to resume its continuation more than once, returning <+47.37,+8.54>!"
        ),
        .definite,
        summaryContains: [
          "`currentLocation()`", "LocationProvider.locationManager(_:didUpdateLocations:)",
          "threads[0].frames[2]",
        ]),
      .triggers(
        "throwing variant",
        report(
          "Fatal error: SWIFT TASK CONTINUATION MISUSE: fetchProfile(id:) tried to resume its continuation more than once, throwing NetworkError.timeout!",
          resumeFrame: false),
        .definite, summaryContains: ["`fetchProfile(id:)`", "resume(throwing"]),
      RuleExample(
        "fixture: CLLocationManager delegate resumes twice",
        .fixture("reports/continuation-resumed-twice.ips"),
        .triggers(
          .definite,
          summaryContains: ["`currentLocation()`", "LocationProvider.locationManager(_:didUpdateLocations:)"])),
      .ignores(
        "a leaked continuation is only logged, not this crash",
        report(
          "SWIFT TASK CONTINUATION MISUSE: currentLocation() leaked its continuation without resuming it. This may cause tasks waiting on it to remain suspended forever.",
          resumeFrame: false)),
      .ignores(
        "an ordinary fatal error",
        report("Fatal error: Unexpectedly found nil while unwrapping an Optional value", resumeFrame: false)),
    ]
  }
}
