import IPSDoctorSupport

/// An Objective-C completion-handler method implemented as a Swift `async` method: the compiler's
/// `@objc closure #1 in T.method(…)` bridge awaits the method on the cooperative pool and calls the
/// framework's completion block there, and UIKit asserts "Call must be made on main thread".
package struct AsyncBridgeCompletionOffMainRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "async-bridge-completion-off-main",
    title: "Async Delegate Method Completes Off The Main Thread",
    summary:
      "A Swift async implementation of an Objective-C completion-handler method had its completion block called off the main thread.",
    category: .concurrency,
    severity: .error,
    tier: .exact,
    outranks: [CompletionHandlerCalledOffMainRule.self],
    rationale: """
      Objective-C protocols such as `UNUserNotificationCenterDelegate` declare methods that take a \
      completion block (`userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:`). \
      Swift lets you implement them as `async` methods instead. The compiler then emits a bridge, \
      `@objc closure #1 in T.method(…)`, which starts a task, awaits your method and calls the \
      framework's completion block when it returns.

      A method that is not isolated to the main actor runs on the Swift concurrency cooperative \
      pool (SE-0338), so the bridge resumes there and calls the block off the main thread. UIKit's \
      completion for a notification response updates the app snapshot and state restoration \
      (`-[UIApplication _updateSnapshotAndStateRestorationWithAction:windowScene:]`), which asserts \
      the main thread: an uncaught `NSInternalInconsistencyException`, "Call must be made on main \
      thread", on every tap.

      Hopping to the main actor inside the method (`await MainActor.run { … }`) does not help: the \
      block is called after the method returns, on whatever thread the bridge resumes on. Marking \
      the class `@MainActor` does not help when the method itself is `nonisolated`.
      """,
    remedy: """
      Implement the completion-handler variant of the method and call the handler exactly once, on \
      every path, on the main thread: synchronously when already on main, otherwise via the main \
      queue. Do the app's work (park a route, update state) before calling the handler. Set the \
      delegate before `application(_:didFinishLaunchingWithOptions:)` returns.
      """,
    references: [
      "https://developer.apple.com/documentation/usernotifications/unusernotificationcenterdelegate",
      "https://github.com/swiftlang/swift-evolution/blob/main/proposals/0338-clarify-execution-non-actor-async.md",
      "https://developer.apple.com/forums/thread/735651",
    ],
    examples: Examples.all)

  /// What `diagnose` found, before any of its text is built: the completion-handler rules ask
  /// whether this rule fires.
  enum Match {
    /// The bridge frame called the asserting framework.
    case bridge(MainThreadAssertion.BridgeFrame, MainThreadAssertion.Assertion)
    /// An unsymbolicated app frame at `caller` of `backtrace`, with the concurrency runtime below.
    case unsymbolicated(
      MainThreadAssertion.Assertion, backtrace: DiagnosisContext.Backtrace, caller: Int,
      concurrency: [Evidence], strong: Bool)
  }

  /// `nil` exactly when `diagnose` returns `nil`.
  static func match(_ context: DiagnosisContext) -> Match? {
    let assertion = MainThreadAssertion.find(in: context)
    guard assertion.isPresent else { return nil }
    if SwiftIsolationTrap.isPresent(in: context) { return nil }
    if let name = context.report.exceptionReason?.name, name != "NSInternalInconsistencyException" {
      return nil
    }
    if let bridge = MainThreadAssertion.bridgeFrame(in: context),
      bridgeCalledTheFramework(bridge, assertion: assertion)
    {
      return .bridge(bridge, assertion)
    }

    // No bridge symbol. With unsymbolicated app frames directly under the asserting UIKit frames and
    // the concurrency runtime below them, the bridge is the likely caller.
    guard let backtrace = assertion.backtrace, let deepest = assertion.deepestAssertingFrame else {
      return nil
    }
    guard let caller = nextAppFrame(in: backtrace, after: deepest, context: context) else { return nil }
    if context.symbol(backtrace.frames[caller]) != nil { return nil }  // a named non-bridge caller: another rule
    let concurrency = MainThreadAssertion.concurrencyEvidence(
      in: context, below: caller, of: backtrace)
    guard !concurrency.isEmpty else { return nil }
    let onCooperativeQueue = context.crashedThread?.isOnCooperativeQueue ?? false
    let runtimeBelow = concurrency.contains { $0.path.hasPrefix(backtrace.path) }
    guard runtimeBelow || onCooperativeQueue else { return nil }
    return .unsymbolicated(
      assertion, backtrace: backtrace, caller: caller, concurrency: concurrency,
      strong: runtimeBelow && onCooperativeQueue && assertion.reason != nil)
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = Self.match(context) else { return nil }
    switch match {
    case .bridge(let bridge, let assertion):
      var evidence = Self.assertionEvidence(assertion, reservingCapacityFor: 2)
      evidence.append(bridge.evidence)
      let concurrency = MainThreadAssertion.concurrencyEvidence(
        in: context, below: bridge.index, of: bridge.backtrace)
      evidence += concurrency
      // The reason, or the asserting frames with the handler named, prove the assertion; frames
      // whose handler is known only by its place point at it.
      let proven = assertion.reason != nil || (!assertion.assertingFrames.isEmpty && !assertion.handlerIsInferred)
      let confidence: Confidence = proven ? .definite : .likely
      return diagnosis(
        context, confidence: confidence, bridge: bridge, assertion: assertion, evidence: evidence,
        hasConcurrency: !concurrency.isEmpty)
    case .unsymbolicated(let assertion, let backtrace, let caller, let concurrency, let strong):
      var evidence = Self.assertionEvidence(assertion, reservingCapacityFor: 1 + concurrency.count)
      evidence.append(
        Evidence(
          backtrace.framePath(caller), context.describe(backtrace.frames[caller]) + " (unsymbolicated)"))
      evidence += concurrency
      return unsymbolicatedDiagnosis(context, evidence: evidence, strong: strong)
    }
  }

  /// The assertion's reason, then its asserting frames, with room for `extra` more (appending the
  /// bridge frame and the concurrency evidence moved the array to larger storage twice).
  private static func assertionEvidence(
    _ assertion: MainThreadAssertion.Assertion, reservingCapacityFor extra: Int
  ) -> [Evidence] {
    var evidence: [Evidence] = []
    evidence.reserveCapacity(1 + assertion.assertingFrames.count + extra)
    if let reason = assertion.reason { evidence.append(reason) }
    evidence += assertion.assertingFrames
    return evidence
  }

  /// The bridge frame must be below (a caller of) the asserting framework frames in the same
  /// backtrace, or the exception must be the main-thread assertion itself.
  private static func bridgeCalledTheFramework(
    _ bridge: MainThreadAssertion.BridgeFrame, assertion: MainThreadAssertion.Assertion
  ) -> Bool {
    if let backtrace = assertion.backtrace, backtrace.path == bridge.backtrace.path,
      let deepest = assertion.deepestAssertingFrame
    {
      return bridge.index > deepest
    }
    return assertion.reason != nil
  }

  private static func nextAppFrame(
    in backtrace: DiagnosisContext.Backtrace, after index: Int, context: DiagnosisContext
  ) -> Int? {
    var cursor = index + 1
    while cursor < backtrace.frames.count {
      let frame = backtrace.frames[cursor]
      if context.isAppFrame(frame) { return cursor }
      // Only framework frames may sit between UIKit and the app's caller.
      if let symbol = frame.symbol,
        MainThreadAssertion.concurrencyRuntimeFrames.contains(where: { symbol.contains($0) })
      {
        return nil
      }
      cursor += 1
    }
    return nil
  }

  private func diagnosis(
    _ context: DiagnosisContext, confidence: Confidence, bridge: MainThreadAssertion.BridgeFrame,
    assertion: MainThreadAssertion.Assertion, evidence: [Evidence], hasConcurrency: Bool
  ) -> Diagnosis {
    let method = CompletionHandlerMethod.lookup(bridge.method)
    let thread = context.crashedThread
    let qualifiedName = bridge.qualifiedName
    var summary =
      "\(assertion.framework(in: context)) asserted \"\(assertion.text)\" because the completion handler "
      + "of \(CodeSpan.markdown(qualifiedName)) ran off the main thread. The frame `@objc closure #1 in \(qualifiedName)` "
      + "(\(bridge.evidence.path)) is the compiler's bridge for your `async` implementation of"
    if let method {
      summary += " `\(method.protocolName).\(method.swiftName)` (Objective-C \(CodeSpan.markdown(method.selector)))"
    } else {
      summary += " an Objective-C method that takes a completion handler"
    }
    summary += "; it resumed on the Swift concurrency pool"
    if let thread, let queue = thread.queue, thread.isOnCooperativeQueue {
      summary += " (thread \(thread.index), queue \(CodeSpan.markdown(queue)))"
    } else if hasConcurrency {
      summary += " (the Swift concurrency runtime ran the job)"
    }
    summary += " and called the framework's handler there."
    return finding(
      confidence: confidence, summary: summary, evidence: evidence,
      remedy: remedy(typeName: bridge.typeName, method: method, methodName: bridge.method),
      verification: Self.verification(method: method))
  }

  private func unsymbolicatedDiagnosis(
    _ context: DiagnosisContext, evidence: [Evidence], strong: Bool
  ) -> Diagnosis {
    var summary =
      "UIKit asserted \"\(MainThreadAssertion.message)\" while completing a system callback, and "
      + "the caller is an unsymbolicated frame of the app running on the Swift concurrency pool. "
      + "This is the shape of the compiler's `@objc closure #1 in …` bridge for an `async` "
      + "implementation of a completion-handler delegate method (for example "
      + "`userNotificationCenter(_:didReceive:)`). Symbolicate the app frames to confirm which method."
    if let thread = context.crashedThread, let queue = thread.queue {
      summary += " The crashed thread is thread \(thread.index) on \(CodeSpan.markdown(queue))."
    }
    return finding(
      confidence: strong ? .likely : .possible, summary: summary, evidence: evidence,
      remedy: Self.unsymbolicatedRemedy, verification: Self.verification(method: nil))
  }

  func remedy(typeName: String?, method: CompletionHandlerMethod?, methodName: String?)
    -> String
  {
    if let method {
      let typeName = typeName ?? "YourDelegate"
      return Self.remedyBeforeTypeName + typeName + method.implementationAfterTypeName
        + Self.remedyAfterImplementation
    }
    guard let methodName else { return Self.genericRemedy }
    return Self.description.remedy
      + "\n\nReplace `\(methodName) async` with the variant that takes a completion handler, and "
      + "call the handler on the main thread:\n\n```swift\n" + CompletionHandlerMethod.onMainHelper
      + "\n```" + Self.remedyClosing
  }

  /// Every remedy's last paragraph.
  private static let remedyClosing =
    "\n\nNeither `await MainActor.run { … }` inside the async method nor `@MainActor` on the "
    + "class fixes this when the method is `nonisolated`: the bridge calls the handler after "
    + "your method returns, on the thread it resumed on. (Making the method itself main-actor "
    + "isolated also works, but the completion-handler variant states the contract plainly.)"

  /// A known method's remedy up to the type name of `fixedImplementation(typeName:)`.
  private static let remedyBeforeTypeName =
    description.remedy + "\n\nReplace the `async` method with:\n\n```swift\nextension "

  /// A known method's remedy after its implementation.
  private static let remedyAfterImplementation = "\n```" + remedyClosing

  /// The remedy without a method or its name: the same for every report.
  static let genericRemedy =
    description.remedy + "\n\nFor a notification tap, implement:\n\n```swift\n"
    + CompletionHandlerMethod.didReceive.fixedImplementation(typeName: "YourDelegate") + "\n```"
    + remedyClosing

  /// `unsymbolicatedDiagnosis`'s remedy.
  private static let unsymbolicatedRemedy =
    genericRemedy
    + "\n\nTo confirm: symbolicate the app frames listed in the evidence with `atos` (see the "
    + "symbolication commands); the frame under UIKit should read "
    + "`@objc closure #1 in <YourType>.<method>(…)`."

  static func verification(method: CompletionHandlerMethod?) -> [String] {
    method?.verification ?? genericVerification
  }

  /// `verification(method: nil)`.
  private static let genericVerification = verification(name: "the delegate method")

  /// The verification steps for the method Swift calls `name`.
  static func verification(name: String) -> [String] {
    [
      "A unit test that calls the handler path of \(name) from `DispatchQueue.global()` and asserts the completion ran on the main thread, exactly once, after the app's work was done; a second test calls it on main and checks the completion ran synchronously.",
      "On a device: trigger the callback (tap a notification) with the app in the background, then again in the foreground.",
      "If it still crashes, pull the device's reports with `uvx pymobiledevice3 crash pull ./crashes` and run `ips-doctor ./crashes`.",
    ]
  }
}

