/// Makes text from a crash report safe to show on a terminal or in a plain-text log.
///
/// Reports come from phones, forums and strangers: a symbol or an exception reason may hold ANSI
/// escape sequences, carriage returns, NUL bytes or bidirectional overrides that would repaint the
/// screen or forge a line of our own output. Every such character is shown as a visible escape.
///
/// Output also reaches CI logs, whose runner takes a line that starts with `::` (after whitespace)
/// or holds `##[` as a workflow command. Every text this escapes may start a line (it may be put
/// after an indent, or wrapped at its whitespace), so a colon that could begin such a line, and
/// a `#` that could make `##[`, are written `\u{3A}` and `\u{23}` (see ``isWorkflowMarker(_:_:)``).
package enum TerminalText {
  /// Bidirectional embedding, override and isolate controls, and the Unicode line and paragraph
  /// separators.
  package static func isBidiOrSeparator(_ value: UInt32) -> Bool {
    switch value {
    case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
    default: false
    }
  }

  /// Escapes control characters, C1 controls, DEL and bidi controls as `\u{…}` (tab, newline and
  /// carriage return as `\t`, `\n`, `\r`), and the colons and `#` of workflow-command markers
  /// (``isWorkflowMarker(_:_:)``). A single line stays a single line.
  package static func escaped(_ text: String) -> String {
    // Text with no unsafe scalar and no possible marker has nothing to escape, which the bytes
    // tell (``hasUnsafeScalar(_:)``, ``mayHoldWorkflowMarker(_:)``): it is returned as it is.
    if text.utf8.withContiguousStorageIfAvailable({ !hasUnsafeScalar($0) && !mayHoldWorkflowMarker($0) }) == true {
      return text
    }
    return escapedScalars(text)
  }

  /// Whether the scalar at `index` of `scalars` is escaped so that no line of output can begin a
  /// GitHub Actions workflow command (`::name …::`, after any whitespace) or hold a legacy one
  /// (`##[name]`), even when the text is put at the start of a line or next to another text:
  /// - a `:` before another `:`, at the start or after whitespace;
  /// - a `:` with only whitespace before it (`":" + ":x"` would make `::`);
  /// - the first `#` of `##[`, of `##` ending the text, and of `#[` starting it.
  static func isWorkflowMarker(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
    let count = scalars.count
    func scalar(_ offset: Int) -> Unicode.Scalar? {
      index + offset >= 0 && index + offset < count ? scalars[index + offset] : nil
    }
    switch scalars[index] {
    case ":":
      if scalar(1) == ":" && (index == 0 || scalars[index - 1].properties.isWhitespace) { return true }
      return scalars[..<index].allSatisfy { $0.properties.isWhitespace }
    case "#":
      if scalar(1) == "#" && (scalar(2) == "[" || index + 2 == count) { return true }
      return index == 0 && scalar(1) == "["
    default:
      return false
    }
  }

  /// Whether valid UTF-8 `bytes` may hold a scalar that ``isWorkflowMarker(_:_:)``: `::` at the
  /// start or after a byte that is ASCII whitespace or part of a non-ASCII scalar (which may be
  /// whitespace), a first byte after ASCII whitespace that is `:` or not ASCII, `##[`, `##` at
  /// the end, `#[` at the start. `false` answers exactly; `true` sends the text scalar by scalar.
  static func mayHoldWorkflowMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    guard let base = bytes.baseAddress, count > 0 else { return false }
    var first = 0
    while first < count, isASCIIWhitespace(bytes[first]) { first += 1 }
    if first < count && (bytes[first] == UInt8(ascii: ":") || bytes[first] >= 0x80) { return true }
    if count >= 2 && bytes[0] == UInt8(ascii: "#") && bytes[1] == UInt8(ascii: "[") { return true }
    var start = 0
    while start + 1 < count, let found = memchr(base + start, Int32(UInt8(ascii: ":")), count - start - 1) {
      let index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      if bytes[index + 1] == UInt8(ascii: ":")
        && (index == 0 || isASCIIWhitespace(bytes[index - 1]) || bytes[index - 1] >= 0x80)
      {
        return true
      }
      start = index + 1
    }
    start = 0
    while start + 1 < count, let found = memchr(base + start, Int32(UInt8(ascii: "#")), count - start - 1) {
      let index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      if bytes[index + 1] == UInt8(ascii: "#") && (index + 2 == count || bytes[index + 2] == UInt8(ascii: "[")) {
        return true
      }
      start = index + 1
    }
    return false
  }

  @inline(__always)
  private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }

  /// Whether valid UTF-8 `bytes` hold a scalar that ``isUnsafe(_:)``, from the bytes: a C0 control
  /// or DEL is its own byte, a C1 control is `C2 80`–`C2 9F`, U+061C is `D8 9C`, and the bidi
  /// controls and separators are `E2 80 8E`/`8F`/`A8`–`AE` and `E2 81 A6`–`A9`.
  static func hasUnsafeScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if ByteSearch.isPrintableASCII(bytes) { return false }
    let count = bytes.count
    var index = 0
    while index < count {
      let byte = bytes[index]
      if byte < 0x20 || byte == 0x7F { return true }
      if byte >= 0xC2 {
        let second: UInt8 = index + 1 < count ? bytes[index + 1] : 0
        switch byte {
        case 0xC2: if second >= 0x80 && second <= 0x9F { return true }
        case 0xD8: if second == 0x9C { return true }
        case 0xE2:
          let third: UInt8 = index + 2 < count ? bytes[index + 2] : 0
          if second == 0x80 && (third == 0x8E || third == 0x8F || (third >= 0xA8 && third <= 0xAE)) { return true }
          if second == 0x81 && third >= 0xA6 && third <= 0xA9 { return true }
        default: break
        }
      }
      index += 1
    }
    return false
  }

  /// ``escaped(_:)`` scalar by scalar, for any text.
  private static func escapedScalars(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    let needsWork = scalars.indices.contains { isUnsafe(scalars[$0].value) || isWorkflowMarker(scalars, $0) }
    guard needsWork else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for index in scalars.indices {
      let scalar = scalars[index]
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if isUnsafe(scalar.value) || isWorkflowMarker(scalars, index) {
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  static func isUnsafe(_ value: UInt32) -> Bool {
    value < 0x20 || value == 0x7F || (value >= 0x80 && value < 0xA0) || isBidiOrSeparator(value)
  }
}
