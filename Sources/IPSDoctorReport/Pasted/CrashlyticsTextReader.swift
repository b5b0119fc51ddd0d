import IPSDoctorSupport

/// Reads a Firebase Crashlytics console trace, as copied from the console or pasted into an issue:
///
/// ```
/// # Crashlytics - Stack trace
/// # Application: com.example.shop
/// # Version: 2.4 (118)
///
/// Fatal Exception: NSInvalidArgumentException
/// -[__NSCFNumber length]: unrecognized selector sent to instance 0x8c1e2f0
///
/// Crashed: com.apple.main-thread
/// 0  CoreFoundation     0x99f8c __exceptionPreprocess + 164
/// 3  ShopApp            0x4f2a8 CartCell.configure(with:) + 212 (CartCell.swift:88)
///
/// com.apple.uikit.eventfetch-thread
/// 0  libsystem_kernel.dylib  0x1234 mach_msg2_trap + 8
/// ```
///
/// The `#` lines, the exception and the thread headers are each optional; each thread is a header
/// line and numbered frames. A header names a queue (`com.apple.main-thread`) or a thread. Lines
/// before the first header or after the last frame (an issue's prose) are passed over.
///
/// The trace has no binary images: each image a frame names becomes an image with a name only,
/// the app's own ones marked by the frames that show it (a source location, `main`). An address
/// below 4 GiB, where no arm64 image of iOS or macOS loads, is an offset into its image.
enum CrashlyticsTextReader {
  /// Whether the text is a Crashlytics trace: a line that starts with one of its headers, and a
  /// frame line.
  static func looksLikeTrace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var hasHeader = false
    var hasFrame = false
    for line in TextLines(bytes) {
      let text = TextLines.leadingTrimmed(bytes, line)
      if header(bytes, text) != nil {
        hasHeader = true
      } else if hasHeader, LegacyTextLine.frame(bytes: UnsafeBufferPointer(rebasing: bytes[text])) != nil {
        hasFrame = true
      }
      if hasHeader && hasFrame { return true }
    }
    return false
  }

  enum Header {
    case comment
    case fatalException
    case nonFatalException
    case crashed
  }

  /// The Crashlytics header `bytes[line]` starts, and where its value starts.
  static func header(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> (Header, Int)? {
    let headers: [(StaticString, Header)] = [
      ("# Crashlytics", .comment), ("Fatal Exception:", .fatalException),
      ("Non-fatal Exception:", .nonFatalException), ("Crashed:", .crashed),
    ]
    for (prefix, header) in headers where bytes.hasPrefix(prefix, in: line) {
      return (header, line.lowerBound + prefix.utf8CodeUnitCount)
    }
    return nil
  }

  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> CrashReport {
    var reader = Reader(bytes: bytes)
    for line in TextLines(bytes) { reader.read(line: line) }
    return reader.finish()
  }

  /// The state of one pass over the lines.
  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var report = CrashReport(format: .legacyText, kind: .crash)
    var threads: [CrashThread] = []
    var exceptionFrames: [Frame] = []
    var exceptionLines: [String] = []
    var crashLines: [String] = []
    var section = Section.before
    var lineNumber = 0

    enum Section {
      /// Before the first header: an issue's prose.
      case before
      /// After `# …` lines.
      case comments
      /// After `Fatal Exception:`, reading its reason and then its frames.
      case exception
      /// After a thread's header, at the thread with this index in `threads`.
      case thread(Int)
    }

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
      report.source = .crashlyticsText
    }

    mutating func read(line raw: Range<Int>) {
      lineNumber &+= 1
      let line = TextLines.leadingTrimmed(bytes, raw)
      guard !line.isEmpty, !TextLines.isFence(bytes, line) else { return }
      if let (header, valueStart) = CrashlyticsTextReader.header(bytes, line) {
        let value = LegacyTextLine.string(bytes, TextLines.leadingTrimmed(bytes, valueStart..<line.upperBound))
        switch header {
        case .comment:
          section = .comments
        case .fatalException, .nonFatalException:
          report.exceptionReason = ExceptionReason(name: value.isEmpty ? nil : value)
          report.isNonFatal = header == .nonFatalException
          section = .exception
        case .crashed:
          startThread(named: value, crashed: true)
        }
        return
      }
      if bytes.hasPrefix("#", in: line) {
        if case .before = section { section = .comments }
        if case .comments = section { readComment(line) }
        return
      }
      if let (_, frame) = LegacyTextLine.frame(bytes: UnsafeBufferPointer(rebasing: bytes[line])) {
        add(frame)
        return
      }
      let text = LegacyTextLine.string(bytes, line)
      switch section {
      case .before:
        return
      case .comments:
        startThread(named: text, crashed: false)
      case .exception:
        if exceptionFrames.isEmpty {
          exceptionLines.append(text)
        } else {
          startThread(named: text, crashed: false)
        }
      case .thread(let index):
        if threads[index].frames.isEmpty && threads[index].triggered {
          crashLines.append(text)
        } else if threads[index].frames.isEmpty {
          // Two header lines in a row: the first named nothing.
          threads.removeLast()
          startThread(named: text, crashed: false)
        } else {
          startThread(named: text, crashed: false)
        }
      }
    }

    /// `# Application: …`, `# Version: …`, `# Date: …`, `# Platform: …`.
    mutating func readComment(_ line: Range<Int>) {
      var start = line.lowerBound + 1
      while start < line.upperBound, bytes[start] == 0x20 { start += 1 }
      guard
        let colon = ByteSearch.firstIndex(
          of: 0x3A, in: UnsafeBufferPointer(rebasing: bytes[..<line.upperBound]), from: start)
      else { return }
      let key = LegacyTextLine.string(bytes, start..<colon)
      let value = LegacyTextLine.string(bytes, TextLines.leadingTrimmed(bytes, (colon + 1)..<line.upperBound))
      guard !value.isEmpty else { return }
      switch key {
      case "Application": report.bundleID = value
      case "Version":
        // "2.4 (118)": the short version and the build.
        if value.hasSuffix(")"), let open = value.lastIndex(of: "(") {
          report.appVersion = String(value[..<open]).trimmingWhitespace()
          report.buildVersion = String(value[value.index(after: open)..<value.index(before: value.endIndex)])
        } else {
          report.appVersion = value
        }
      case "Date": report.captureTime = value
      default: break
      }
    }

    mutating func startThread(named name: String, crashed: Bool) {
      var thread = CrashThread(index: threads.count)
      thread.triggered = crashed
      // A queue label is a reverse-DNS name; "Thread" alone names nothing.
      if name.contains(".") && !name.contains(" ") {
        thread.queue = name
      } else if name != "Thread" && !name.isEmpty {
        thread.name = name
      }
      threads.append(thread)
      section = .thread(threads.count - 1)
    }

    mutating func add(_ parsed: Frame) {
      var frame = parsed
      // "(Missing UUID …)", "(Missing)": the console had no dSYM for the image.
      if let symbol = frame.symbol, symbol.hasPrefix("(Missing") { frame.symbol = nil }
      if let address = frame.address, address < 1 << 32, frame.imageOffset == nil {
        frame.imageOffset = address
        frame.address = nil
      }
      switch section {
      case .before, .comments:
        // Frames with no header above them: the crashed thread of a trace pasted without its headers.
        startThread(named: "", crashed: threads.isEmpty)
        add(frame)
      case .exception:
        exceptionFrames.append(frame)
      case .thread(let index):
        threads[index].frames.append(frame)
      }
    }

    consuming func finish() -> CrashReport {
      threads.removeAll { $0.frames.isEmpty && !$0.triggered }
      for index in threads.indices { threads[index].index = index }
      if !exceptionLines.isEmpty {
        var reason = report.exceptionReason ?? ExceptionReason()
        reason.composedMessage = exceptionLines.joined(separator: "\n")
        report.exceptionReason = reason
      }
      if report.exceptionReason != nil { report.exceptionReason?.type = "objc-exception" }
      if !exceptionFrames.isEmpty { report.lastExceptionBacktrace = exceptionFrames }
      readCrashLines()
      report.threads = threads
      report.faultingThread = threads.firstIndex(where: \.triggered)
      report.nameImagesFromFrames()
      var known: [MissingPart] = []
      let frames = threads.flatMap(\.frames) + exceptionFrames
      if frames.contains(where: { $0.address == nil && $0.imageOffset != nil }) { known.append(.addresses) }
      report.missing = report.missingParts(adding: known)
      return report
    }

    /// The lines between `Crashed:` and its first frame: `EXC_BAD_ACCESS KERN_INVALID_ADDRESS
    /// 0x10`, a signal, or the crash's message (`Fatal error: …`), kept as Application Specific
    /// Information.
    mutating func readCrashLines() {
      var messages: [String] = []
      for line in crashLines {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        if let first = words.first, first.hasPrefix("EXC_"), report.exception == nil {
          var exception = ExceptionInfo(type: String(first))
          if words.count >= 3, words[2].hasPrefix("0x") {
            exception.subtype = words[1] + " at " + words[2]
          } else if words.count >= 2 {
            exception.subtype = words.dropFirst().joined(separator: " ")
          }
          report.exception = exception
        } else if let first = words.first, words.count <= 3, first.hasPrefix("SIG"), first.allSatisfy(\.isUppercase) {
          var exception = report.exception ?? ExceptionInfo()
          exception.signal = String(first)
          report.exception = exception
        } else {
          messages.append(line)
        }
      }
      if !messages.isEmpty { report.applicationSpecificInfo = [ApplicationSpecificInfo(image: nil, lines: messages)] }
    }
  }
}
