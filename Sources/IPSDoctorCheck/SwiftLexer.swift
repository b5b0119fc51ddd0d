import IPSDoctorSupport

/// Splits Swift source into ``SwiftToken``s: names, attributes, `#` directives, punctuation,
/// numbers and whole literals. Comments (nested block comments included) produce no token; string
/// literals of every form (`"…"`, `"""…"""`, raw `#"…"#`, interpolation `\(…)` with literals and
/// parentheses nested inside, `#/…/#` regexes) are one ``SwiftToken/Kind/literal`` each.
///
/// A line ends at `\n`, `\r\n` or a lone `\r`, as for the compiler. A run of `#` that starts no
/// literal is one token.
///
/// The lexer never fails: what it cannot read (an unterminated literal or comment, a byte no token
/// starts with) is skipped and noted in ``notes`` with its offset. It reads each byte a bounded
/// number of times and never recurses: literals and interpolations nested to any depth are kept on
/// a stack in memory (see ``skipLiteral(from:)``).
struct SwiftLexer {
  let bytes: [UInt8]
  private(set) var tokens: [SwiftToken] = []
  /// What was skipped, with the offset where it starts (for `check -v`).
  private(set) var notes: [(offset: Int, message: String)] = []
  /// The quotes on the line where a raw literal last asked whether it closes on its line.
  private var quotesOnLine = QuotesOnLine()

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
  private static let carriageReturn = UInt8(ascii: "\r")

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
        let run = endOfHashes(from: index)
        if byte(run) == Self.quote || byte(run) == Self.slash {
          let end = byte(run) == Self.quote ? skipLiteral(from: index) : skipRegex(from: index, slash: run)
          tokens.append(SwiftToken(kind: .literal, value: "", offset: index))
          index = end
        } else {
          // A run of `#` that starts no literal is one token, at its last `#`.
          var end = run
          while let next = byte(end), Self.isIdentifierBody(next) { end += 1 }
          tokens.append(SwiftToken(kind: .pound, value: text(run, end), offset: run - 1))
          index = end
        }
      case UInt8(ascii: "@"):
        var end = index + 1
        while let next = byte(end), Self.isIdentifierBody(next) { end += 1 }
        tokens.append(SwiftToken(kind: .attribute, value: text(index + 1, end), offset: index))
        index = end
      case UInt8(ascii: "`"):
        var end = index + 1
        while let next = byte(end), next != UInt8(ascii: "`"), !Self.isLineEnd(next) { end += 1 }
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

  /// Whether `byte` ends a line: a line ends at `\n`, `\r\n` or a lone `\r`.
  static func isLineEnd(_ byte: UInt8) -> Bool {
    byte == newline || byte == carriageReturn
  }

  /// The offset of the `\n` or `\r` ending the line that holds `index` (or the end of the file).
  private func endOfLine(from index: Int) -> Int {
    var end = index
    while end < bytes.count, !Self.isLineEnd(bytes[end]) { end += 1 }
    return end
  }

