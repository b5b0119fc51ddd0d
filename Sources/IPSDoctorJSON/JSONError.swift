import IPSDoctorSupport

/// A position in a byte buffer: a 0-based byte offset and 1-based line and column (in bytes).
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  package var offset: Int
  package var line: Int
  package var column: Int

  package init(offset: Int, line: Int, column: Int) {
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// Computes line and column for `offset` by counting newlines in `bytes`.
  package init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
    var line = 1
    var lineStart = 0
    let end = min(max(offset, 0), bytes.count)
    // Newline to newline with memchr: reports locate warnings often, and lines are long.
    while lineStart < end, let newline = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: lineStart),
      newline < end
    {
      line += 1
      lineStart = newline + 1
    }
    self.init(offset: offset, line: line, column: offset - lineStart + 1)
  }

  package var description: String { "\(line):\(column)" }
}

/// Why a JSON document was rejected, where, and inside which value.
package struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Reason: Sendable, Equatable {
    case unexpectedEnd(expected: String)
    case unexpectedByte(UInt8, expected: String)
    case invalidUTF8
    case controlCharacterInString(UInt8)
    case invalidEscape
    case invalidUnicodeEscape
    case loneSurrogate
    case invalidNumber(String)
    case tooDeep(limit: Int)
    /// A value goes on past the most bytes a document may have (``JSONParser``'s 32-bit tape).
    case tooLarge(limit: Int)
    case trailingContent
    case empty
  }

  package var reason: Reason
  package var location: SourceLocation
  /// The value being parsed when the error happened.
  package var path: JSONPath

  package init(reason: Reason, location: SourceLocation, path: JSONPath = .root) {
    self.reason = reason
    self.location = location
    self.path = path
  }

  /// The message without location, lowercase and without a trailing period.
  package var message: String {
    switch reason {
    case .unexpectedEnd(let expected):
      "unexpected end of input, expected \(expected)"
    case .unexpectedByte(let byte, let expected):
      "expected \(expected), found \(Self.describe(byte))"
    case .invalidUTF8:
      "invalid UTF-8 byte sequence"
    case .controlCharacterInString(let byte):
      "unescaped control character \(Self.describe(byte)) in string"
    case .invalidEscape:
      "invalid escape sequence in string"
    case .invalidUnicodeEscape:
      "invalid \\u escape: expected four hexadecimal digits"
    case .loneSurrogate:
      "\\u escape is a lone UTF-16 surrogate"
    case .invalidNumber(let detail):
      "invalid number: \(detail)"
    case .tooDeep(let limit):
      "nesting deeper than \(limit) levels"
    case .tooLarge(let limit):
      "document larger than \(limit) bytes"
    case .trailingContent:
      "unexpected content after the JSON value"
    case .empty:
      "empty input, expected a JSON value"
    }
  }

  /// `line:column: error: message (at path)`, like a compiler diagnostic without the file name.
  package var description: String {
    var text = "\(location.line):\(location.column): error: \(message)"
    if !path.isRoot { text += " (at \(path))" }
    return text
  }

  static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F {
      return "'\(Character(Unicode.Scalar(byte)))'"
    }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
  }
}
