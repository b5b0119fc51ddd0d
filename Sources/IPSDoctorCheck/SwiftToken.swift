import IPSDoctorSupport

/// One token of Swift source, as ``SwiftLexer`` sees it: enough to read declarations, nothing about
/// expressions. Comments and whitespace produce no token; a whole string literal is one token.
struct SwiftToken: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    /// A name or keyword (`func`, `async`, `AppDelegate`); a backquoted name without its backquotes.
    case identifier
    /// `@name`: the text is the name without `@`.
    case attribute
    /// `#name` (`#if`, `#selector`): the text is the name without `#`.
    case pound
    /// One punctuation byte: `{`, `(`, `:`, `-`, `>` … (the text is that byte).
    case punctuation
    /// A string or regex literal, interpolations included; the text is empty.
    case literal
    /// A number literal.
    case number
  }

  var kind: Kind
  /// The token's text (empty for a literal).
  var value: String
  /// The UTF-8 offset of the token's first byte in the file.
  var offset: Int

  init(kind: Kind, value: String, offset: Int) {
    self.kind = kind
    self.value = value
    self.offset = offset
  }

  func isPunctuation(_ byte: UInt8) -> Bool {
    kind == .punctuation && value.utf8.first == byte
  }

  func isIdentifier(_ name: String) -> Bool {
    kind == .identifier && value == name
  }
}

/// Line and column (both from 1; the column counts UTF-8 bytes, as compilers do) of offsets in one
/// file. A line ends at `\n`, `\r\n` or a lone `\r`, as for the compiler.
/// Invariant: `lineStarts` is sorted and starts with 0.
struct SourceLines: Sendable {
  let lineStarts: [Int]

  init(_ bytes: [UInt8]) {
    var starts = [0]
    for (index, byte) in bytes.enumerated() {
      let endsLine =
        byte == UInt8(ascii: "\n")
        || (byte == UInt8(ascii: "\r") && (index + 1 == bytes.count || bytes[index + 1] != UInt8(ascii: "\n")))
      if endsLine { starts.append(index + 1) }
    }
    lineStarts = starts
  }

  func location(of offset: Int) -> (line: Int, column: Int) {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return (low + 1, offset - lineStarts[low] + 1)
  }
}
