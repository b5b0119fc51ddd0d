/// Text as a CommonMark code span: opened and closed by a run of backticks one longer than the
/// longest run inside it, so no backtick of the text can end it; with a space inside each end when
/// the text starts or ends with a backtick (which would join the fence), or starts and ends with a
/// space (which CommonMark would strip). Never a backslash escape: inside a code span a backslash
/// is a backslash.
package enum CodeSpan {
  /// The fence's length and whether the text is padded.
  static func shape(of text: String) -> (fence: Int, pad: Bool) {
    text.withBorrowedUTF8 { bytes in
      var longest = 0
      var run = 0
      for byte in bytes {
        run = byte == UInt8(ascii: "`") ? run + 1 : 0
        longest = max(longest, run)
      }
      let first = bytes.first
      let last = bytes.last
      let pad =
        first == UInt8(ascii: "`") || last == UInt8(ascii: "`")
        || (first == UInt8(ascii: " ") && last == UInt8(ascii: " "))
      return (longest + 1, pad)
    }
  }

  /// "`text`", or "`` a`b ``" for text with backticks.
  package static func markdown(_ text: String) -> String {
    let (fence, pad) = shape(of: text)
    let ticks = String(repeating: "`", count: fence)
    return pad ? "\(ticks) \(text) \(ticks)" : "\(ticks)\(text)\(ticks)"
  }

  /// Any value as a string interpolation shows it (a substring, a number, a name).
  @_disfavoredOverload
  package static func markdown(_ value: some CustomStringConvertible) -> String {
    markdown(value.description)
  }
}
