/// Makes text from a crash report safe to show on a terminal or in a plain-text log.
///
/// Reports come from phones, forums and strangers: a symbol or an exception reason may hold ANSI
/// escape sequences, carriage returns, NUL bytes or bidirectional overrides that would repaint the
/// screen or forge a line of our own output. Every such character is shown as a visible escape.
public enum TerminalText {
  /// Bidirectional embedding, override and isolate controls, and the Unicode line and paragraph
  /// separators.
  public static func isBidiOrSeparator(_ value: UInt32) -> Bool {
    switch value {
    case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
    default: false
    }
  }

  /// Escapes control characters, C1 controls, DEL and bidi controls as `\u{…}` (tab, newline and
  /// carriage return as `\t`, `\n`, `\r`). A single line stays a single line.
  public static func escaped(_ text: String) -> String {
    // Printable ASCII, nearly every text we show, has nothing to escape: answered from the bytes.
    if text.utf8.withContiguousStorageIfAvailable(ByteSearch.isPrintableASCII) == true { return text }
    return escapedScalars(text)
  }

  /// ``escaped(_:)`` scalar by scalar, for any text (the reference for the byte path).
  static func escapedScalars(_ text: String) -> String {
    var needsWork = false
    for scalar in text.unicodeScalars where isUnsafe(scalar.value) || scalar == "\\" {
      if scalar != "\\" {
        needsWork = true
        break
      }
    }
    guard needsWork else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if isUnsafe(scalar.value) {
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
