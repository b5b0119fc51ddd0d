import IPSDoctorSupport

/// Reads Apple's legacy text crash report layout (`.crash`, and the text body of bug_type 109 and
/// of the older resource and stackshot kinds) into the same ``CrashReport`` the JSON reader fills.
///
/// The reader makes one pass over the lines. It accepts CRLF line endings, leading blank lines, a
/// report pasted with a common indentation (into a forum question, say), a report that stops after
/// its header, an `EOF` marker and unrelated text after the report. A line that looks like part of
/// a section but cannot be read becomes a ``ReportWarning`` located at its line in the file; the
/// reader never traps on bad input.
package enum LegacyTextParser {
  /// Section labels of a text crash report: ASCII literals, searched for as bytes.
  static let markers: [StaticString] = [
    "Incident Identifier:", "Exception Type:", "Hardware Model:", "Crashed Thread:",
    "Triggered by Thread:", "Binary Images:", "Termination Reason:", "Process:", "OS Version:",
  ]

  /// Whether `text` has at least two of the section labels of a text crash report.
  ///
  /// Searches UTF-8 bytes (`memmem`), not characters: every label is ASCII. It runs on every file
  /// that is not plain JSON, often over the whole text.
  package static func looksLikeTextReport(_ text: String) -> Bool {
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
  package static func parse(_ text: String, firstLine: Int, into report: inout CrashReport) {
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
