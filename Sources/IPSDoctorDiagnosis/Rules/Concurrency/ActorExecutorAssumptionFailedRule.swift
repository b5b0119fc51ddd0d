import IPSDoctorSupport

/// `MainActor.assumeIsolated`, `preconditionIsolated()` or `assertIsolated()` ran off the actor it
/// assumed: "Incorrect actor executor assumption".
package struct ActorExecutorAssumptionFailedRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "actor-executor-assumption-failed",
    title: "Actor Executor Assumption Failed",
    summary:
      "Code asserted that it ran on an actor's executor with assumeIsolated or preconditionIsolated, and it did not.",
    category: .concurrency,
    severity: .error,
    tier: .exact,
    rationale: """
      `MainActor.assumeIsolated { … }`, `Actor.assumeIsolated`, `preconditionIsolated()` and \
      `assertIsolated()` check at run time that the current code runs on the actor's serial \
      executor, and stop the process when it does not, with "Incorrect actor executor assumption; \
      Expected 'MainActor' executor." or "…; Expected same executor as MainActor." \
      (swiftlang/swift stdlib/public/Concurrency/ExecutorAssertions.swift). On newer runtimes the \
      check for the main actor goes through libdispatch and traps in `_dispatch_assert_queue_fail` \
      under the `assumeIsolated` frame.

      The assumption is wrong because a caller reached the code from another thread: a delegate \
      callback delivered on a framework queue, a completion handler, a `nonisolated` method called \
      from a background task, or a `@preconcurrency` conformance whose methods are called off main.
      """,
    remedy: """
      Do not assume isolation you cannot prove. Either make the code `@MainActor` (or isolated to \
      the actor) so the compiler makes every caller hop, or hop explicitly from the place that is \
      reached off the actor: `Task { @MainActor in … }`, `await MainActor.run { … }`, or \
      `DispatchQueue.main.async { … }` from a callback. Keep `assumeIsolated` only for callbacks \
      whose documentation guarantees the main thread.
      """,
    references: [
      "https://developer.apple.com/documentation/swift/mainactor/assumeisolated(_:file:line:)",
      "https://github.com/swiftlang/swift-evolution/blob/main/proposals/0392-custom-actor-executors.md",
    ],
    examples: Examples.all)

  static let message = "Incorrect actor executor assumption"
  static let assumingFrames = ["assumeIsolated", "preconditionIsolated", "assertIsolated"]

  struct Assumption {
    var text: Evidence?
    var assumingFrame: (index: Int, evidence: Evidence)?
    var backtrace: DiagnosisContext.Backtrace?
    var expected: String?
  }

  /// The failed assumption: the runtime's message, or an `assumeIsolated`-style frame above the
  /// libdispatch isolation trap on the crashed thread.
  static func assumption(in context: DiagnosisContext) -> Assumption? {
    let text = context.reasonText(containing: message)
    guard text != nil || SwiftIsolationTrap.evidence(in: context) != nil else { return nil }
    var frame: (Int, Evidence)?
    let backtrace = context.crashedBacktrace
    if let backtrace {
      for fragment in assumingFrames {
        if let found = context.firstFrame(in: backtrace, containing: fragment) {
          frame = found
          break
        }
      }
    }
    guard text != nil || frame != nil else { return nil }
    return Assumption(
      text: text, assumingFrame: frame, backtrace: backtrace,
      expected: text.flatMap { expectedExecutor($0.detail) })
  }

  /// "…; Expected 'MainActor' executor." → "MainActor"; "…; Expected same executor as MainActor."
  /// → "MainActor"; the C++ runtime's "…; expected 'X' executor." → "X".
  static func expectedExecutor(_ text: String) -> String? {
    if let name = SymbolText.between(text, "xpected '", "'") { return name }
    if let rest = SymbolText.between(text, "Expected same executor as ", nil) {
      var name = rest.prefix(while: { $0 != "\n" && $0 != "\"" }).trimmingWhitespace()
      if name.hasSuffix(".") { name.removeLast() }
      if !name.isEmpty { return name }
    }
    return nil
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let assumption = Self.assumption(in: context) else { return nil }
    var evidence: [Evidence] = []
    if let text = assumption.text { evidence.append(text) }
    if let frame = assumption.assumingFrame { evidence.append(frame.evidence) }
    if let trap = SwiftIsolationTrap.evidence(in: context) { evidence.append(trap.assert) }

    // The app code that made the assumption: the first app frame below the assuming frame that is
    // not itself the (inlined) assumeIsolated.
    var caller: DiagnosisContext.AppFrame?
    if let backtrace = assumption.backtrace {
      var start = (assumption.assumingFrame?.index ?? -1) + 1
      while let found = context.appFrame(in: backtrace, from: start) {
        if let name = found.name, Self.assumingFrames.contains(where: { name.contains($0) }) {
          start = found.index + 1
          continue
        }
        caller = found
        break
      }
    }
    if let caller { evidence.append(caller.evidence) }
    if let queue = context.crashedQueueEvidence { evidence.append(queue) }

    let expected = assumption.expected ?? (assumption.text == nil ? "MainActor" : nil)
    var summary = ""
    if let text = assumption.text {
      summary += "The Swift runtime stopped the app with \"\(text.detail.trimmingWhitespace())\" (\(text.path)). "
    } else if let frame = assumption.assumingFrame {
      summary +=
        "\(CodeSpan.markdown(frame.evidence.detail)) (\(frame.evidence.path)) failed its isolation check: libdispatch's "
        + "`_dispatch_assert_queue_fail` trapped under it. "
    }
    summary += "The code assumed it ran on the "
    summary += expected.map { "\(CodeSpan.markdown($0)) executor" } ?? "actor's executor"
    if let caller {
      summary += " in \(caller.quotedName) (\(caller.evidence.path))"
    }
    if let thread = context.crashedThread {
      summary += ", but it ran on \(context.threadDescription(thread))"
      if thread.isMainThread { summary += ", the main thread (so the expected actor was not the main actor)" }
    }
    summary += "."
    let confidence: Confidence = .definite
    return finding(
      confidence: confidence, summary: summary, evidence: evidence,
      remedy: remedy(caller: caller?.name, expected: expected),
      verification: [
        "Reproduce in a debug build: the same assertion stops in the debugger at the assuming frame; check which caller reached it off the actor.",
        "After the fix, the compiler should reject any remaining synchronous calls from off the actor.",
      ])
  }

  private func remedy(caller: String?, expected: String?) -> String {
    let actor = expected ?? "MainActor"
    let function = caller.map(SymbolText.enclosingFunction)
    var text = Self.description.remedy + "\n\n"
    if let function {
      text += "In \(CodeSpan.markdown(function)), replace the assumption with an explicit hop:"
    } else {
      text += "Replace the assumption with an explicit hop:"
    }
    if actor == "MainActor" {
      text += """


        ```swift
        // Before: MainActor.assumeIsolated { self.update(with: value) }
        Task { @MainActor in
          self.update(with: value)
        }
        ```

        or isolate the declaration so callers must `await` it:

        ```swift
        @MainActor func update(with value: Value) { … }
        ```
        """
    } else {
      text += """


        ```swift
        // Before: \(actor).assumeIsolated { … } from a non-isolated context
        Task {
          await actor.update(with: value)  // hop to \(actor)'s executor
        }
        ```
        """
    }
    return text
  }
}