/// Objective-C completion-handler methods that Swift lets apps implement as `async`, with the fix
/// for each.
struct CompletionHandlerMethod: Sendable {
  var swiftName: String
  var protocolName: String
  var selector: String
  /// The completion-handler variant's declaration, without body.
  let declaration: String
  /// The body that parks the work and calls `finish` on main.
  let body: String
  /// What `fixedImplementation(typeName:)` puts after the type name: the indented declaration,
  /// body and helper.
  let implementationAfterTypeName: String
  /// `AsyncBridgeCompletionOffMainRule.verification(method:)` for this method.
  let verification: [String]

  init(swiftName: String, protocolName: String, selector: String, declaration: String, body: String) {
    self.swiftName = swiftName
    self.protocolName = protocolName
    self.selector = selector
    self.declaration = declaration
    self.body = body
    verification = AsyncBridgeCompletionOffMainRule.verification(name: swiftName)
    implementationAfterTypeName = """
       {
        \(declaration.replacing("\n", with: "\n  ")) {
          \(body.replacing("\n", with: "\n    "))
        }

        \(Self.indentedOnMainHelper)
      }
      """
  }

  static let onMainHelper = """
    /// Runs `body` synchronously when already on the main thread, otherwise on the main queue.
    private static func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
      if Thread.isMainThread {
        MainActor.assumeIsolated(body)
      } else {
        DispatchQueue.main.async { body() }
      }
    }
    """

