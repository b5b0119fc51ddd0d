// Small text helpers, so the core needs no Foundation.

extension UInt8 {
  /// A space, tab or line feed: the whitespace the byte-level readers trim. A carriage return is
  /// left out on purpose: next to a line feed it forms one `Character`.
  @inlinable package var isSpaceTabOrLineFeed: Bool { self == 0x20 || self == 0x09 || self == 0x0A }

  /// `0`–`9`, `a`–`f` or `A`–`F`.
  @inlinable package var isASCIIHexDigit: Bool {
    (self >= 0x30 && self <= 0x39) || (self | 0x20 >= 0x61 && self | 0x20 <= 0x66)
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// Whether `self[range]` starts with the UTF-8 of `prefix` (`range` within the buffer).
  @inlinable package func hasPrefix(_ prefix: StaticString, in range: Range<Int>) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard range.count >= count else { return false }
    var offset = 0
    while offset < count {
      if self[range.lowerBound + offset] != prefix.utf8Start[offset] { return false }
      offset += 1
    }
    return true
  }

  /// Whether `self[range]` ends with the UTF-8 of `suffix` (`range` within the buffer).
  @inlinable package func hasSuffix(_ suffix: StaticString, in range: Range<Int>) -> Bool {
    let count = suffix.utf8CodeUnitCount
    guard range.count >= count else { return false }
    return hasPrefix(suffix, in: (range.upperBound - count)..<range.upperBound)
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs, carriage returns and line feeds, each a
  /// `Character` of its own (a carriage return and line feed pair is one `Character`, kept).
  @inlinable package func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }

  /// Whether the text contains `other`, both lowercased.
  @inlinable package func containsIgnoringCase(_ other: String) -> Bool {
    String.characterContains(lowercased(), other.lowercased())
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

  /// `a + b + c + d`, made at its final size.
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

  /// Parses "0x1f", "0X1F" (hexadecimal) or a decimal integer, between whitespace.
  @inlinable package static func parseUInt64(_ text: some StringProtocol) -> UInt64? {
    let trimmed = text.trimmingWhitespace()
    if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
      return UInt64(trimmed.dropFirst(2), radix: 16)
    }
    return UInt64(trimmed)
  }

  /// `0x` followed by `width` lowercase hexadecimal digits.
  package static func hex(_ value: UInt64, width: Int = 0) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
  }
}

extension Substring {
  /// The hexadecimal number the text starts with (`1f` of `1f40 rest`), `nil` when it starts with
  /// no hexadecimal digit or the number does not fit.
  package func leadingHexNumber() -> UInt64? {
    UInt64(prefix(while: \.isHexDigit), radix: 16)
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
