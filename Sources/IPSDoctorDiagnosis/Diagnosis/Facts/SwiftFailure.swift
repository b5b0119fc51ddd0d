import IPSDoctorSupport

/// A Swift runtime error message, wherever the report put it: Application Specific Information
/// (`asi["libswiftCore.dylib"]`: "File.swift:42: Fatal error: …"), the exception reason or message,
/// or — in optimised builds symbolicated with a dSYM — an inlined frame named
/// "Swift runtime failure: <reason>".
struct SwiftFailure: Sendable {
  package enum Kind: String, Sendable {
    case fatalError = "Fatal error"
    case preconditionFailed = "Precondition failed"
    case assertionFailed = "Assertion failed"
    case runtimeFailure = "Swift runtime failure"
    /// A line written by the Swift runtime without one of the prefixes above.
    case runtimeMessage = "runtime message"
  }

  var kind: Kind
  /// The message after the prefix, e.g. "Index out of range".
  var message: String
  var file: String?
  var line: Int?
  var evidence: Evidence
  /// Index of the frame in the crashed thread, when the message is a frame symbol.
  var frameIndex: Int?

  /// "ViewController.swift:42" when known.
  var location: String? {
    guard let file else { return nil }
    return line.map { "\(file):\($0)" } ?? file
  }

  static let prefixes: [(String, Kind)] = [
    ("Swift runtime failure: ", .runtimeFailure), ("Fatal error", .fatalError),
    ("Precondition failed", .preconditionFailed), ("Assertion failed", .assertionFailed),
  ]

  /// Every Swift failure message in the report, most authoritative first (found once per report,
  /// by `DiagnosisContext`).
  static func all(in context: DiagnosisContext) -> [SwiftFailure] { context.swiftFailures }

  /// Finds `all(in:)`; called once per report by `DiagnosisContext.init`.
  static func collect(in context: DiagnosisContext) -> [SwiftFailure] {
    var result: [SwiftFailure] = []
    // `parse` finds nothing in a text without one of the prefixes, and the reason texts hold
    // every text parsed here: where their bytes lack all four, each is ruled out at once.
    let reasonsMayFail =
      context.reasonTextBytes.map { bytes in prefixes.contains { bytes.contains($0.0) != false } } ?? true
    for info in context.report.applicationSpecificInfo {
      let fromSwift = (info.image ?? "").hasPrefix("libswift")
      if !reasonsMayFail && !fromSwift { continue }
      for (index, line) in info.lines.enumerated() {
        // The path is text: built only for a line that yields a failure, which few do.
        func evidence() -> Evidence {
          Evidence(info.image.map { "asi[\"\($0)\"][\(index)]" } ?? "asi[\(index)]", line)
        }
        if reasonsMayFail, let failure = parse(line, evidence: evidence()) {
          result.append(failure)
        } else if fromSwift, let failure = located(line, evidence: evidence()) {
          result.append(failure)
        } else if fromSwift, !line.trimmingWhitespace().isEmpty {
          result.append(
            SwiftFailure(kind: .runtimeMessage, message: line.trimmingWhitespace(), evidence: evidence()))
        }
      }
    }
    if reasonsMayFail, let message = context.exceptionMessage,
      let failure = parse(message, evidence: Evidence("exceptionReason.composed_message", message))
    {
      result.append(failure)
    }
    if reasonsMayFail, let message = context.report.exception?.message,
      let failure = parse(message, evidence: Evidence("exception.message", message))
    {
      result.append(failure)
    }
    // Where the symbol bytes of the crashed thread's top 12 frames lack the marker, no frame
    // scanned below has it. The search stops where the 13th frame's symbol starts: the rest of
    // the backtrace cannot change the answer.
    let marker = "Swift runtime failure: "
    let markerInTop: Bool
    switch context.crashedBacktrace?.symbolText?.firstFrame(containing: marker, before: 12) ?? .undecided {
    case .found: markerInTop = true
    case .absent: markerInTop = false
    case .undecided: markerInTop = true
    }
    if let backtrace = context.crashedBacktrace, markerInTop {
      for (index, frame) in backtrace.frames.prefix(12).enumerated() {
        guard let symbol = frame.symbol, symbol.prefilteredContains(marker),
          var failure = parse(symbol, evidence: context.frameEvidence(backtrace, index))
        else { continue }
        failure.frameIndex = index
        // The inlined failure frame carries the caller's source location, or the next frame does.
        if let file = frame.sourceFile, file != "<compiler-generated>" {
          failure.file = file
          failure.line = frame.sourceLine
        } else if index + 1 < backtrace.frames.count, let file = backtrace.frames[index + 1].sourceFile,
          file != "<compiler-generated>"
        {
          failure.file = file
          failure.line = backtrace.frames[index + 1].sourceLine
        }
        result.append(failure)
      }
    }
    return result
  }

  /// The first failure whose message contains one of `fragments`.
  static func find(in context: DiagnosisContext, containing fragments: [String]) -> (SwiftFailure, String)? {
    for failure in all(in: context) {
      if let fragment = fragments.first(where: { failure.message.prefilteredContains($0) }) {
        return (failure, fragment)
      }
    }
    return nil
  }

