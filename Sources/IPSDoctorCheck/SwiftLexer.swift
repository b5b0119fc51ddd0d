import IPSDoctorSupport

/// Splits Swift source into ``SwiftToken``s: names, attributes, `#` directives, punctuation,
/// numbers and whole literals. Comments (nested block comments included) produce no token; string
/// literals of every form (`"…"`, `"""…"""`, raw `#"…"#`, interpolation `\(…)` with literals and
/// parentheses nested inside, `#/…/#` regexes) are one ``SwiftToken/Kind/literal`` each.
///
/// The lexer never fails: what it cannot read (an unterminated literal or comment, a byte no token
/// starts with) is skipped and noted in ``notes`` with its offset.
struct SwiftLexer {
  let bytes: [UInt8]
  private(set) var tokens: [SwiftToken] = []
  /// What was skipped, with the offset where it starts (for `check -v`).
  private(set) var notes: [(offset: Int, message: String)] = []

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    tokens.reserveCapacity(bytes.count / 6)
    lex()
  }

  private static let quote = UInt8(ascii: "\"")
  private static let hash = UInt8(ascii: "#")
  private static let slash = UInt8(ascii: "/")
  private static let star = UInt8(ascii: "*")
  private static let backslash = UInt8(ascii: "\\")
  private static let newline = UInt8(ascii: "\n")

  private func byte(_ index: Int) -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  static func isIdentifierHead(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte >= 0x80
  }

  static func isIdentifierBody(_ byte: UInt8) -> Bool {
    isIdentifierHead(byte) || (byte >= 0x30 && byte <= 0x39)
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }

  private mutating func lex() {
    var index = 0
    while index < bytes.count {
      let current = bytes[index]
      switch current {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
        index += 1
      case Self.slash where byte(index + 1) == Self.slash:
        index = endOfLine(from: index)
      case Self.slash where byte(index + 1) == Self.star:
        index = skipBlockComment(from: index)
      case Self.quote:
        let end = skipLiteral(from: index)
        tokens.append(SwiftToken(kind: .literal, value: "", offset: index))
        index = end
      case Self.hash:
        if let end = rawLiteralEnd(from: index) {
          tokens.append(SwiftToken(kind: .literal, value: "", offset: index))
          index = end
        } else {
          var end = index + 1
          while let next = byte(end), Self.isIdentifierBody(next) { end += 1 }
          tokens.append(SwiftToken(kind: .pound, value: text(index + 1, end), offset: index))
          index = max(end, index + 1)
        }
      case UInt8(ascii: "@"):
        var end = index + 1
        while let next = byte(end), Self.isIdentifierBody(next) { end += 1 }
        tokens.append(SwiftToken(kind: .attribute, value: text(index + 1, end), offset: index))
        index = end
      case UInt8(ascii: "`"):
        var end = index + 1
        while let next = byte(end), next != UInt8(ascii: "`"), next != Self.newline { end += 1 }
        tokens.append(SwiftToken(kind: .identifier, value: text(index + 1, end), offset: index))
        index = byte(end) == UInt8(ascii: "`") ? end + 1 : end
      case 0x30...0x39:
        var end = index + 1
        while let next = byte(end), Self.isIdentifierBody(next) { end += 1 }
        tokens.append(SwiftToken(kind: .number, value: text(index, end), offset: index))
        index = end
      default:
        if Self.isIdentifierHead(current) {
          var end = index + 1
          while let next = byte(end), Self.isIdentifierBody(next) { end += 1 }
          tokens.append(SwiftToken(kind: .identifier, value: text(index, end), offset: index))
          index = end
        } else if current < 0x20 || current == 0x7F {
          notes.append((index, "skipped a control byte"))
          index += 1
        } else {
          tokens.append(SwiftToken(kind: .punctuation, value: String(UnicodeScalar(current)), offset: index))
          index += 1
        }
      }
    }
  }

  /// The offset of the line feed ending the line that holds `index` (or the end of the file).
  private func endOfLine(from index: Int) -> Int {
    var end = index
    while end < bytes.count, bytes[end] != Self.newline { end += 1 }
    return end
  }

  /// Skips `/* … */` with nesting; `index` is at the `/`.
  private mutating func skipBlockComment(from index: Int) -> Int {
    var depth = 0
    var position = index
    while position < bytes.count {
      if bytes[position] == Self.slash && byte(position + 1) == Self.star {
        depth += 1
        position += 2
      } else if bytes[position] == Self.star && byte(position + 1) == Self.slash {
        depth -= 1
        position += 2
        if depth == 0 { return position }
      } else {
        position += 1
      }
    }
    notes.append((index, "unterminated block comment: skipped to the end of the file"))
    return bytes.count
  }

  /// When `index` (at a `#`) starts a raw string `#"…"#` or a regex `#/…/#`, the offset after it.
  private mutating func rawLiteralEnd(from index: Int) -> Int? {
    var position = index
    while byte(position) == Self.hash { position += 1 }
    if byte(position) == Self.quote { return skipLiteral(from: index) }
    if byte(position) == Self.slash {
      let hashes = position - index
      var scan = position + 1
      while scan < bytes.count {
        if bytes[scan] == Self.backslash {
          scan += 2
          continue
        }
        if bytes[scan] == Self.slash && closes(at: scan + 1, hashes: hashes) { return scan + 1 + hashes }
        scan += 1
      }
      notes.append((index, "unterminated regex literal: skipped to the end of the file"))
      return bytes.count
    }
    return nil
  }

  /// Whether `hashes` `#` follow at `index`.
  private func closes(at index: Int, hashes: Int) -> Bool {
    guard index + hashes <= bytes.count else { return false }
    for offset in 0..<hashes where bytes[index + offset] != Self.hash { return false }
    return true
  }

  /// Whether a `"` followed by `hashes` `#` comes before the end of the line from `index`.
  private func closesOnItsLine(from index: Int, hashes: Int) -> Bool {
    var position = index
    while position < bytes.count, bytes[position] != Self.newline, bytes[position] != 0x0D {
      if bytes[position] == Self.quote && closes(at: position + 1, hashes: hashes) { return true }
      position += 1
    }
    return false
  }

  /// Skips a string literal starting at `index` (its `#`s or its opening quote) and returns the
  /// offset after it. Handles `"""` and raw delimiters, escapes (`\` followed by the delimiter's
  /// `#`s) and interpolations. A single-line literal ends at the end of its line at the latest.
  private mutating func skipLiteral(from index: Int) -> Int {
    var position = index
    while byte(position) == Self.hash { position += 1 }
    let hashes = position - index
    var multiline = byte(position + 1) == Self.quote && byte(position + 2) == Self.quote
    if multiline && hashes > 0 && closesOnItsLine(from: position + 3, hashes: hashes) {
      // `#""""#` is the raw string `""`, as in the compiler's lexer.
      multiline = false
    }
    position += multiline ? 3 : 1
    while position < bytes.count {
      let current = bytes[position]
      if current == Self.backslash && closes(at: position + 1, hashes: hashes) {
        let afterEscape = position + 1 + hashes
        if byte(afterEscape) == UInt8(ascii: "(") {
          position = skipInterpolation(from: afterEscape + 1)
        } else {
          position = afterEscape + 1
        }
        continue
      }
      if current == Self.quote {
        if multiline {
          if byte(position + 1) == Self.quote && byte(position + 2) == Self.quote
            && closes(at: position + 3, hashes: hashes)
          {
            return position + 3 + hashes
          }
        } else if closes(at: position + 1, hashes: hashes) {
          return position + 1 + hashes
        }
      }
      if current == Self.newline && !multiline {
        notes.append((index, "unterminated string literal: skipped to the end of its line"))
        return position
      }
      position += 1
    }
    notes.append((index, "unterminated string literal: skipped to the end of the file"))
    return bytes.count
  }

  /// Skips the code of an interpolation, after its `(`, to after the matching `)`: nested
  /// parentheses, literals and comments included.
  private mutating func skipInterpolation(from index: Int) -> Int {
    var depth = 1
    var position = index
    while position < bytes.count {
      let current = bytes[position]
      switch current {
      case UInt8(ascii: "("):
        depth += 1
        position += 1
      case UInt8(ascii: ")"):
        depth -= 1
        position += 1
        if depth == 0 { return position }
      case Self.quote:
        position = skipLiteral(from: position)
      case Self.hash:
        position = rawLiteralEnd(from: position) ?? position + 1
      case Self.slash where byte(position + 1) == Self.slash:
        position = endOfLine(from: position)
      case Self.slash where byte(position + 1) == Self.star:
        position = skipBlockComment(from: position)
      default:
        position += 1
      }
    }
    notes.append((index, "unterminated interpolation: skipped to the end of the file"))
    return bytes.count
  }
}
