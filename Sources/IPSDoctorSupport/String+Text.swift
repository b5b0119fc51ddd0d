// Small text helpers, so the core needs no Foundation.

extension UInt8 {
  /// A space, tab or line feed: the whitespace the byte shortcuts trim themselves. A carriage
  /// return is left out on purpose: next to a line feed it forms one `Character`, so text holding
  /// one takes the `Character`-wise path.
  @inlinable package var isSpaceTabOrLineFeed: Bool { self == 0x20 || self == 0x09 || self == 0x0A }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs, carriage returns and newlines.
  @inlinable package func trimmingWhitespace() -> String {
    if let trimmed = asciiTrimmedWhitespace() { return trimmed }
    return characterTrimmedWhitespace()
  }

  /// `trimmingWhitespace` over `Character`s, the reference answer.
  @inlinable package func characterTrimmedWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }

  /// What `trimmingWhitespace` answers, over the bytes, when the bytes at the ends decide it: the
  /// first and last bytes that are not a space, tab or line feed are ASCII and not a carriage
  /// return (or there are none). An ASCII byte other than CR starts and ends its own `Character`
  /// next to spaces, tabs and line feeds (only "\r\n" and non-ASCII scalars join clusters), and
  /// those are single-byte `Character`s, so the `Character`-wise trim stops at the same bytes.
  /// `nil` otherwise (carriage returns, combining marks and the like), and for text without
  /// contiguous UTF-8.
  @inlinable package func asciiTrimmedWhitespace() -> String? {
    let result = utf8.withContiguousStorageIfAvailable { bytes -> String? in
      var lower = 0
      while lower < bytes.count && bytes[lower].isSpaceTabOrLineFeed { lower += 1 }
      if lower == bytes.count { return "" }
      var upper = bytes.count
      while bytes[upper - 1].isSpaceTabOrLineFeed { upper -= 1 }
      let first = bytes[lower]
      let last = bytes[upper - 1]
      guard first < 0x80, first != UInt8(ascii: "\r"), last < 0x80, last != UInt8(ascii: "\r") else {
        return nil
      }
      if lower == 0 && upper == bytes.count, let whole = self as? String { return whole }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
    }
    return result ?? nil
  }

  /// Case-insensitive containment for ASCII text.
  @inlinable package func containsIgnoringCase(_ other: String) -> Bool {
    if let answer = asciiContainsIgnoringCase(other) { return answer }
    return String.characterContains(lowercased(), other.lowercased())
  }

  /// What `containsIgnoringCase` answers, over the bytes, when both texts are ASCII and `other` is
  /// not empty and holds no carriage return or line feed: lowercasing ASCII text lowercases each
  /// byte, and a match of such a needle in ASCII text is a `Character` match (only "\r\n" joins
  /// two ASCII bytes into one `Character`). `nil` otherwise.
  @inlinable package func asciiContainsIgnoringCase(_ other: String) -> Bool? {
    func lowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] {
      bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
    }
    let needle = lowercased(other.utf8)
    guard !needle.isEmpty,
      needle.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") })
    else { return nil }
    let answer = utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
      guard ByteSearch.isASCII(bytes) else { return nil }
      let haystack = lowercased(bytes)
      return haystack.withUnsafeBytes { haystack in
        needle.withUnsafeBytes { ByteSearch.firstIndex(of: $0, in: haystack) != nil }
      }
    }
    return answer ?? nil
  }
}

