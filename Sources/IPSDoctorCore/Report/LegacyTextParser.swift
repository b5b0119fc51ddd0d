#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Reads Apple's legacy text crash report layout (`.crash`, and the text body of bug_type 109 and
/// of the older resource and stackshot kinds) into the same ``CrashReport`` the JSON reader fills.
///
/// The reader makes one pass over the lines. It accepts CRLF line endings, leading blank lines, a
/// report pasted with a common indentation (into a forum question, say), a report that stops after
/// its header, an `EOF` marker and unrelated text after the report. A line that looks like part of
/// a section but cannot be read becomes a ``ReportWarning`` located at its line in the file; the
/// reader never traps on bad input.
public enum LegacyTextParser {
  /// Section labels of a text crash report: ASCII literals, searched for as bytes.
  static let markers: [StaticString] = [
    "Incident Identifier:", "Exception Type:", "Hardware Model:", "Crashed Thread:",
    "Triggered by Thread:", "Binary Images:", "Termination Reason:", "Process:", "OS Version:",
  ]

  /// Whether `text` has at least two of the section labels of a text crash report.
  ///
  /// Searches UTF-8 bytes (`memmem`), not characters: it runs on every file that is not plain JSON,
  /// often over the whole text, and `String.contains` costs half the read time there.
  public static func looksLikeTextReport(_ text: String) -> Bool {
    text.withBorrowedUTF8 { looksLikeTextReport($0) }
  }

  /// ``looksLikeTextReport(_:)`` of the text whose bytes are `bytes`, without making the text.
  /// The markers are ASCII, and repairing invalid UTF-8 neither removes nor makes an ASCII byte, so
  /// the bytes hold a marker exactly when the text does.
  static func looksLikeTextReport(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var found = 0
    for marker in markers where ByteSearch.firstIndex(of: marker, in: bytes) != nil {
      found += 1
      if found >= 2 { return true }
    }
    return false
  }

  /// Reads `text` into `report`, keeping what the JSON header (if any) already put there unless the
  /// text says otherwise.
  ///
  /// - Parameters:
  ///   - text: The text body.
  ///   - firstLine: The file line number of the text's first line, so warnings point into the file.
  ///   - report: The report to fill.
  public static func parse(_ text: String, firstLine: Int, into report: inout CrashReport) {
    parse(text, firstLine: firstLine, into: &report, texts: nil)
  }

  /// ``parse(_:firstLine:into:)`` sharing the texts reports have in common through `texts`.
  static func parse(_ text: String, firstLine: Int, into report: inout CrashReport, texts: SharedTexts?) {
    // The UTF-8 in place (a native string is contiguous; a bridged one is copied once).
    var text = text
    text.makeContiguousUTF8()
    _ = text.utf8.withContiguousStorageIfAvailable { bytes in
      parse(bytes: bytes, firstLine: firstLine, into: &report, texts: texts)
    }
  }

  /// ``parse(_:firstLine:into:texts:)`` of the text whose UTF-8 is `bytes`, without making the
  /// text: every delimiter of the format is ASCII, so a line is split on its bytes, and the bytes of
  /// a field that keeps text become a `String` of their own (invalid UTF-8 repaired there, as
  /// `String(decoding:as:)` repairs it; no ASCII byte is part of a repair, so the fields are the
  /// ones the repaired text holds).
  static func parse(
    bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, into report: inout CrashReport, texts: SharedTexts?
  ) {
    var reader = LegacyTextReader(report: report, firstLine: firstLine, texts: texts)
    reader.read(bytes)
    report = reader.finish()
  }
}

/// The state of one pass over a legacy text report.
struct LegacyTextReader {
  /// The multi-line block the current line belongs to.
  enum Block: Equatable {
    case none
    case applicationSpecific
    case kernelTriage
    case vmRegionInfo
    case vmSummary
    case terminationReasons
    case dyldErrorMessage
    /// Frames of the thread at this position of `report.threads`.
    case threadFrames(Int)
    case lastExceptionBacktrace
    case applicationSpecificBacktrace
    /// Registers of the thread at this position.
    case registers(Int)
    case images
    /// A block we do not model (Filtered syslog, External Modification Summary, …).
    case skipped
  }

  var report: CrashReport
  let firstLine: Int
  var block = Block.none
  var stopped = false

  var threadPositions: [Int: Int] = [:]
  var triggered: (number: Int, queue: String?, line: Int)?
  var highlighted: (number: Int, line: Int)?
  var statePosition: Int?
  /// The value of the Version line, read once the OS version says which order it has.
  var versionText: Range<Int>?
  var terminationSignal: String?
  var applicationSpecificLines: [String] = []
  var kernelTriageLines: [String] = []
  var vmRegionLines: [String] = []
  var vmSummaryLines: [String] = []
  var dyldErrorLines: [String] = []
  var pendingBlankLines = 0
  var lastExceptionFrames: [Frame]?
  var applicationBacktraceFrames: [Frame]?
  var addressListOpen = false

  // Resource and stackshot bodies.
  /// The header's fields as written, as ranges of ``source``; made `ResourceSummary.Field`s only
  /// for a resource report.
  var headerFields: [(key: Range<Int>, value: Range<Int>)] = []
  var inHeaderBlock = true
  var event: String?
  var actionTaken: String?
  var isMicrostackshot = false
  var stackshotReason: String?
  var stackshotCode: String?
  var frontmostPids: [Int] = []
  var processNamesByPid: [Int: String] = [:]
  var stackshotProcessCount = 0

  var lastContentLine: Int
  var sawBody = false
  /// Where image paths, names and symbols are looked up (see ``SharedTexts``): the table's handle,
  /// valid while ``LegacyTextParser/parse(_:firstLine:into:texts:)`` runs.
  let texts: SharedTexts.Handle?
  /// The UTF-8 being read, valid while ``read(_:)`` and ``finish()`` run; lines and fields are
  /// ranges of it.
  var source = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  /// Whether every byte of ``source`` is ASCII, so that no field needs its own test before its
  /// bytes are compared as text.
  var isASCII = false
  /// Where the line after the one being read starts, so that a block can size its list once.
  var nextLineStart = 0
  /// The resolver's slots of each image's keys, while they line up with `report.images`.
  var imageKeySlots: [ImageKeySlots] = []

