import IPSDoctorReport
import IPSDoctorSupport

/// UIKit's "Call must be made on main thread" assertion while completing a system callback, called
/// from an ordinary closure, block or function of the app on a background queue (not the compiler's
/// `@objc` async bridge).
package struct CompletionHandlerCalledOffMainRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "completion-handler-called-off-main",
    title: "System Completion Handler Called Off The Main Thread",
    summary:
      "The app called a UIKit completion handler from a background queue and UIKit asserted the main thread.",
    category: .concurrency,
    severity: .error,
    tier: .exact,
    rationale: """
      Several system callbacks hand the app a completion block that UIKit expects to be called on \
      the main thread: `userNotificationCenter(_:didReceive:withCompletionHandler:)`, \
      `userNotificationCenter(_:willPresent:withCompletionHandler:)`, \
      `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` and others. When the \
      block runs, UIKit updates the app snapshot and state restoration \
      (`-[UIApplication _updateSnapshotAndStateRestorationWithAction:windowScene:]`, \
      `_performBlockAfterCATransactionCommitSynchronizes:`) or answers the system through BaseBoard \
      (`-[BSAction sendResponse:]`), and those paths assert the main thread with an uncaught \
      `NSInternalInconsistencyException`, "Call must be made on main thread".

      Calling the block from the closure of a network request, a `DispatchQueue.global()` block, a \
      Core Data background context or a `Task` on the cooperative pool therefore crashes — often \
      only on a notification tap or a background wake, so it slips through testing.
      """,
    remedy: """
      Call the completion handler on the main thread, exactly once, on every path. Capture it, do \
      the background work, then hop to the main queue (or the main actor) to call it. When several \
      paths can finish (success, failure, timeout), guard the call so it happens only once.
      """,
    references: [
      "https://developer.apple.com/documentation/usernotifications/unusernotificationcenterdelegate/usernotificationcenter(_:didreceive:withcompletionhandler:)",
      "https://github.com/infobip/mobile-messaging-sdk-ios/issues/29",
      "https://github.com/invertase/react-native-notifee/issues/166",
    ],
    examples: Examples.all)

  /// What `diagnose` found, before any of its text is built (`UIKitCallMustBeMainRule` only asks
  /// whether this rule fires).
  struct Match {
    var assertion: MainThreadAssertion.Assertion
    var backtrace: DiagnosisContext.Backtrace
    var deepest: Int
    var caller: DiagnosisContext.AppFrame
    var thread: CrashThread?
  }

  /// `nil` exactly when `diagnose` returns `nil`.
  static func match(_ context: DiagnosisContext) -> Match? {
    let assertion = MainThreadAssertion.find(in: context)
    guard let backtrace = assertion.backtrace, let deepest = assertion.deepestAssertingFrame else {
      return nil
    }
    if SwiftIsolationTrap.isPresent(in: context) { return nil }
    if let name = context.report.exceptionReason?.name, name != "NSInternalInconsistencyException" {
      return nil
    }
    // UIKit's assertion goes through NSAssertionHandler.
    let hasHandler = context.backtraces.contains { backtrace in
      backtrace.frames.contains { $0.symbol?.hasPrefix(MainThreadAssertion.assertionHandler) ?? false }
    }
    guard hasHandler else { return nil }
    // The compiler's async bridge is the founding rule's case; never both.
    if AsyncBridgeCompletionOffMainRule.match(context) != nil { return nil }
    guard let caller = context.appFrame(in: backtrace, from: deepest + 1) else { return nil }
    if let symbol = context.symbol(caller.frame), MainThreadAssertion.bridgeName(symbol) != nil {
      return nil
    }
    let thread = context.crashedThread
    if let thread, thread.isMainThread { return nil }
    return Match(assertion: assertion, backtrace: backtrace, deepest: deepest, caller: caller, thread: thread)
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = Self.match(context) else { return nil }
    let (assertion, backtrace, deepest, caller, thread) = (
      match.assertion, match.backtrace, match.deepest, match.caller, match.thread
    )

    var evidence: [Evidence] = []
    if let reason = assertion.reason { evidence.append(reason) }
    evidence += assertion.assertingFrames
    evidence.append(caller.evidence)
    if let queue = context.crashedQueueEvidence { evidence.append(queue) }

    let uikitCallback = context.frameworkCaller(in: backtrace, from: deepest + 1)
      .flatMap { $0.index < caller.index ? $0 : nil }
    let onCooperativePool = thread?.isOnCooperativeQueue ?? false

    var summary = "UIKit asserted \"\(MainThreadAssertion.message)\" while completing a system callback"
    if let uikitCallback {
      summary += " (\(CodeSpan.markdown(uikitCallback.name)), \(backtrace.framePath(uikitCallback.index)))"
    }
    summary += ". "
    // The caller's enclosing function, found once for the summary and the remedy.
    let callerFunction = caller.name.map(SymbolText.enclosingFunction)
    if let name = caller.name, let function = callerFunction {
      let kind = SymbolText.kind(name)
      summary +=
        "The completion handler was called by the app's \(kind) \(CodeSpan.markdown(name)) (\(caller.evidence.path))"
      if kind != "function" && function != name {
        summary += " inside \(CodeSpan.markdown(function))"
      }
    } else {
      summary +=
        "The completion handler was called by an unsymbolicated frame of the app "
        + "(\(caller.evidence.path), \(CodeSpan.markdown(caller.evidence.detail)))"
    }
    if let thread {
      summary += " on \(context.threadDescription(thread)), not the main thread."
    } else {
      summary += ", not on the main thread."
    }
    if onCooperativePool {
      summary +=
        " The queue is the Swift concurrency cooperative pool: a `Task` or `async` function that is "
        + "not isolated to the main actor called the handler."
    }
    if !assertion.assertingFrames.isEmpty && assertion.reason == nil {
      summary += " The exception's reason was not recorded; UIKit's asserting frames identify it."
    }
    if caller.name == nil {
      summary += " Symbolicate the app frames to see which closure called the handler."
    }

    // UIKit's assertion (text or frames) is exact; only an unsymbolicated caller leaves doubt about
    // who called the handler.
    let confidence: Confidence = caller.name != nil ? .definite : .likely
    return finding(
      confidence: confidence, summary: summary, evidence: evidence,
      remedy: remedy(callerFunction: callerFunction, onCooperativePool: onCooperativePool),
      verification: [
        "Add `dispatchPrecondition(condition: .onQueue(.main))` right before the completion call in debug builds and exercise the callback (tap a notification with the app in the background and in the foreground).",
        "A unit test that runs the handler path from `DispatchQueue.global()` and asserts the completion ran on the main thread exactly once.",
      ])
  }

  /// `callerFunction` is `SymbolText.enclosingFunction` of the caller's name.
  private func remedy(callerFunction: String?, onCooperativePool: Bool) -> String {
    var text = Self.description.remedy
    let function = callerFunction ?? "your handler"
    let lead = callerFunction.map { "In \(CodeSpan.markdown($0)), replace" } ?? "Replace"
    if onCooperativePool {
      text += """


        \(lead) the direct call of the completion handler in the `Task` with a hop to the main \
        actor:

        ```swift
        Task {
          let result = await doTheWork()  // the work \(function) starts
          await MainActor.run {
            completion(result)  // exactly once, on the main thread
          }
        }
        ```
        """
    } else {
      text += """


        \(lead) the direct call of the completion handler in the background closure with a hop \
        to the main queue:

        ```swift
        // Before: completion() ran on the background queue that delivered the result.
        DispatchQueue.main.async {
          completion()  // exactly once, on the main thread
        }
        ```
        """
    }
    text += """


      When more than one path can finish, make the handler one-shot so a retry or timeout cannot \
      call it twice:

      ```swift
      final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        func run(_ body: () -> Void) {
          lock.lock(); defer { lock.unlock() }
          guard !done else { return }
          done = true
          body()
        }
      }
      ```
      """
    return text
  }
}

