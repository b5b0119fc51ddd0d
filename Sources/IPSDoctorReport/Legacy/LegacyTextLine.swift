import IPSDoctorSupport

/// Readers for the single lines of a legacy text crash report: frames, binary images, register
/// dumps and the structured header values. Each takes one line (without its line break), or a
/// value, as a range of UTF-8 bytes, and returns `nil` when it does not have the expected shape;
/// none of them throws or traps.
///
/// Every delimiter of the format is ASCII, so the readers split and compare bytes. A byte that is
/// not ASCII, or not valid UTF-8, is only ever part of a field's text: it is decoded (and repaired)
/// when that field becomes a `String` (``string(_:_:)``).
///
/// A worked example: the frame line
///
///     3   Example Kit     0x0000000104a8c2f4 Parser.run() + 120 (Parser.swift:42)
///
/// is read as ranges of its bytes: the frame number up to the first space (3); the address
/// column, the first "0x…" token after white space (0x104a8c2f4), which is what lets the image
/// name between them hold spaces ("Example Kit"); then the tail after the address, a symbol with
/// its offset and source location. Only the image name, the symbol and the file become `String`s.
enum LegacyTextLine {
  @inline(__always)
  static func isSpaceByte(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09
  }

  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt64 {
    switch byte {
    case 0x30...0x39: UInt64(byte - 0x30)
    case 0x61...0x66: UInt64(byte - 0x61 + 10)
    default: UInt64(byte - 0x41 + 10)
    }
  }

