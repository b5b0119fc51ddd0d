import IPSDoctorSupport

/// The Swift 6 runtime's dynamic actor-isolation check (SE-0423): a closure isolated to the main
/// actor (or another actor) was called by a framework on some other queue.
package struct SwiftIsolationCheckFailedRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-isolation-check-failed",
    title: "Swift 6 Actor Isolation Check Failed",
    summary:
      "A closure isolated to an actor was called on another queue and the Swift 6 runtime isolation check trapped.",
    category: .concurrency,
    severity: .error,
    tier: .exact,
    outranks: [
      ActorExecutorAssumptionFailedRule.self, ContinuationResumedTwiceRule.self, LayoutEngineBackgroundThreadRule.self,
    ],
    rationale: """
      In the Swift 6 language mode a closure written inside a `@MainActor` context (a view \
      controller, an `@MainActor` app delegate, a SwiftUI view) is itself isolated to the main actor \
      unless it is `@Sendable`. When such a closure is handed to an Objective-C API that is not \
      annotated for concurrency, the compiler cannot see that the framework will call it on its own \
      queue, so it inserts a run-time check at the start of the closure instead (SE-0423, dynamic \
      actor isolation enforcement). When the framework calls the closure on its callback queue, the \
      check fails: `swift_task_isCurrentExecutor…` / `_swift_task_checkIsolatedSwift` asks libdispatch \
      to assert the main queue and `_dispatch_assert_queue_fail` traps with "BUG IN CLIENT OF \
      LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread]".

      The canonical case is `UNUserNotificationCenter.requestAuthorization(options:completionHandler:)` \
      called from an app delegate: DTS calls it a "Swift / Objective-C impedance mismatch" \
      (FB15294185). Other frequent sources are `DispatchSource` handlers, Combine sinks, \
      `NSWorkspace`/LaunchServices callbacks, AVFoundation and CoreLocation completion blocks. \
      `@preconcurrency import` does not disable the check.
      """,
    remedy: """
      Make the closure non-isolated and hop to the main actor explicitly: mark it `@Sendable`, read \
      what you need from its arguments, and do the UI or state work inside `Task { @MainActor in … }`. \
      Where the framework offers an `async` variant, call that from a `@MainActor` task instead of \
      passing a closure. SE-0463 (Swift 6.2) imports Objective-C completion handlers as `@Sendable`, \
      which removes many of these traps once the SDK adopts it.
      """,
    references: [
      "https://github.com/swiftlang/swift-evolution/blob/main/proposals/0423-dynamic-actor-isolation.md",
      "https://github.com/swiftlang/swift-evolution/blob/main/proposals/0463-sendable-completion-handlers.md",
      "https://developer.apple.com/forums/thread/764777",
    ],
    examples: Examples.all)

  static let expectedQueuePrefix = "Block was expected to execute on queue ["
  static let isolationAssumptionFrames = ["assumeIsolated", "preconditionIsolated", "assertIsolated"]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let trap = SwiftIsolationTrap.evidence(in: context),
      let backtrace = context.crashedBacktrace
    else { return nil }
    // An explicit `assumeIsolated` / `preconditionIsolated` is actor-executor-assumption-failed.
    if ActorExecutorAssumptionFailedRule.assumption(in: context) != nil { return nil }

    var evidence: [Evidence] = [trap.assert]
    if let check = trap.check { evidence.append(check) }
    let expected = context.reasonText(containing: "expected to execute on queue [")
    if let expected { evidence.append(expected) }
    let expectedQueue = expected.flatMap { SymbolText.between($0.detail, "queue [", "]") }

    let appFrame = context.appFrame(in: backtrace)
    if let appFrame { evidence.append(appFrame.evidence) }
    let caller = appFrame.flatMap { context.frameworkCaller(in: backtrace, from: $0.index + 1) }
    if let caller {
      evidence.append(Evidence(backtrace.framePath(caller.index), caller.name))
    }
    if let queue = context.crashedQueueEvidence { evidence.append(queue) }
    let thread = context.crashedThread

    guard let check = trap.check else {
      // `_dispatch_assert_queue_fail` alone: `dispatchPrecondition(condition: .onQueue(…))` or
      // `dispatch_assert_queue` in app or library code, or an older runtime's isolation check.
      var summary =
        "libdispatch's queue assertion failed (`_dispatch_assert_queue_fail`, \(trap.assert.path))"
      if let expected { summary += ": \"\(expected.detail)\"" }
      summary += "."
      if let appFrame {
        summary += " The first app frame is \(appFrame.quotedName) (\(appFrame.evidence.path))"
        if let thread { summary += ", on \(context.threadDescription(thread))" }
        summary += "."
      }
      summary +=
        " No Swift concurrency runtime frame is on the stack, so this is more likely an explicit "
        + "`dispatchPrecondition(condition: .onQueue(…))` than the Swift 6 isolation check."
      return finding(
        confidence: .possible, summary: summary, evidence: evidence,
        remedy: Self.description.remedy
          + "\n\nIf the app itself calls `dispatchPrecondition(condition: .onQueue(.main))` (or "
          + "`dispatch_assert_queue`) here, the precondition is right and the caller is wrong: "
          + "dispatch the call to that queue, or make the function `@MainActor` so the compiler "
          + "checks the callers.")
    }

    let expectedText = expectedQueue ?? "com.apple.main-thread"
    let isMain = expectedText == "com.apple.main-thread"
    var summary =
      "The Swift 6 runtime's actor-isolation check (SE-0423) trapped: \(CodeSpan.markdown(checkName(check))) "
      + "(\(check.path)) asked libdispatch to assert "
      + (isMain ? "the main queue" : "the queue \(CodeSpan.markdown(expectedText))")
      + " and `_dispatch_assert_queue_fail` (\(trap.assert.path)) failed"
    if let expected { summary += " with \"\(expected.detail)\"" }
    summary += ". "
    let objcMethod = appFrame?.name.flatMap(Self.objcEntryPoint)
    if let appFrame {
      if let objcMethod {
        summary +=
          "The app's method \(CodeSpan.markdown(objcMethod)) (\(appFrame.evidence.path), its `@objc` entry point) "
          + "is main-actor isolated (by `@MainActor` on it or its type, or by the module's default "
          + "isolation, `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`)"
      } else if let name = appFrame.name {
        summary += "The app's \(SymbolText.kind(name)) \(CodeSpan.markdown(name)) (\(appFrame.evidence.path))"
      } else {
        summary +=
          "An unsymbolicated app frame (\(appFrame.evidence.path), \(CodeSpan.markdown(appFrame.evidence.detail)))"
      }
      if objcMethod == nil {
        summary +=
          " is isolated to " + (isMain ? "the main actor" : "the actor that owns \(CodeSpan.markdown(expectedText))")
      }
      if let caller {
        summary += ", but \(CodeSpan.markdown(caller.name)) (\(backtrace.framePath(caller.index))) called it"
      } else {
        summary += ", but it was called"
      }
    } else {
      summary += "An actor-isolated closure was called"
    }
    if let thread {
      summary += " on \(context.threadDescription(thread))."
    } else {
      summary += " on another queue."
    }
    let isRequestAuthorization = caller?.name.contains("requestAuthorization") ?? false
    if isRequestAuthorization {
      summary +=
        " This is the known `UNUserNotificationCenter.requestAuthorization` case: its completion "
        + "handler runs on a UserNotifications queue."
    }
    let remedy =
      objcMethod.map { methodRemedy(method: $0, caller: caller?.name) }
      ?? remedy(closure: appFrame?.name, caller: caller?.name, requestAuthorization: isRequestAuthorization)
    return finding(
      confidence: .definite, summary: summary, evidence: evidence, remedy: remedy,
      verification: [
        "Build with the Swift 6 language mode and exercise the callback in a debug build: the same check traps in the debugger at the closure.",
        "Add `dispatchPrecondition(condition: .notOnQueue(.main))` at the top of the closure temporarily to confirm which queue the framework uses.",
      ])
  }

  private func checkName(_ check: Evidence) -> String {
    for name in [
      "_swift_task_checkIsolatedSwift", "swift_task_isCurrentExecutorWithFlagsImpl",
      "swift_task_isCurrentExecutor", "_checkExpectedExecutor", "swift_task_checkIsolated",
    ]
    where check.detail.contains(name) {
      return name
    }
    return "swift_task_isCurrentExecutor"
  }

  /// The method behind `@objc T.method(…)`, the Objective-C entry point the compiler emits for a
  /// Swift method a framework calls (a delegate or subscriber method); `nil` for closures.
  static func objcEntryPoint(_ name: String) -> String? {
    guard name.hasPrefix("@objc "), !name.contains("closure #") else { return nil }
    return String(name.dropFirst("@objc ".count))
  }

  /// The fix when the framework called an isolated method itself rather than a closure.
  private func methodRemedy(method: String, caller: String?) -> String {
    let name = SymbolText.baseName(ofFunction: method)
    let api = caller.map { " (\(CodeSpan.markdown(SymbolText.objcBlockMethod($0) ?? $0)))" } ?? ""
    return """
      The framework\(api) calls \(CodeSpan.markdown(method)) on its own queue, but the method is \
      isolated to the main actor, so the check inserted at its `@objc` entry point traps. Declare the \
      method `nonisolated`, copy what you need from its arguments, and hop to the main actor for UI or \
      state work:

      ```swift
      nonisolated func \(name)(…) {
        let value = …  // Sendable data copied from the arguments
        Task { @MainActor in
          self.apply(value)  // main-actor work
        }
      }
      ```

      Marking the type `@MainActor` does not help: that is what isolates the method. With \
      `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor` (new Xcode 26 projects), every method is main-actor \
      isolated unless it is marked `nonisolated`.
      """
  }

  private func remedy(closure: String?, caller: String?, requestAuthorization: Bool) -> String {
    var text = Self.description.remedy
    if requestAuthorization {
      let place = closure.map { " in \(CodeSpan.markdown(SymbolText.enclosingFunction($0)))" } ?? ""
      text += """


        For `requestAuthorization`\(place), either mark the completion handler `@Sendable` and hop to the \
        main actor:

        ```swift
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge, .sound]) {
          @Sendable granted, error in
          Task { @MainActor in
            // UI and app state updates here
            if granted { UIApplication.shared.registerForRemoteNotifications() }
          }
        }
        ```

        or use the async variant from a main-actor task:

        ```swift
        Task { @MainActor in
          let granted = (try? await UNUserNotificationCenter.current()
            .requestAuthorization(options: [.alert, .badge, .sound])) ?? false
          if granted { UIApplication.shared.registerForRemoteNotifications() }
        }
        ```
        """
      return text
    }
    let function = closure.map(SymbolText.enclosingFunction)
    let api = caller.map { SymbolText.objcBlockMethod($0) ?? $0 }
    text += "\n\n"
    if let function, let api {
      text += "In \(CodeSpan.markdown(function)), the closure passed to \(CodeSpan.markdown(api))"
    } else if let function {
      text += "In \(CodeSpan.markdown(function)), the closure handed to the framework"
    } else {
      text += "The closure handed to the framework"
    }
    text += """
       runs on the framework's queue. Declare it `@Sendable` so it is not main-actor isolated, and \
      hop explicitly:

      ```swift
      framework.doSomething { @Sendable result in
        let value = result  // copy Sendable data out of the callback
        Task { @MainActor in
          self.apply(value)  // main-actor work
        }
      }
      ```
      """
    return text
  }
}