extension String {
  /// `withUTF8` for a string that is not a `var`: the UTF-8 of a native string is read where it is;
  /// only a string without contiguous UTF-8 (bridged from Objective-C) is copied first.
  @inlinable @inline(__always)
  package func withBorrowedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return try copy.withUTF8(body)
  }

  /// `a + b + c + d` made in one allocation of the right size (none for a small result), instead
  /// of a new string for each `+` or an interpolation's generic appends.
  package static func concatenating(_ a: String, _ b: String, _ c: String = "", _ d: String = "") -> String {
    a.withBorrowedUTF8 { a in
      b.withBorrowedUTF8 { b in
        c.withBorrowedUTF8 { c in
          d.withBorrowedUTF8 { d in
            String(unsafeUninitializedCapacity: a.count + b.count + c.count + d.count) { output in
              var written = 0
              func copy(_ part: UnsafeBufferPointer<UInt8>) {
                guard let source = part.baseAddress, let target = output.baseAddress else { return }
                (target + written).initialize(from: source, count: part.count)
                written += part.count
              }
              copy(a)
              copy(b)
              copy(c)
              copy(d)
              return written
            }
          }
        }
      }
    }
  }

  /// Exactly `replacing("\n", with: replacement)`, without building a `Character` searcher: a
  /// line feed is its own `Character` except in a "\r\n" pair, so text without carriage returns
  /// is split at its line-feed bytes.
  package func replacingLineFeeds(with replacement: String) -> String {
    let fast = utf8.withContiguousStorageIfAvailable { bytes -> String? in
      guard let base = bytes.baseAddress else { return self }
      guard memchr(base, Int32(UInt8(ascii: "\r")), bytes.count) == nil else { return nil }
      guard ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: 0) != nil else { return self }
      // Cut at the line-feed bytes (each one whole `Character` without carriage returns).
      var result: [UInt8] = []
      result.reserveCapacity(bytes.count + 16 * replacement.utf8.count)
      var start = 0
      while let lineFeed = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: start) {
        result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<lineFeed]))
        result.append(contentsOf: replacement.utf8)
        start = lineFeed + 1
      }
      result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
      return String(decoding: result, as: UTF8.self)
    }
    if let fast, let text = fast { return text }
    return replacing("\n", with: replacement)
  }

  /// Exactly `split(whereSeparator:)` (empty pieces omitted) at the ASCII `separators`, over the
  /// bytes, for text that is all ASCII without carriage returns (there every byte is one
  /// `Character`); `nil` for any other text.
  package func asciiSplit(separators: [UInt8]) -> [Substring]? {
    var pieces: [Substring]?
    _ = utf8.withContiguousStorageIfAvailable { bytes in
      guard ByteSearch.isASCII(bytes), !bytes.contains(UInt8(ascii: "\r")) else { return }
      var result: [Substring] = []
      var start = 0
      for (offset, byte) in bytes.enumerated() where separators.contains(byte) {
        if offset > start { result.append(self[utf8Range(start, offset)]) }
        start = offset + 1
      }
      if bytes.count > start { result.append(self[utf8Range(start, bytes.count)]) }
      pieces = result
    }
    return pieces
  }

  private func utf8Range(_ start: Int, _ end: Int) -> Range<Index> {
    let lower = utf8.index(utf8.startIndex, offsetBy: start)
    return lower..<utf8.index(lower, offsetBy: end - start)
  }

  /// Parses "0x1f", "1f" (with `hexadecimal`), or a decimal integer.
  @inlinable package static func parseUInt64(_ text: some StringProtocol) -> UInt64? {
    if let value = asciiParseUInt64(text) { return value }
    return characterParseUInt64(text)
  }

  /// `parseUInt64` over `Character`s, the reference answer.
  @inlinable package static func characterParseUInt64(_ text: some StringProtocol) -> UInt64? {
    let trimmed = text.trimmingWhitespace()
    if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
      return UInt64(trimmed.dropFirst(2), radix: 16)
    }
    return UInt64(trimmed)
  }

  /// What `parseUInt64` answers when it finds a number in text that, between spaces, tabs and line
  /// feeds, is only decimal digits or "0x"/"0X" and hexadecimal digits (all ASCII, so every byte
  /// is one `Character` and the trim stops at the same bytes), without building a trimmed string;
  /// `nil` for anything else (signs, other characters, overflow), which the `Character`-wise parse
  /// then answers.
  @inlinable package static func asciiParseUInt64(_ text: some StringProtocol) -> UInt64? {
    let result = text.utf8.withContiguousStorageIfAvailable(asciiParseUInt64(bytes:))
    return result ?? nil
  }

  /// `asciiParseUInt64` over the text's UTF-8.
  @usableFromInline package static func asciiParseUInt64(bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    var lower = 0
    var upper = bytes.count
    while lower < upper && bytes[lower].isSpaceTabOrLineFeed { lower += 1 }
    while upper > lower && bytes[upper - 1].isSpaceTabOrLineFeed { upper -= 1 }
    guard lower < upper else { return nil }
    var value: UInt64 = 0
    if upper - lower > 2, bytes[lower] == UInt8(ascii: "0"),
      bytes[lower + 1] == UInt8(ascii: "x") || bytes[lower + 1] == UInt8(ascii: "X")
    {
      for byte in bytes[(lower + 2)..<upper] {
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        guard value >> 60 == 0 else { return nil }
        value = value << 4 | UInt64(digit)
      }
      return value
    }
    for byte in bytes[lower..<upper] {
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      let (product, overflowed) = value.multipliedReportingOverflow(by: 10)
      let (sum, carried) = product.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      if overflowed || carried { return nil }
      value = sum
    }
    return value
  }

  /// The value of a hexadecimal digit byte (`0`–`9`, `a`–`f`, `A`–`F`), else `nil`.
  static func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// `0x` followed by `width` lowercase hexadecimal digits.
  package static func hex(_ value: UInt64, width: Int = 0) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
  }
}

