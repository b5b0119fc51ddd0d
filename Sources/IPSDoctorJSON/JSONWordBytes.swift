import IPSDoctorSupport

/// Eight bytes of JSON text tested at once (a little-endian word): the parser's test for the
/// bytes that end a plain run inside a string, and the writer's for the bytes it must escape.
/// Each returns the high bit of every such byte; only the lowest set bit is exact (a borrow can
/// mark bytes above it), which is all a scan that stops at the first one needs.
enum JSONWordBytes {
  /// The quote, the backslash, the control characters and the bytes at or above 0x80.
  ///
  /// Per byte: XORing with 0x02 swaps the quote (0x22) with the space and keeps control characters
  /// below 0x20, so exactly the quote and the control characters end below 0x21 and get their high
  /// bit set by subtracting 0x21; a backslash XORed with itself is 0, whose high bit is set by
  /// subtracting 1; bytes at or above 0x80 have it set already. (The subtractions also set it for
  /// some bytes at or above 0x80, which are marked anyway: this is the "has a zero byte" trick
  /// without its `& ~value`.) A borrow only starts at a marked byte, so bytes below the lowest mark
  /// are exact.
  @inline(__always)
  static func special(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quotesAndControls = (word ^ (ones &* 0x02)) &- ones &* 0x21
    let backslashes = (word ^ (ones &* 0x5C)) &- ones
    return (quotesAndControls | backslashes | word) & 0x8080_8080_8080_8080
  }

  /// ``special(_:)`` and DEL (0x7F): the bytes that are not plain printable ASCII, which the
  /// writer escapes. The lowest mark of either test is exact, so the lowest of both is.
  @inline(__always)
  static func unplain(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    let deletes = word ^ (ones &* 0x7F)
    return special(word) | (deletes &- ones) & ~deletes & high
  }
}