  /// `onMainHelper` indented for `fixedImplementation(typeName:)`.
  private static let indentedOnMainHelper = onMainHelper.replacing("\n", with: "\n  ")

  func fixedImplementation(typeName: String) -> String {
    "extension " + typeName + implementationAfterTypeName
  }

  static let didReceive = CompletionHandlerMethod(
    swiftName: "userNotificationCenter(_:didReceive:)",
    protocolName: "UNUserNotificationCenterDelegate",
    selector: "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
    declaration: """
      func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
      )
      """,
    body: """
      // Read what you need synchronously; a dismiss or an unhandled action must still complete.
      let userInfo = response.notification.request.content.userInfo
      let isTap = response.actionIdentifier == UNNotificationDefaultActionIdentifier
      nonisolated(unsafe) let finish = completionHandler
      Self.onMain {
        if isTap { /* park the route or state change for userInfo here */ _ = userInfo }
        finish()  // exactly once, on main, after the work is parked
      }
      """)

  static let willPresent = CompletionHandlerMethod(
    swiftName: "userNotificationCenter(_:willPresent:)",
    protocolName: "UNUserNotificationCenterDelegate",
    selector: "userNotificationCenter:willPresentNotification:withCompletionHandler:",
    declaration: """
      func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
      )
      """,
    body: """
      let userInfo = notification.request.content.userInfo
      nonisolated(unsafe) let finish = completionHandler
      Self.onMain {
        _ = userInfo  // decide the options from userInfo here
        finish([.banner, .sound])  // exactly once, on main
      }
      """)