  init(report: CrashReport, firstLine: Int, texts: SharedTexts? = nil) {
    self.texts = texts?.handle
    self.report = report
    self.firstLine = firstLine
    self.lastContentLine = firstLine
  }

  func location(_ line: Int) -> String { "line \(line)" }

  mutating func warn(_ line: Int, _ message: String) {
    report.warnings.append(ReportWarning(location: location(line), message: message))
  }

  // MARK: Lines

  /// Labels that can open a report; the first line holding one fixes the report's indentation.
  static let openingLabels: [StaticString] = [
    "Incident Identifier:", "CrashReporter Key:", "Hardware Model:", "Process:", "Path:",
    "Identifier:", "Date/Time:", "OS Version:", "Exception Type:", "Command:", "Event:",
    "Crashed Thread:", "Triggered by Thread:", "Code Type:", "Version:",
  ]

  /// Reads the UTF-8 `bytes` a line at a time: each line is found when it is read
  /// (``line(_:from:)``), as a range of `bytes`. Binary images, stack frames and register lines
  /// go to ``readListLine(_:_:number:)``, every other line to ``process(_:_:number:)``.
  ///
  /// `bytes` must stay valid until ``finish()`` returns.
  mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
    source = bytes
    isASCII = ByteSearch.isASCII(bytes)
    // Find where the report starts and how far it is indented.
    var start: (offset: Int, cursor: Int)?
    var firstContent: (offset: Int, cursor: Int)?
    var indent = 0
    var cursor = 0
    var offset = 0
    while true {
      let (line, next) = Self.line(bytes, from: cursor)
      let content = Self.droppingLeadingSpace(bytes, line)
      if Self.openingLabels.contains(where: { LegacyTextLine.hasPrefix(bytes, content, $0) }) {
        start = (offset, cursor)
        indent = content.lowerBound - line.lowerBound
        break
      }
      // Lines come without trailing spaces, so a line is blank exactly when it is empty.
      if !line.isEmpty && firstContent == nil { firstContent = (offset, cursor) }
      guard next <= bytes.count else { break }
      cursor = next
      offset += 1
    }
    if start != nil {
      if firstContent != nil { warn(firstLine, "skipped text before the report") }
    } else {
      start = firstContent ?? (0, 0)
    }
    guard let start else { return }