extension ActorExecutorAssumptionFailedRule {
  enum Examples {
    /// A trap on thread 1 (on `queue`) with the Swift runtime's message `asi`, under `frames`.
    static func report(
      asi: String, frames: [ExampleReport.Frame], queue: String = "com.apple.root.default-qos"
    ) -> ExampleReport {
      ExampleReport(
        exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"), asi: ["libswiftCore.dylib": [asi]],
        threads: [.main([]), ExampleReport.Thread(queue: queue, frames)], crashedThread: 1)
    }

    static let all: [RuleExample] = [
      .triggers(
        "MainActor.assumeIsolated from a background queue (debug message)",
        report(
          asi:
            "Concurrency/ExecutorAssertions.swift:356: Fatal error: Incorrect actor executor assumption; Expected same executor as MainActor.",
          frames: [
            .frame(.libswiftCore, "closure #1 in closure #1 in closure #1 in _assertionFailure(_:_:file:line:flags:)"),
            .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"),
            .frame(.app, "static MainActor.assumeIsolated<A>(_:file:line:)"),
            .frame(.app, "LocationRelay.locationManager(_:didUpdateLocations:)"),
            .frame(.app, "@objc LocationRelay.locationManager(_:didUpdateLocations:)"),
          ]),
        .definite,
        summaryContains: [
          "`MainActor` executor", "LocationRelay.locationManager(_:didUpdateLocations:)",
          "threads[1].frames[3]", "com.apple.root.default-qos",
        ]),
      .triggers(
        "preconditionIsolated on a custom actor",
        report(
          asi: "Fatal error: Incorrect actor executor assumption; Expected 'ImageStore' executor.",
          frames: [
            .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"),
            .frame(.app, "ImageStore.cachedImage(for:)"),
          ]),
        .definite, summaryContains: ["`ImageStore` executor", "ImageStore.cachedImage(for:)"]),
      .triggers(
        "newer runtime: assumeIsolated traps through libdispatch",
        report(
          asi:
            "BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread]",
          frames: [
            .frame(.libswiftCore, "_dispatch_assert_queue_fail"), .frame(.libswiftCore, "dispatch_assert_queue"),
            .frame(.libswiftCore, "_swift_task_checkIsolatedSwift"),
            .frame(
              .libswiftCore,
              "swift_task_isCurrentExecutorWithFlagsImpl(swift::SerialExecutorRef, swift::swift_task_is_current_executor_flag)"
            ),
            .frame(.app, "static MainActor.assumeIsolated<A>(_:file:line:)"),
            .frame(.app, "PlayerObserver.observeValue(forKeyPath:of:change:context:)"),
          ], queue: "com.apple.avfoundation.player.notifications"),
        .definite,
        summaryContains: ["PlayerObserver.observeValue(forKeyPath:of:change:context:)", "_dispatch_assert_queue_fail"]),
      .ignores(
        "the Swift 6 isolation check of a closure (no assumption)",
        SwiftIsolationCheckFailedRule.Examples.report()),
      .ignores(
        "an ordinary fatalError",
        report(
          asi: "Fatal error: Unexpected state",
          frames: [.frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app, "Store.reduce(_:)")])),
    ]
  }
}
