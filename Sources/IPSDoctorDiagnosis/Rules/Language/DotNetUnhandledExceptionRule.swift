import IPSDoctorSupport

/// A .NET (Mono, Xamarin, .NET for iOS/Mac) exception nobody caught: the runtime's unhandled
/// exception path aborted the app.
package struct DotNetUnhandledExceptionRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "dotnet-unhandled-exception",
    title: "Unhandled .NET Exception",
    summary:
      "A managed .NET exception (Mono, Xamarin, .NET for iOS or macOS) was not caught and the runtime aborted the app.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    rationale: """
      When a managed exception escapes (no `catch`, or it crossed into native code), the Mono \
      runtime calls its unhandled-exception hook (`mono_invoke_unhandled_exception_hook`), and \
      Xamarin/.NET for iOS (`xamarin_unhandled_exception_handler`, \
      `xamarin_process_managed_exception`) turns it into an abort or an Objective-C exception. \
      The native backtrace shows the runtime; the managed exception's type, message and stack \
      are printed to the device log ("Unhandled managed exception: …").
      """,
    remedy: """
      Find the managed exception in the device log or your crash SDK (its type, message and \
      managed stack), fix the throwing code or catch it where it can be handled, and subscribe \
      to `AppDomain.CurrentDomain.UnhandledException` / `TaskScheduler.UnobservedTaskException` \
      to log it before the app ends.
      """,
    references: ["https://learn.microsoft.com/dotnet/ios/platform/exception-marshaling"],
    examples: [
      .triggers(
        "Xamarin unhandled exception handler aborting",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.app, "xamarin_unhandled_exception_handler"),
              .frame(.app, "mono_invoke_unhandled_exception_hook"), .frame(.app, "mono_handle_exception_internal"),
              .frame(.app, "main"),
            ])
          ]),
        .likely, summaryContains: ["xamarin_unhandled_exception_handler", "managed"]),
      .ignores(
        "a Mono app blocked by the watchdog",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__psynch_cvwait"), .frame(.app, "mono_os_cond_timedwait"),
              .frame(.app, "mono_jit_exec"),
              .frame(.app, "main"),
            ])
          ])),
    ])

  static let markers = MarkerSet([
    "xamarin_unhandled_exception_handler", "mono_invoke_unhandled_exception_hook", "xamarin_process_managed_exception",
    "mono_unhandled_exception", "xamarin_throw_product_exception",
  ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let stated = context.reasonText(containing: "Unhandled managed exception")
    // The frames alone only where the runtime's error path ends: an abort or a raised exception.
    let frame =
      context.isAbort || context.lastExceptionBacktrace != nil
      ? ManagedRuntimeFrames.find(Self.markers, in: context) : nil
    guard stated != nil || frame != nil else { return nil }
    var evidence: [Evidence] = []
    var summary = "A managed .NET exception was not caught"
    if let stated {
      summary += ": \"\(TextScan.clip(stated.detail, 200))\" (\(stated.path))."
      evidence.append(stated)
    } else {
      summary += "; the report does not keep its type or message (they are in the device log)."
    }
    if let frame {
      summary += " The runtime's unhandled-exception path is on the stack: \(DiagnosisContext.quote(frame))."
      evidence.append(frame)
    }
    return finding(confidence: stated != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }
}