    offset = start.offset
    cursor = start.cursor
    while !stopped {
      let number = firstLine + offset
      var (line, next) = Self.line(bytes, from: cursor)
      offset += 1
      nextLineStart = next
      if indent > 0 && !line.isEmpty {
        if Self.droppingLeadingSpace(bytes, line).lowerBound - line.lowerBound < indent {
          warn(number, "ignored the text after the indented report")
          break
        }
        line = (line.lowerBound + indent)..<line.upperBound
      }
      if !readListLine(bytes, line, number: number) { process(bytes, line, number: number) }
      guard next <= bytes.count else { break }
      cursor = next
    }
  }

  /// The line of `bytes` that starts at `start` (up to the next "\n", without a final "\r" and then
  /// without trailing spaces and tabs), and where the line after it starts: past `bytes.count`
  /// when this is the last line.
  @inline(__always)
  static func line(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (line: Range<Int>, next: Int) {
    let end = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) ?? bytes.count
    var last = end
    if last > start && bytes[last - 1] == 0x0D { last -= 1 }
    while last > start && LegacyTextLine.isSpaceByte(bytes[last - 1]) { last -= 1 }
    return (start..<last, end + 1)
  }

  /// `range` without its leading spaces and tabs.
  static func droppingLeadingSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
    -> Range<Int>
  {
    var lower = range.lowerBound
    while lower < range.upperBound && LegacyTextLine.isSpaceByte(bytes[lower]) { lower += 1 }
    return lower..<range.upperBound
  }

  /// The shortest line counted as a frame to come by ``framesAhead(_:from:)``: shorter lines
  /// cannot hold a frame's number, image and address, and reserving a frame for each would make a
  /// `Frame` of a few bytes of input.
  static let shortestFrameLine = 16

  /// How many frame lines follow `start`: the lines up to the first blank line or line that does
  /// not start with a digit (after spaces and tabs), counting those of at least
  /// ``shortestFrameLine`` bytes. It is the most a thread's frame block can hold, to size its list
  /// once. Only the block's own lines are looked at, so sizing every thread reads each line once
  /// in all, and the count never exceeds the input's size over ``shortestFrameLine``.
  static func framesAhead(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var count = 0
    var cursor = start
    while cursor < bytes.count {
      let (line, next) = line(bytes, from: cursor)
      let content = droppingLeadingSpace(bytes, line)
      guard let first = content.first, bytes[first] &- 0x30 < 10 else { break }
      if line.count >= shortestFrameLine { count += 1 }
      cursor = next
    }
    return count
  }

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
      addRegisters(registers, esr: esr, at: position)
      return true
    default:
      return false
    }
  }

  /// Whether the line `bytes[line]` opens a section, which ends the multi-line block before it.
  static func startsSection(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
    if isThreadLine(bytes, line) { return true }
    return LegacyTextLine.hasPrefix(bytes, droppingLeadingSpace(bytes, line), "Binary Images")
      || LegacyTextLine.hasPrefix(bytes, line, "Last Exception Backtrace:")
      || LegacyTextLine.hasPrefix(bytes, line, "Application Specific Backtrace") || isEOF(bytes, line)
  }

  /// Whether the line `bytes[line]` is "Thread " and a digit, then anything.
  static func isThreadLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
    line.count > 7 && LegacyTextLine.hasPrefix(bytes, line, "Thread ") && bytes[line.lowerBound + 7] >= 0x30
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
        || LegacyTextLine.hasPrefix(bytes, line, "REGION TYPE") || first == 0x3D
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
        dyldErrorLines.append(LegacyTextLine.string(bytes, ByteScanner.trimmed(bytes, line)))
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
    case .applicationSpecific: applicationSpecificLines.append(text)
    case .kernelTriage: kernelTriageLines.append(text)
    default: vmRegionLines.append(text)
    }
  }

  /// A line that continues the VM region summary, after the blank lines held back before it.
  private mutating func appendVMSummaryLine(_ text: String) {
    vmSummaryLines += Array(repeating: "", count: pendingBlankLines)
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
      frames.append(Frame(address: address))
    }
    lastExceptionFrames = frames
    if !addressListOpen { block = .none }
  }

  // MARK: Top level

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
    if LegacyTextLine.hasPrefix(bytes, content, "Binary Images"), bytes[line.upperBound - 1] == 0x3A {
      startImages(remainingBytes: bytes.count - line.upperBound)
      return
    }
    if LegacyTextLine.hasPrefix(bytes, line, "Last Exception Backtrace:") {
      startLastExceptionBacktrace()
      let rest = ByteScanner.trimmed(bytes, (line.lowerBound + 25)..<line.upperBound)
      if !rest.isEmpty && bytes[rest.lowerBound] == 0x28 { readAddressList(bytes, rest, number: number) }
      return
    }
    if LegacyTextLine.hasPrefix(bytes, line, "Application Specific Backtrace"), bytes[line.upperBound - 1] == 0x3A {
      startApplicationSpecificBacktrace()
      return
    }
    if LegacyTextLine.hasPrefix(bytes, line, Self.handlerCrashed) {
      stopped = true
      return
    }
    if let (key, value) = LegacyTextLine.keyValue(bytes, line) {
      readField(Field(bytes, key), key: key, value: value, bytes, number: number)
      return
    }
    if LegacyTextLine.hasPrefix(bytes, line, Self.deadlockStatement) {
      applicationSpecificLines.append(LegacyTextLine.string(bytes, line))
      return
    }
    let first = bytes[line.lowerBound]
    if first >= 0x30 && first <= 0x39, LegacyTextLine.frame(bytes: UnsafeBufferPointer(rebasing: bytes[line])) != nil {
      warn(number, "found a stack frame outside any thread")
    }
  }

  /// "Binary Images:", with `remainingBytes` bytes of text after it. The list is sized once for
  /// what an image line usually takes (growing it would move hundreds of images several times;
  /// counting the lines ahead cost as much as the moves).
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

  mutating func ensureThread(_ number: Int) -> Int {
    if let position = threadPositions[number] { return position }
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
      let position = ensureThread(thread)
      if let name { report.threads[position].name = name }
      if let queue { report.threads[position].queue = queue }
    case .start(let thread, let crashed, let name, let queue):
      let position = ensureThread(thread)
      if crashed { report.threads[position].triggered = true }
      if let name { report.threads[position].name = name }
      if let queue { report.threads[position].queue = queue }
      block = .threadFrames(position)
      // The frames follow, one a line up to a blank line: sized once rather than grown.
      if report.threads[position].frames.isEmpty {
        report.threads[position].frames.reserveCapacity(Self.framesAhead(source, from: nextLineStart))
      }
    case .state(let thread, let flavor):
      let position = ensureThread(thread)
      var state = report.threads[position].state ?? ThreadState()
      state.flavor = flavor
      report.threads[position].state = state
      statePosition = position
      block = .registers(position)
    case .other:
      block = .skipped
    }
  }

  // MARK: Fields

  /// Reads the header field `field` (`nil`: a key the reader does not model), whose key and value
  /// are `bytes[key]` and `bytes[value]`, the UTF-8 of the text being read. The value becomes a
  /// `String` only for the fields that keep it.
  mutating func readField(
    _ field: Field?, key: Range<Int>, value: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, number: Int
  ) {
    if inHeaderBlock && !value.isEmpty {
      headerFields.append((key, value))
    }
    var text: String? { value.isEmpty ? nil : LegacyTextLine.string(bytes, value) }
    /// `Int(_:)` of the value's text.
    var integer: Int? { Int(LegacyTextLine.string(bytes, value)) }
    guard let field else {
      if LegacyTextLine.hasPrefix(bytes, key, "VM Regions Near") {
        block = .vmRegionInfo
      } else if LegacyTextLine.hasPrefix(bytes, key, "Process "), value.isEmpty {
        readStackshotProcess(LegacyTextLine.string(bytes, key))
      }
      return
    }
    switch field {
    case .incidentIdentifier: report.incidentID = text ?? report.incidentID
    case .hardwareModel, .hardwareModelLowercase: report.modelCode = text ?? report.modelCode
    case .process:
      let (name, pid) = LegacyTextLine.nameAndPid(bytes, value)
      report.processName = name ?? report.processName
      report.pid = pid ?? report.pid
    case .command:
      isMicrostackshot = true
      report.processName = text ?? report.processName
    case .pid: report.pid = integer ?? report.pid
    case .powerstatsFor:
      let (name, pid) = LegacyTextLine.nameAndPid(bytes, value)
      report.processName = report.processName ?? name
      report.pid = report.pid ?? pid
    case .path: if let text, text != "???" { report.processPath = text }
    case .identifier: if let text, text != "???" { report.bundleID = text }
    case .version: versionText = value
    case .codeType:
      if let text { report.cpuType = text.hasSuffix(" (Native)") ? String(text.dropLast(9)) : text }
    case .parentProcess: report.parentProcess = text ?? report.parentProcess
    case .dateTime: report.captureTime = text ?? report.captureTime
    case .date: report.captureTime = report.captureTime ?? text
    case .launchTime: report.launchTime = text ?? report.launchTime
    case .osVersion:
      guard let text else { break }
      let releaseType = report.osVersion?.releaseType
      var version = OSVersion(displayString: text)
      if let build = version.build, build.hasPrefix("Build ") {
        version.build = String(build.dropFirst(6))
      }
      version.releaseType = releaseType
      report.osVersion = version
    case .releaseType:
      var version = report.osVersion ?? OSVersion()
      version.releaseType = text
      report.osVersion = version
    case .exceptionType:
      sawBody = true
      let (type, signal) = LegacyTextLine.exceptionType(bytes, value)
      guard type != nil || signal != nil else {
        warn(number, "the exception type is empty")
        break
      }
      // KSCrash writes "0 (0)" when there was no Mach exception (a deadlock or a user report).
      if type == "0" && (signal == nil || signal == "0") { break }
      var exception = report.exception ?? ExceptionInfo()
      exception.type = type
      exception.signal = signal
      report.exception = exception
    case .exceptionCodes:
      guard let text else { break }
      var exception = report.exception ?? ExceptionInfo()
      if let codes = LegacyTextLine.codes(bytes, value) {
        exception.codes = text
        exception.rawCodes = codes
      } else {
        // macOS and third-party reporters write the subtype here: "KERN_INVALID_ADDRESS at 0x18".
        if exception.codes == nil { exception.codes = text }
        if exception.subtype == nil { exception.subtype = text }
      }
      report.exception = exception
    case .exceptionSubtype:
      var exception = report.exception ?? ExceptionInfo()
      exception.subtype = text
      report.exception = exception
    case .exceptionMessage:
      var exception = report.exception ?? ExceptionInfo()
      exception.message = text
      report.exception = exception
    case .exceptionNote, .exceptionNotes:
      guard let text else { break }
      var exception = report.exception ?? ExceptionInfo()
      exception.notes.append(text)
      report.exception = exception
      if text.prefilteredContains("EXC_CORPSE_NOTIFY") { report.isCorpse = true }
      if text.prefilteredContains("NON-FATAL CONDITION") { report.isNonFatal = true }
      if text.prefilteredContains("SIMULATED") { report.isSimulated = true }
    case .exceptionReason:
      var reason = report.exceptionReason ?? ExceptionReason()
      reason.composedMessage = text
      report.exceptionReason = reason
    case .terminationReason:
      sawBody = true
      var termination = report.termination ?? Termination()
      if let parsed = LegacyTextLine.terminationReason(bytes, value) {
        termination.namespace = parsed.namespace
        termination.code = parsed.code
        termination.indicator = parsed.indicator ?? termination.indicator
      } else if let text {
        warn(number, "could not read the termination reason")
        termination.reasons.append(text)
      }
      report.termination = termination
      block = .terminationReasons
    case .terminationDescription:
      guard let text else { break }
      var termination = report.termination ?? Termination()
      termination.reasons.append(text)
      report.termination = termination
    case .terminationDetails:
      guard let text else { break }
      var termination = report.termination ?? Termination()
      termination.details.append(text)
      report.termination = termination
    case .terminationSignal: terminationSignal = text
    case .terminatingProcess:
      let (name, pid) = LegacyTextLine.nameAndPid(bytes, value)
      var termination = report.termination ?? Termination()
      termination.byProc = name
      termination.byPid = pid
      report.termination = termination
    case .triggeredByThread, .crashedThread:
      let found = LegacyTextLine.threadNumber(bytes, value)
      guard let (thread, queue) = found else {
        warn(number, "could not read the number of the crashed thread")
        break
      }
      triggered = (thread, queue, number)
    case .highlightedThread:
      let found = LegacyTextLine.threadNumber(bytes, value)
      if let (thread, _) = found { highlighted = (thread, number) }
    case .applicationSpecificInformation:
      sawBody = true
      inHeaderBlock = false
      if let text { applicationSpecificLines.append(text) }
      block = .applicationSpecific
    case .kernelTriage:
      if let text { kernelTriageLines.append(text) }
      block = .kernelTriage
    case .vmRegionInfo:
      if let text { vmRegionLines.append(text) }
      block = .vmRegionInfo
    case .vmRegionSummary:
      inHeaderBlock = false
      if let text { vmSummaryLines.append(text) }
      pendingBlankLines = 0
      block = .vmSummary
    case .dyldErrorMessage:
      if let text { dyldErrorLines.append(text) }
      block = .dyldErrorMessage
    case .filteredSyslog, .externalModificationSummary, .translatedCodeInformation, .systemProfile,
      .applicationSpecificSignatures:
      inHeaderBlock = false
      block = .skipped
    case .logicalCPU: addRegister("cpu", bytes, value)
    case .errorCode: addRegister("err", bytes, value)
    case .trapNumber: addRegister("trap", bytes, value)
    case .event: event = text
    case .actionTaken: actionTaken = text
    case .reason: stackshotReason = stackshotReason ?? text
    case .exceptionCode: stackshotCode = stackshotCode ?? text
    case .frontmostProcessPID: if let pid = integer { frontmostPids.append(pid) }
    }
  }

  /// "Process 12 info" and "Process 12 SpringBoard threads" lines of a text stackshot.
  mutating func readStackshotProcess(_ key: String) {
    let words = key.split(separator: " ")
    guard words.count >= 3, let pid = Int(words[1]) else { return }
    if words.count == 3 && words[2] == "info" {
      stackshotProcessCount += 1
    } else if words.last == "threads" && words.count >= 4 {
      processNamesByPid[pid] = words[2..<(words.count - 1)].joined(separator: " ")
    }
  }

  /// The x86 "Logical CPU", "Error Code" and "Trap Number" lines after the registers: the first
  /// word of `bytes[value]`.
  mutating func addRegister(_ name: String, _ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
    guard let position = statePosition else { return }
    let word = value.lowerBound..<LegacyTextLine.firstSpace(bytes, value)
    guard let number = LegacyTextLine.number(bytes, word) else { return }
    var state = report.threads[position].state ?? ThreadState()
    state.registers.append(ThreadState.Register(name: name, value: number))
    report.threads[position].state = state
  }

  // MARK: Finishing

  /// Whether the report's Version line is "short (build)" (macOS and microstackshots) rather than
  /// iOS's "build (short)".
  var versionIsShortFirst: Bool {
    if isMicrostackshot { return true }
    guard let train = report.osVersion?.train else { return false }
    return train.hasPrefix("Mac OS") || train.hasPrefix("macOS") || train.hasPrefix("OS X")
  }

  mutating func finish() -> CrashReport {
    if let versionText {
      let (first, second) = LegacyTextLine.version(source, versionText)
      if versionIsShortFirst {
        report.appVersion = first ?? report.appVersion
        report.buildVersion = second ?? report.buildVersion
      } else if second == nil && LegacyTextLine.firstIndex(of: 0x28, in: source, versionText) == nil {
        report.buildVersion = first ?? report.buildVersion
      } else {
        report.buildVersion = first ?? report.buildVersion
        report.appVersion = second ?? report.appVersion
      }
    }
    if let terminationSignal, report.termination?.indicator == nil {
      var termination = report.termination ?? Termination()
      termination.indicator = terminationSignal
      report.termination = termination
    }
    if !applicationSpecificLines.isEmpty {
      report.applicationSpecificInfo = [
        ApplicationSpecificInfo(image: nil, lines: applicationSpecificLines)
      ]
    }
    if !kernelTriageLines.isEmpty {
      report.kernelTriage = kernelTriageLines.joined(separator: "\n")
    }
    if !vmRegionLines.isEmpty { report.vmRegionInfo = vmRegionLines.joined(separator: "\n") }
    if !vmSummaryLines.isEmpty { report.vmSummary = vmSummaryLines.joined(separator: "\n") }
    if !dyldErrorLines.isEmpty { report.dyldErrorMessage = dyldErrorLines.joined(separator: "\n") }
    if let frames = lastExceptionFrames ?? applicationBacktraceFrames, !frames.isEmpty {
      report.lastExceptionBacktrace = frames
    }

    resolveFaultingThread()
    resolveFrames()
    decideKind()

    if report.kind == .crash && !sawBody && report.exception == nil && report.threads.isEmpty
      && report.images.isEmpty
    {
      warn(
        lastContentLine,
        "the report ends after its header: no exception, threads or binary images")
    }
    return report
  }

  mutating func resolveFaultingThread() {
    if let triggered {
      if let position = threadPositions[triggered.number] {
        report.faultingThread = position
        report.threads[position].triggered = true
        if report.threads[position].queue == nil, let queue = triggered.queue {
          report.threads[position].queue = queue
        }
      } else if !report.threads.isEmpty {
        let count = report.threads.count
        warn(
          triggered.line,
          "thread \(triggered.number) is not in the report (it has \(count) threads); ignored")
      }
    }
    if report.faultingThread == nil {
      report.faultingThread = report.threads.firstIndex(where: \.triggered)
    }
    if report.faultingThread == nil, let highlighted,
      let position = threadPositions[highlighted.number]
    {
      report.faultingThread = position
    }
  }

  /// Gives each frame its image index, name and offset: by the image name written on the frame
  /// line, else by the address range that holds the frame's address.
  mutating func resolveFrames() {
    guard !report.images.isEmpty else { return }
    if let resolver = ImageResolver(
      images: report.images, threads: report.threads, lastExceptionBacktrace: report.lastExceptionBacktrace,
      keySlots: imageKeySlots)
    {
      for position in report.threads.indices {
        resolver.resolve(&report.threads[position].frames)
      }
      if report.lastExceptionBacktrace != nil {
        resolver.resolve(&report.lastExceptionBacktrace!)
      }
      return
    }
    var names = Set<String>()
    // By index: a copy of a thread or frame retains and releases every string it holds.
    for thread in report.threads.indices {
      // Neighbouring frames are mostly in one image: a name equal to the last one is not hashed.
      var last: String?
      for frame in report.threads[thread].frames.indices {
        if let name = report.threads[thread].frames[frame].imageName, name != last {
          names.insert(name)
          last = name
        }
      }
    }
    if let frames = report.lastExceptionBacktrace {
      for frame in frames.indices { if let name = frames[frame].imageName { names.insert(name) } }
    }
    let resolver = ImageResolver(images: report.images, frameImageNames: names, keySlots: imageKeySlots)
    for position in report.threads.indices {
      resolver.resolve(&report.threads[position].frames)
    }
    if report.lastExceptionBacktrace != nil {
      resolver.resolve(&report.lastExceptionBacktrace!)
    }
  }

  mutating func decideKind() {
    let bugKind = report.bugType?.kind
    let looksLikeStackshot =
      stackshotReason != nil && (stackshotCode != nil || !frontmostPids.isEmpty)
    let kind: ReportKind
    switch bugKind {
    case .some(.unknown):
      kind = (report.exception != nil || !report.threads.isEmpty) ? .crash : .unknown
    case .some(let known):
      kind = known
    case nil:
      if looksLikeStackshot && report.exception == nil {
        kind = .stackshot
      } else if event != nil || isMicrostackshot {
        kind = .resource
      } else {
        kind = .crash
      }
    }
    report.kind = kind
    switch kind {
    case .stackshot:
      var summary = report.stackshot ?? StackshotSummary()
      summary.reason = stackshotReason ?? summary.reason
      summary.exceptionCode = stackshotCode ?? summary.exceptionCode
      if stackshotProcessCount > 0 { summary.processCount = stackshotProcessCount }
      summary.frontmostProcesses = frontmostPids.compactMap { processNamesByPid[$0] }
      report.stackshot = summary
    case .resource, .watchdog:
      var summary = report.resource ?? ResourceSummary()
      summary.event = event ?? summary.event
      summary.actionTaken = actionTaken ?? summary.actionTaken
      summary.fields = headerFields.map {
        ResourceSummary.Field(key: LegacyTextLine.string(source, $0.key), value: LegacyTextLine.string(source, $0.value))
      }
      report.resource = summary
    default:
      break
    }
  }
}

