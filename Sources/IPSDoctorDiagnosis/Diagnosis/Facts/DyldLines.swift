import IPSDoctorSupport

/// `DyldError`'s accessors over its lines split once: each accessor of `DyldError` whose marker
/// is in the report splits every text into lines again, and a finding asks four or five of
/// them. The dyld rules use `DyldError` for their first test (byte
/// searches, without splitting), and this once they fire.
struct DyldLines: DyldLineLookup {
  let lines: [Evidence]

  init(_ dyld: DyldError) { lines = dyld.lines }

  /// `DyldError.value(after:)`: the first line containing `marker` and the text after it. (Its
  /// byte test only rules out markers that no line holds.)
  func value(after marker: String) -> (evidence: Evidence, value: String)? {
    for line in lines {
      if let value = line.detail.textFollowing(marker) { return (line, value) }
    }
    return nil
  }

  /// "<UUID> /path" → "/path": the text after the first ">" when `value` starts with "<",
  /// trimmed; else `value`.
  static func droppingUUID(_ value: String) -> String {
    guard value.hasPrefix("<"), let close = value.firstIndex(of: ">") else { return value }
    return value[value.index(after: close)...].trimmingWhitespace()
  }

  /// The texts between successive pairs of `'` in `text`, cut at the quote bytes (a combining
  /// mark after a quote starts the text after it).
  static func quotedParts(_ text: String) -> [String] {
    let quote = UInt8(ascii: "'")
    var parts: [String] = []
    var rest = text.utf8[...]
    while let open = rest.firstIndex(of: quote) {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: quote) else { break }
      parts.append(String(Substring(after[..<close])))
      rest = after[after.index(after: close)...]
    }
    return parts
  }
}
