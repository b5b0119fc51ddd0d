import IPSDoctorSupport

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
  /// What a body too large to keep whole keeps (`nil`: everything).
  var budget: LegacyListBudget?

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
  /// Where the panic string of an old kernel panic file (`Kernel-*.panic`: a text header, then
  /// `panic(cpu …)` to the end) starts.
  var panicStart: Int?
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
  package mutating func read(_ bytes: UnsafeBufferPointer<UInt8>) {
    source = bytes
    isASCII = ByteSearch.isASCII(bytes)
    budget = LegacyListBudget.forBody(bytes: bytes.count)
    // Find where the report starts and how far it is indented.
    var start: (offset: Int, cursor: Int)?
    var firstContent: (offset: Int, cursor: Int)?
    var indent = 0
    var cursor = 0
    var offset = 0
    while true {
      let (line, next) = Self.line(bytes, from: cursor)
      let content = Self.droppingLeadingSpace(bytes, line)
      if Self.openingLabels.contains(where: { bytes.hasPrefix($0, in: content) }) {
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
}