/// The ``ImageResolver/NameFilter`` slots of an image's name, bundle identifier and path's file
/// name, found by the text reader on the bytes it made them from, so that the resolver turns most
/// images away without touching their strings.
struct ImageKeySlots {
  /// The key is `nil`.
  static let absentSlot: Int16 = -1
  /// Not known from the bytes (not ASCII): the resolver asks the string.
  static let unknownSlot: Int16 = -2

  var name: Int16
  var bundleID: Int16
  var fileName: Int16
  /// Whether the image has a base and a size above zero: the resolver's address range, from
  /// `base` to `last`.
  var hasRange = false
  var base: UInt64 = 0
  var last: UInt64 = 0

  static let absent = ImageKeySlots(name: absentSlot, bundleID: absentSlot, fileName: absentSlot)
  static let unknown = ImageKeySlots(name: unknownSlot, bundleID: unknownSlot, fileName: unknownSlot)

  /// `NameFilter.slot` of the text `bytes[range]` makes when it is ASCII (the text is then those
  /// bytes); ``unknownSlot`` otherwise.
  @inline(__always)
  static func slot(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int16 {
    let key = UnsafeBufferPointer(rebasing: bytes[range])
    guard ByteSearch.isASCII(key) else { return unknownSlot }
    return Int16(ImageResolver.NameFilter.slot(key))
  }
}

/// Finds the image of a frame by name or by address.
struct ImageResolver {
  let images: [BinaryImage]
  /// For each image name the frames use, the first image whose name, bundle identifier or file
  /// name it is. Only the frames' names are looked up: a report has hundreds of images but uses
  /// a few dozen, and hashing three keys of every image cost more than resolving the frames.
  var byName: [String: Int] = [:]
  /// (base, last address, index), sorted by base.
  var ranges: [(base: UInt64, last: UInt64, index: Int)] = []
  /// ``byName`` when every name is ASCII (``init(images:frameNamesOf:keySlots:)``).
  var names: NameTable?

