/// Reads Apple's legacy text crash report layout (`.crash`, and the text body of bug_type 109 and
/// of the older resource and stackshot kinds) into the same ``CrashReport`` the JSON reader fills.
///
/// The reader makes one pass over the lines. It accepts CRLF line endings, leading blank lines, a
/// report pasted with a common indentation (into a forum question, say), a report that stops after
/// its header, an `EOF` marker and unrelated text after the report. A line that looks like part of
/// a section but cannot be read becomes a ``ReportWarning`` located at its line in the file; the
/// reader never traps on bad input.
public enum LegacyTextParser {
  static let markers = [
    "Incident Identifier:", "Exception Type:", "Hardware Model:", "Crashed Thread:",
    "Triggered by Thread:", "Binary Images:", "Termination Reason:", "Process:", "OS Version:",
  ]

  /// Whether `text` has at least two of the section labels of a text crash report.
  ///
  /// Searches UTF-8 bytes (`memmem`), not characters: it runs on every file that is not plain JSON,
  /// often over the whole text, and `String.contains` costs half the read time there.
  public static func looksLikeTextReport(_ text: String) -> Bool {
    var found = 0
    for marker in markers where ByteSearch.contains(text, marker) {
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
    var reader = LegacyTextReader(report: report, firstLine: firstLine, texts: texts)
    reader.read(text)
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
  var versionText: Substring?
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
  /// The header's fields as written; made `ResourceSummary.Field`s only for a resource report.
  var headerFields: [(key: Substring, value: Substring)] = []
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
  /// The number of lines in the text, so that the image list can be sized once.
  var lineCount = 0
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

  mutating func read(_ text: String) {
    // One pass over the UTF-8 in place (a native string is contiguous; a bridged one is copied
    // once).
    if text.utf8.withContiguousStorageIfAvailable({ read(text, $0) }) != nil { return }
    var copy = text
    copy.makeContiguousUTF8()
    let contiguous = copy
    _ = contiguous.utf8.withContiguousStorageIfAvailable { read(contiguous, $0) }
  }

  /// Reads `text`, whose UTF-8 is `bytes`. Lines are ranges of `bytes`; a line becomes a
  /// `Substring` of `text` only when it is not a binary image or stack frame, which are read from
  /// their bytes.
  mutating func read(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) {
    let lines = Self.lineRanges(of: bytes)
    lineCount = lines.count
    // Find where the report starts and how far it is indented.
    var start = 0
    var indent = 0
    var found = false
    for (offset, line) in lines.enumerated() {
      let content = Self.droppingLeadingSpace(bytes, line)
      if Self.openingLabels.contains(where: { LegacyTextLine.hasPrefix(bytes, content, $0) }) {
        start = offset
        indent = content.lowerBound - line.lowerBound
        found = true
        break
      }
    }
    // Lines come without trailing spaces, so a line is blank exactly when it is empty.
    if !found {
      start = lines.firstIndex(where: { !$0.isEmpty }) ?? 0
    } else if lines[..<start].contains(where: { !$0.isEmpty }) {
      warn(firstLine, "skipped text before the report")
    }

    var offset = start
    while offset < lines.count && !stopped {
      let number = firstLine + offset
      var line = lines[offset]
      offset += 1
      if indent > 0 && !line.isEmpty {
        if Self.droppingLeadingSpace(bytes, line).lowerBound - line.lowerBound < indent {
          warn(number, "ignored the text after the indented report")
          break
        }
        line = (line.lowerBound + indent)..<line.upperBound
      }
      if readFromBytes(bytes, line, number: number) { continue }
      process(Self.substring(text, line), number: number)
    }
  }

  /// `text[range]`, `range` counted in UTF-8 bytes (at character boundaries: line breaks and
  /// spaces).
  static func substring(_ text: String, _ range: Range<Int>) -> Substring {
    let utf8 = text.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
    let upper = utf8.index(lower, offsetBy: range.count)
    return text[lower..<upper]
  }

  /// `range` without its leading spaces and tabs.
  static func droppingLeadingSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
    -> Range<Int>
  {
    var lower = range.lowerBound
    while lower < range.upperBound && LegacyTextLine.isSpaceByte(bytes[lower]) { lower += 1 }
    return lower..<range.upperBound
  }

  /// The lines of `bytes` (split at "\n", empty lines kept), each without a final "\r" and then
  /// without trailing spaces and tabs, as ranges.
  static func lineRanges(of bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var result: [Range<Int>] = []
    // About 40 bytes a line in these reports; one guess saves most of the regrowth.
    result.reserveCapacity(bytes.count / 32 + 1)
    var start = 0
    while true {
      let end = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) ?? bytes.count
      var last = end
      if last > start && bytes[last - 1] == 0x0D { last -= 1 }
      while last > start && LegacyTextLine.isSpaceByte(bytes[last - 1]) { last -= 1 }
      result.append(start..<last)
      if end == bytes.count { return result }
      start = end + 1
    }
  }

  /// The lines that are most of a report, read from their bytes: a binary image, or a stack frame
  /// inside a frame block, and a blank line ending either block. Does what ``process(_:number:)``
  /// does with such a line and returns `true`; any other line is left to it (`false`, nothing
  /// changed).
  mutating func readFromBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int)
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
        bytes: UnsafeBufferPointer(rebasing: bytes[content]), slots: &slots, texts: texts)
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
      // An ASCII line splits the same on bytes; any other goes to the `Character` path.
      guard ByteSearch.isASCII(UnsafeBufferPointer(rebasing: bytes[line])),
        let (registers, esr) = LegacyTextLine.registers(ascii: bytes, line), !registers.isEmpty
      else { return false }
      lastContentLine = number
      addRegisters(registers, esr: esr, at: position)
      return true
    default:
      return false
    }
  }

  static func startsSection(_ line: Substring) -> Bool {
    if isThreadLine(line) { return true }
    return LegacyTextLine.hasPrefix(LegacyTextLine.droppingLeadingSpace(line), "Binary Images")
      || LegacyTextLine.hasPrefix(line, "Last Exception Backtrace:")
      || LegacyTextLine.hasPrefix(line, "Application Specific Backtrace") || line == "EOF"
  }

  /// "Thread " and a digit (compared as bytes).
  static func isThreadLine(_ line: Substring) -> Bool {
    guard LegacyTextLine.hasPrefix(line, "Thread ") else { return false }
    let utf8 = line.utf8
    let next = utf8.index(utf8.startIndex, offsetBy: 7)
    return next < utf8.endIndex && utf8[next] >= 0x30 && utf8[next] <= 0x39
  }

  /// Labels that end the continuation lines of "Termination Reason".
  static let sectionLabels: Set<Substring> = [
    "Termination Description", "Termination Details", "Termination Signal", "Terminating Process",
    "Termination Reason", "Triggered by Thread", "Crashed Thread", "Highlighted Thread",
    "Exception Note", "Exception Notes", "Exception Type", "Exception Codes", "Exception Subtype",
    "Exception Message", "Exception Reason", "Application Specific Information",
    "Application Specific Signatures", "Kernel Triage", "VM Region Info", "VM Region Summary",
    "Filtered syslog", "External Modification Summary",
  ]

  mutating func process(_ line: Substring, number: Int) {
    // Lines come without trailing spaces (``lineRanges(of:)``), so a blank one is empty.
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
      if Self.startsSection(line) { break }
      let text = String(line)
      switch block {
      case .applicationSpecific: applicationSpecificLines.append(text)
      case .kernelTriage: kernelTriageLines.append(text)
      default: vmRegionLines.append(text)
      }
      return
    case .vmSummary:
      if isBlank {
        pendingBlankLines += 1
        return
      }
      let continues =
        pendingBlankLines == 0 || line.utf8.first.map(LegacyTextLine.isSpaceByte) == true
        || LegacyTextLine.hasPrefix(line, "REGION TYPE") || line.utf8.first == 0x3D
      if continues && !Self.startsSection(line) {
        vmSummaryLines += Array(repeating: "", count: pendingBlankLines)
        vmSummaryLines.append(String(line))
        pendingBlankLines = 0
        return
      }
      pendingBlankLines = 0
    case .terminationReasons:
      if isBlank {
        block = .none
        return
      }
      if Self.startsSection(line) { break }
      if let (key, _) = LegacyTextLine.keyValue(line), Self.sectionLabels.contains(key) { break }
      let text = LegacyTextLine.trimmed(line)
      var termination = report.termination ?? Termination()
      if text.hasPrefix("(") && text.hasSuffix(")") {
        termination.details.append(String(text))
      } else {
        termination.reasons.append(String(text))
      }
      report.termination = termination
      return
    case .dyldErrorMessage:
      if isBlank {
        block = .none
        return
      }
      if !Self.startsSection(line) {
        dyldErrorLines.append(String(LegacyTextLine.trimmed(line)))
        return
      }
    case .skipped:
      if isBlank {
        block = .none
        return
      }
      if !Self.startsSection(line) { return }
    case .threadFrames, .lastExceptionBacktrace, .applicationSpecificBacktrace:
      if isBlank {
        if !addressListOpen { block = .none }
        return
      }
      if readFrameLine(line, number: number) { return }
    case .registers(let position):
      if isBlank {
        block = .none
        return
      }
      if let (registers, esr) = LegacyTextLine.registers(line), !registers.isEmpty {
        addRegisters(registers, esr: esr, at: position)
        return
      }
    case .images:
      if isBlank {
        block = .none
        return
      }
      let content = LegacyTextLine.droppingLeadingSpace(line)
      if LegacyTextLine.hasPrefix(content, "0x") {
        if let image = LegacyTextLine.binaryImage(content) {
          report.images.append(image)
        } else {
          warn(number, "could not read the binary image line")
        }
        return
      }
    }
    block = .none
    if !isBlank { readTopLevel(line, number: number) }
  }

  /// Appends a register line's registers to the thread's state, in place (a copy of the state out
  /// and back would copy its registers on every line).
  mutating func addRegisters(_ registers: [ThreadState.Register], esr: String?, at position: Int) {
    if report.threads[position].state == nil { report.threads[position].state = ThreadState() }
    report.threads[position].state!.registers += registers
    if let esr { report.threads[position].state!.esrDescription = esr }
  }

  /// A frame (or a line of a one-line backtrace) inside a frame block; `false` when the line
  /// belongs to something else.
  mutating func readFrameLine(_ line: Substring, number: Int) -> Bool {
    let content = LegacyTextLine.droppingLeadingSpace(line)
    if case .lastExceptionBacktrace = block, addressListOpen || content.utf8.first == 0x28 {
      readAddressList(content, number: number)
      return true
    }
    guard let first = content.utf8.first, first >= 0x30 && first <= 0x39 else { return false }
    guard let (_, frame) = LegacyTextLine.frame(content) else {
      warn(number, "could not read the stack frame")
      return true
    }
    append(frame)
    return true
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

  /// "(0x1a2b 0x3c4d …)", possibly wrapped over several lines.
  mutating func readAddressList(_ content: Substring, number: Int) {
    var text = content
    if text.hasPrefix("(") { text = text.dropFirst() }
    addressListOpen = true
    if let close = text.firstIndex(of: ")") {
      text = text[..<close]
      addressListOpen = false
    }
    var frames = lastExceptionFrames ?? []
    lastExceptionFrames = nil
    for token in text.split(whereSeparator: LegacyTextLine.isSpace) {
      guard let address = LegacyTextLine.hex(token) else {
        warn(number, "could not read the address \"\(token)\" of the last exception backtrace")
        continue
      }
      frames.append(Frame(address: address))
    }
    lastExceptionFrames = frames
    if !addressListOpen { block = .none }
  }

  // MARK: Top level

  mutating func readTopLevel(_ line: Substring, number: Int) {
    if line == "EOF" {
      stopped = true
      return
    }
    if Self.isThreadLine(line) {
      readThreadHeader(line, number: number)
      return
    }
    let content = LegacyTextLine.droppingLeadingSpace(line)
    if LegacyTextLine.hasPrefix(content, "Binary Images"), content.utf8.last == 0x3A {
      inHeaderBlock = false
      sawBody = true
      block = .images
      // At most one image a line: growing the array would move hundreds of images several times.
      report.images.reserveCapacity(report.images.count + lineCount - (number - firstLine))
      imageKeySlots.reserveCapacity(report.images.count + lineCount - (number - firstLine))
      return
    }
    if LegacyTextLine.hasPrefix(line, "Last Exception Backtrace:") {
      inHeaderBlock = false
      sawBody = true
      block = .lastExceptionBacktrace
      lastExceptionFrames = lastExceptionFrames ?? []
      let rest = LegacyTextLine.trimmed(line.dropFirst("Last Exception Backtrace:".count))
      if rest.hasPrefix("(") { readAddressList(rest, number: number) }
      return
    }
    if LegacyTextLine.hasPrefix(line, "Application Specific Backtrace"), line.utf8.last == 0x3A {
      block = .applicationSpecificBacktrace
      applicationBacktraceFrames = applicationBacktraceFrames ?? []
      return
    }
    if let (key, value) = LegacyTextLine.keyValue(line) {
      readField(key, value, line: line, number: number)
      return
    }
    // A first character that is a digit starts with a digit byte: most lines stop at the byte.
    if let byte = line.utf8.first, byte >= 0x30 && byte <= 0x39, let first = line.first,
      LegacyTextLine.isDigit(first), LegacyTextLine.frame(line) != nil
    {
      warn(number, "found a stack frame outside any thread")
    }
  }

  mutating func ensureThread(_ number: Int) -> Int {
    if let position = threadPositions[number] { return position }
    let position = report.threads.count
    report.threads.append(CrashThread(index: number))
    threadPositions[number] = position
    return position
  }

  mutating func readThreadHeader(_ line: Substring, number: Int) {
    inHeaderBlock = false
    sawBody = true
    guard let header = LegacyTextLine.threadHeader(line) else {
      warn(number, "could not read the thread header \"\(line.prefix(60))\"")
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

  mutating func readField(_ key: Substring, _ value: Substring, line: Substring, number: Int) {
    if inHeaderBlock && !value.isEmpty {
      headerFields.append((key, value))
    }
    let text = value.isEmpty ? nil : String(value)
    let field = FieldKey(key)
    switch field {
    case "Incident Identifier": report.incidentID = text ?? report.incidentID
    case "Hardware Model", "Hardware model": report.modelCode = text ?? report.modelCode
    case "Process":
      let (name, pid) = LegacyTextLine.nameAndPid(value)
      report.processName = name ?? report.processName
      report.pid = pid ?? report.pid
    case "Command":
      isMicrostackshot = true
      report.processName = text ?? report.processName
    case "PID": report.pid = Int(value) ?? report.pid
    case "Powerstats for":
      let (name, pid) = LegacyTextLine.nameAndPid(value)
      report.processName = report.processName ?? name
      report.pid = report.pid ?? pid
    case "Path": if let text, text != "???" { report.processPath = text }
    case "Identifier": if let text, text != "???" { report.bundleID = text }
    case "Version": versionText = value
    case "Code Type":
      if let text { report.cpuType = text.hasSuffix(" (Native)") ? String(text.dropLast(9)) : text }
    case "Parent Process": report.parentProcess = text ?? report.parentProcess
    case "Date/Time": report.captureTime = text ?? report.captureTime
    case "Date": report.captureTime = report.captureTime ?? text
    case "Launch Time": report.launchTime = text ?? report.launchTime
    case "OS Version":
      guard let text else { break }
      let releaseType = report.osVersion?.releaseType
      var version = OSVersion(displayString: text)
      if let build = version.build, build.hasPrefix("Build ") {
        version.build = String(build.dropFirst(6))
      }
      version.releaseType = releaseType
      report.osVersion = version
    case "Release Type":
      var version = report.osVersion ?? OSVersion()
      version.releaseType = text
      report.osVersion = version
    case "Exception Type":
      sawBody = true
      let (type, signal) = LegacyTextLine.exceptionType(value)
      guard type != nil || signal != nil else {
        warn(number, "the exception type is empty")
        break
      }
      var exception = report.exception ?? ExceptionInfo()
      exception.type = type
      exception.signal = signal
      report.exception = exception
    case "Exception Codes":
      guard let text else { break }
      var exception = report.exception ?? ExceptionInfo()
      if let codes = LegacyTextLine.codes(value) {
        exception.codes = text
        exception.rawCodes = codes
      } else {
        // macOS and third-party reporters write the subtype here: "KERN_INVALID_ADDRESS at 0x18".
        if exception.codes == nil { exception.codes = text }
        if exception.subtype == nil { exception.subtype = text }
      }
      report.exception = exception
    case "Exception Subtype":
      var exception = report.exception ?? ExceptionInfo()
      exception.subtype = text
      report.exception = exception
    case "Exception Message":
      var exception = report.exception ?? ExceptionInfo()
      exception.message = text
      report.exception = exception
    case "Exception Note", "Exception Notes":
      guard let text else { break }
      var exception = report.exception ?? ExceptionInfo()
      exception.notes.append(text)
      report.exception = exception
      if text.prefilteredContains("EXC_CORPSE_NOTIFY") { report.isCorpse = true }
      if text.prefilteredContains("NON-FATAL CONDITION") { report.isNonFatal = true }
      if text.prefilteredContains("SIMULATED") { report.isSimulated = true }
    case "Exception Reason":
      var reason = report.exceptionReason ?? ExceptionReason()
      reason.composedMessage = text
      report.exceptionReason = reason
    case "Termination Reason":
      sawBody = true
      var termination = report.termination ?? Termination()
      if let parsed = LegacyTextLine.terminationReason(value) {
        termination.namespace = parsed.namespace
        termination.code = parsed.code
        termination.indicator = parsed.indicator ?? termination.indicator
      } else if let text {
        warn(number, "could not read the termination reason")
        termination.reasons.append(text)
      }
      report.termination = termination
      block = .terminationReasons
    case "Termination Description":
      guard let text else { break }
      var termination = report.termination ?? Termination()
      termination.reasons.append(text)
      report.termination = termination
    case "Termination Details":
      guard let text else { break }
      var termination = report.termination ?? Termination()
      termination.details.append(text)
      report.termination = termination
    case "Termination Signal": terminationSignal = text
    case "Terminating Process":
      let (name, pid) = LegacyTextLine.nameAndPid(value)
      var termination = report.termination ?? Termination()
      termination.byProc = name
      termination.byPid = pid
      report.termination = termination
    case "Triggered by Thread", "Crashed Thread":
      guard let (thread, queue) = LegacyTextLine.threadNumber(value) else {
        warn(number, "could not read the number of the crashed thread")
        break
      }
      triggered = (thread, queue, number)
    case "Highlighted Thread":
      if let (thread, _) = LegacyTextLine.threadNumber(value) { highlighted = (thread, number) }
    case "Application Specific Information":
      sawBody = true
      inHeaderBlock = false
      if let text { applicationSpecificLines.append(text) }
      block = .applicationSpecific
    case "Kernel Triage":
      if let text { kernelTriageLines.append(text) }
      block = .kernelTriage
    case "VM Region Info":
      if let text { vmRegionLines.append(text) }
      block = .vmRegionInfo
    case "VM Region Summary":
      inHeaderBlock = false
      if let text { vmSummaryLines.append(text) }
      pendingBlankLines = 0
      block = .vmSummary
    case "Dyld Error Message":
      if let text { dyldErrorLines.append(text) }
      block = .dyldErrorMessage
    case "Filtered syslog", "External Modification Summary", "Translated Code Information",
      "System Profile", "Application Specific Signatures":
      inHeaderBlock = false
      block = .skipped
    case "Logical CPU": addRegister("cpu", value)
    case "Error Code": addRegister("err", value)
    case "Trap Number": addRegister("trap", value)
    case "Event": event = text
    case "Action taken": actionTaken = text
    case "Reason": stackshotReason = stackshotReason ?? text
    case "Exception Code": stackshotCode = stackshotCode ?? text
    case "Frontmost process PID": if let pid = Int(value) { frontmostPids.append(pid) }
    default:
      if field.hasPrefix("VM Regions Near") {
        block = .vmRegionInfo
      } else if field.hasPrefix("Process "), value.isEmpty {
        readStackshotProcess(key)
      }
    }
  }

  /// "Process 12 info" and "Process 12 SpringBoard threads" lines of a text stackshot.
  mutating func readStackshotProcess(_ key: Substring) {
    let words = key.split(separator: " ")
    guard words.count >= 3, let pid = Int(words[1]) else { return }
    if words.count == 3 && words[2] == "info" {
      stackshotProcessCount += 1
    } else if words.last == "threads" && words.count >= 4 {
      processNamesByPid[pid] = words[2..<(words.count - 1)].joined(separator: " ")
    }
  }

  /// The x86 "Logical CPU", "Error Code" and "Trap Number" lines after the registers.
  mutating func addRegister(_ name: String, _ value: Substring) {
    guard let position = statePosition else { return }
    let valueText = value.prefix(while: { !LegacyTextLine.isSpace($0) })
    guard let number = LegacyTextLine.number(valueText) else { return }
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
      let (first, second) = LegacyTextLine.version(versionText)
      if versionIsShortFirst {
        report.appVersion = first ?? report.appVersion
        report.buildVersion = second ?? report.buildVersion
      } else if second == nil && versionText.firstIndex(of: "(") == nil {
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
      summary.fields = headerFields.map { ResourceSummary.Field(key: String($0.key), value: String($0.value)) }
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
          lastIndex = byName[name]
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

/// A header key as a `switch` subject: an ASCII key matches a case label when the bytes are equal
/// (for ASCII text that is `String` equality), found with a length check and a byte comparison instead of
/// a generic `==` for each of the dozens of labels; any other key is compared as before.
struct FieldKey {
  let key: Substring
  let count: Int
  let isASCII: Bool

  init(_ key: Substring) {
    self.key = key
    count = key.utf8.count
    isASCII = key.utf8.withContiguousStorageIfAvailable(ByteSearch.isASCII)
      ?? key.utf8.allSatisfy { $0 < 0x80 }
  }

  /// `key.hasPrefix(prefix)` for an ASCII `prefix`: on the bytes when the key is ASCII (each byte
  /// a character), else as before.
  func hasPrefix(_ prefix: StaticString) -> Bool {
    guard isASCII else { return key.hasPrefix(prefix.description) }
    return LegacyTextLine.hasPrefix(key, prefix)
  }

  static func ~= (pattern: StaticString, value: FieldKey) -> Bool {
    guard value.isASCII, pattern.hasPointerRepresentation else {
      return value.key == pattern.description
    }
    guard pattern.utf8CodeUnitCount == value.count else { return false }
    let label = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
    return value.key.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(label) }
      ?? value.key.utf8.elementsEqual(label)
  }
}