extension SwiftIsolationCheckFailedRule {
  enum Examples {
    /// A crashed thread on `queue` with libdispatch's assertion, optionally under the Swift
    /// runtime's isolation check, then the app closure and the framework block that called it.
    static func report(
      runtimeCheck: Bool = true,
      appSymbol: String? = "closure #1 in AppDelegate.application(_:didFinishLaunchingWithOptions:)",
      callerSymbol: String =
        "__78-[UNUserNotificationCenter requestAuthorizationWithOptions:completionHandler:]_block_invoke",
      queue: String = "com.apple.usernotifications.UNUserNotificationServiceConnection.call-out",
      asi: String =
        "BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread]",
      extraFrame: String? = nil
    ) -> ExampleReport {
      var frames: [ExampleReport.Frame] = [
        .frame(.libdispatch, "_dispatch_assert_queue_fail"), .frame(.libdispatch, "dispatch_assert_queue"),
      ]
      if runtimeCheck {
        frames += [
          .frame(.libswiftConcurrency, "_swift_task_checkIsolatedSwift"),
          .frame(
            .libswiftConcurrency,
            "swift_task_isCurrentExecutorWithFlagsImpl(swift::SerialExecutorRef, swift::swift_task_is_current_executor_flag)"
          ),
        ]
      }
      if let extraFrame { frames.append(.frame(.libswiftConcurrency, extraFrame)) }
      frames += [
        .frame(.app, appSymbol),
        .frame(.app, "thunk for @escaping @callee_guaranteed (@unowned Bool, @guaranteed Error?) -> ()", offset: 4200),
        .frame(.userNotifications, callerSymbol), .frame(.libdispatch, "_dispatch_call_block_and_release"),
      ]
      return ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BREAKPOINT", signal: "SIGTRAP", codes: "0x0000000000000001, 0x000000019a0ca5b8"),
        termination: ExampleReport.Termination(namespace: "SIGNAL", code: 5, indicator: "Trace/BPT trap: 5"),
        asi: ["libdispatch.dylib": [asi]], threads: [.main([]), ExampleReport.Thread(queue: queue, frames)],
        crashedThread: 1)
    }