  /// - Parameter keySlots: For each image, the slots of its keys (``ImageKeySlots``), or `nil`.
  init(images: [BinaryImage], frameImageNames: Set<String>, keySlots: [ImageKeySlots]? = nil) {
    self.images = images
    var filter = NameFilter()
    for name in frameImageNames { filter.insert(name) }
    ranges.reserveCapacity(images.count)
    let keySlots = keySlots?.count == images.count ? keySlots : nil
    /// Whether the key with this slot may be a frame's: a known slot outside the filter is not.
    func mayMatch(_ slot: Int16) -> Bool {
      slot == ImageKeySlots.unknownSlot || (slot >= 0 && filter.contains(slot: Int(slot)))
    }
    // With the slots, the address ranges come from them too, and the images are left once every
    // name is found.
    if let keySlots {
      for index in keySlots.indices where keySlots[index].hasRange {
        ranges.append((keySlots[index].base, keySlots[index].last, index))
      }
    }
    // Fields are read in place: a copy of a whole image retains and releases all its strings.
    for index in images.indices {
      if keySlots != nil && byName.count >= frameImageNames.count { break }
      if byName.count < frameImageNames.count {
        func add(_ key: String) {
          if filter.mayContain(key), frameImageNames.contains(key), byName[key] == nil {
            byName[key] = index
          }
        }
        let slots = keySlots?[index] ?? .unknown
        if mayMatch(slots.name), let name = images[index].name { add(name) }
        if mayMatch(slots.bundleID), let bundleID = images[index].bundleID { add(bundleID) }
        if mayMatch(slots.fileName), let path = images[index].path,
          let fileName = filter.fileNameIfMayContain(path)
        {
          add(fileName)
        }
      }
      if keySlots == nil, let base = images[index].base, let size = images[index].size, size > 0 {
        ranges.append((base, base &+ (size - 1), index))
      }
    }
    ranges.sort { $0.base < $1.base }
  }

