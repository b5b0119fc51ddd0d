extension PathName {
  /// Valid UTF-8 of a path as ``display`` shows it: each backslash doubled first, so that the
  /// escapes ``TerminalText/escaped(_:)`` then writes are the only single backslashes.
  static func displayText(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "\\")) else { return TerminalText.escaped(text) }
    var doubled = ""
    doubled.reserveCapacity(text.utf8.count + 4)
    for scalar in text.unicodeScalars {
      if scalar == "\\" { doubled.unicodeScalars.append(scalar) }
      doubled.unicodeScalars.append(scalar)
    }
    return TerminalText.escaped(doubled)
  }

  /// The path whose ``display`` is `display`: `\\` is a backslash, `\xHH` a byte, `\u{H…}` a
  /// scalar, `\n`, `\r`, `\t` those characters, anything else itself. `nil` when `display` holds
  /// any other escape, so it was not made by ``display``.
  package init?(display: String) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(display.utf8.count)
    var scalars = Substring(display).unicodeScalars[...]
    func hexValue(_ digits: Substring.UnicodeScalarView.SubSequence) -> UInt32? {
      guard !digits.isEmpty, digits.count <= 8 else { return nil }
      return UInt32(String(digits), radix: 16)
    }
    while let scalar = scalars.popFirst() {
      guard scalar == "\\" else {
        bytes.append(contentsOf: String(scalar).utf8)
        continue
      }
      switch scalars.popFirst() {
      case "\\": bytes.append(UInt8(ascii: "\\"))
      case "n": bytes.append(0x0A)
      case "r": bytes.append(0x0D)
      case "t": bytes.append(0x09)
      case "x":
        let digits = scalars.prefix(2)
        guard digits.count == 2, let value = hexValue(digits) else { return nil }
        bytes.append(UInt8(value))
        scalars = scalars.dropFirst(2)
      case "u":
        guard scalars.first == "{", let close = scalars.firstIndex(of: "}") else { return nil }
        let digits = scalars[scalars.index(after: scalars.startIndex)..<close]
        guard let value = hexValue(digits), let decoded = Unicode.Scalar(value) else { return nil }
        bytes.append(contentsOf: String(decoded).utf8)
        scalars = scalars[scalars.index(after: close)...]
      default:
        return nil
      }
    }
    self.init(bytes: bytes)
  }
}
