import IPSDoctorSupport

/// The app sent itself a signal: `raise`, `kill` or `pthread_kill` called from the app's code.
package struct SelfRaisedSignalRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "self-raised-signal",
    title: "Signal Raised By The App",
    summary: "The app's own code sent the process a signal with raise(), kill() or pthread_kill(); no fault happened.",
    category: .systemTermination,
    severity: .error,
    tier: .specific,
    outranks: [BadSystemCallRule.self],
    rationale: """
      A signal sent in software arrives as `EXC_CRASH (SIG…)` with exception codes of zero: \
      nothing faulted. When the crashed thread's top frames are `__pthread_kill` under `raise`, \
      `kill` or `pthread_kill`, and the next frame is the app's, the app sent the signal itself \
      (a deliberate crash, a test hook, or a call with the wrong pid or signal). A crash \
      reporter built into the app does the same when it re-raises a signal after recording a \
      real fault; then the report it wrote itself holds the first crash.
      """,
    remedy: """
      Find the app frame that called `raise`/`kill`/`pthread_kill` (named in the summary) and \
      remove or guard the call. If that frame belongs to a crash-reporting SDK re-raising a \
      signal, look for that SDK's own report of the original crash.
      """,
    references: ["https://developer.apple.com/documentation/xcode/understanding-the-exception-types-in-a-crash-report"],
    examples: [
      .triggers(
        "raise(SIGSEGV) from a button action",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_CRASH", signal: "SIGSEGV", codes: "0x0000000000000000, 0x0000000000000000"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemPthread, "pthread_kill"),
              .frame(.libsystemC, "raise"), .frame(.app, "SettingsView.crashButtonTapped()"),
              .frame(.uiKit, "UIApplicationMain"),
              .frame(.app, "main"),
            ])
          ]),
        .likely, summaryContains: ["`raise`", "SettingsView.crashButtonTapped()", "SIGSEGV"]),
      .ignores(
        "a crash reporter's signal handler re-raising a caught signal",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGSEGV"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "raise"),
              .frame(.app, "CrashReporter.handleSignal(_:)"),
              .frame(.libsystemPlatform, "_sigtramp"), .frame(.app, "Parser.next()"), .frame(.app, "main"),
            ])
          ])),
      .ignores(
        "abort() (abort-called)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [.main(ExampleReport.abortFrames())])),
      .ignores(
        "raise called by a system library",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGTERM"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "raise"),
              .frame(.foundation, "-[NSTask terminate]"),
              .frame(.app, "main"),
            ])
          ])),
    ])

  /// The kernel call and the functions that send a signal, as they appear on top of the thread.
  static let signalSenders = ["__pthread_kill", "pthread_kill", "raise", "kill", "__kill", "tgkill"]

  /// The sender a frame's name is, itself or a variant of it (`pthread_kill$VARIANT$armv81`).
  static func signalSender(named name: String) -> String? {
    let base = name.text(before: "$")
    return signalSenders.first { $0 == base }
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let report = context.report
    guard let signal = report.exception?.signal, let backtrace = context.crashedBacktrace else { return nil }
    // A fault is a fault even if a handler re-raised it; only software-sent signals here.
    if let type = report.exception?.type, type != "EXC_CRASH" && type != signal { return nil }
    var index = 0
    var sender: String?
    while index < min(backtrace.frames.count, 4), let name = context.displayName(backtrace.frames[index]),
      let matched = Self.signalSender(named: name)
    {
      if matched != "__pthread_kill" { sender = matched }
      index += 1
    }
    guard let sender, index < backtrace.frames.count, context.isAppFrame(backtrace.frames[index]) else {
      return nil
    }
    // `_sigtramp` below means a signal handler (a crash reporter's) re-raised a signal it caught:
    // the crash is under the handler, not the app's own raise.
    if context.firstFrameIndex(in: backtrace, containing: "_sigtramp") != nil { return nil }
    let caller = context.appFrameEvidence(in: backtrace, from: index) ?? context.frameEvidence(backtrace, index)
    let senderEvidence = context.frameEvidence(backtrace, index - 1)
    var summary =
      "The app sent itself \(CodeSpan.markdown(signal)): \(CodeSpan.markdown(sender)) (\(senderEvidence.path)) was called from the app's \(DiagnosisContext.quote(caller))"
    summary +=
      ", and no memory fault or exception came before it. Unless that frame is a crash reporter re-raising a signal it caught, the app crashed on purpose or passed the wrong signal or pid."
    if let thread = context.crashedThreadDisplay { summary += " It happened on \(thread)." }
    var evidence = [Evidence("exception.signal", signal), senderEvidence, caller]
    if let type = report.exception?.type { evidence.insert(Evidence("exception.type", type), at: 0) }
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }
}
