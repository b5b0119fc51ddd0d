// Small text helpers, so the core needs no Foundation.

extension StringProtocol {
  /// The text without leading and trailing spaces, tabs, carriage returns and newlines.
  public func trimmingWhitespace() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }

  /// Case-insensitive containment for ASCII text.
  public func containsIgnoringCase(_ other: String) -> Bool {
    lowercased().contains(other.lowercased())
  }
}

extension String {
  /// Parses "0x1f", "1f" (with `hexadecimal`), or a decimal integer.
  public static func parseUInt64(_ text: some StringProtocol) -> UInt64? {
    let trimmed = text.trimmingWhitespace()
    if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
      return UInt64(trimmed.dropFirst(2), radix: 16)
    }
    return UInt64(trimmed)
  }

  /// `0x` followed by `width` lowercase hexadecimal digits.
  public static func hex(_ value: UInt64, width: Int = 0) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
  }
}