  /// A 256-bit Bloom filter over (length, first byte, last byte) of the frames' image names: it
  /// turns most image keys away before they are hashed (or, for a path's file name, copied).
  struct NameFilter {
    var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    @inline(__always)
    static func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
      guard let first = bytes.first, let last = bytes.last else { return 0 }
      return (bytes.count &* 31 &+ Int(first) &* 7 &+ Int(last)) & 255
    }

    static func slot(of text: String) -> Int {
      text.utf8.withContiguousStorageIfAvailable(slot) ?? Array(text.utf8).withUnsafeBufferPointer(slot)
    }

    func contains(slot: Int) -> Bool {
      let mask = UInt64(1) << UInt64(slot & 63)
      switch slot >> 6 {
      case 0: return bits.0 & mask != 0
      case 1: return bits.1 & mask != 0
      case 2: return bits.2 & mask != 0
      default: return bits.3 & mask != 0
      }
    }

    mutating func insert(_ text: String) {
      let slot = Self.slot(of: text)
      let mask = UInt64(1) << UInt64(slot & 63)
      switch slot >> 6 {
      case 0: bits.0 |= mask
      case 1: bits.1 |= mask
      case 2: bits.2 |= mask
      default: bits.3 |= mask
      }
    }

    func mayContain(_ text: String) -> Bool { contains(slot: Self.slot(of: text)) }

    /// ``insert(_:)`` of the text whose UTF-8 is `name`.
    mutating func insert(name: UnsafeBufferPointer<UInt8>) {
      let slot = Self.slot(name)
      let mask = UInt64(1) << UInt64(slot & 63)
      switch slot >> 6 {
      case 0: bits.0 |= mask
      case 1: bits.1 |= mask
      case 2: bits.2 |= mask
      default: bits.3 |= mask
      }
    }

    /// `CrashReport.lastPathComponent(path)`, made only when the filter lets it through.
    func fileNameIfMayContain(_ path: String) -> String? {
      let fileName: (UnsafeBufferPointer<UInt8>) -> String? = { bytes in
        let start = bytes.lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
        let name = UnsafeBufferPointer(rebasing: bytes[start...])
        return contains(slot: Self.slot(name)) ? String(decoding: name, as: UTF8.self) : nil
      }
      return path.utf8.withContiguousStorageIfAvailable(fileName)
        ?? Array(path.utf8).withUnsafeBufferPointer(fileName)
    }
  }

