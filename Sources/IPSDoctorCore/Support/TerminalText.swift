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
    // Text with no unsafe scalar, nearly every text we show (printable ASCII, or with the dashes
    // and quotes rule texts use), is answered from the bytes: walking the scalars cost ~40
    // instructions each, and a report's rendering escapes every line it prints.
    if text.utf8.withContiguousStorageIfAvailable({ !hasUnsafeScalar($0) }) == true { return text }
    return escapedScalars(text)
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
