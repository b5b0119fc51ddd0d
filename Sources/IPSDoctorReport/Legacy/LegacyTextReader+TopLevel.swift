import IPSDoctorSupport

/// The lines outside any block: section headings, thread headers and "Key: value" fields.
extension LegacyTextReader {
  /// KSCrash's heading of a second crash, the reporter's own, appended after the first crash's
  /// report: what follows describes the crash reporter failing, never the app's crash, so reading
  /// stops there (the primary crash's exception, thread and frames stand).
  static let handlerCrashed: StaticString = "Handler crashed while reporting:"

  /// KSCrash's statement, on a line of its own after "Crashed Thread:", that its watchdog found
  /// the main thread deadlocked: kept as application-specific information, where rules read
  /// what a reporter says about the crash.
  static let deadlockStatement: StaticString = "Application main thread deadlocked"

  /// A line outside any block, `bytes[line]`, not blank.
  mutating func readTopLevel(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int) {
    if Self.isEOF(bytes, line) {
      stopped = true
      return
    }
    if Self.isThreadLine(bytes, line) {
      readThreadHeader(LegacyTextLine.threadHeader(bytes, line, texts: texts), line: line, number: number)
      return
    }
    let content = Self.droppingLeadingSpace(bytes, line)
    if bytes.hasPrefix("Binary Images", in: content), bytes[line.upperBound - 1] == 0x3A {
      startImages(remainingBytes: bytes.count - line.upperBound)
      return
    }
    if bytes.hasPrefix("Last Exception Backtrace:", in: line) {
      startLastExceptionBacktrace()
      let rest = ByteScanner.trimmed(bytes, (line.lowerBound + 25)..<line.upperBound)
      if !rest.isEmpty && bytes[rest.lowerBound] == 0x28 { readAddressList(bytes, rest, number: number) }
      return
    }
    if bytes.hasPrefix("Application Specific Backtrace", in: line), bytes[line.upperBound - 1] == 0x3A {
      startApplicationSpecificBacktrace()
      return
    }
    if bytes.hasPrefix(Self.handlerCrashed, in: line) {
      stopped = true
      return
    }
    if report.threads.isEmpty, bytes.hasPrefix("panic(", in: line) {
      // The rest of the file is the panic string: its lines are the kernel's, not fields.
      panicStart = line.lowerBound
      stopped = true
      return
    }
    if let (key, value) = LegacyTextLine.keyValue(bytes, line) {
      readField(Field(bytes, key), key: key, value: value, bytes, number: number)
      return
    }
    if bytes.hasPrefix(Self.deadlockStatement, in: line) {
      applicationSpecificLines.append(LegacyTextLine.string(bytes, line))
      return
    }
    let first = bytes[line.lowerBound]
    if first >= 0x30 && first <= 0x39, LegacyTextLine.frame(bytes: UnsafeBufferPointer(rebasing: bytes[line])) != nil {
      warn(number, "found a stack frame outside any thread")
    }
  }

  /// "Binary Images:", with `remainingBytes` bytes of text after it. The list is sized once, from
  /// what an image line usually takes.
  mutating func startImages(remainingBytes: Int) {
    inHeaderBlock = false
    sawBody = true
    block = .images
    let expected = remainingBytes / 128 + 16
    report.images.reserveCapacity(report.images.count + expected)
    imageKeySlots.reserveCapacity(report.images.count + expected)
  }

  mutating func startLastExceptionBacktrace() {
    inHeaderBlock = false
    sawBody = true
    block = .lastExceptionBacktrace
    lastExceptionFrames = lastExceptionFrames ?? []
  }

  mutating func startApplicationSpecificBacktrace() {
    block = .applicationSpecificBacktrace
    applicationBacktraceFrames = applicationBacktraceFrames ?? []
  }

  /// The position of thread `number` in `report.threads`, added if new; `nil` when a body too
  /// large to keep whole keeps no more threads. The crashed thread is always kept: the one whose
  /// header says so (`crashed`) or the one the report's header names.
  mutating func ensureThread(_ number: Int, crashed: Bool = false) -> Int? {
    if let position = threadPositions[number] { return position }
    if budget != nil && !crashed && !isNamedCrashed(number)
      && !keeps(.threads, count: report.threads.count, outsideTotal: true)
    {
      return nil
    }
    let position = report.threads.count
    report.threads.append(CrashThread(index: number))
    threadPositions[number] = position
    return position
  }

  /// The line `source[line]`, starting with "Thread " and a digit, read as `header` (`nil`:
  /// unreadable).
  mutating func readThreadHeader(_ header: LegacyTextLine.ThreadHeader?, line: Range<Int>, number: Int) {
    inHeaderBlock = false
    sawBody = true
    guard let header else {
      warn(number, "could not read the thread header \"\(LegacyTextLine.string(source, line).prefix(60))\"")
      return
    }
    switch header {
    case .name(let thread, let name, let queue):
      guard let position = ensureThread(thread) else { return }
      if let name { report.threads[position].name = name }
      if let queue { report.threads[position].queue = queue }
    case .start(let thread, let crashed, let name, let queue):
      guard let position = ensureThread(thread, crashed: crashed) else {
        block = .skipped
        return
      }
      if crashed { report.threads[position].triggered = true }
      if let name { report.threads[position].name = name }
      if let queue { report.threads[position].queue = queue }
      block = .threadFrames(position)
      // The frames follow, one a line up to a blank line; the array is sized for them first.
      if report.threads[position].frames.isEmpty {
        let ahead = Self.framesAhead(source, from: nextLineStart)
        report.threads[position].frames.reserveCapacity(budget == nil ? ahead : min(ahead, BodyBudget.maxArrayElements))
      }
    case .state(let thread, let flavor):
      guard let position = ensureThread(thread) else {
        block = .skipped
        return
      }
      var state = report.threads[position].state ?? ThreadState()
      state.flavor = flavor
      report.threads[position].state = state
      statePosition = position
      block = .registers(position)
    case .other:
      block = .skipped
    }
  }
}
