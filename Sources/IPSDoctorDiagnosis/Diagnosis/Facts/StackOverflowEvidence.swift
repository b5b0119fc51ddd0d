import IPSDoctorReport
import IPSDoctorSupport

/// What shows that the crashed thread ran out of stack: a stack guard region at the fault, a stack
/// probe on top, the stack pointer just above the fault, or runaway recursion. Found once per
/// report by ``DiagnosisContext`` (``DiagnosisContext/isStackOverflow``); `stack-overflow` words it,
/// and the other memory rules step aside for it.
enum StackOverflowEvidence {
  /// The `vmRegionInfo`/`vmSummary` arrow line naming a stack guard; or, when `vmRegionInfo` has
  /// no arrow but says the address is in a region and lists a `STACK GUARD` row, that row (the
  /// region is then the one listed).
  static func stackGuard(in context: DiagnosisContext) -> Evidence? {
    if let line = MemoryFault.arrowLine(in: context) {
      return line.detail.containsIgnoringCase("stack guard") ? line : nil
    }
    guard let info = context.report.vmRegionInfo, info.prefilteredContains("STACK GUARD"),
      !info.prefilteredContains("not in any region"),
      let row = info.split(separator: "\n").first(where: { $0.prefilteredContains("STACK GUARD") })
    else { return nil }
    return Evidence("vmRegionInfo", row.trimmingWhitespace())
  }

  /// The report's own words for it: the kernel's exception message "Thread stack size exceeded
  /// due to excessive recursion" (`exception.message`, a text report's `Exception Message:`).
  static func statedByReport(in context: DiagnosisContext) -> Evidence? {
    guard let message = context.report.exception?.message,
      message.containsIgnoringCase("stack size exceeded") || message.containsIgnoringCase("excessive recursion")
    else { return nil }
    return Evidence("exception.message", message)
  }

  /// The crashed thread's stack pointer when the fault address lies at most 64 KiB below it (and
  /// above the zero page): the thread pushed or probed past the mapped end of its stack, which
  /// only an exhausted stack does.
  static func stackPointerAbove(_ fault: MemoryFault, in context: DiagnosisContext) -> Evidence? {
    guard let address = fault.address, address >= 0x10000, let thread = context.crashedThread,
      let state = thread.state
    else { return nil }
    let name = state["sp"] != nil ? "sp" : "rsp"
    guard let sp = state[name], address <= sp, sp - address <= 0x10000 else { return nil }
    return Evidence("threads[\(thread.index)].threadState.\(name)", String.hex(sp))
  }

  /// Whether the crashed thread overflowed its stack (guard page, stack probe or long recursion).
  static func isPresent(in context: DiagnosisContext) -> Bool {
    context.isStackOverflow ?? collect(in: context, memoryFault: context.memoryFault)
  }

  /// Finds `isPresent(in:)`, given `context.memoryFault` (passed on its own, as
  /// `DiagnosisContext.init` finds both from a context that holds neither yet); called once per
  /// report by `DiagnosisContext.init`.
  static func collect(in context: DiagnosisContext, memoryFault: MemoryFault?) -> Bool {
    guard let memoryFault, let backtrace = context.crashedBacktrace else { return false }
    if statedByReport(in: context) != nil || stackGuard(in: context) != nil
      || context.crashedThreadTop(2, contains: "chkstk_darwin") != nil
      || stackPointerAbove(memoryFault, in: context) != nil
    {
      return true
    }
    // A cycle covers at most every frame.
    guard backtrace.frames.count >= minimumCycleLength else { return false }
    return (longestCycle(in: backtrace.frames)?.length ?? 0) >= minimumCycleLength
  }

  /// Frames a repeating cycle must cover to count as runaway recursion on its own. With a stack
  /// guard or the stack pointer as evidence, any cycle of ``minimumRepetitions`` is reported.
  static let minimumCycleLength = 40
  static let minimumRepetitions = 3

  /// The longest run of a repeating cycle of 1 to 8 frames in `frames`.
  struct Cycle {
    var start: Int
    var period: Int
    /// Frames covered by the repetition.
    var length: Int
    var repetitions: Int { length / period }
  }

  /// What makes two frames the same call site. (The kinds never equal one another; they stand for
  /// the texts "index:offset", "symbol+location", "address" and "?" that could never collide.)
  enum FrameKey: Equatable {
    case image(Int, UInt64)
    case symbol(String, UInt64)
    case address(UInt64)
    case unknown
  }

  static func longestCycle(in frames: [Frame]) -> Cycle? {
    func key(_ frame: Frame) -> FrameKey {
      if let index = frame.imageIndex, let offset = frame.imageOffset { return .image(index, offset) }
      if let symbol = frame.symbol { return .symbol(symbol, frame.symbolLocation ?? 0) }
      if let address = frame.address { return .address(address) }
      return .unknown
    }
    let keys = frames.map(key)
    var best: Cycle?
    for period in 1...8 where keys.count > 2 * period {
      var runStart = 0
      var run = 0
      for index in 0..<(keys.count - period) {
        if keys[index] == keys[index + period] && keys[index] != .unknown {
          if run == 0 { runStart = index }
          run += 1
          let length = run + period
          if length > (best?.length ?? 0) {
            best = Cycle(start: runStart, period: period, length: length)
          }
        } else {
          run = 0
        }
      }
    }
    return best
  }
}