  /// The offset after the run of `#` that starts at `index`.
  private func endOfHashes(from index: Int) -> Int {
    var end = index
    while byte(end) == Self.hash { end += 1 }
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

  /// Skips a regex `#/…/#` whose `#`s start at `index` and whose `/` is at `slash`; returns the
  /// offset after it.
  private mutating func skipRegex(from index: Int, slash: Int) -> Int {
    let hashes = slash - index
    var scan = slash + 1
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

  /// Whether `hashes` `#` follow at `index`.
  private func closes(at index: Int, hashes: Int) -> Bool {
    guard index + hashes <= bytes.count else { return false }
    for offset in 0..<hashes where bytes[index + offset] != Self.hash { return false }
    return true
  }

  /// Whether a `"` followed by `hashes` `#` comes before the end of the line from `index`.
  ///
  /// Answered from ``quotesOnLine``, which is built once per line: literals opened on one line
  /// (nested in interpolations) ask about the same line again and again.
  private mutating func closesOnItsLine(from index: Int, hashes: Int) -> Bool {
    if !(quotesOnLine.start <= index && index <= quotesOnLine.end) {
      quotesOnLine = QuotesOnLine(bytes, from: index)
    }
    return quotesOnLine.longestRun(from: index) >= hashes
  }

  /// Skips a string literal starting at `index` (its `#`s or its opening quote) and returns the
  /// offset after it. Handles `"""` and raw delimiters, escapes (`\` followed by the delimiter's
  /// `#`s) and interpolations, with literals, parentheses and comments nested inside them to any
  /// depth. A single-line literal ends at the end of its line at the latest.
  ///
  /// Invariant: `open` holds the literals and interpolations entered and not yet left, innermost
  /// last; the loop never recurses, so nesting is bounded by memory, not by the stack.
  private mutating func skipLiteral(from index: Int) -> Int {
    var open: [OpenConstruct] = []
    var position = enterLiteral(at: index, into: &open)
    while position < bytes.count, let innermost = open.last {
      let current = bytes[position]
      switch innermost {
      case .literal(let start, let hashes, let multiline):
        if current == Self.backslash && closes(at: position + 1, hashes: hashes) {
          let afterEscape = position + 1 + hashes
          if byte(afterEscape) == UInt8(ascii: "(") {
            open.append(.interpolation(start: afterEscape + 1, depth: 1))
          }
          position = afterEscape + 1
        } else if current == Self.quote && multiline && byte(position + 1) == Self.quote
          && byte(position + 2) == Self.quote && closes(at: position + 3, hashes: hashes)
        {
          open.removeLast()
          position += 3 + hashes
        } else if current == Self.quote && !multiline && closes(at: position + 1, hashes: hashes) {
          open.removeLast()
          position += 1 + hashes
        } else if Self.isLineEnd(current) && !multiline {
          notes.append((start, "unterminated string literal: skipped to the end of its line"))
          open.removeLast()
        } else {
          position += 1
        }
      case .interpolation(let start, let depth):
        switch current {
        case UInt8(ascii: "("):
          open[open.count - 1] = .interpolation(start: start, depth: depth + 1)
          position += 1
        case UInt8(ascii: ")"):
          if depth > 1 {
            open[open.count - 1] = .interpolation(start: start, depth: depth - 1)
          } else {
            open.removeLast()
          }
          position += 1
        case Self.quote:
          position = enterLiteral(at: position, into: &open)
        case Self.hash:
          let run = endOfHashes(from: position)
          if byte(run) == Self.quote {
            position = enterLiteral(at: position, into: &open)
          } else if byte(run) == Self.slash {
            position = skipRegex(from: position, slash: run)
          } else {
            position = run
          }
        case Self.slash where byte(position + 1) == Self.slash:
          position = endOfLine(from: position)
        case Self.slash where byte(position + 1) == Self.star:
          position = skipBlockComment(from: position)
        default:
          position += 1
        }
      }
    }
    if let innermost = open.last {
      switch innermost {
      case .literal(let start, _, _):
        notes.append((start, "unterminated string literal: skipped to the end of the file"))
      case .interpolation(let start, _):
        notes.append((start, "unterminated interpolation: skipped to the end of the file"))
      }
      if open.count > 1 {
        notes.append(
          (
            index,
            "unterminated string literal: skipped to the end of the file (\(open.count - 1) literals "
              + "and interpolations open inside it)"
          ))
      }
    }
    return min(position, bytes.count)
  }

  /// Reads the opening delimiter of the string literal at `index` (its `#`s or its quote), pushes
  /// the literal onto `open` and returns the offset of its first content byte.
  private mutating func enterLiteral(at index: Int, into open: inout [OpenConstruct]) -> Int {
    let quote = endOfHashes(from: index)
    let hashes = quote - index
    var multiline = byte(quote + 1) == Self.quote && byte(quote + 2) == Self.quote
    if multiline && hashes > 0 && closesOnItsLine(from: quote + 3, hashes: hashes) {
      // `#""""#` is the raw string `""`, as in the compiler's lexer.
      multiline = false
    }
    open.append(.literal(start: index, hashes: hashes, multiline: multiline))
    return quote + (multiline ? 3 : 1)
  }
}

/// A literal or interpolation that ``SwiftLexer`` has entered and not yet left.
private enum OpenConstruct {
  /// A string literal starting at `start` (its first `#` or its quote), delimited by `hashes` `#`.
  case literal(start: Int, hashes: Int, multiline: Bool)
  /// The code of an interpolation from `start` (after its `(`), with `depth` parentheses open.
  case interpolation(start: Int, depth: Int)
}

/// The quotes from one offset to the end of its line, each with the longest run of `#` that
/// follows it or a later quote on the line: whether a raw literal could close on the line is a
/// binary search. Invariant: `positions` is ascending and lies in `start...end`.
struct QuotesOnLine {
  let start: Int
  let end: Int
  private var positions: [Int] = []
  private var longestRunFrom: [Int] = []

  init() {
    start = 1
    end = 0
  }

  init(_ bytes: [UInt8], from index: Int) {
    start = index
    var position = index
    var runs: [Int] = []
    while position < bytes.count, !SwiftLexer.isLineEnd(bytes[position]) {
      if bytes[position] == UInt8(ascii: "\"") {
        var run = position + 1
        while run < bytes.count, bytes[run] == UInt8(ascii: "#") { run += 1 }
        positions.append(position)
        runs.append(run - position - 1)
        position = run
      } else {
        position += 1
      }
    }
    end = position
    longestRunFrom = runs
    var longest = 0
    for slot in runs.indices.reversed() {
      longest = max(longest, runs[slot])
      longestRunFrom[slot] = longest
    }
  }

  /// The longest run of `#` after a quote at or after `index` on the line (0 when none).
  func longestRun(from index: Int) -> Int {
    var low = 0
    var high = positions.count
    while low < high {
      let middle = (low + high) / 2
      if positions[middle] < index { low = middle + 1 } else { high = middle }
    }
    return low < positions.count ? longestRunFrom[low] : 0
  }
}
