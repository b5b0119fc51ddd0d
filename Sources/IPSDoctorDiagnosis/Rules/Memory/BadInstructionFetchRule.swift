import IPSDoctorReport
import IPSDoctorSupport

/// The CPU tried to execute code at an address that holds none: a call through a bad function
/// pointer.
package struct BadInstructionFetchRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "bad-instruction-fetch",
    title: "Call Through A Bad Function Pointer",
    summary: "The app jumped to an address that is not code, through a bad function pointer, block or method.",
    category: .memory,
    severity: .error,
    tier: .specific,
    outranks: [KernMemoryErrorRule.self, NullPointerDereferenceRule.self],
    rationale: """
      When the faulting address equals the program counter (`pc`), or the ARM exception syndrome \
      says "Instruction Abort", the fault happened while fetching an instruction: the code jumped \
      to an address that is not executable. Frame 0 then has no image (`???`). The caller is in \
      the link register (`lr`), which the report symbolicates as frame 1. Typical causes: calling \
      a block or closure that was freed, a C function pointer or C++ virtual call on a destroyed \
      object, a corrupted return address (stack buffer overflow), or a NULL function pointer.
      """,
    remedy: """
      Look at the caller (frame 1, the `lr` register): it made the call. Check that the block, \
      delegate, function pointer or C++ object it called through is still alive (copy blocks that \
      outlive the call; do not keep `unowned(unsafe)` or raw pointers to objects), and look for \
      stack buffer overflows in the caller's locals. The Address Sanitizer catches both.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes"
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault else { return diagnoseKilledAtNull(context) }
    guard !fault.isBad0, let thread = context.crashedThread else { return nil }
    // A branch through a pointer whose signature failed is pointer-authentication-failure: the
    // report's flag names the cause, the instruction fetch is only how it showed.
    if fault.isPACFlagged { return nil }
    let state = thread.state
    let pc = state?["pc"] ?? state?["rip"]
    let far = state?["far"]
    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    var confidence: Confidence?
    if let esr = state?.esrDescription, esr.contains("Instruction Abort") {
      confidence = .definite
      evidence.append(Evidence("threads[\(thread.index)].threadState.esr", esr))
    }
    if let pc, pc == (far ?? fault.effectiveAddress ?? fault.address), fault.address != nil || far != nil {
      confidence = .definite
      evidence.append(Evidence("threads[\(thread.index)].threadState.pc", String.hex(pc)))
    }
    if confidence == nil, let frame = thread.frames.first, frame.imageIndex == nil, frame.imageName == nil,
      frame.symbol == nil || frame.symbol == "???", let address = frame.address ?? pc,
      address == fault.effectiveAddress
    {
      confidence = .likely
      evidence.append(Evidence("threads[\(thread.index)].frames[0]", "??? " + String.hex(address)))
    }
    guard let confidence else { return nil }

    let target = pc ?? fault.effectiveAddress
    var summary =
      "The CPU tried to execute code at "
      + (target.map { "\(CodeSpan.markdown(String.hex($0)))" } ?? "an address that is not code")
      + ", which is not executable code: the app called through a bad function pointer, block, "
      + "method implementation or return address."
    let lr = state?.registers.first { $0.name == "lr" }
    if let backtrace = context.crashedBacktrace, backtrace.frames.count > 1 {
      let caller = context.frameEvidence(backtrace, 1)
      summary += " The caller (frame 1, from the link register) is \(DiagnosisContext.quote(caller))."
      evidence.append(caller)
    } else if let lr {
      summary +=
        " The link register holds \(String.hex(lr.value))\(lr.symbol.map { " (\(CodeSpan.markdown($0)))" } ?? "")."
    }
    if let address = target, address < 0x1000 {
      summary += " The target is near zero: a NULL function pointer or a nil block was called."
    } else if target == (far ?? fault.effectiveAddress), let region = MemoryFault.arrowLine(in: context),
      let kind = Self.dataRegionKind(region.detail)
    {
      summary +=
        " It lies in a \(CodeSpan.markdown(kind)) region (\(region.path)), which holds data, not code: the "
        + "pointer called through was read from a damaged or freed object (a vtable, an `isa` or a block "
        + "pointer overwritten, often a use after free)."
      evidence.append(region)
    }
    return finding(confidence: confidence, summary: summary, evidence: evidence)
  }

  /// A process killed (by the watchdog or a `SIGKILL`) while its main or crashed thread was stopped
  /// at address 0: the call through a NULL pointer faulted, something in the process caught the
  /// fault and never returned, and the kill came later.
  private func diagnoseKilledAtNull(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.exceptionType == "EXC_CRASH" || context.signal == "SIGKILL",
      let stop = NullProgramCounter.find(in: context)
    else { return nil }
    let thread = stop.thread
    var evidence = [stop.evidence]
    let name = thread.isMainThread ? "The main thread (thread \(thread.index))" : "Thread \(thread.index)"
    var summary =
      "\(name) had called through a NULL function pointer or a nil block: \(stop.observation)"
    if stop.isInstructionAbort {
      summary += " and the exception syndrome records the instruction fetch there that faulted"
      evidence.append(Evidence("threads[\(thread.index)].threadState.esr", thread.state?.esrDescription ?? ""))
    }
    summary += "."
    if thread.frames.count > 1 {
      let caller = Evidence("threads[\(thread.index)].frames[1]", context.describe(thread.frames[1]))
      summary += " The caller (frame 1, from the link register) is \(DiagnosisContext.quote(caller))."
      evidence.append(caller)
    }
    let killer =
      context.terminationCode(in: WatchdogTimeoutRule.codes).map { "the watchdog killed the app with \($0.phrase)" }
      ?? "the process was killed"
    summary +=
      " The fault did not end the process: something in it caught the fault (an in-process crash "
      + "reporter's exception handler, typically) and the thread never went on, until \(killer)."
    return finding(
      confidence: stop.isInstructionAbort ? .definite : .likely, summary: summary, evidence: evidence,
      remedy: Self.description.remedy
        + "\n\nThe kill that ended the process is a consequence: once the NULL call is fixed, the thread "
        + "no longer stops. Check that the crash reporter the app links finishes its handler (its own "
        + "report of this fault may be on the device).")
  }

  /// The type of a `vmRegionInfo` region line ("__AUTH_CONST  1f0a10000-1f0a40000 …") when the
  /// region holds data rather than code; `nil` for code, unknown and unmapped regions.
  static func dataRegionKind(_ line: String) -> String? {
    guard let type = line.split(separator: " ").first else { return nil }
    let dataPrefixes = ["__DATA", "__AUTH", "__OBJC", "__LINKEDIT", "MALLOC", "Stack", "VM_ALLOCATE", "CoreAnimation"]
    return dataPrefixes.contains { type.hasPrefix($0) } ? String(type) : nil
  }

  /// A launch watchdog kill (`0x8badf00d`) of a main thread at `pc` with the syndrome `esr`.
  private static func watchdogKill(pc: UInt64, esr: String?, frames: [ExampleReport.Frame]) -> ExampleReport {
    ExampleReport(
      exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
      termination: ExampleReport.Termination(
        namespace: "FRONTBOARD", code: 0x8bad_f00d,
        reasons: ["scene-create watchdog transgression: exhausted real (wall clock) time allowance of 19.83 seconds"]),
      threads: [
        .main(frames, registers: ExampleReport.Registers(pc: pc, lr: 4_295_032_832, esr: 0, esrDescription: esr))
      ])
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "watchdog kill of a main thread stopped at pc 0 after an instruction abort",
      watchdogKill(
        pc: 0, esr: "(Instruction Abort) Translation fault",
        frames: [.frame(.app), .frame(.app, "AnalyticsBridge.flush()"), .frame(.app, "AppDelegate.bootstrap()")]),
      .definite, summaryContains: ["NULL function pointer", "AnalyticsBridge.flush()", "watchdog killed the app"]),
    .triggers(
      "watchdog kill of a main thread at pc 0, no syndrome",
      watchdogKill(pc: 0, esr: nil, frames: [.frame(.app), .frame(.app, "AnalyticsBridge.flush()")]),
      .likely, summaryContains: ["program counter is `0x0`"]),
    .ignores(
      "watchdog kill of a main thread waiting on a semaphore (watchdog-timeout)",
      watchdogKill(
        pc: 8_274_135_204, esr: "(Syscall)",
        frames: [.frame(.libsystemKernel, "semaphore_wait_trap"), .frame(.app, "APIClient.fetchConfigSync()")])),
    .ignores(
      "branch through a pointer flagged as a possible authentication failure (pointer-authentication-failure)",
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
        ])),
    .triggers(
      "pc equals the fault address",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGSEGV", subtype: "KERN_INVALID_ADDRESS at 0x0000000280f1c2a0"),
        threads: [
          .main(
            [.frame(.app), .frame(.app, "DownloadTask.finish()")],
            registers: ExampleReport.Registers(
              pc: 10753262240, lr: 4295032832, far: 10753262240, esr: 2181038086,
              esrDescription: "(Instruction Abort) Translation fault"))
        ]),
      .definite, summaryContains: ["`0x280f1c2a0`", "DownloadTask.finish()", "frame 1"]),
    .triggers(
      "pc in a constant data region of a framework (a vtable or method list)",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGSEGV", subtype: "KERN_PROTECTION_FAILURE at 0x00000001f0a2b3c0"),
        vmRegionInfo: """
          0x1f0a2b3c0 is in 0x1f0a10000-0x1f0a40000;  bytes after start: 110528  bytes before end: 85055
                REGION TYPE                    START - END         [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL
          --->  __AUTH_CONST                1f0a10000-1f0a40000    [  192K] r--/rw- SM=COW  /System/Library/Frameworks/UIKitCore.framework/UIKitCore
          """,
        threads: [
          .main(
            [.frame(.uiKit), .frame(.app, "ImageCell.prepareForReuse()")],
            registers: ExampleReport.Registers(
              pc: 8332161984, far: 8332161984, esr: 2181038095, esrDescription: "(Instruction Abort) Permission fault"
            ))
        ]),
      .definite, summaryContains: ["`__AUTH_CONST` region", "use after free", "ImageCell.prepareForReuse()"]),
    .ignores(
      "data access (pc differs from the fault address)",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x00000004cdfaf798",
        registers: ExampleReport.Registers(
          pc: 4382418216, far: 20635645848, esr: 2449473542,
          esrDescription: "(Data Abort) byte read Translation fault"))),
  ]
}