  /// The resolver of the frames of `threads` and `lastExceptionBacktrace` (a report's: passed
  /// apart, since passing the report copied it) when every image name a frame uses is ASCII, as is
  /// every image key that might be one: the
  /// names are then kept and compared as bytes (``NameTable``), which for ASCII text is `String`
  /// equality, and hashed cheaply where a `Set` and a `Dictionary` of `String`s hashed each with
  /// `Hasher`. `nil` otherwise (the caller then uses ``init(images:frameImageNames:keySlots:)``,
  /// which gives the same images for ASCII names).
  init?(
    images: [BinaryImage], threads: [CrashThread], lastExceptionBacktrace: [Frame]?, keySlots: [ImageKeySlots]?
  ) {
    let names = NameTable()
    for thread in threads.indices {
      // Neighbouring frames are mostly in one image: a name equal to the last one is not looked up.
      var last: String?
      for frame in threads[thread].frames.indices {
        if let name = threads[thread].frames[frame].imageName, name != last {
          guard names.insert(name) else { return nil }
          last = name
        }
      }
    }
    if let frames = lastExceptionBacktrace {
      for frame in frames.indices {
        if let name = frames[frame].imageName { guard names.insert(name) else { return nil } }
      }
    }
    self.images = images
    ranges.reserveCapacity(images.count)
    let keySlots = keySlots?.count == images.count ? keySlots : nil
    if let keySlots {
      for index in keySlots.indices where keySlots[index].hasRange {
        ranges.append((keySlots[index].base, keySlots[index].last, index))
      }
    }
    /// Whether the key with this slot may be a frame's: a known slot outside the filter is not.
    func mayMatch(_ slot: Int16) -> Bool {
      slot == ImageKeySlots.unknownSlot || (slot >= 0 && names.filter.contains(slot: Int(slot)))
    }
    // As in ``init(images:frameImageNames:keySlots:)``: the first image with a key wins.
    for index in images.indices {
      if keySlots != nil && names.found >= names.count { break }
      if names.found < names.count {
        let slots = keySlots?[index] ?? .unknown
        if mayMatch(slots.name), let name = images[index].name {
          guard names.assign(index, toName: name, fileNameOnly: false) else { return nil }
        }
        if mayMatch(slots.bundleID), let bundleID = images[index].bundleID {
          guard names.assign(index, toName: bundleID, fileNameOnly: false) else { return nil }
        }
        if mayMatch(slots.fileName), let path = images[index].path {
          guard names.assign(index, toName: path, fileNameOnly: true) else { return nil }
        }
      }
      if keySlots == nil, let base = images[index].base, let size = images[index].size, size > 0 {
        ranges.append((base, base &+ (size - 1), index))
      }
    }
    ranges.sort { $0.base < $1.base }
    self.names = names
  }

  /// The image names of a report's frames, kept as their UTF-8 (all ASCII) in an open-addressing
  /// table, each with the image it resolves to. A class: its lookups run in closures over a
  /// name's bytes, where a struct was copied (a retain of each of its arrays) on every call. Its
  /// properties are not checked for exclusive access at run time (a thread-local access set on
  /// every use cost more than the copies): one resolver uses the table, on one thread, and no
  /// access to a property overlaps another.
  final class NameTable {
    struct Entry {
      var start: Int
      var count: Int
      var hash: UInt64
      /// The first image with this name as a key, or -1.
      var image: Int
    }
    /// The names' bytes, one after another.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    @exclusivity(unchecked) var entries: [Entry] = []
    /// Per slot, the index of its entry, or -1.
    @exclusivity(unchecked) var slots: [Int] = Array(repeating: -1, count: 64)
    /// How many names have their image.
    @exclusivity(unchecked) var found = 0
    @exclusivity(unchecked) var filter = NameFilter()

    var count: Int { entries.count }

    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
      guard key.count >= 8, let base = key.baseAddress else {
        var word = UInt64(truncatingIfNeeded: key.count) &* 0x9E37_79B9_7F4A_7C15
        for byte in key { word = (word ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return word ^ (word &>> 29)
      }
      return SharedTexts.hash(UnsafeRawPointer(base), key.count)
    }

    /// The entry holding `key`, or `nil`.
    func find(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] >= 0 {
        let entry = entries[slots[slot]]
        if entry.hash == hash && entry.count == key.count
          && bytes.withUnsafeBufferPointer({ stored in
            key.isEmpty || memcmp(stored.baseAddress! + entry.start, key.baseAddress!, key.count) == 0
          })
        {
          return slots[slot]
        }
        slot = (slot + 1) & mask
      }
      return nil
    }

    /// Adds `name` (a frame's image name); `false` when it is not ASCII.
    func insert(_ name: String) -> Bool {
      var name = name
      return name.withUTF8 { key in
        guard ByteSearch.isASCII(key) else { return false }
        let hash = Self.hash(key)
        if find(key, hash: hash) != nil { return true }
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append(Entry(start: bytes.count, count: key.count, hash: hash, image: -1))
        bytes.append(contentsOf: key)
        place(entries.count - 1)
        filter.insert(name: key)
        return true
      }
    }

    func place(_ entry: Int) {
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: entries[entry].hash) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }

    func grow() {
      slots = Array(repeating: -1, count: slots.count * 2)
      for entry in entries.indices { place(entry) }
    }

    /// Gives the name `key` (or, with `fileNameOnly`, the file name of the path `key`) the image
    /// `index` when a frame uses it and no image had it before. `false` when the key the filter
    /// lets through is not ASCII.
    func assign(_ index: Int, toName key: String, fileNameOnly: Bool) -> Bool {
      var key = key
      return key.withUTF8 { text in
        var name = text
        if fileNameOnly {
          let start = LegacyTextLine.lastIndex(of: 0x2F, in: text, 0..<text.count).map { $0 + 1 } ?? 0
          name = UnsafeBufferPointer(rebasing: text[start...])
        }
        guard filter.contains(slot: NameFilter.slot(name)) else { return true }
        guard ByteSearch.isASCII(name) else { return false }
        if let entry = find(name, hash: Self.hash(name)), entries[entry].image < 0 {
          entries[entry].image = index
          found += 1
        }
        return true
      }
    }

