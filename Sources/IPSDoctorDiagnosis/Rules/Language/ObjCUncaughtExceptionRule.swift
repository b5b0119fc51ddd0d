import IPSDoctorSupport

/// Any uncaught Objective-C exception (`NSException`): the generic rule under the specific
/// exception rules.
package struct ObjCUncaughtExceptionRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "objc-uncaught-exception",
    title: "Uncaught Objective-C Exception",
    summary: "An NSException was raised and not caught, so the Objective-C runtime aborted the app.",
    category: .languageException,
    severity: .error,
    tier: .fallback,
    outranks: [AbortCalledRule.self, IllegalInstructionRule.self, InvalidAddressRule.self],
    rationale: """
      Objective-C frameworks report programming errors by raising an `NSException`: an index past \
      the end of an array, `nil` inserted into a collection, a message the receiver does not \
      understand, a UIKit assertion. Swift cannot catch these. The exception unwinds to the top of \
      the thread, the runtime's terminate handler calls `abort()`, and the report shows \
      `EXC_CRASH (SIGABRT)` with `abort() called`, the exception's name and reason in \
      `exceptionReason`, and where it was thrown in `lastExceptionBacktrace` (the crashed thread \
      only shows the abort machinery). A plain `SIGABRT` with `abort() called` and neither of those \
      is not an exception: see `abort-called`.
      """,
    remedy: """
      Read the exception's reason: it names the broken precondition. Then open the first frame of \
      your app in the last exception backtrace (symbolicate it if it has no symbol): that is the \
      call that handed the framework bad input or called it in the wrong state. Fix the input or \
      the state there; do not try to catch the exception (Swift cannot, and catching it in \
      Objective-C leaves the framework in an undefined state). Add an exception breakpoint in \
      Xcode (Breakpoint navigator → + → Exception Breakpoint) to stop at the throw site.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-language-exception-crashes",
      "https://developer.apple.com/documentation/xcode/reading-an-exception-message",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let exception = context.languageException, exception.isObjC else { return nil }
    let hasReason = exception.name != nil || exception.reason != nil
    guard hasReason || exception.throwBacktrace != nil else { return nil }
    // A generic rule: confident about the exception, not about its cause.
    let confidence: Confidence =
      exception.name != nil && exception.throwBacktrace != nil ? .likely : .possible

    var summary: String
    if let name = exception.name {
      summary = "The app was terminated by an uncaught Objective-C exception \(CodeSpan.markdown(name))"
      if let reason = exception.reason {
        summary += ": \"\(TextScan.clip(reason))\"."
      } else {
        summary += " (no reason recorded)."
      }
    } else if let reason = exception.reason {
      summary =
        "The app was terminated by an uncaught Objective-C exception whose name the report "
        + "does not record; the reason reads \"\(TextScan.clip(reason))\"."
    } else {
      summary =
        "The app was terminated by an uncaught Objective-C exception; the report records "
        + "where it was thrown (\(exception.throwBacktrace?.path ?? "the crashed thread")) but not its name or reason."
    }
    // The app frame found and described once, for the sentence and the evidence.
    let appFrame = exception.appFrame(in: context)
    summary += " " + exception.throwSiteSentence(appFrame: appFrame)
    if let thread = context.crashedThreadDisplay {
      summary += " It was raised on \(thread)."
    }

    var evidence = exception.evidence(reservingCapacityFor: 2)
    if let appFrame { evidence.append(appFrame) }
    if let abort = context.reasonText(containing: "abort() called") { evidence.append(abort) }
    var diagnosis = finding(confidence: confidence, summary: summary, evidence: evidence)
    // The exception's name tells one uncaught exception from another where the app frames do not.
    diagnosis.instanceKey = exception.name
    return diagnosis
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "NSInternalInconsistencyException with a backtrace",
      ExampleReport.uncaughtException(
        name: "NSInternalInconsistencyException", reason: "Invalid update: invalid number of rows in section 0",
        throwingFrames: [
          .frame(.foundation, "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]")
        ]),
      .likely,
      summaryContains: [
        "NSInternalInconsistencyException", "Invalid update: invalid number of rows",
        "ViewController.viewDidLoad()", "lastExceptionBacktrace[3]",
      ]),
    .triggers(
      "reason elided: the exception backtrace alone", ExampleReport.uncaughtException(name: nil, reason: nil),
      .possible,
      summaryContains: ["lastExceptionBacktrace"]),
    .triggers(
      "older report: Terminating app due to uncaught exception",
      ExampleReport.uncaughtException(
        name: nil, reason: nil, hasBacktrace: false,
        asi: [
          "UIKitCore": [
            "*** Terminating app due to uncaught exception 'NSGenericException', reason: 'Your application has presented a UIAlertController of style UIAlertControllerStyleActionSheet.'"
          ]
        ]),
      .possible, summaryContains: ["NSGenericException", "UIAlertControllerStyleActionSheet"]),
    .ignores(
      "abort() called without an exception (abort-called)",
      ExampleReport.uncaughtException(
        name: nil, reason: nil, hasBacktrace: false,
        crashedFrames: [
          .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"), .frame(.app, "fail(_:)"),
        ])),
    .ignores(
      "C++ exception (cxx-uncaught-exception)",
      ExampleReport.uncaughtException(
        name: nil, reason: nil, hasBacktrace: false,
        asi: ["libc++abi.dylib": ["terminating due to uncaught exception of type std::out_of_range: vector"]],
        crashedFrames: [
          .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
          .frame(.libcxxabi, "__abort_message"),
          .frame(.libcxxabi, "demangling_terminate_handler()"), .frame(.libobjc, "_objc_terminate()"),
          .frame(.libcxxabi, "std::__terminate(void (*)())"), .frame(.libcxxabi, "__cxa_throw"),
          .frame(.app, "Parser::parse()"),
        ])),
  ]
}
