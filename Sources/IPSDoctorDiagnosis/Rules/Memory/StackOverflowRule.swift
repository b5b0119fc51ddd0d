import IPSDoctorSupport

/// The thread ran off the end of its stack: a fault in the stack guard page, runaway recursion,
/// or `___chkstk_darwin` probing past the stack.
package struct StackOverflowRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "stack-overflow",
    title: "Stack Overflow",
    summary: "A thread used up its stack through runaway recursion or huge stack frames and hit the guard page.",
    category: .memory,
    severity: .error,
    tier: .exact,
    outranks: [StackBufferOverflowRule.self],
    rationale: """
      Each thread's stack is a fixed size (8 MB for the main thread on macOS, 1 MB on iOS; 512 KB \
      for secondary threads and the Swift concurrency pool), with an unmapped guard page below it. \
      Running past it faults with `EXC_BAD_ACCESS` and `vmRegionInfo` points (`--->`) at a \
      `STACK GUARD` region. Signs: the same few frames repeating hundreds of times (recursion that \
      never ends: mutually recursive property observers, `description` calling itself, layout \
      loops), or `___chkstk_darwin` on top, the probe the compiler inserts before a large stack \
      frame (big structs or arrays held by value, deep SwiftUI result builders).
      """,
    remedy: """
      For recursion, find the repeating frames and add or fix the base case (or turn the \
      recursion into a loop). For large frames, move big values to the heap (a class or an \
      array instead of a huge struct or tuple), split very large functions and view builders, and \
      run heavy work on a thread created with a bigger `stackSize` rather than on the cooperative \
      pool.

      ```swift
      let thread = Thread { deepWork() }
      thread.stackSize = 8 << 20  // 8 MB
      thread.start()
      ```
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes",
      "https://developer.apple.com/documentation/foundation/thread/1415190-stacksize",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault, let backtrace = context.crashedBacktrace else { return nil }
    // What the checks below add up to, found with the context.
    guard StackOverflowEvidence.isPresent(in: context) else { return nil }
    let stated = StackOverflowEvidence.statedByReport(in: context)
    let guardLine = StackOverflowEvidence.stackGuard(in: context)
    let probe = context.crashedThreadTop(2, contains: "chkstk_darwin")
    let stackPointer = StackOverflowEvidence.stackPointerAbove(fault, in: context)
    var cycle = StackOverflowEvidence.longestCycle(in: backtrace.frames)
    if let found = cycle {
      let corroborated = stated != nil || guardLine != nil || stackPointer != nil
      if found.length < StackOverflowEvidence.minimumCycleLength
        && !(corroborated && found.repetitions >= StackOverflowEvidence.minimumRepetitions)
      {
        cycle = nil
      }
    }
    guard stated != nil || guardLine != nil || probe != nil || stackPointer != nil || cycle != nil else { return nil }

    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    var summary = "Thread"
    if let thread = context.crashedThread {
      summary =
        thread.isMainThread
        ? "The main thread"
        : (context.crashedThreadDisplay.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? summary)
    }
    summary += " ran out of stack"
    if let stated {
      summary += ": the report says so (`\(TextScan.clip(stated.detail, 120))`)."
      evidence.append(stated)
    } else if let guardLine {
      summary +=
        ": the fault at \(fault.addressDisplay) is in the stack guard page (\(CodeSpan.markdown(TextScan.clip(guardLine.detail, 120))))."
      evidence.append(guardLine)
    } else if let stackPointer {
      summary +=
        ": the fault at \(fault.addressDisplay) is just below the stack pointer (\(CodeSpan.markdown(stackPointer.detail))), where the stack had run out."
      evidence.append(stackPointer)
    } else {
      summary += "."
    }
    if let cycle {
      let names = (cycle.start..<(cycle.start + cycle.period)).map { index in
        "`" + context.describe(backtrace.frames[index]) + "`"
      }
      let first = backtrace.framePath(cycle.start)
      summary +=
        cycle.period == 1
        ? " \(names[0]) calls itself"
        : " The frames \(names.joined(separator: " → ")) call each other"
      summary += " \(cycle.repetitions) times in a row from \(first)"
      summary += cycle.length + cycle.start >= backtrace.frames.count ? " to the end of the recorded backtrace" : ""
      summary += ": unbounded recursion."
      evidence.append(
        Evidence(
          first, "\(cycle.repetitions) repetitions of a \(cycle.period)-frame cycle: \(names.joined(separator: ", "))"))
    }
    if let probe {
      summary +=
        " `___chkstk_darwin` is on top: the stack probe for a function with a very large stack frame ran past the stack"
      if probe.index + 1 < backtrace.frames.count {
        let caller = context.frameEvidence(backtrace, probe.index + 1)
        summary += "; the function that needed it is \(DiagnosisContext.quote(caller))"
        evidence.append(caller)
      }
      summary += "."
      evidence.append(probe.evidence)
    }
    if cycle == nil && probe == nil, let app = context.appFrameEvidence(in: backtrace) {
      summary +=
        " The first app frame is \(DiagnosisContext.quote(app)); look for deep recursion or large local values below it."
      evidence.append(app)
    }
    let confidence: Confidence = stated != nil || guardLine != nil || probe != nil ? .definite : .likely
    return finding(confidence: confidence, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = {
    let recursion: [ExampleReport.Frame] =
      [.frame(.libsystemMalloc, "_malloc_zone_malloc", offset: 100)]
      + Array(
        repeating: [.frame(.app, "Node.depth.getter", offset: 2000), .frame(.app, "Node.height.getter", offset: 3000)],
        count: 60
      ).flatMap { $0 }
    return [
      .triggers(
        "stack guard and mutual recursion",
        ExampleReport.badAccess(
          "KERN_PROTECTION_FAILURE at 0x000000016f603ff8", frames: recursion, signal: "SIGBUS",
          vmRegionInfo:
            "0x16f603ff8 is in 0x16f600000-0x16f604000;  bytes after start: 16376  bytes before end: 7\n      REGION TYPE  START - END  [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL\n--->  STACK GUARD  16f600000-16f604000 [ 16K] ---/rwx SM=NUL  stack guard for thread 0"
        ),
        .definite,
        summaryContains: ["stack guard", "Node.depth.getter", "Node.height.getter", "60 times", "threads[0].frames[1]"]),
      .triggers(
        "recursion only",
        ExampleReport.badAccess(
          "KERN_INVALID_ADDRESS at 0x000000016b1fbff0",
          frames: Array(
            repeating: .frame(.app, "Formatter.description.getter", offset: 500, symbolLocation: 24), count: 512)),
        .likely, summaryContains: ["`Example Formatter.description.getter + 24` calls itself"]),
      .triggers(
        "___chkstk_darwin on top",
        ExampleReport.badAccess(
          "KERN_PROTECTION_FAILURE at 0x0000000170a2bff0",
          frames: [.frame(.libsystemC, "___chkstk_darwin"), .frame(.app, "BigView.body.getter")], signal: "SIGBUS"),
        .definite, summaryContains: ["___chkstk_darwin", "BigView.body.getter"]),
      .triggers(
        "stack guard row without an arrow, short recursion",
        ExampleReport.badAccess(
          "KERN_INVALID_ADDRESS at 0x0000000000003000",
          frames: Array(repeating: .frame(.app, "recurse(_:)", offset: 700), count: 5) + [.frame(.app, "main")],
          vmRegionInfo:
            "0x3000 is in a 16K region.  Bytes into region: 0\n      REGION TYPE  START - END  [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL\n      STACK GUARD  0000000-0004000  [   16K] ---/--- SM=NUL"
        ),
        .definite, summaryContains: ["stack guard", "recurse(_:)", "5 times"]),
      .triggers(
        "fault just below the stack pointer in a recursion",
        ExampleReport.badAccess(
          "KERN_INVALID_ADDRESS at 0x000000002fd59ff8",
          frames: Array(
            repeating: [.frame(.app, "Parser.value()", offset: 700), .frame(.app, "Parser.array()", offset: 900)],
            count: 10
          ).flatMap { $0 }, registers: ExampleReport.Registers(pc: 4295000000, sp: 802529288)),
        .likely, summaryContains: ["stack pointer", "Parser.value()", "call each other"]),
      .ignores(
        "a short repetition is normal",
        ExampleReport.badAccess(
          "KERN_INVALID_ADDRESS at 0x00000004cdfaf798",
          frames: Array(repeating: .frame(.app, "Tree.visit(_:)", offset: 700), count: 12))),
      .ignores(
        "protection failure elsewhere",
        ExampleReport.badAccess(
          "KERN_PROTECTION_FAILURE at 0x0000000104c2c010",
          vmRegionInfo:
            "0x104c2c010 is in 0x104c28000-0x104c30000\n--->  __DATA_CONST  104c28000-104c30000  [   32K] r--/rw- SM=COW"
        )),
    ]
  }()
}
