import IPSDoctorSupport

/// `EXC_CRASH (SIGSYS)`: the process made an invalid or forbidden system call.
package struct BadSystemCallRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "bad-system-call",
    title: "Bad System Call",
    summary: "The process made an invalid or forbidden system call and was killed with SIGSYS.",
    category: .systemTermination,
    severity: .error,
    tier: .specific,
    rationale: """
      `SIGSYS` ("bad system call") is delivered when a process makes a system call with an \
      invalid number, or one that the platform or its sandbox does not allow — for example the \
      deprecated `syscall(2)` interface, a private system call, or a call a sandbox profile \
      forbids. The crashed thread's top frame is usually the system call itself.
      """,
    remedy: """
      Replace the offending call (the top frames of the crashed thread) with a public API; do \
      not invoke `syscall()` directly or call private interfaces. If a third-party library makes \
      the call, update it.
      """,
    references: ["https://developer.apple.com/documentation/xcode/understanding-the-exception-types-in-a-crash-report"],
    examples: [
      .triggers(
        "SIGSYS from syscall()",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGSYS"),
          termination: ExampleReport.Termination(namespace: "SIGNAL", code: 12, indicator: "Bad system call: 12"),
          threads: [
            .main([.frame(.libsystemKernel, "syscall"), .frame(.app, "JailbreakCheck.run()"), .frame(.app, "main")])
          ]),
        .definite, summaryContains: ["SIGSYS", "syscall", "JailbreakCheck.run()"]),
      .ignores(
        "SIGABRT",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [.main(ExampleReport.abortFrames())])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let signal = context.report.exception?.signal ?? ""
    let isSIGSYS =
      signal.hasPrefix("SIGSYS") || context.report.exception?.type?.contains("SIGSYS") == true
      || (context.report.termination?.namespace == "SIGNAL" && context.report.termination?.code == 12)
    guard isSIGSYS else { return nil }
    var evidence = [Evidence(signal.isEmpty ? "termination.code" : "exception.signal", signal.isEmpty ? "12" : signal)]
    var summary = "\(context.processDisplayName) was killed with `SIGSYS`: it made an invalid or forbidden system call."
    if let thread = context.crashedThread ?? context.mainOrFirstThread {
      let frames = context.topFrames(of: thread, limit: 2)
      if !frames.isEmpty {
        summary += " The crashed thread (thread \(thread.index)) was in " + DiagnosisContext.frameList(frames) + "."
        evidence += frames
      }
      if let app = context.firstAppFrame(on: thread), !evidence.contains(app) {
        summary += " The call came from \(CodeSpan.markdown(app.detail)) (\(app.path))."
        evidence.append(app)
      }
    }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }
}