    /// The image of the frames named `name`, or `nil`.
    func image(named name: String) -> Int? {
      var name = name
      let entry = name.withUTF8 { find($0, hash: Self.hash($0)) }
      guard let entry, entries[entry].image >= 0 else { return nil }
      return entries[entry].image
    }
  }

  func imageIndex(containing address: UInt64) -> Int? {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].base <= address { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let candidate = ranges[low - 1]
    return address <= candidate.last ? candidate.index : nil
  }

  func contains(_ image: BinaryImage, _ address: UInt64) -> Bool {
    guard let base = image.base, let size = image.size else { return true }
    return address >= base && address - base < size
  }

  /// Fills each frame in place: a copy of a frame out and back retains and releases its strings.
  func resolve(_ frames: inout [Frame]) {
    // Neighbouring frames are mostly in one image: the last name's lookup answers for an equal one.
    var lastName: String?
    var lastIndex: Int?
    for position in frames.indices {
      let address = frames[position].address
      var found: Int?
      var named: Int?
      if let name = frames[position].imageName {
        if name != lastName {
          lastName = name
          if let names { lastIndex = names.image(named: name) } else { lastIndex = byName[name] }
        }
        named = lastIndex
      }
      if let index = named {
        if let address, !contains(images[index], address), let byAddress = imageIndex(containing: address) {
          found = byAddress
        } else {
          found = index
        }
      } else if let address {
        found = imageIndex(containing: address)
      }
      guard let found else { continue }
      frames[position].imageIndex = found
      if let name = images[found].name { frames[position].imageName = name }
      if let base = images[found].base, let address, address >= base {
        frames[position].imageOffset = address - base
      }
    }
  }
}

/// A header key the text reader models.
///
/// A key is found from its bytes: by its length, then a byte comparison with the few labels of
/// that length, where a `switch` of `String` patterns tried some sixty labels one after another on
/// every header line. The labels are ASCII and a key is one exactly when its bytes are the label's:
/// a key spelled with other code points ("\u{212A}ernel Triage", with a Kelvin sign) is no label.
enum Field: CaseIterable {
  case incidentIdentifier, hardwareModel, hardwareModelLowercase, process, command, pid, powerstatsFor, path
  case identifier, version, codeType, parentProcess, dateTime, date, launchTime, osVersion, releaseType
  case exceptionType, exceptionCodes, exceptionSubtype, exceptionMessage, exceptionNote, exceptionNotes
  case exceptionReason, terminationReason, terminationDescription, terminationDetails, terminationSignal
  case terminatingProcess, triggeredByThread, crashedThread, highlightedThread, applicationSpecificInformation
  case kernelTriage, vmRegionInfo, vmRegionSummary, dyldErrorMessage, filteredSyslog, externalModificationSummary
  case translatedCodeInformation, systemProfile, applicationSpecificSignatures, logicalCPU, errorCode, trapNumber
  case event, actionTaken, reason, exceptionCode, frontmostProcessPID

  var label: StaticString {
    switch self {
    case .incidentIdentifier: "Incident Identifier"
    case .hardwareModel: "Hardware Model"
    case .hardwareModelLowercase: "Hardware model"
    case .process: "Process"
    case .command: "Command"
    case .pid: "PID"
    case .powerstatsFor: "Powerstats for"
    case .path: "Path"
    case .identifier: "Identifier"
    case .version: "Version"
    case .codeType: "Code Type"
    case .parentProcess: "Parent Process"
    case .dateTime: "Date/Time"
    case .date: "Date"
    case .launchTime: "Launch Time"
    case .osVersion: "OS Version"
    case .releaseType: "Release Type"
    case .exceptionType: "Exception Type"
    case .exceptionCodes: "Exception Codes"
    case .exceptionSubtype: "Exception Subtype"
    case .exceptionMessage: "Exception Message"
    case .exceptionNote: "Exception Note"
    case .exceptionNotes: "Exception Notes"
    case .exceptionReason: "Exception Reason"
    case .terminationReason: "Termination Reason"
    case .terminationDescription: "Termination Description"
    case .terminationDetails: "Termination Details"
    case .terminationSignal: "Termination Signal"
    case .terminatingProcess: "Terminating Process"
    case .triggeredByThread: "Triggered by Thread"
    case .crashedThread: "Crashed Thread"
    case .highlightedThread: "Highlighted Thread"
    case .applicationSpecificInformation: "Application Specific Information"
    case .kernelTriage: "Kernel Triage"
    case .vmRegionInfo: "VM Region Info"
    case .vmRegionSummary: "VM Region Summary"
    case .dyldErrorMessage: "Dyld Error Message"
    case .filteredSyslog: "Filtered syslog"
    case .externalModificationSummary: "External Modification Summary"
    case .translatedCodeInformation: "Translated Code Information"
    case .systemProfile: "System Profile"
    case .applicationSpecificSignatures: "Application Specific Signatures"
    case .logicalCPU: "Logical CPU"
    case .errorCode: "Error Code"
    case .trapNumber: "Trap Number"
    case .event: "Event"
    case .actionTaken: "Action taken"
    case .reason: "Reason"
    case .exceptionCode: "Exception Code"
    case .frontmostProcessPID: "Frontmost process PID"
    }
  }

  /// Whether the key ends the continuation lines of "Termination Reason".
  var isSectionLabel: Bool {
    switch self {
    case .terminationDescription, .terminationDetails, .terminationSignal, .terminatingProcess, .terminationReason,
      .triggeredByThread, .crashedThread, .highlightedThread, .exceptionNote, .exceptionNotes, .exceptionType,
      .exceptionCodes, .exceptionSubtype, .exceptionMessage, .exceptionReason, .applicationSpecificInformation,
      .applicationSpecificSignatures, .kernelTriage, .vmRegionInfo, .vmRegionSummary, .filteredSyslog,
      .externalModificationSummary:
      true
    default:
      false
    }
  }

  /// The fields by the length of their label.
  static let byLength: [[Field]] = {
    var table: [[Field]] = []
    for field in allCases {
      let count = field.label.utf8CodeUnitCount
      while table.count <= count { table.append([]) }
      table[count].append(field)
    }
    return table
  }()

  /// The field whose label is the key `bytes[key]`, or `nil`.
  init?(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) {
    let table = Self.byLength
    guard key.count < table.count, let base = bytes.baseAddress else { return nil }
    for field in table[key.count] where memcmp(base + key.lowerBound, field.label.utf8Start, key.count) == 0 {
      self = field
      return
    }
    return nil
  }
}
