import IPSDoctorSupport

/// The stack protector caught a local buffer overrun: `__stack_chk_fail` aborted the process.
package struct StackBufferOverflowRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "stack-buffer-overflow",
    title: "Stack Buffer Overflow",
    summary: "A function wrote past the end of a local buffer; the stack protector noticed on return and aborted.",
    category: .memory,
    severity: .error,
    tier: .exact,
    outranks: [HeapCorruptionRule.self],
    rationale: """
      Functions with local arrays get a canary between their locals and the return address. \
      On return, a changed canary means a write ran past a local buffer (a C array, `strcpy`, \
      `sprintf`, `memcpy` with a wrong length, or an `UnsafeMutablePointer` into a stack \
      value). `__stack_chk_fail` then aborts: `EXC_CRASH (SIGABRT)`, with "stack buffer \
      overflow" in the Application Specific Information. The function that overflowed is the \
      caller of `__stack_chk_fail` (which may be symbolicated under a neighbouring name).
      """,
    remedy: """
      Look at the caller of `__stack_chk_fail` for writes into local buffers: use bounded \
      functions (`strlcpy`, `snprintf`), check lengths before `memcpy`, and in Swift prefer \
      arrays to fixed-size unsafe buffers. The Address Sanitizer (Scheme → Diagnostics) stops at \
      the overflowing write itself.
      """,
    references: ["https://developer.apple.com/documentation/xcode/diagnosing-memory-thread-and-crash-issues-early"],
    examples: [
      .triggers(
        "stack buffer overflow stated",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: ["libsystem_c.dylib": ["stack buffer overflow"]],
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "__abort"),
              .frame(.libsystemC, "__stack_chk_fail"),
              .frame(.app, "parse_header"), .frame(.app, "main"),
            ])
          ]),
        .definite, summaryContains: ["stack buffer overflow", "parse_header"]),
      .triggers(
        "__stack_chk_fail without the message",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.libsystemC, "__stack_chk_fail"),
              .frame(.app, "parse_header"),
            ])
          ]),
        .likely, summaryContains: ["__stack_chk_fail", "parse_header"]),
      .ignores(
        "plain abort (abort-called)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [.main(ExampleReport.abortFrames())])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let backtrace = context.crashedBacktrace else { return nil }
    let stated = context.reasonText(containing: "stack buffer overflow")
    // The frame alone only on the abort it leads to.
    let checkFrame =
      context.isAbort
      ? context.firstFrameIndex(in: backtrace, containing: "__stack_chk_fail").flatMap { $0 < 6 ? $0 : nil } : nil
    guard stated != nil || checkFrame != nil else { return nil }
    var evidence: [Evidence] = []
    var summary: String
    if let stated {
      evidence.append(stated)
      summary =
        "The report says \"stack buffer overflow\": the stack protector found a local buffer overrun when a function returned, and aborted."
    } else {
      summary =
        "`__stack_chk_fail` aborted the process: the stack protector found a local buffer overrun when a function returned."
    }
    if let checkFrame { evidence.append(context.frameEvidence(backtrace, checkFrame)) }
    if let app = context.appFrameEvidence(in: backtrace) {
      summary += " The function that overflowed its buffer is most likely \(DiagnosisContext.quote(app))."
      evidence.append(app)
    }
    return finding(confidence: stated != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }
}
