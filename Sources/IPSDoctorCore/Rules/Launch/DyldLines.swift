/// `DyldError`'s accessors over its lines split once: each accessor of `DyldError` whose marker
/// is in the report splits every text into lines again (about 30,000 instructions a time), and a
/// finding asks four or five of them. The dyld rules use `DyldError` for their first test (it
/// rules out most reports with byte searches, without splitting), and this once they fire.
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

  /// The texts between successive pairs of `'` in `text`, found character by character.
  static func quotedParts(_ text: String) -> [String] {
    var parts: [String] = []
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "'") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: "'") else { break }
      parts.append(String(after[..<close]))
      rest = after[after.index(after: close)...]
    }
    return parts
  }

  /// `quotedParts(text)` cut on the bytes; `nil` unless `text` is ASCII.
  static func asciiQuotedParts(_ text: String) -> [String]? {
    var text = text
    return text.withUTF8 { bytes -> [String]? in
      guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
      let quote = UInt8(ascii: "'")
      var parts: [String] = []
      var start = 0
      while let open = bytes[start...].firstIndex(of: quote) {
        guard let close = bytes[(open + 1)...].firstIndex(of: quote) else { break }
        parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]), as: UTF8.self))
        start = close + 1
      }
      return parts
    }
  }
}
