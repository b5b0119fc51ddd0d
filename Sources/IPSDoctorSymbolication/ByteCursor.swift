import IPSDoctorSupport

/// A bounds-checked little-endian reader over a byte range. Every read past the end returns `nil`
/// and leaves the cursor at the end, so a loop over hostile input always stops: each successful
/// read advances the offset by at least one byte, each failed one ends the range.
struct ByteCursor {
  let bytes: UnsafeRawBufferPointer
  /// Invariant: `0 <= offset <= bytes.count`.
  private(set) var offset: Int

  init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
    self.bytes = bytes
    self.offset = min(max(offset, 0), bytes.count)
  }

  var remaining: Int { bytes.count - offset }
  var atEnd: Bool { offset >= bytes.count }

  /// Moves to `position`; `false` (and the end) when it is outside the range.
  @discardableResult
  mutating func seek(_ position: Int) -> Bool {
    guard position >= 0, position <= bytes.count else {
      offset = bytes.count
      return false
    }
    offset = position
    return true
  }

  @discardableResult
  mutating func skip(_ count: Int) -> Bool {
    guard count >= 0, count <= remaining else {
      offset = bytes.count
      return false
    }
    offset += count
    return true
  }

  mutating func u8() -> UInt8? {
    guard offset < bytes.count else { return nil }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// An unsigned little-endian integer of `size` bytes (1…8).
  mutating func unsigned(_ size: Int) -> UInt64? {
    guard size >= 1, size <= 8, size <= remaining else {
      offset = bytes.count
      return nil
    }
    var value: UInt64 = 0
    for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * index) }
    offset += size
    return value
  }

  mutating func u16() -> UInt16? { unsigned(2).map { UInt16(truncatingIfNeeded: $0) } }
  mutating func u32() -> UInt32? { unsigned(4).map { UInt32(truncatingIfNeeded: $0) } }
  mutating func u64() -> UInt64? { unsigned(8) }

  /// A big-endian 32-bit integer (fat headers).
  mutating func u32BigEndian() -> UInt32? { u32().map { $0.byteSwapped } }
  mutating func u64BigEndian() -> UInt64? { u64().map { $0.byteSwapped } }

  /// ULEB128, decoded exactly: `nil` when the bytes run out, or when the value does not fit 64
  /// bits (a damaged value; its bytes are still consumed, so a loop over values moves on).
  mutating func uleb() -> UInt64? {
    var result: UInt64 = 0
    var shift = 0
    var fits = true
    while let byte = u8() {
      let bits = UInt64(byte & 0x7F)
      if shift < 64 {
        // At shift 63 only the lowest of the 7 bits has room.
        if shift > 57 && bits >> UInt64(64 - shift) != 0 { fits = false }
        result |= bits << UInt64(shift)
      } else if bits != 0 {
        fits = false
      }
      if shift < 64 { shift += 7 }
      if byte & 0x80 == 0 { return fits ? result : nil }
    }
    return nil
  }

  /// SLEB128, decoded exactly: `nil` when the bytes run out, or when the value does not fit
  /// `Int64` (its bytes are still consumed). From bit 63 on, every encoded bit must repeat the
  /// sign, as a 9- or 10-byte encoding of a value near `Int64.min` does.
  mutating func sleb() -> Int64? {
    var result: UInt64 = 0
    var shift = 0
    var fits = true
    // The 7 bits of each byte from bit 63 on: all of them 0, or all 0x7F, for the value to fit.
    var highBits: UInt8?
    while let byte = u8() {
      let bits = byte & 0x7F
      if shift < 63 {
        result |= UInt64(bits) << UInt64(shift)
      } else {
        if shift == 63 { result |= UInt64(bits & 1) << 63 }
        if (bits != 0 && bits != 0x7F) || (highBits != nil && highBits != bits) { fits = false }
        highBits = bits
      }
      if byte & 0x80 == 0 {
        guard fits else { return nil }
        // A value that ends below bit 63: its last bit 6 is the sign, extended upwards.
        if shift < 63 && bits & 0x40 != 0 { result |= UInt64.max << UInt64(shift + 7) }
        return Int64(bitPattern: result)
      }
      if shift < 63 { shift += 7 } else { shift = 64 }
    }
    return nil
  }

  /// A NUL-terminated string (UTF-8, repaired); `nil` when no NUL ends it inside the range.
  mutating func cString() -> String? {
    guard let end = Self.nulIndex(bytes, from: offset) else {
      offset = bytes.count
      return nil
    }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    offset = end + 1
    return text
  }

  /// Strings looked up by offset (string tables) are at most this long: a table without NULs
  /// referenced by many entries then costs each lookup at most this much, not the table's size.
  static let maxTableStringLength = 1 << 16

  /// The string at `position` in a string table, or `nil` when it is outside or unterminated
  /// within ``maxTableStringLength`` bytes.
  static func cString(in bytes: UnsafeRawBufferPointer, at position: Int) -> String? {
    guard position >= 0, position < bytes.count, let base = bytes.baseAddress else { return nil }
    let length = min(bytes.count - position, maxTableStringLength)
    guard let nul = memchr(base + position, 0, length) else { return nil }
    let end = position + (UnsafeRawPointer(nul) - (base + position))
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
  }

  /// A fixed-size field padded with NULs (Mach-O segment and section names).
  mutating func fixedString(_ size: Int) -> String? {
    guard size <= remaining else {
      offset = bytes.count
      return nil
    }
    let field = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])
    offset += size
    let end = field.firstIndex(of: 0) ?? size
    return String(decoding: UnsafeRawBufferPointer(rebasing: field[0..<end]), as: UTF8.self)
  }

  private static func nulIndex(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    guard start < bytes.count, let base = bytes.baseAddress, let nul = memchr(base + start, 0, bytes.count - start)
    else { return nil }
    return UnsafeRawPointer(nul) - base
  }
}

extension UnsafeRawBufferPointer {
  /// The sub-range `offset ..< offset + count`, or `nil` when any of it is outside.
  func slice(offset: UInt64, count: UInt64) -> UnsafeRawBufferPointer? {
    guard offset <= UInt64(self.count), count <= UInt64(self.count) - offset else { return nil }
    return UnsafeRawBufferPointer(rebasing: self[Int(offset)..<Int(offset + count)])
  }
}
