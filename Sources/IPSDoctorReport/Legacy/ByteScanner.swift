import IPSDoctorSupport

/// A cursor over the bytes of one line.
struct ByteScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  @inline(__always)
  func peek(_ byte: UInt8, at offset: Int = 0) -> Bool {
    index + offset < bytes.count && bytes[index + offset] == byte
  }

  @inline(__always)
  mutating func take(_ byte: UInt8) -> Bool {
    guard peek(byte) else { return false }
    index += 1
    return true
  }

  /// Takes "???".
  @inline(__always)
  mutating func takeQuestionMarks() -> Bool {
    guard peek(0x3F), peek(0x3F, at: 1), peek(0x3F, at: 2) else { return false }
    index += 3
    return true
  }

  @inline(__always)
  mutating func skipSpace() {
    while index < bytes.count && LegacyTextLine.isSpaceByte(bytes[index]) { index += 1 }
  }

  /// "0x1f" or "31", up to the next space or "-": hexadecimal after "0x" or "0X" (with at least
  /// one digit), else decimal; at most 16 digits, every one valid, else `nil` (and the cursor
  /// stays).
  mutating func number() -> UInt64? {
    // One pass: digits until a space, tab or "-" (or the end); any other byte before it fails.
    let count = bytes.count
    func isDelimiter(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x2D }
    var position = index
    var value: UInt64 = 0
    if index + 2 < count && bytes[index] == 0x30 && (bytes[index + 1] | 0x20) == 0x78
      && !isDelimiter(bytes[index + 2])
    {
      position += 2
      let start = position
      // Eight digits at a time while eight bytes remain, up to the sixteen a number may have; the
      // byte loop below reads the rest, and the byte that ends the number.
      if let base = bytes.baseAddress {
        while position + 8 <= count && position - start < 16 {
          let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
          let digits = Self.leadingHexDigits(word)
          guard digits > 0 else { break }
          value = value &<< UInt64(4 * digits) | Self.hexValue(word, digits: digits)
          position += digits
          if digits < 8 { break }
        }
      }
      while position < count {
        let byte = bytes[position]
        let digit = byte &- 0x30
        if digit < 10 {
          value = value &<< 4 | UInt64(digit)
        } else {
          let letter = (byte | 0x20) &- 0x61
          if letter < 6 {
            value = value &<< 4 | UInt64(letter &+ 10)
          } else if isDelimiter(byte) {
            break
          } else {
            return nil
          }
        }
        position += 1
      }
      guard position - start <= 16 else { return nil }
    } else {
      // At most 16 decimal digits: below 10^16, no overflow.
      while position < count {
        let byte = bytes[position]
        let digit = byte &- 0x30
        if digit < 10 {
          value = value &* 10 &+ UInt64(digit)
        } else if isDelimiter(byte) {
          break
        } else {
          return nil
        }
        position += 1
      }
      guard position > index, position - index <= 16 else { return nil }
    }
    index = position
    return value
  }

  /// How many of the eight bytes of `word` (the first in its lowest byte) are hexadecimal digits
  /// before the first that is not. The digit test is ``LegacyTextLine/isHexOrDash(_:_:)``'s, on
  /// the whole word: a byte with its high bit set is no digit, and the carry its sums may make
  /// reaches only the bytes after it.
  @inline(__always)
  static func leadingHexDigits(_ word: UInt64) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    func within(_ low: UInt64, _ high: UInt64) -> UInt64 {
      (word &+ ones &* (0x80 - low)) & ~(word &+ ones &* (0x7F - high))
    }
    let valid = (within(0x30, 0x39) | within(0x41, 0x46) | within(0x61, 0x66)) & ~word & highBits
    let invalid = ~valid & highBits
    return invalid == 0 ? 8 : invalid.trailingZeroBitCount / 8
  }

  /// The value of the first `digits` (1 to 8) bytes of `word`, hexadecimal digits, the first the
  /// most significant: each byte's value (its low four bits, plus 9 for a letter), moved so that
  /// the last digit is in the lowest byte, then packed four bits a byte.
  @inline(__always)
  static func hexValue(_ word: UInt64, digits: Int) -> UInt64 {
    let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((word &>> 6) & 0x0101_0101_0101_0101) &* 9
    let ordered = (nibbles &<< UInt64(8 * (8 - digits))).byteSwapped
    var packed = (ordered | ordered &>> 4) & 0x00FF_00FF_00FF_00FF
    packed = (packed | packed &>> 8) & 0x0000_FFFF_0000_FFFF
    return (packed | packed &>> 16) & 0xFFFF_FFFF
  }

  /// Where `byte` first occurs at or after `start` (`memchr`).
  @inline(__always)
  func find(_ byte: UInt8, from start: Int) -> Int? {
    ByteSearch.firstIndex(of: byte, in: bytes, from: start)
  }

  /// Where the two bytes first occur together at or after `start`. `memchr` looks for the second
  /// byte, the rarer one in the needles used: the first is a space.
  func find(_ first: UInt8, _ second: UInt8, from start: Int) -> Int? {
    var position = start + 1
    while let hit = ByteSearch.firstIndex(of: second, in: bytes, from: position) {
      if bytes[hit - 1] == first { return hit - 1 }
      position = hit + 1
    }
    return nil
  }

  /// Where the three bytes first occur together at or after `start`; `memchr` looks for the
  /// middle one, as above.
  func find(_ first: UInt8, _ second: UInt8, _ third: UInt8, from start: Int) -> Int? {
    var position = start + 1
    while let hit = ByteSearch.firstIndex(of: second, in: bytes, from: position) {
      if hit + 1 < bytes.count && bytes[hit - 1] == first && bytes[hit + 1] == third {
        return hit - 1
      }
      position = hit + 1
    }
    return nil
  }

  /// `range` without leading and trailing spaces and tabs.
  @inline(__always)
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper && LegacyTextLine.isSpaceByte(bytes[lower]) { lower += 1 }
    while upper > lower && LegacyTextLine.isSpaceByte(bytes[upper - 1]) { upper -= 1 }
    return lower..<upper
  }
}