  static let remoteNotification = CompletionHandlerMethod(
    swiftName: "application(_:didReceiveRemoteNotification:)",
    protocolName: "UIApplicationDelegate",
    selector: "application:didReceiveRemoteNotification:fetchCompletionHandler:",
    declaration: """
      func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
      )
      """,
    body: """
      nonisolated(unsafe) let finish = completionHandler
      nonisolated(unsafe) let payload = userInfo
      Task {
        let result = await handleRemoteNotification(payload)  // your work, returns UIBackgroundFetchResult
        Self.onMain { finish(result) }  // exactly once, on main, on every path
      }
      """)

  static let pushKit = CompletionHandlerMethod(
    swiftName: "pushRegistry(_:didReceiveIncomingPushWith:for:)",
    protocolName: "PKPushRegistryDelegate",
    selector: "pushRegistry:didReceiveIncomingPushWithPayload:forType:withCompletionHandler:",
    declaration: """
      func pushRegistry(
        _ registry: PKPushRegistry,
        didReceiveIncomingPushWith payload: PKPushPayload,
        for type: PKPushType,
        completion: @escaping () -> Void
      )
      """,
    body: """
      // Report the call to CallKit before returning (PushKit kills apps that don't), then complete.
      nonisolated(unsafe) let finish = completion
      Self.onMain {
        reportIncomingCall(payload: payload)  // CXProvider.reportNewIncomingCall(with:update:completion:)
        finish()  // exactly once, on main
      }
      """)

  static let decidePolicy = CompletionHandlerMethod(
    swiftName: "webView(_:decidePolicyFor:)",
    protocolName: "WKNavigationDelegate",
    selector: "webView:decidePolicyForNavigationAction:decisionHandler:",
    declaration: """
      func webView(
        _ webView: WKWebView,
        decidePolicyFor navigationAction: WKNavigationAction,
        decisionHandler: @escaping @MainActor (WKNavigationActionPolicy) -> Void
      )
      """,
    body: """
      let url = navigationAction.request.url
      nonisolated(unsafe) let decide = decisionHandler
      Self.onMain {
        decide(url == nil ? .cancel : .allow)  // exactly once, on main, on every path
      }
      """)

  static let backgroundURLSession = CompletionHandlerMethod(
    swiftName: "application(_:handleEventsForBackgroundURLSession:)",
    protocolName: "UIApplicationDelegate",
    selector: "application:handleEventsForBackgroundURLSession:completionHandler:",
    declaration: """
      func application(
        _ application: UIApplication,
        handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
      )
      """,
    body: """
      // Keep the handler; call it on main from urlSessionDidFinishEvents(forBackgroundURLSession:).
      nonisolated(unsafe) let finish = completionHandler
      Self.onMain { BackgroundSessionStore.shared.completion = finish }
      """)

  static let all: [CompletionHandlerMethod] = [
    didReceive, willPresent, remoteNotification, pushKit, decidePolicy, backgroundURLSession,
  ]

  static func lookup(_ method: String) -> CompletionHandlerMethod? {
    all.first { $0.swiftName == method } ?? (method.hasPrefix("webView(_:decidePolicyFor:") ? decidePolicy : nil)
  }
}
