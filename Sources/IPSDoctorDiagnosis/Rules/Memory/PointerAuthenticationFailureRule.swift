import IPSDoctorSupport

/// "(possible pointer authentication failure)": a pointer whose arm64e signature did not verify.
package struct PointerAuthenticationFailureRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "pointer-authentication-failure",
    title: "Possible Pointer Authentication Failure",
    summary: "A signed pointer failed arm64e pointer authentication: it was corrupted, stale or forged.",
    category: .memory,
    severity: .error,
    tier: .specific,
    outranks: [NullPointerDereferenceRule.self],
    rationale: """
      On arm64e (A12 and later), return addresses, function pointers, vtables and Objective-C \
      `isa` pointers carry a signature in their high bits. When an authentication fails, the CPU \
      produces an invalid address, and the report says `KERN_INVALID_ADDRESS at 0x41fc…01b0 -> \
      0x…01b0 (possible pointer authentication failure)`: the first number is the pointer as \
      found, the second without its signature. The pointer was overwritten (buffer overflow, use \
      after free, a data race) or used in the wrong context. Apple notes that memory corruption \
      of a pointer's high bits produces the same message, so this is a strong hint, not proof. \
      The address ending in `0xbad0` is a different, documented signature \
      (`objc-concurrent-property-access`).
      """,
    remedy: """
      Treat it as memory corruption around the pointer the faulting frame used: reproduce with the \
      Address Sanitizer and Thread Sanitizer, check function pointers, blocks and C++ objects \
      stored in memory you manage yourself, and look for objects used after they were freed \
      (Zombie Objects). If the app patches code or function pointers at run time, sign them with \
      `ptrauth_sign_unauthenticated` or stop doing it.
      """,
    references: [
      "https://developer.apple.com/documentation/security/preparing-your-app-to-work-with-pointer-authentication",
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault, fault.isPACFlagged, !fault.isBad0 else { return nil }
    if StackOverflowEvidence.isPresent(in: context) { return nil }  // stack-overflow
    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    var summary =
      "The app crashed with \(context.exceptionDisplay) at \(fault.addressDisplay), and the "
      + "report flags a possible pointer authentication failure: a signed pointer's high bits did "
      + "not verify, so it was corrupted, stale, or used in the wrong context."
    if let thread = context.crashedThread, let state = thread.state,
      state.esrDescription?.contains("Instruction Abort") == true
        || (state["pc"] != nil && state["pc"] == (state["far"] ?? fault.effectiveAddress))
    {
      summary +=
        " The CPU faulted fetching an instruction: the pointer was a code pointer (a function pointer, block, method implementation or return address) that the app branched to."
    }
    summary += MemoryFault.crashSiteSentence(in: context, evidence: &evidence)
    if let crashing = context.crashingFrame, let name = context.symbol(crashing.frame)?.display,
      ZombieObjectRule.runtimeSymbols.contains(where: { name.hasPrefix($0) })
    {
      summary +=
        " A failure inside \(CodeSpan.markdown(name)) usually means an object's `isa` pointer was read from freed memory."
    }
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "branch through a corrupted code pointer",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGSEGV",
          subtype:
            "KERN_INVALID_ADDRESS at 0x0020000280f1c2a0 -> 0x0000000280f1c2a0 (possible pointer authentication failure)"
        ),
        threads: [
          .main(
            [.frame(.app), .frame(.app, "DownloadTask.finish()")],
            registers: ExampleReport.Registers(
              pc: 10753262240, far: 10753262240, esr: 2181038086,
              esrDescription: "(Instruction Abort) Translation fault"))
        ]),
      .likely, summaryContains: ["pointer authentication", "fetching an instruction"]),
    .triggers(
      "corrupted pointer",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x41fc821e000001b0 -> 0x00000001000001b0 (possible pointer authentication failure)",
        frames: [.frame(.app, "GameScene.update(_:)")], signal: "SIGBUS"),
      .likely,
      summaryContains: ["`0x41fc821e000001b0`", "`0x1000001b0`", "pointer authentication", "GameScene.update(_:)"]),
    .ignores(
      "0xbad0 (objc-concurrent-property-access)",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x400000000000bad0 -> 0x000000000000bad0 (possible pointer authentication failure)")),
    .ignores("plain invalid address", ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x00000004cdfaf798")),
  ]
}
