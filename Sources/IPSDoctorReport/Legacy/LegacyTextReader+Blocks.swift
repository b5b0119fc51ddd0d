import IPSDoctorSupport

/// The lines inside a block: binary images, stack frames, registers, and the text blocks (Application
/// Specific Information, Kernel Triage, VM regions, termination reasons, dyld errors); and a line
/// that ends a block.
extension LegacyTextReader {
  /// The lines that are most of a report: a binary image, a stack frame inside a frame block or
  /// registers inside a register block, and a blank line ending the block. Returns `true` when it
  /// read the line; any other line is left to ``process(_:_:number:)`` (`false`, nothing changed).
  mutating func readListLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int)
    -> Bool
  {
    switch block {
    case .images:
      if line.isEmpty {
        block = .none
        return true
      }
      let content = Self.droppingLeadingSpace(bytes, line)
      guard content.count >= 2, bytes[content.lowerBound] == 0x30, bytes[content.lowerBound + 1] == 0x78
      else { return false }
      lastContentLine = number
      var slots = ImageKeySlots.unknown
      if let image = LegacyTextLine.binaryImage(
        bytes: UnsafeBufferPointer(rebasing: bytes[content]), slots: &slots, texts: texts, isASCII: isASCII)
      {
        guard keeps(.images, count: report.images.count, outsideTotal: true) else { return true }
        // Kept only while they line up with the images.
        if imageKeySlots.count == report.images.count { imageKeySlots.append(slots) }
        report.images.append(image)
      } else {
        warn(number, "could not read the binary image line")
      }
      return true
    case .threadFrames, .lastExceptionBacktrace, .applicationSpecificBacktrace:
      if line.isEmpty {
        if !addressListOpen { block = .none }
        return true
      }
      if case .lastExceptionBacktrace = block, addressListOpen { return false }
      let content = Self.droppingLeadingSpace(bytes, line)
      // Not empty: the line has no trailing space.
      let first = bytes[content.lowerBound]
      guard first >= 0x30 && first <= 0x39 else { return false }
      lastContentLine = number
      guard let (_, frame) = LegacyTextLine.frame(bytes: UnsafeBufferPointer(rebasing: bytes[content]), texts: texts)
      else {
        warn(number, "could not read the stack frame")
        return true
      }
      append(frame)
      return true
    case .registers(let position):
      if line.isEmpty {
        block = .none
        return true
      }
      guard let (registers, esr) = LegacyTextLine.registers(bytes, line), !registers.isEmpty else { return false }
      lastContentLine = number
      guard
        keeps(
          .registers(thread: report.threads[position].index),
          count: report.threads[position].state?.registers.count ?? 0)
      else { return true }
      addRegisters(registers, esr: esr, at: position)
      return true
    default:
      return false
    }
  }

  /// Whether the line `bytes[line]` opens a section, which ends the multi-line block before it.
  static func startsSection(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
    if isThreadLine(bytes, line) { return true }
    return bytes.hasPrefix("Binary Images", in: droppingLeadingSpace(bytes, line))
      || bytes.hasPrefix("Last Exception Backtrace:", in: line)
      || bytes.hasPrefix("Application Specific Backtrace", in: line) || isEOF(bytes, line)
  }

  /// Whether the line `bytes[line]` is "Thread " and a digit, then anything.
  static func isThreadLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
    line.count > 7 && bytes.hasPrefix("Thread ", in: line) && bytes[line.lowerBound + 7] >= 0x30
      && bytes[line.lowerBound + 7] <= 0x39
  }

  /// Whether the line `bytes[line]` is "EOF".
  static func isEOF(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
    line.count == 3 && bytes[line.lowerBound] == 0x45 && bytes[line.lowerBound + 1] == 0x4F
      && bytes[line.lowerBound + 2] == 0x46
  }

  /// Reads a line that ``readListLine(_:_:number:)`` left: a line of a text block, or one outside
  /// any block.
  mutating func process(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int) {
    // Lines come without trailing spaces (``line(_:from:)``), so a blank one is empty.
    let isBlank = line.isEmpty
    if !isBlank { lastContentLine = number }
    switch block {
    case .none:
      break
    case .applicationSpecific, .kernelTriage, .vmRegionInfo:
      if isBlank {
        block = .none
        return
      }
      if Self.startsSection(bytes, line) { break }
      appendBlockLine(LegacyTextLine.string(bytes, line))
      return
    case .vmSummary:
      if isBlank {
        pendingBlankLines += 1
        return
      }
      let first = bytes[line.lowerBound]
      let continues =
        pendingBlankLines == 0 || LegacyTextLine.isSpaceByte(first)
        || bytes.hasPrefix("REGION TYPE", in: line) || first == 0x3D
      if continues && !Self.startsSection(bytes, line) {
        appendVMSummaryLine(LegacyTextLine.string(bytes, line))
        return
      }
      pendingBlankLines = 0
    case .terminationReasons:
      if isBlank {
        block = .none
        return
      }
      if Self.startsSection(bytes, line) { break }
      if let (key, _) = LegacyTextLine.keyValue(bytes, line), Field(bytes, key)?.isSectionLabel == true { break }
      let text = ByteScanner.trimmed(bytes, line)
      let held = (report.termination?.details.count ?? 0) + (report.termination?.reasons.count ?? 0)
      guard keeps(.lines("Termination Reason"), count: held) else { return }
      var termination = report.termination ?? Termination()
      if bytes[text.lowerBound] == 0x28 && bytes[text.upperBound - 1] == 0x29 {
        termination.details.append(LegacyTextLine.string(bytes, text))
      } else {
        termination.reasons.append(LegacyTextLine.string(bytes, text))
      }
      report.termination = termination
      return
    case .dyldErrorMessage:
      if isBlank {
        block = .none
        return
      }
      if !Self.startsSection(bytes, line) {
        if keeps(.lines("Dyld Error Message"), count: dyldErrorLines.count) {
          dyldErrorLines.append(LegacyTextLine.string(bytes, ByteScanner.trimmed(bytes, line)))
        }
        return
      }
    case .skipped:
      if isBlank {
        block = .none
        return
      }
      if !Self.startsSection(bytes, line) { return }
    case .threadFrames, .lastExceptionBacktrace, .applicationSpecificBacktrace:
      if isBlank {
        if !addressListOpen { block = .none }
        return
      }
      let content = Self.droppingLeadingSpace(bytes, line)
      if case .lastExceptionBacktrace = block, addressListOpen || bytes[content.lowerBound] == 0x28 {
        readAddressList(bytes, content, number: number)
        return
      }
    // A frame line (a digit first) was read by ``readListLine(_:_:number:)``.
    case .registers, .images:
      // Register and image lines were read by ``readListLine(_:_:number:)``.
      if isBlank {
        block = .none
        return
      }
    }
    block = .none
    if !isBlank { readTopLevel(bytes, line, number: number) }
  }

  /// A line of the Application Specific Information, Kernel Triage or VM Region Info block being
  /// read.
  private mutating func appendBlockLine(_ text: String) {
    switch block {
    case .applicationSpecific:
      if keeps(.lines("Application Specific Information"), count: applicationSpecificLines.count) {
        applicationSpecificLines.append(text)
      }
    case .kernelTriage:
      if keeps(.lines("Kernel Triage"), count: kernelTriageLines.count) { kernelTriageLines.append(text) }
    default:
      if keeps(.lines("VM Region Info"), count: vmRegionLines.count) { vmRegionLines.append(text) }
    }
  }

  /// A line that continues the VM region summary, after the blank lines held back before it.
  private mutating func appendVMSummaryLine(_ text: String) {
    guard keeps(.lines("VM Region Summary"), count: vmSummaryLines.count) else { return }
    // A run of blank lines separates two parts: more than two say nothing more, and each would
    // be a string of its own.
    vmSummaryLines += Array(repeating: "", count: min(pendingBlankLines, 2))
    vmSummaryLines.append(text)
    pendingBlankLines = 0
  }

  /// Appends a register line's registers to the thread's state, in place (a copy of the state out
  /// and back would copy its registers on every line).
  mutating func addRegisters(_ registers: [ThreadState.Register], esr: String?, at position: Int) {
    if report.threads[position].state == nil { report.threads[position].state = ThreadState() }
    report.threads[position].state!.registers += registers
    if let esr { report.threads[position].state!.esrDescription = esr }
  }

  /// Adds `frame` to the backtrace of the frame block being read (other blocks have none).
  @inline(__always)
  mutating func append(_ frame: Frame) {
    guard budget == nil || keepsFrame() else { return }
    switch block {
    case .threadFrames(let position): report.threads[position].frames.append(frame)
    case .lastExceptionBacktrace:
      lastExceptionFrames = lastExceptionFrames ?? []
      lastExceptionFrames!.append(frame)
    case .applicationSpecificBacktrace:
      applicationBacktraceFrames = applicationBacktraceFrames ?? []
      applicationBacktraceFrames!.append(frame)
    default: break
    }
  }

  /// "(0x1a2b 0x3c4d …)", possibly wrapped over several lines, in `bytes[content]`.
  mutating func readAddressList(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>, number: Int) {
    var list = content
    if !list.isEmpty && bytes[list.lowerBound] == 0x28 { list = (list.lowerBound + 1)..<list.upperBound }
    addressListOpen = true
    if let close = LegacyTextLine.firstIndex(of: 0x29, in: bytes, list) {
      list = list.lowerBound..<close
      addressListOpen = false
    }
    var frames = lastExceptionFrames ?? []
    lastExceptionFrames = nil
    var cursor = list.lowerBound
    while cursor < list.upperBound {
      let start = LegacyTextLine.firstNonSpace(bytes, cursor..<list.upperBound)
      guard start < list.upperBound else { break }
      let end = LegacyTextLine.firstSpace(bytes, start..<list.upperBound)
      cursor = end
      guard let address = LegacyTextLine.hex(bytes, start..<end) else {
        let token = LegacyTextLine.string(bytes, start..<end)
        warn(number, "could not read the address \"\(token)\" of the last exception backtrace")
        continue
      }
      guard keeps(.lastExceptionBacktrace, count: frames.count) else { continue }
      frames.append(Frame(address: address))
    }
    lastExceptionFrames = frames
    if !addressListOpen { block = .none }
  }
}