extension Substring {
  /// Exactly `UInt64(prefix(while: \.isHexDigit), radix: 16)`, from the bytes when they decide it:
  /// a run of ASCII hexadecimal digits followed by an ASCII byte (or the end) is the run of
  /// hexadecimal-digit `Character`s. A non-ASCII byte after the run (a combining mark joining the
  /// last digit, a fullwidth digit, which `isHexDigit` accepts) takes the `Character`-wise path.
  package func leadingHexNumber() -> UInt64? {
    let fast = utf8.withContiguousStorageIfAvailable { bytes -> (decided: Bool, value: UInt64?) in
      var value: UInt64 = 0
      var overflowed = false
      var count = 0
      while count < bytes.count, let digit = String.hexDigitValue(bytes[count]) {
        if value >> 60 != 0 { overflowed = true }
        value = value << 4 | UInt64(digit)
        count += 1
      }
      if count < bytes.count && bytes[count] >= 0x80 { return (false, nil) }
      return (true, count == 0 || overflowed ? nil : value)
    }
    if let fast, fast.decided { return fast.value }
    return UInt64(prefix(while: \.isHexDigit), radix: 16)
  }
}

/// Text built as UTF-8 bytes in a ``ByteBuffer`` and made a `String` once, at the end.
@usableFromInline package struct UTF8TextBuilder: ~Copyable {
  @usableFromInline var bytes: ByteBuffer

  @inlinable package init(capacity: Int) { bytes = ByteBuffer(capacity: capacity) }

  @inlinable package mutating func append(_ text: String) {
    text.withBorrowedUTF8 { bytes.append($0) }
  }

  @inlinable package mutating func append(ascii byte: UInt8) { bytes.append(byte) }

  /// `String(value)`'s digits.
  @inlinable package mutating func appendDecimal(_ value: UInt64) {
    appendDigits(of: value, radix: 10)
  }

  /// `String.hex(value)`: `0x` and the lowercase digits.
  @inlinable package mutating func appendHex(_ value: UInt64) {
    bytes.append(UInt8(ascii: "0"), UInt8(ascii: "x"))
    appendDigits(of: value, radix: 16)
  }

  /// Appends `value`'s digits in `radix` (10 or 16, lowercase), most significant first: written
  /// from the end of a stack buffer of 20 bytes, enough for `UInt64.max` in decimal.
  @usableFromInline mutating func appendDigits(of value: UInt64, radix: UInt64) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = digits.count
      var rest = value
      repeat {
        let digit = UInt8(truncatingIfNeeded: rest % radix)
        start -= 1
        digits[start] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
        rest /= radix
      } while rest > 0
      bytes.append(UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// The parts, each valid UTF-8 (they came from `String`s), as one `String`.
  @inlinable package var string: String { bytes.string }
}

extension String {
  /// Whether the text is 32 hexadecimal digits with dashes only between them: the only text that
  /// reaches a Spotlight query or a suggested `mdfind` command.
  package var isUUIDText: Bool {
    var digits = 0
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
        UInt8(ascii: "a")...UInt8(ascii: "f"):
        digits += 1
      case UInt8(ascii: "-") where digits > 0 && digits < 32: continue
      default: return false
      }
    }
    return digits == 32 && utf8.last != UInt8(ascii: "-")
  }
}