  /// The first `byte` of `bytes[range]`, or `nil`.
  @inline(__always)
  static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.lowerBound
    while index < range.upperBound {
      if bytes[index] == byte { return index }
      index += 1
    }
    return nil
  }

  /// Where the first byte of `bytes[range]` that is not a space or tab is, or its end.
  @inline(__always)
  static func firstNonSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var index = range.lowerBound
    while index < range.upperBound && isSpaceByte(bytes[index]) { index += 1 }
    return index
  }

  /// Where the first space or tab of `bytes[range]` is, or its end.
  @inline(__always)
  static func firstSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var index = range.lowerBound
    while index < range.upperBound && !isSpaceByte(bytes[index]) { index += 1 }
    return index
  }

  /// `bytes[range]` as a `String`, `nil` when empty.
  @inline(__always)
  static func nonEmptyString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    range.isEmpty ? nil : string(bytes, range)
  }

  /// `Int(text)` for a text of decimal digits, `bytes[digits]`: `nil` when empty or too large.
  static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ digits: Range<Int>) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for position in digits {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = shifted.addingReportingOverflow(Int(bytes[position] &- 0x30))
      if overflow || carry { return nil }
      value = sum
    }
    return value
  }

  /// Whether `bytes[range]` is exactly "???".
  @inline(__always)
  static func isQuestionMarks(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    range.count == 3 && bytes[range.lowerBound] == 0x3F && bytes[range.lowerBound + 1] == 0x3F
      && bytes[range.lowerBound + 2] == 0x3F
  }

  /// Whether `bytes[range]` starts with "0x" or "0X".
  static func hasHexPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    range.count >= 2 && bytes[range.lowerBound] == 0x30
      && (bytes[range.lowerBound + 1] == 0x78 || bytes[range.lowerBound + 1] == 0x58)
  }

  /// "0x1f" (hexadecimal) or "31" (decimal), in `bytes[range]`.
  static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
    if hasHexPrefix(bytes, range) {
      return unsigned(bytes, (range.lowerBound + 2)..<range.upperBound, radix: 16)
    }
    return unsigned(bytes, range, radix: 10)
  }

  /// "0x1f" or bare hexadecimal digits "1f", in `bytes[range]`.
  static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
    let digits = hasHexPrefix(bytes, range) ? (range.lowerBound + 2)..<range.upperBound : range
    return unsigned(bytes, digits, radix: 16)
  }

  /// `UInt64(text, radix:)` for the bytes of `text`. Digits are read in place; a leading sign goes
  /// to the standard library's parser, which decides. Any other byte that is not a digit makes the
  /// text no number for that parser too, so it answers `nil` without making a `String`: every
  /// symbolicated frame ("symbol + 8") asks whether its symbol is a number.
  static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, radix: UInt64)
    -> UInt64?
  {
    guard !range.isEmpty else { return nil }
    var value: UInt64 = 0
    // Fifteen digits of either radix stay below 2^64: no overflow to check (frame offsets and
    // addresses, two a frame line).
    if range.count <= 15 {
      for position in range {
        let byte = bytes[position]
        let digit: UInt64
        if byte &- 0x30 < 10 {
          digit = UInt64(byte &- 0x30)
        } else if radix == 16 && byte.isASCIIHexDigit {
          digit = hexValue(byte)
        } else if position == range.lowerBound && (byte == 0x2B || byte == 0x2D) {
          return UInt64(string(bytes, range), radix: Int(radix))
        } else {
          return nil
        }
        value = value &* radix &+ digit
      }
      return value
    }
    for position in range {
      let byte = bytes[position]
      let digit: UInt64
      if byte >= 0x30 && byte <= 0x39 {
        digit = UInt64(byte - 0x30)
      } else if radix == 16 && byte.isASCIIHexDigit {
        digit = hexValue(byte)
      } else if position == range.lowerBound && (byte == 0x2B || byte == 0x2D) {
        return UInt64(string(bytes, range), radix: Int(radix))
      } else {
        return nil
      }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
      let (sum, carry) = shifted.addingReportingOverflow(digit)
      if overflow || carry { return nil }
      value = sum
    }
    return value
  }

  /// The high bit of each byte of `word` that is zero, and no other: exact for every byte (unlike
  /// the borrow trick, which may also mark a byte above a zero one), so the highest mark is the
  /// last zero byte.
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
  }

  /// The eight bytes of `bytes` from `offset`, the first in the lowest byte.
  @inline(__always)
  static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
  }

  /// Where the last `byte` of `bytes[range]` is: eight bytes at a time from the end (file names,
  /// symbols and image names are searched backwards on every line), then a byte at a time.
  @inline(__always)
  static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.upperBound
    if let base = bytes.baseAddress {
      let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
      while index - 8 >= range.lowerBound {
        let found = zeroBytes(word(base, index - 8) ^ pattern)
        if found != 0 { return index - 8 + (63 - found.leadingZeroBitCount) / 8 }
        index -= 8
      }
    }
    while index > range.lowerBound {
      index -= 1
      if bytes[index] == byte { return index }
    }
    return nil
  }

  /// Whether `bytes[range]` holds `byte`, eight bytes at a time while eight remain.
  @inline(__always)
  static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    if let base = bytes.baseAddress {
      let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
      while index + 8 <= range.upperBound {
        if zeroBytes(word(base, index) ^ pattern) != 0 { return true }
        index += 8
      }
    }
    while index < range.upperBound {
      if bytes[index] == byte { return true }
      index += 1
    }
    return false
  }

  /// `bytes[range]` as a `String` (invalid UTF-8 repaired).
  @inline(__always)
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    string(UnsafeBufferPointer(rebasing: bytes[range]))
  }

  /// `bytes` as a `String` (invalid UTF-8 repaired, as `String(decoding:as:)` does).
  ///
  /// A text of at most 15 bytes (an image or register name, a version) is written straight into
  /// a small string, which the standard library then checks for ASCII with one mask instead of
  /// validating it as UTF-8; it repairs anything else as `String(decoding:as:)` would.
  @inline(__always)
  static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.count <= 15, let source = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: bytes.count) { buffer in
      guard let target = buffer.baseAddress else { return 0 }
      target.update(from: source, count: bytes.count)
      return bytes.count
    }
  }

  /// ``string(_:_:)`` for a text that many reports have (an image's path or name, a symbol): from
  /// `texts` when it holds the same text.
  @inline(__always)
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ texts: SharedTexts.Handle?) -> String {
    let part = UnsafeBufferPointer(rebasing: bytes[range])
    guard let texts else { return string(part) }
    return texts.text(part) { string($0) }
  }

  /// Whether two ranges of `bytes` hold equal text, as `String`s compare it (canonical
  /// equivalence): equal bytes are equal text, and different ASCII bytes are different text (no
  /// other spelling of an ASCII text is canonically equivalent to it); other bytes are compared as
  /// `String`s.
  static func sameText(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
    if a.count == b.count {
      guard let base = bytes.baseAddress, !a.isEmpty else { return true }
      if memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0 { return true }
    }
    if ByteSearch.isASCII(UnsafeBufferPointer(rebasing: bytes[a]))
      && ByteSearch.isASCII(UnsafeBufferPointer(rebasing: bytes[b]))
    {
      return false
    }
    return string(bytes, a) == string(bytes, b)
  }

  /// Where the last space or tab of `bytes[range]` is, eight bytes at a time from the end while
  /// eight remain.
  @inline(__always)
  static func lastSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.upperBound
    if let base = bytes.baseAddress {
      while index - 8 >= range.lowerBound {
        let bytes = word(base, index - 8)
        let found = zeroBytes(bytes ^ 0x2020_2020_2020_2020) | zeroBytes(bytes ^ 0x0909_0909_0909_0909)
        if found != 0 { return index - 8 + (63 - found.leadingZeroBitCount) / 8 }
        index -= 8
      }
    }
    while index > range.lowerBound {
      index -= 1
      if isSpaceByte(bytes[index]) { return index }
    }
    return nil
  }
}
