import IPSDoctorReport
import IPSDoctorSupport

/// The dynamic loader's launch error, from `termination.reasons` (iOS 15+/macOS 12+), a legacy
/// "Termination Description: DYLD, …" line, `asi["dyld"]`, or a legacy report's "Dyld Error
/// Message" block.
struct DyldError: DyldLineLookup, Sendable {
  var namespaceIsDYLD: Bool
  var code: UInt64?
  var indicator: String?
  /// Where the lines come from; they are split only when a marker may be in them.
  private let terminationTexts: [(path: String, text: String)]
  private let applicationSpecificInfo: [ApplicationSpecificInfo]
  private let dyldErrorMessage: String?
  /// The termination texts and the reason texts (which hold every Application Specific line),
  /// each joined: every line is a piece of one of these texts or of `dyldErrorMessage`, so a
  /// marker none of them holds is in no line, which two byte searches show.
  private let terminationTextBytes: FrameSymbolText?
  private let reasonTextBytes: FrameSymbolText?

  init(_ context: borrowing DiagnosisContext) {
    let termination = context.report.termination
    namespaceIsDYLD = termination?.namespace == "DYLD"
    code = namespaceIsDYLD ? termination?.code : nil
    indicator = termination?.indicator
    terminationTexts = context.terminationTexts
    applicationSpecificInfo = context.report.applicationSpecificInfo
    dyldErrorMessage = context.report.dyldErrorMessage
    terminationTextBytes = context.terminationTextBytes
    reasonTextBytes = context.reasonTextBytes
  }

  /// Every line of dyld text the report holds, with where it was found.
  var lines: [Evidence] {
    var lines: [Evidence] = []
    for item in terminationTexts {
      for piece in Self.pieces(item.text) { lines.append(Evidence(item.path, piece)) }
    }
    for info in applicationSpecificInfo {
      for (index, line) in info.lines.enumerated() {
        let key = info.image.map { "asi[\"\($0)\"][\(index)]" } ?? "asi[\(index)]"
        for piece in Self.pieces(line) { lines.append(Evidence(key, piece)) }
      }
    }
    if lines.isEmpty, let message = dyldErrorMessage {
      for line in Self.pieces(message) { lines.append(Evidence("dyldErrorMessage", line)) }
    }
    return lines
  }

  /// Whether no line can hold `marker` (a line's bytes are bytes of the text it was cut from).
  private func isAbsent(_ marker: String) -> Bool {
    terminationTextBytes?.contains(marker) == false && reasonTextBytes?.contains(marker) == false
      && !(dyldErrorMessage?.utf8Contains(marker) ?? false)
  }

  /// Splits one string at newlines and " | " separators (legacy one-line descriptions), each
  /// piece trimmed, empty pieces left out.
  static func pieces(_ text: String) -> [String] {
    // A text without a "\n" or "|" byte holds no such `Character` (each is one scalar, equivalent
    // to no other): it is one piece.
    let hasSeparator = text.withBorrowedUTF8 { bytes in
      ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: 0) != nil
        || ByteSearch.firstIndex(of: UInt8(ascii: "|"), in: bytes, from: 0) != nil
    }
    guard hasSeparator else {
      let piece = text.trimmingWhitespace()
      return piece.isEmpty ? [] : [piece]
    }
    return text.split(whereSeparator: { $0 == "\n" || $0 == "|" }).map { $0.trimmingWhitespace() }.filter {
      !$0.isEmpty
    }
  }

  /// The first line containing `marker` and the text after it (up to the end of the line).
  func value(after marker: String) -> (evidence: Evidence, value: String)? {
    // `textFollowing` finds the marker's characters, which hold its bytes.
    if isAbsent(marker) { return nil }
    for line in lines {
      if let value = line.detail.textFollowing(marker) { return (line, value) }
    }
    return nil
  }

  /// Drops " (which was built for iOS 17.0)" style notes and trailing punctuation.
  static func stripTrailingNotes(_ text: String) -> String {
    var value = text
    if let range = value.prefilteredFirstRange(of: " (which was built") { value = String(value[..<range.lowerBound]) }
    if let range = value.prefilteredFirstRange(of: " Referenced from") { value = String(value[..<range.lowerBound]) }
    return value.trimmingWhitespace()
  }

  /// "X" for ".../X.framework/X", else the last path component.
  static func frameworkName(_ path: String) -> String {
    if let range = path.prefilteredFirstRange(of: ".framework") {
      let before = path[..<range.lowerBound]
      return String(before.split(separator: "/").last ?? before)
    }
    return String(path.split(separator: "/").last ?? Substring(path))
  }
}

/// The facts read from dyld's lines, over `value(after:)`: `DyldError` answers it with a byte test
/// and then the lines split again, `DyldLines` with lines split once.
protocol DyldLineLookup {
  /// The first line containing `marker` and the text after it (up to the end of the line).
  func value(after marker: String) -> (evidence: Evidence, value: String)?
}

extension DyldLineLookup {
  /// The missing library: "Library not loaded: X" or "dependent dylib 'X' not found".
  var missingLibrary: (evidence: Evidence, path: String)? {
    if let found = value(after: "Library not loaded: ") {
      return (found.evidence, DyldError.stripTrailingNotes(found.value))
    }
    if let found = value(after: "dependent dylib '"), let end = found.value.firstIndex(of: "'") {
      return (found.evidence, String(found.value[..<end]))
    }
    return nil
  }

  /// "Referenced from: <UUID> /path" → "/path"
  var referencedFrom: String? {
    guard let value = value(after: "Referenced from: ")?.value else {
      if let found = value(after: "not found for '"), let end = found.value.firstIndex(of: "'") {
        return String(found.value[..<end])
      }
      return nil
    }
    return DyldError.stripTrailingNotes(DyldLines.droppingUUID(value))
  }

  /// The paths dyld tried ("Reason: tried: '/a' (no such file), '/b' (…)"), each between a pair
  /// of quotes.
  var triedPaths: [String] {
    guard let value = value(after: "tried: ")?.value else { return [] }
    return DyldLines.quotedParts(value)
  }

  /// "Symbol not found: _X" → "_X"
  var missingSymbol: (evidence: Evidence, symbol: String)? {
    guard let found = value(after: "Symbol not found: ") else { return nil }
    return (found.evidence, DyldError.stripTrailingNotes(found.value))
  }

  /// "Expected in: <UUID> /path" → "/path"
  var expectedIn: String? {
    guard let value = value(after: "Expected in: ")?.value else { return nil }
    return DyldError.stripTrailingNotes(DyldLines.droppingUUID(value))
  }
}
