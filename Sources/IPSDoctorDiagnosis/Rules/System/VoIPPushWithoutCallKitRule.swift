import IPSDoctorSupport

/// `0xbaadca11` / PushKit's "Killing app because it never posted an incoming call to the system
/// after receiving a PushKit VoIP push": a VoIP push was not reported to CallKit.
package struct VoIPPushWithoutCallKitRule: DiagnosisRule {
  package init() {}

  /// `[code]`, inline (see `TerminationCodes`).
  static let codes = TerminationCodes(code)
  static let code: UInt64 = 0xbaadca11
  static let reason = "never posted an incoming call to the system after receiving a PushKit VoIP push"

  package static let description = RuleDescription(
    id: "voip-push-without-callkit",
    title: "VoIP Push Not Reported To CallKit",
    summary: "The app received a PushKit VoIP push and did not report an incoming call to CallKit in time.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    rationale: """
      Since iOS 13, every VoIP push delivered through PushKit must be reported to CallKit as an \
      incoming call (`CXProvider.reportNewIncomingCall(with:update:completion:)`) before \
      `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)` returns or calls its \
      completion. Otherwise PushKit raises "Killing app because it never posted an incoming call \
      to the system after receiving a PushKit VoIP push" (an `NSInternalInconsistencyException` \
      from `PKPushRegistry`), or the system kills the app with `0xbaadca11`; repeated failures \
      stop VoIP push delivery to the app. Implementing the delegate method as Swift `async` \
      defers the report past the point PushKit checks.
      """,
    remedy: """
      Report the call synchronously inside the delegate callback, then do the rest \
      asynchronously:

      ```swift
      func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload,
                        for type: PKPushType, completion: @escaping () -> Void) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: payload.callerID)
        provider.reportNewIncomingCall(with: UUID(), update: update) { error in
          if error != nil { /* the call was rejected (Do Not Disturb, blocked): end it */ }
          completion()
        }
      }
      ```

      Use the completion-handler variant, not `async`, and send pushes that are not calls as \
      regular (alert or background) notifications instead of VoIP pushes.
      """,
    references: [
      "https://developer.apple.com/documentation/pushkit/pkpushregistrydelegate/pushregistry(_:didreceiveincomingpushwith:for:completion:)",
      "https://developer.apple.com/documentation/xcode/sigkill",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    var evidence: [Evidence] = []
    var summary: String
    if let text = context.terminationText(containing: Self.reason)
      ?? context.reasonText(containing: "Killing app because it never posted an incoming call")
    {
      evidence.append(text)
      summary = "PushKit killed \(context.processDisplayName): \"\(DiagnosisContext.explanation(text.detail))\"."
    } else if let match = context.terminationCode(in: Self.codes) {
      evidence.append(match.evidence)
      summary =
        context.killedSentence(match) + ": it received a VoIP push and did not report an incoming call to CallKit."
    } else {
      return nil
    }
    if let bridge = context.firstFrameInAnyThread(containing: ["closure #1 in", "pushRegistry"]),
      bridge.detail.contains("pushRegistry")
    {
      evidence.append(bridge)
      summary += " The delegate method \(CodeSpan.markdown(bridge.detail)) (\(bridge.path)) is on the stack"
      summary +=
        bridge.detail.contains("@objc closure")
        ? "; it is the compiler's bridge for an `async` implementation, which reports the call too late." : "."
    }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  static let examples: [RuleExample] = [
    .triggers(
      "PushKit assertion",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        asi: [
          "PushKit": [
            "Killing app because it never posted an incoming call to the system after receiving a PushKit VoIP push."
          ]
        ],
        threads: [
          .main([
            .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
            .frame(.pushKit, "-[PKPushRegistry _terminateAppIfThereAreUnhandledVoIPPushes]"),
            .frame(.libdispatch, "_dispatch_call_block_and_release"),
          ])
        ]),
      .definite, summaryContains: ["never posted an incoming call"]),
    .triggers(
      "termination code 0xbaadca11",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0xbaadca11),
        threads: [.main(ExampleReport.idleMainThread)]),
      .definite, summaryContains: ["0xbaadca11", "CallKit"]),
    .ignores(
      "VoIP app resumed too often (0xbad22222)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "SPRINGBOARD", code: 0xbad22222),
        threads: [.main(ExampleReport.idleMainThread)])),
  ]
}
