/// `DyldError`'s accessors over its lines split once: each accessor of `DyldError` whose marker
/// is in the report splits every text into lines again (about 30,000 instructions a time), and a
/// finding asks four or five of them. The dyld rules use `DyldError` for their first test (it
/// rules out most reports with byte searches, without splitting), and this once they fire.
struct DyldLines {
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

  /// `DyldError.missingLibrary`.
  var missingLibrary: (evidence: Evidence, path: String)? {
    if let found = value(after: "Library not loaded: ") {
      return (found.evidence, DyldError.stripTrailingNotes(found.value))
    }
    if let found = value(after: "dependent dylib '"), let end = found.value.firstIndex(of: "'") {
      return (found.evidence, String(found.value[..<end]))
    }
    return nil
  }

  /// `DyldError.referencedFrom`.
  var referencedFrom: String? {
    guard var value = value(after: "Referenced from: ")?.value else {
      if let found = value(after: "not found for '"), let end = found.value.firstIndex(of: "'") {
        return String(found.value[..<end])
      }
      return nil
    }
    if value.hasPrefix("<"), let close = value.firstIndex(of: ">") {
      value = value[value.index(after: close)...].trimmingWhitespace()
    }
    return DyldError.stripTrailingNotes(value)
  }

  /// `DyldError.triedPaths`, cut from the bytes when the text is ASCII (where every `'` character
  /// is one byte: walking the line's characters cost ~230,000 instructions).
  var triedPaths: [String] {
    guard let value = value(after: "tried: ")?.value else { return [] }
    if let parts = Self.asciiQuotedParts(value) { return parts }
    var paths: [String] = []
    var rest = Substring(value)
    while let open = rest.firstIndex(of: "'") {
      let after = rest[rest.index(after: open)...]
      guard let close = after.firstIndex(of: "'") else { break }
      paths.append(String(after[..<close]))
      rest = after[after.index(after: close)...]
    }
    return paths
  }

  /// `DyldError.missingSymbol`.
  var missingSymbol: (evidence: Evidence, symbol: String)? {
    guard let found = value(after: "Symbol not found: ") else { return nil }
    return (found.evidence, DyldError.stripTrailingNotes(found.value))
  }

  /// `DyldError.expectedIn`.
  var expectedIn: String? {
    guard var value = value(after: "Expected in: ")?.value else { return nil }
    if value.hasPrefix("<"), let close = value.firstIndex(of: ">") {
      value = value[value.index(after: close)...].trimmingWhitespace()
    }
    return DyldError.stripTrailingNotes(value)
  }

  /// The texts between successive pairs of `'` in `text`, cut as `DyldError.triedPaths` cuts
  /// them; `nil` unless `text` is ASCII.
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
