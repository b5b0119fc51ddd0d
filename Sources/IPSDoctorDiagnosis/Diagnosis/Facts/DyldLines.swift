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
  /// trimmed; else `value`. Over the bytes when the text is ASCII, where every byte is one
  /// `Character` but in a "\r\n", without finding the ">" character by character.
  static func droppingUUID(_ value: String) -> String {
    let (isASCII, close) = value.withBorrowedUTF8 { bytes -> (Bool, Int?) in
      guard ByteSearch.isASCII(bytes) else { return (false, nil) }
      return (true, bytes.first == UInt8(ascii: "<") ? bytes.firstIndex(of: UInt8(ascii: ">")) : nil)
    }
    guard isASCII else { return characterDroppingUUID(value) }
    guard let close else { return value }
    let after = value.utf8.index(value.utf8.startIndex, offsetBy: close + 1)
    return value[after...].trimmingWhitespace()
  }

  /// `droppingUUID(value)` character by character, the reference answer.
  static func characterDroppingUUID(_ value: String) -> String {
    guard value.hasPrefix("<"), let close = value.firstIndex(of: ">") else { return value }
    return value[value.index(after: close)...].trimmingWhitespace()
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
    text.withBorrowedUTF8 { bytes -> [String]? in
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
