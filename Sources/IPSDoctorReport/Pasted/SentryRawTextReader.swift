import IPSDoctorSupport

/// Reads the text Sentry's issue page gives for a native stack trace ("Raw" view, "Copy as
/// text"), as `displayRawContent` in getsentry/sentry writes it:
///
/// ```
/// Thread: com.apple.main-thread
/// EXC_BAD_ACCESS: Exception 1, Code 1, Subcode 16
///   ShopApp             0x0000000104a2b3c4  CartCell.configure(with:) (CartCell.swift:88)
///   UIKitCore           0x00000001a2b3c4d5  -[UITableView _createPreparedCellForRowAtIndexPath:willDisplay:]
/// ```
///
/// An optional `Thread: <name>` line, then per exception a `<type>: <value>` line and its frames,
/// the newest first: two spaces, the image name (its path's last part, `.dylib` dropped) padded to
/// 20 characters, the instruction address padded to 12, a space, the function (or the symbol's
/// address, or `undefined`) and ` (<file>[:<line>])` when known. Chained exceptions are separated
/// by a blank line, the one that ended the app last. The value may run over several lines.
///
/// The text has no images, registers, mechanism or other threads: the exception is read from its
/// type and value (a Mach exception, a signal, an app hang, or an exception's name and reason),
/// and whether the error was handled is not said.
enum SentryRawTextReader {
  /// Whether the text is Sentry's raw stack trace: a `Thread:` or `<type>: <value>` line whose
  /// next line is a native frame.
  static func looksLikeTrace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var previousIsHeader = false
    for line in TextLines(bytes) {
      if previousIsHeader, frame(bytes, line) != nil { return true }
      previousIsHeader = isHeader(bytes, line)
    }
    return false
  }

  /// A line that starts at its first column and holds ": ".
  static func isHeader(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
    guard let first = line.first, bytes[first] != 0x20, bytes[first] != 0x09 else { return false }
    return ByteSearch.firstIndex(of: ": ", in: UnsafeBufferPointer(rebasing: bytes[..<line.upperBound]), from: first)
      != nil
  }

  /// A native frame line: indented by two spaces, an image name (or none) in its 20-character
  /// column, an address, the function.
  static func frame(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Frame? {
    guard let first = line.first, bytes[first] == 0x20 || bytes[first] == 0x09 else { return nil }
    let text = TextLines.leadingTrimmed(bytes, line)
    // The first "0x" followed by hexadecimal digits and then a space or the end: the image name
    // before it may touch it (a name of 20 characters or more is not padded).
    var from = text.lowerBound
    var found: (range: Range<Int>, value: UInt64)?
    while found == nil,
      let zero = ByteSearch.firstIndex(
        of: "0x", in: UnsafeBufferPointer(rebasing: bytes[..<text.upperBound]), from: from)
    {
      from = zero + 1
      var end = zero + 2
      var value: UInt64 = 0
      while end < text.upperBound, bytes[end].isASCIIHexDigit, end - zero - 2 < 16 {
        value = value << 4 | LegacyTextLine.hexValue(bytes[end])
        end += 1
      }
      guard end > zero + 2, end == text.upperBound || bytes[end] == 0x20 else { continue }
      found = (zero..<end, value)
    }
    guard let (range, address) = found else { return nil }
    // Sentry's columns: two spaces, then the address, or the name padded to 20 characters and
    // the address, or a longer name touching it.
    let column = range.lowerBound - line.lowerBound
    let touching = range.lowerBound > text.lowerBound && bytes[range.lowerBound - 1] != 0x20
    guard column == 2 || column == 22 || (column > 22 && touching) else { return nil }
    let name = LegacyTextLine.string(bytes, TextLines.leadingTrimmed(bytes, text.lowerBound..<range.lowerBound))
      .trimmingWhitespace()
    var rest = LegacyTextLine.string(bytes, TextLines.leadingTrimmed(bytes, range.upperBound..<text.upperBound))
    guard !rest.isEmpty else { return nil }
    var sourceFile: String?
    var sourceLine: Int?
    if rest.hasSuffix(")"), let open = rest.ranges(of: " (").last {
      let inside = rest[open.upperBound..<rest.index(before: rest.endIndex)]
      if !inside.isEmpty, !inside.contains(" "), inside.contains(".") || inside.hasPrefix("<") {
        if let colon = inside.lastIndex(of: ":"), let number = Int(inside[inside.index(after: colon)...]) {
          sourceFile = String(inside[..<colon])
          sourceLine = number
        } else {
          sourceFile = String(inside)
        }
        rest = String(rest[..<open.lowerBound]).trimmingWhitespace()
      }
    }
    // No function: the symbol's address, or what JavaScript writes for a missing value.
    let symbol: String? = rest == "undefined" || rest == "null" || rest.hasPrefix("0x") ? nil : rest
    var frame = Frame(
      imageIndex: nil, imageOffset: nil, symbol: symbol, imageName: imageName(name), address: address)
    frame.sourceFile = sourceFile
    frame.sourceLine = sourceLine
    return frame
  }

  /// Sentry drops `.dylib` from image names; a name that starts with "lib" is a library's.
  static func imageName(_ name: String) -> String? {
    guard !name.isEmpty else { return nil }
    return name.hasPrefix("lib") && !name.hasSuffix(".dylib") ? name + ".dylib" : name
  }

  /// One exception of the text: its type, value and frames.
  struct Block {
    var type: String
    var value: [String]
    var frames: [Frame] = []
  }

  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> CrashReport {
    var threadName: String?
    var blocks: [Block] = []
    var inFrames = false
    for line in TextLines(bytes) {
      let text = TextLines.leadingTrimmed(bytes, line)
      if text.isEmpty || TextLines.isFence(bytes, text) {
        inFrames = false
        continue
      }
      if let frame = frame(bytes, line), !blocks.isEmpty {
        blocks[blocks.count - 1].frames.append(frame)
        inFrames = true
        continue
      }
      guard isHeader(bytes, line) || (!blocks.isEmpty && !inFrames) else { continue }
      let string = LegacyTextLine.string(bytes, text)
      if string.hasPrefix("Thread: ") && blocks.isEmpty {
        threadName = String(string.dropFirst(8)).trimmingWhitespace()
      } else if !blocks.isEmpty && !inFrames && blocks[blocks.count - 1].frames.isEmpty {
        // The value, continued.
        blocks[blocks.count - 1].value.append(string)
      } else if let colon = string.firstRange(of: ": ") {
        blocks.append(
          Block(type: String(string[..<colon.lowerBound]), value: [String(string[colon.upperBound...])]))
        inFrames = false
      }
    }
    var report = CrashReport(format: .legacyText, kind: .crash)
    report.source = .sentryText
    // The last exception ended the app; earlier ones are its causes. A block without frames is
    // a line of prose around the trace.
    let traced = blocks.filter { !$0.frames.isEmpty }
    let last = traced.last ?? blocks.last ?? Block(type: "", value: [])
    var thread = CrashThread(index: 0, frames: last.frames)
    thread.triggered = true
    if let threadName, !threadName.isEmpty {
      if threadName.contains(".") && !threadName.contains(" ") {
        thread.queue = threadName
      } else {
        thread.name = threadName
      }
    }
    report.threads = [thread]
    report.faultingThread = 0
    var value: String? = last.value.joined(separator: "\n").trimmingWhitespace()
    if value == "undefined" || value == "null" || value?.isEmpty == true { value = nil }
    SentryEventReader.readException(type: last.type.isEmpty ? nil : last.type, value: value, into: &report)
    if report.kind == .crash {
      report.warnings.append(
        ReportWarning(
          location: "line 1",
          message: "Sentry's raw text does not say whether the error was handled: read as the crash that ended the app")
      )
    }
    if traced.count > 1 {
      report.warnings.append(
        ReportWarning(
          location: "line 1",
          message: "read the last of \(traced.count) chained exceptions, the one that ended the app"))
    }
    report.nameImagesFromFrames()
    report.missing = report.missingParts()
    return report
  }
}
