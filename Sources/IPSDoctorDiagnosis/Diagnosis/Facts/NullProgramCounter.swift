import IPSDoctorReport
import IPSDoctorSupport

/// A thread that stopped with its program counter at zero: it had called through a NULL function
/// pointer or a nil block, and the fetch of the first instruction faulted.
///
/// A report records this on the crashed thread of an `EXC_BAD_ACCESS` at `0x0`, and also on the
/// main thread of a report whose process was killed later (a watchdog's `0x8badf00d`, a `SIGKILL`):
/// the fault was caught in the process (by a crash reporter's exception handler, typically) and
/// the thread never left the handler, so it was still at `pc = 0` when the process was killed.
///
/// Example: `threadState.pc = 0`, `esr = "(Instruction Abort) Translation fault"`, frame 0
/// `??? 0x0` (no image), frame 1 `ChatApp AnalyticsBridge.flush() + 96` (the caller, from `lr`).
struct NullProgramCounter {
  /// The thread that stopped at zero.
  var thread: CrashThread
  /// `threads[N].threadState.pc` (or frame 0) as evidence.
  var evidence: Evidence
  /// What the report shows, for a summary: "its program counter is `0x0`".
  var observation: String
  /// Whether the exception syndrome says the fault was an instruction fetch, which makes the
  /// reading certain; without it, a zero program counter is still a strong sign.
  var isInstructionAbort: Bool

  /// The thread that stopped at zero: the crashed thread, else the main thread (the one the
  /// watchdog rule reads, ``DiagnosisContext/mainOrFirstThread``).
  static func find(in context: DiagnosisContext) -> NullProgramCounter? {
    context.crashedThread.flatMap(find(on:)) ?? context.mainOrFirstThread.flatMap(find(on:))
  }

  /// `thread` stopped at zero: its `pc` register is 0, or it has no registers and its frame 0 is
  /// at address 0 in no image.
  static func find(on thread: CrashThread) -> NullProgramCounter? {
    let isInstructionAbort = thread.state?.esrDescription?.contains("Instruction Abort") ?? false
    if let pc = thread.state?["pc"] ?? thread.state?["rip"] {
      guard pc == 0 else { return nil }
      return NullProgramCounter(
        thread: thread, evidence: Evidence("threads[\(thread.index)].threadState.pc", "0x0"),
        observation: "its program counter is `0x0`", isInstructionAbort: isInstructionAbort)
    }
    guard let frame = thread.frames.first, frame.symbol == nil || frame.symbol == "???",
      frame.imageName == nil, (frame.address ?? frame.imageOffset) == 0
    else { return nil }
    return NullProgramCounter(
      thread: thread, evidence: Evidence("threads[\(thread.index)].frames[0]", "??? 0x0"),
      observation: "its top frame is at address `0x0`, in no image", isInstructionAbort: isInstructionAbort)
  }
}
