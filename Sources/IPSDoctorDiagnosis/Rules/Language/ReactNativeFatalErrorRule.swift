import IPSDoctorSupport

/// React Native turned an unhandled JavaScript error into a native exception (`RCTFatal`).
package struct ReactNativeFatalErrorRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "react-native-fatal-js-error",
    title: "Unhandled React Native JavaScript Error",
    summary:
      "A JavaScript error nobody caught reached React Native's fatal handler, which raised a native exception and ended the app.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    rationale: """
      In release builds React Native reports an uncaught JavaScript error through \
      `RCTExceptionsManager reportFatal…` to `RCTFatal`, which raises an `NSException` named \
      `RCTFatalException: Unhandled JS Exception: <message>`. The native backtrace only shows \
      the bridge; the JavaScript error's message (and its JS stack, when the reason keeps it) is \
      what locates the bug.
      """,
    remedy: """
      Read the JavaScript message and stack in the exception reason (symbolicate the JS stack \
      with the bundle's source map), fix the throwing code, and add an error boundary or a \
      global handler (`ErrorUtils.setGlobalHandler`) that reports instead of crashing for \
      errors you can recover from.
      """,
    references: ["https://reactnative.dev/docs/debugging"],
    examples: [
      .triggers(
        "RCTFatal with the JS message",
        ExampleReport.uncaughtException(
          name:
            "RCTFatalException: Unhandled JS Exception: TypeError: undefined is not an object (evaluating 'user.name')",
          reason:
            "Unhandled JS Exception: TypeError: undefined is not an object (evaluating 'user.name'), stack: render@1:2345",
          throwingFrames: [
            .frame(.app, "RCTFatal"),
            .frame(.app, "-[RCTExceptionsManager reportFatal:stack:exceptionId:extraDataAsJSON:]"),
          ]),
        .definite, summaryContains: ["undefined is not an object", "RCTFatal"]),
      .ignores(
        "an Objective-C exception in a React Native app (objc-uncaught-exception)",
        ExampleReport.uncaughtException(name: "NSInternalInconsistencyException", reason: "Invalid update")),
    ])

  static let markers = MarkerSet(["RCTFatal", "RCTExceptionsManager reportFatal"])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let stated = context.reasonText(containing: "Unhandled JS Exception")
    // The frames alone only where the runtime's error path ends: an abort or a raised exception.
    let frame =
      context.isAbort || context.lastExceptionBacktrace != nil
      ? ManagedRuntimeFrames.find(Self.markers, in: context) : nil
    guard stated != nil || frame != nil else { return nil }
    var evidence: [Evidence] = []
    var summary = "React Native's fatal handler ended the app on an uncaught JavaScript error"
    if let stated {
      let message =
        stated.detail.firstRange(of: "Unhandled JS Exception: ")
        .map { String(stated.detail[$0.upperBound...]) } ?? stated.detail
      summary += ": \"\(TextScan.clip(message, 200))\" (\(stated.path))."
      evidence.append(stated)
    } else {
      summary += "; the report does not keep the JavaScript message."
    }
    if let frame {
      summary += " The native exception was raised from \(DiagnosisContext.quote(frame))."
      evidence.append(frame)
    }
    summary += " The native frames only show the bridge: the JavaScript error is the bug."
    return finding(confidence: stated != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }
}
