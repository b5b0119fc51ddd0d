import IPSDoctorSupport

/// The UUID of a binary image line, "<6f1c…>" or "<6F1C3B2A-…>", packed from its bytes.
extension LegacyTextLine {
  /// Whether every byte of `bytes[range]` is a hexadecimal digit or "-" (`UInt8.isASCIIHexDigit`).
  ///
  /// Eight bytes at a time: for ASCII bytes, adding `0x80 - low` sets a byte's high bit exactly
  /// when it is at least `low`, and adding `0x7F - high` when it is above `high`, with no carry
  /// into the next byte.
  @inline(__always)
  static func isHexOrDash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    if let base = bytes.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highBits: UInt64 = 0x8080_8080_8080_8080
      while index + 8 <= range.upperBound {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & highBits != 0 { return false }
        func within(_ low: UInt64, _ high: UInt64) -> UInt64 {
          (word &+ ones &* (0x80 - low)) & ~(word &+ ones &* (0x7F - high))
        }
        let valid = within(0x30, 0x39) | within(0x41, 0x46) | within(0x61, 0x66) | within(0x2D, 0x2D)
        if valid & highBits != highBits { return false }
        index += 8
      }
    }
    while index < range.upperBound {
      let byte = bytes[index]
      // Digits, then "a"…"f" and "A"…"F" (bit 0x20 set makes them one range), then the dash.
      if byte &- 0x30 >= 10 && (byte | 0x20) &- 0x61 >= 6 && byte != 0x2D { return false }
      index += 1
    }
    return true
  }

  /// "6f1c3b2a…" (32 digits) or "6F1C3B2A-…" → "6F1C3B2A-1234-…" upper-case, dashed 8-4-4-4-12.
  /// `text` holds only hex digits and dashes (the caller checks).
  ///
  /// A byte at a time: ``normalizedImageUUID(_:)`` handles the two usual forms a word at a time
  /// and comes here only for the others.
  static func normalizedUUID(_ text: UnsafeBufferPointer<UInt8>) -> String {
    assert(text.allSatisfy { $0.isASCIIHexDigit || $0 == 0x2D })
    var digitCount = 0
    for byte in text where byte != 0x2D { digitCount += 1 }
    let dashed = digitCount == 32
    return String(unsafeUninitializedCapacity: dashed ? 36 : digitCount) { buffer in
      // Where the next dash goes (after 8, 12, 16 and 20 digits), as an output position.
      var nextDash = dashed ? 8 : Int.max
      var count = 0
      for byte in text where byte != 0x2D {
        if count == nextDash {
          buffer[count] = 0x2D
          count += 1
          nextDash = count == 24 ? Int.max : count + 4
        }
        buffer[count] = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
        count += 1
      }
      return count
    }
  }

  /// ``normalizedImageUUID(_:)`` of `bytes[inside]`, which holds only hex digits and dashes (the
  /// caller checks). The usual text form, 32 digits, and the dashed 8-4-4-4-12 form are packed
  /// straight into the nibbles ``ImageUUID`` keeps, a group of eight digits at a time, without
  /// writing the upper-cased text first; other forms go through the text.
  @inline(__always)
  static func imageUUID(_ bytes: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>) -> ImageUUID {
    if inside.count == 32, let uuid = digitsUUID(bytes, inside.lowerBound) { return uuid }
    return dashedImageUUID(bytes, inside)
  }

  /// The UUID of the 32 bytes from `start` when every one is a hexadecimal digit (the usual text
  /// form), tested and packed a group of eight at a time; `nil` otherwise.
  @inline(__always)
  static func digitsUUID(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> ImageUUID? {
    guard let base = bytes.baseAddress, start >= 0, start + 32 <= bytes.count else { return nil }
    let groups = (word(base, start), word(base, start + 8), word(base, start + 16), word(base, start + 24))
    guard ByteScanner.leadingHexDigits(groups.0) == 8, ByteScanner.leadingHexDigits(groups.1) == 8,
      ByteScanner.leadingHexDigits(groups.2) == 8, ByteScanner.leadingHexDigits(groups.3) == 8
    else { return nil }
    return packedUUID(groups)
  }

  /// ``imageUUID(_:_:)`` for any text of hex digits and dashes.
  static func dashedImageUUID(_ bytes: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>) -> ImageUUID {
    guard let base = bytes.baseAddress, inside.count == 32 || inside.count == 36 else {
      return normalizedImageUUID(UnsafeBufferPointer(rebasing: bytes[inside]))
    }
    let start = UnsafeRawPointer(base + inside.lowerBound)
    func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    func half(_ offset: Int) -> UInt64 {
      UInt64(UInt32(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
    let groups: (UInt64, UInt64, UInt64, UInt64)
    if inside.count == 32 {
      groups = (word(0), word(8), word(16), word(24))
    } else {
      guard bytes[inside.lowerBound + 8] == 0x2D, bytes[inside.lowerBound + 13] == 0x2D,
        bytes[inside.lowerBound + 18] == 0x2D, bytes[inside.lowerBound + 23] == 0x2D
      else { return normalizedImageUUID(UnsafeBufferPointer(rebasing: bytes[inside])) }
      groups = (word(0), half(9) | half(14) << 32, half(19) | half(24) << 32, word(28))
    }
    // Any dash left among the digits: another form.
    func hasDash(_ word: UInt64) -> Bool {
      let dashes = word ^ 0x2D2D_2D2D_2D2D_2D2D
      return (dashes &- 0x0101_0101_0101_0101) & ~dashes & 0x8080_8080_8080_8080 != 0
    }
    guard !hasDash(groups.0), !hasDash(groups.1), !hasDash(groups.2), !hasDash(groups.3) else {
      return normalizedImageUUID(UnsafeBufferPointer(rebasing: bytes[inside]))
    }
    return packedUUID(groups)
  }

  /// The UUID of four groups of eight hex digits (the first digit of each in its lowest byte), as
  /// ``normalizedImageUUID(_:)`` makes it of their text.
  @inline(__always)
  static func packedUUID(_ groups: (UInt64, UInt64, UInt64, UInt64)) -> ImageUUID {
    /// Each digit's value (its low four bits, plus 9 for a letter, whose bit 0x40 is set), eight
    /// of them packed into 32 bits, the first in the lowest nibble.
    func packed(_ digits: UInt64) -> UInt64 {
      let nibbles = (digits & 0x0F0F_0F0F_0F0F_0F0F) &+ ((digits &>> 6) & 0x0101_0101_0101_0101) &* 9
      var packed = (nibbles | nibbles &>> 4) & 0x00FF_00FF_00FF_00FF
      packed = (packed | packed &>> 8) & 0x0000_FFFF_0000_FFFF
      return (packed | packed &>> 16) & 0xFFFF_FFFF
    }
    let high = packed(groups.0) | packed(groups.1) << 32
    let low = packed(groups.2) | packed(groups.3) << 32
    // Upper-cased, the text reads as lower case too when it has no letter (``ImageUUID`` tries
    // lower case first).
    let letters = (groups.0 | groups.1 | groups.2 | groups.3) & 0x4040_4040_4040_4040
    return letters == 0 ? .lowercase(high: high, low: low) : .uppercase(high: high, low: low)
  }

  /// ``normalizedUUID(_:)`` as an image's UUID. The two usual forms are upper-cased and dashed into
  /// a buffer on the stack and read from there, without making the text.
  static func normalizedImageUUID(_ text: UnsafeBufferPointer<UInt8>) -> ImageUUID {
    if let base = text.baseAddress, text.count == 36 || (text.count == 32 && !text.contains(0x2D)) {
      let input = UnsafeRawPointer(base)
      let usual = withUnsafeTemporaryAllocation(byteCount: 40, alignment: 8) { buffer -> ImageUUID? in
        let output = buffer.baseAddress!
        if text.count == 36 {
          for offset in stride(from: 0, to: 32, by: 8) {
            output.storeBytes(
              of: upperHex(input.loadUnaligned(fromByteOffset: offset, as: UInt64.self)), toByteOffset: offset,
              as: UInt64.self)
          }
          output.storeBytes(
            of: upperHex(input.loadUnaligned(fromByteOffset: 32, as: UInt32.self)), toByteOffset: 32, as: UInt32.self)
        } else {
          // The digits in groups of 8-4-4-4-12, a dash after each group but the last.
          func copy<Word: FixedWidthInteger>(_ word: Word.Type, from: Int, to: Int) {
            let upper = upperHex(UInt64(input.loadUnaligned(fromByteOffset: from, as: Word.self)))
            output.storeBytes(of: Word(truncatingIfNeeded: upper), toByteOffset: to, as: Word.self)
          }
          copy(UInt64.self, from: 0, to: 0)
          copy(UInt32.self, from: 8, to: 9)
          copy(UInt32.self, from: 12, to: 14)
          copy(UInt32.self, from: 16, to: 19)
          copy(UInt64.self, from: 20, to: 24)
          copy(UInt32.self, from: 28, to: 32)
          output.storeBytes(of: 0x2D, toByteOffset: 8, as: UInt8.self)
          output.storeBytes(of: 0x2D, toByteOffset: 13, as: UInt8.self)
          output.storeBytes(of: 0x2D, toByteOffset: 18, as: UInt8.self)
          output.storeBytes(of: 0x2D, toByteOffset: 23, as: UInt8.self)
        }
        return ImageUUID(canonical: UnsafeRawBufferPointer(start: output, count: 36))
      }
      if let usual { return usual }
    }
    return ImageUUID(normalizedUUID(text))
  }

  /// Hex digits and dashes, upper-cased a byte at a time within the word: of those bytes only
  /// the letters have bit 0x40 set, and clearing their bit 0x20 turns "a"…"f" into "A"…"F".
  @inline(__always)
  static func upperHex(_ word: UInt64) -> UInt64 {
    word & ~((word & 0x4040_4040_4040_4040) &>> 1)
  }

  @inline(__always)
  static func upperHex(_ word: UInt32) -> UInt32 {
    word & ~((word & 0x4040_4040) &>> 1)
  }
}