  /// A line of the Swift runtime in the layout of `_assertionFailure`, "Module/File.swift:42:
  /// label: message", whose label is none of ``prefixes``: the standard library's assertion
  /// machinery stopped the app at that line (read as a fatal error, the message keeping its label).
  static func located(_ text: String, evidence: @autoclosure () -> Evidence) -> SwiftFailure? {
    guard let swift = text.firstRange(of: ".swift:") else { return nil }
    let digits = text[swift.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
    guard let line = Int(digits), digits.endIndex < text.endIndex, text[digits.endIndex] == ":" else { return nil }
    let message = text[text.index(after: digits.endIndex)...].trimmingWhitespace()
    let file = text[..<swift.upperBound].dropLast().trimmingWhitespace()
    guard !message.isEmpty, !file.isEmpty, !file.contains(" ") else { return nil }
    var failure = SwiftFailure(kind: .fatalError, message: message, evidence: evidence())
    failure.file = file
    failure.line = line
    return failure
  }

  /// Parses "[File.swift:42: ]Fatal error[: message][: file F, line N]" and
  /// "Swift runtime failure: reason".
  static func parse(_ text: String, evidence: @autoclosure () -> Evidence) -> SwiftFailure? {
    // libdispatch's and C's assertions use the same words: "BUG IN CLIENT OF LIBDISPATCH:
    // Assertion failed: …", "Assertion failed: (x > 0), function f, file f.c, line 3."
    if text.prefilteredContains("BUG IN CLIENT") || text.prefilteredContains(", function ") { return nil }
    for (marker, kind) in prefixes {
      guard let range = text.prefilteredFirstRange(of: marker) else { continue }
      let before = text[..<range.lowerBound].trimmingWhitespace()
      if kind != .runtimeFailure, !before.isEmpty, !before.hasSuffix(":") { continue }
      var message = text[range.upperBound...].trimmingWhitespace()
      if message.hasPrefix(":") { message = String(message.dropFirst()).trimmingWhitespace() }
      var failure = SwiftFailure(kind: kind, message: message, evidence: evidence())
      // New format: "Module/File.swift:42: Fatal error: message". `before` is that prefix,
      // already trimmed (not trimmed again here). Its last `Character` is the colon, one byte:
      // dropped by its UTF-8 index, which gives what `dropLast()` gives walking `Character`s.
      if kind != .runtimeFailure, before.hasSuffix(":") {
        let location = before[..<before.utf8.index(before: before.endIndex)]
        if let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) {
          failure.file = String(location[..<colon])
          failure.line = line
        }
      }
      // Old format (Swift 5.0–5.3): "Fatal error: message: file Module/File.swift, line 42".
      if failure.file == nil, let fileRange = message.prefilteredFirstRange(of: ": file "),
        let lineRange = message[fileRange.upperBound...].prefilteredFirstRange(of: ", line ")
      {
        failure.file = String(message[fileRange.upperBound..<lineRange.lowerBound])
        failure.line = Int(message[lineRange.upperBound...].prefix(while: \.isNumber))
        failure.message = String(message[..<fileRange.lowerBound])
      } else if failure.file == nil, message.hasPrefix("file "),
        let lineRange = message.prefilteredFirstRange(of: ", line ")
      {
        failure.file = String(message[message.index(message.startIndex, offsetBy: 5)..<lineRange.lowerBound])
        failure.line = Int(message[lineRange.upperBound...].prefix(while: \.isNumber))
        failure.message = ""
      }
      return failure
    }
    return nil
  }

  /// `remedy`, opened with `pointer(location)` (the location in backticks) and a blank line when the
  /// failure names its source location.
  func remedy(_ remedy: String, pointer: (String) -> String) -> String {
    guard let location else { return remedy }
    return pointer("\(CodeSpan.markdown(location))") + "\n\n" + remedy
  }

  /// " It was raised at `File.swift:12`. The app frame that failed is `…` (threads[0].frames[1]).
  /// It happened on the main thread.": the source location, the app frame that failed (appended
  /// to `evidence`) and the crashed thread, each when the report has it.
  func locationSentence(in context: DiagnosisContext, evidence: inout [Evidence]) -> String {
    var sentence = ""
    if let location { sentence += " It was raised at `\(location)`." }
    guard let backtrace = context.crashedBacktrace else { return sentence }
    // The inlined "Swift runtime failure" frame sits on top of the function that failed.
    let start = frameIndex.map { $0 + 1 } ?? 0
    if let app = context.appFrameEvidence(in: backtrace, from: start) {
      sentence += " The app frame that failed is \(DiagnosisContext.quote(app))"
      sentence += app.detail.hasSuffix("(unsymbolicated)") ? "; symbolicate it to see the line." : "."
      evidence.append(app)
    }
    if let thread = context.crashedThreadDisplay { sentence += " It happened on \(thread)." }
    return sentence
  }
}