    static let all: [RuleExample] = [
      .triggers(
        "requestAuthorization closure from a main-actor app delegate",
        report(), .definite,
        summaryContains: [
          "closure #1 in AppDelegate.application(_:didFinishLaunchingWithOptions:)",
          "threads[1].frames[4]", "main actor",
          "com.apple.usernotifications.UNUserNotificationServiceConnection.call-out",
          "Block was expected to execute on queue [com.apple.main-thread]", "requestAuthorization",
        ]),
      .triggers(
        "DispatchSource handler on a custom queue",
        report(
          appSymbol: "closure #2 in FileWatcher.start()",
          callerSymbol: "_dispatch_source_latch_and_call", queue: "com.example.filewatcher"),
        .definite, summaryContains: ["closure #2 in FileWatcher.start()", "com.example.filewatcher"]),
      .triggers(
        "a main-actor subscriber method that MetricKit calls on its own queue",
        report(
          appSymbol: "@objc MetricsSubscriber.didReceive(_:)",
          callerSymbol: "__60-[MXMetricManager deliverDiagnosticPayloads:toSubscribers:]_block_invoke",
          queue: "com.apple.metrickit.manager"),
        .definite,
        summaryContains: [
          "method `MetricsSubscriber.didReceive(_:)`", "SWIFT_DEFAULT_ACTOR_ISOLATION", "-[MXMetricManager",
        ]),
      .triggers(
        "unsymbolicated app closure",
        report(appSymbol: nil), .definite, summaryContains: ["unsymbolicated"]),
      .triggers(
        "dispatchPrecondition in app code (no runtime check)",
        report(runtimeCheck: false, appSymbol: "ImageCache.store(_:)", callerSymbol: "_dispatch_client_callout"),
        .possible, summaryContains: ["dispatchPrecondition"]),
      RuleExample(
        "fixture: requestAuthorization closure on the UserNotifications queue",
        .fixture("reports/swift6-isolation-check-failed.ips"),
        .triggers(
          .definite,
          summaryContains: [
            "closure #1 in AppDelegate.application(_:didFinishLaunchingWithOptions:)",
            "com.apple.usernotifications.UNUserNotificationServiceConnection.call-out",
            "com.apple.main-thread",
          ])),
      .ignores(
        "MainActor.assumeIsolated is the executor-assumption rule",
        report(extraFrame: "static MainActor.assumeIsolated<A>(_:file:line:)")),
      RuleExample(
        "fixture: dispatch_sync on the queue it already owns",
        .fixture("reports/libdispatch-client-bug.ips"), .doesNotTrigger),
      RuleExample(
        "fixture: the async bridge's UIKit assertion",
        .fixture("reports/async-bridge-didreceive-simplified-symbols.ips"), .doesNotTrigger),
    ]
  }
}