extension CompletionHandlerCalledOffMainRule {
  enum Examples {
    static func report(
      _ appSymbol: String?, queue: String = "com.apple.root.default-qos",
      concurrencyFrames: Bool = false, reason: String? = "Call must be made on main thread"
    ) -> ExampleReport {
      AsyncBridgeCompletionOffMainRule.Examples.report(
        appSymbol: appSymbol, queue: queue, reason: reason, concurrencyFrames: concurrencyFrames)
    }

    static let all: [RuleExample] = [
      .triggers(
        "GCD closure calls the notification-response handler",
        report("closure #1 in NotificationService.handle(response:completion:)"),
        .definite,
        summaryContains: [
          "closure #1 in NotificationService.handle(response:completion:)",
          "inside `NotificationService.handle(response:completion:)`",
          "lastExceptionBacktrace[5]", "com.apple.root.default-qos",
        ]),
      .triggers(
        "Objective-C block on a private serial queue",
        report(
          "__58-[NotificationHandler handleResponse:completion:]_block_invoke_2",
          queue: "com.example.chat.sync"),
        .definite,
        summaryContains: ["block", "-[NotificationHandler handleResponse:completion:]", "com.example.chat.sync"]),
      .triggers(
        "Task closure inside the completion-handler variant, on the cooperative pool",
        report(
          "closure #1 in AppDelegate.userNotificationCenter(_:didReceive:withCompletionHandler:)",
          queue: "com.apple.root.user-initiated-qos.cooperative", concurrencyFrames: true),
        .definite, summaryContains: ["cooperative pool", "AppDelegate.userNotificationCenter"]),
      .triggers(
        "unsymbolicated caller on a plain GCD queue",
        report(nil), .likely, summaryContains: ["Symbolicate", "com.apple.root.default-qos"]),
      RuleExample(
        "fixture: GCD closure completes the notification response",
        .fixture("reports/completion-handler-off-main-gcd.ips"),
        .triggers(
          .definite,
          summaryContains: [
            "closure #1 in NotificationService.handle(response:completion:)",
            "___UISceneSendNotificationResponseActionCallbackForScene_block_invoke",
            "thread 3 (queue `com.apple.root.default-qos`)",
          ])),
      .ignores(
        "the compiler's async bridge (the founding rule's case)",
        report(
          "@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)",
          queue: "com.apple.root.user-initiated-qos.cooperative", concurrencyFrames: true)),
      .ignores(
        "unsymbolicated caller on the cooperative pool (the bridge's shape)",
        report(nil, queue: "com.apple.root.user-initiated-qos.cooperative", concurrencyFrames: true)),
      RuleExample(
        "fixture: the assertion from a view change, without UIKit's completion frames",
        .fixture("reports/uikit-call-must-be-main-other.ips"), .doesNotTrigger),
    ]
  }
}
