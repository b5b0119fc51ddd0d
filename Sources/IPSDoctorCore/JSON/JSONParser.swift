/// A strict RFC 8259 JSON parser over raw bytes, with no Foundation in the parsing path.
///
/// - Strings are validated as UTF-8 (invalid bytes are an error, never repaired) and every escape,
///   including UTF-16 surrogate pairs, is checked.
/// - Integers keep their exact 64-bit value (see ``JSONNumber``).
/// - Nesting is capped (512 levels by default) so hostile input fails cleanly instead of exhausting
///   the stack.
/// - Errors carry the byte offset, line, column and the JSON path of the value being parsed.
///
/// The parser writes a flat tape (``JSONDocument``): one fixed-size entry per value and no
/// allocation per value. Strings are decoded, and a ``JSONValue`` tree is built, only when asked for.
public enum JSONParser {
  public static let defaultMaxDepth = 512

  /// Parses `bytes` as exactly one JSON document (surrounding whitespace allowed).
  public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONError)
    -> JSONValue
  {
    let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(JSONError) -> JSONValue in try parse(buffer, maxDepth: maxDepth) }
    }
    return try result.get()
  }

  /// Parses `text` as exactly one JSON document.
  public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONError)
    -> JSONValue
  {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }

  /// Parses `buffer` as exactly one JSON document (surrounding whitespace allowed).
  public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
    throws(JSONError) -> JSONValue
  {
    try parseDocument(buffer, maxDepth: maxDepth).value
  }

  /// Parses `buffer` as exactly one JSON document into a tape, without building a tree.
  static func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
    throws(JSONError) -> JSONDocument
  {
    let (document, end, error) = documentPrefix(buffer, from: 0, maxDepth: maxDepth)
    if let error { throw error }
    var trailing = end
    while trailing < buffer.count, Reader.isWhitespace(buffer[trailing]) { trailing += 1 }
    if trailing < buffer.count {
      throw JSONError(
        reason: .trailingContent, location: SourceLocation(offset: trailing, in: buffer))
    }
    guard let document else { throw JSONError(reason: .empty, location: SourceLocation(offset: end, in: buffer)) }
    return document
  }

  /// Parses one JSON value that starts at `start` (after optional whitespace) and returns it with the
  /// offset just past its last byte. Whatever follows the value is left alone.
  public static func parsePrefix(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth
  ) throws(JSONError) -> (value: JSONValue, end: Int) {
    let (document, end, error) = documentPrefix(buffer, from: start, maxDepth: maxDepth)
    if let error { throw error }
    // Without an error there is always a value.
    guard let document else { throw JSONError(reason: .empty, location: SourceLocation(offset: end, in: buffer)) }
    return (document.value, end)
  }

  /// Like ``parsePrefix(_:from:maxDepth:)``, but when the input breaks inside an array or object
  /// it also returns what was read before the break: every open container closed at that point,
  /// without the value that failed. For salvaging truncated or hand-edited reports; the error is
  /// always returned with it.
  public static func parsePrefixRecovering(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth
  ) -> (value: JSONValue?, end: Int, error: JSONError?) {
    let (document, end, error) = documentPrefix(buffer, from: start, maxDepth: maxDepth)
    return (document?.value, end, error)
  }

  /// The tape form of ``parsePrefixRecovering(_:from:maxDepth:)``: the document holds a copy of
  /// the bytes it was read from, so it outlives `buffer`.
  static func documentPrefix(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth
  ) -> (document: JSONDocument?, end: Int, error: JSONError?) {
    // The tape's offsets are relative to `start`; errors and `end` are reported in `buffer`.
    let slice = UnsafeBufferPointer(rebasing: buffer[min(start, buffer.count)...])
    var reader = Reader(buffer: slice, maxDepth: maxDepth)
    do throws(JSONError) {
      reader.skipWhitespace()
      guard reader.position < slice.count else {
        throw JSONError(reason: .empty, location: reader.location(reader.position))
      }
      try reader.parseValue()
      let document = JSONDocument(
        bytes: Array(UnsafeBufferPointer(rebasing: slice[..<reader.position])), entries: reader.entries)
      return (document, start + reader.position, nil)
    } catch {
      var document: JSONDocument?
      if !reader.entries.isEmpty {
        document = JSONDocument(
          bytes: Array(UnsafeBufferPointer(rebasing: slice[..<min(reader.position, slice.count)])),
          entries: reader.entries)
      }
      return (document, start + reader.position, finished(error, shiftedBy: start, in: buffer))
    }
  }

  /// Paths are collected innermost-first while the error unwinds; put them in reading order and
  /// compute line and column once.
  private static func finished(
    _ error: JSONError, shiftedBy start: Int, in buffer: UnsafeBufferPointer<UInt8>
  ) -> JSONError {
    var error = error
    error.path.components.reverse()
    error.location = SourceLocation(offset: error.location.offset + start, in: buffer)
    return error
  }
}

// MARK: - Reader

enum ASCII {
  static let quote: UInt8 = 0x22
  static let backslash: UInt8 = 0x5C
  static let slash: UInt8 = 0x2F
  static let comma: UInt8 = 0x2C
  static let colon: UInt8 = 0x3A
  static let openBracket: UInt8 = 0x5B
  static let closeBracket: UInt8 = 0x5D
  static let openBrace: UInt8 = 0x7B
  static let closeBrace: UInt8 = 0x7D
  static let minus: UInt8 = 0x2D
  static let plus: UInt8 = 0x2B
  static let dot: UInt8 = 0x2E
  static let zero: UInt8 = 0x30
  static let nine: UInt8 = 0x39
}

private struct Reader {
  let buffer: UnsafeBufferPointer<UInt8>
  var position = 0
  let maxDepth: Int
  /// The tape, in source order. After an error it holds what was read before the break, with
  /// every open container closed there (see ``JSONParser/parsePrefixRecovering(_:from:maxDepth:)``).
  var entries: [JSONTapeEntry] = []

  init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.buffer = buffer
    self.maxDepth = maxDepth
    // About one value per 9 bytes in crash reports; growing past this is fine.
    entries.reserveCapacity(min(buffer.count / 8 + 16, 1 << 20))
  }

  /// Line and column are filled in once, when the error leaves the parser.
  func location(_ offset: Int) -> SourceLocation {
    SourceLocation(offset: offset, line: 0, column: 0)
  }

  func error(_ reason: JSONError.Reason, at offset: Int) -> JSONError {
    JSONError(reason: reason, location: location(offset))
  }

  func unexpected(_ expected: String) -> JSONError {
    if position >= buffer.count {
      return error(.unexpectedEnd(expected: expected), at: position)
    }
    return error(.unexpectedByte(buffer[position], expected: expected), at: position)
  }

  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  @inline(__always)
  mutating func skipWhitespace() {
    while position < buffer.count && Self.isWhitespace(buffer[position]) { position += 1 }
  }

  /// An array or object being filled, innermost last.
  struct OpenContainer {
    /// Its entry on the tape.
    var entry: Int
    var isObject: Bool
    /// Values (or members) read so far.
    var count = 0
    /// The entry of the key whose value is being read, or -1.
    var pendingKey = -1
  }

  /// Parses one value without recursion: containers live on an explicit stack, so the depth limit,
  /// not the thread's stack size, bounds nesting.
  mutating func parseValue() throws(JSONError) {
    var stack: [OpenContainer] = []
    // Set when an error is about the innermost container itself (a missing ',' say), so its path
    // stops at the container rather than naming the next member.
    var atContainer = false
    do throws(JSONError) {
      while true {
        // Read a value: a scalar, an empty container, or the opening of a non-empty one.
        guard position < buffer.count else { throw unexpected("a value") }
        switch buffer[position] {
        case ASCII.openBrace:
          try enter(stack.count)
          let index = entries.count
          entries.append(JSONTapeEntry(kind: .object, start: position))
          position += 1
          skipWhitespace()
          if position < buffer.count && buffer[position] == ASCII.closeBrace {
            position += 1
            entries[index].payload = UInt64(entries.count)
          } else {
            let key: Int
            do throws(JSONError) {
              key = try parseKey(isFirst: true)
            } catch {
              // Like a value that failed: the object is not part of what was read.
              entries.removeLast(entries.count - index)
              throw error
            }
            stack.append(OpenContainer(entry: index, isObject: true, pendingKey: key))
            continue
          }
        case ASCII.openBracket:
          try enter(stack.count)
          let index = entries.count
          entries.append(JSONTapeEntry(kind: .array, start: position))
          position += 1
          skipWhitespace()
          if position < buffer.count && buffer[position] == ASCII.closeBracket {
            position += 1
            entries[index].payload = UInt64(entries.count)
          } else {
            stack.append(OpenContainer(entry: index, isObject: false))
            continue
          }
        case ASCII.quote: entries.append(try parseString())
        case ASCII.minus, ASCII.zero...ASCII.nine: entries.append(try parseNumber())
        case UInt8(ascii: "t"):
          try expectLiteral("true")
          entries.append(JSONTapeEntry(kind: .true, start: position - 4))
        case UInt8(ascii: "f"):
          try expectLiteral("false")
          entries.append(JSONTapeEntry(kind: .false, start: position - 5))
        case UInt8(ascii: "n"):
          try expectLiteral("null")
          entries.append(JSONTapeEntry(kind: .null, start: position - 4))
        default:
          throw unexpected("a value")
        }

        // A value is complete: count it in its container, closing as many containers as end here.
        while true {
          guard !stack.isEmpty else { return }
          let top = stack.count - 1
          stack[top].count += 1
          stack[top].pendingKey = -1
          skipWhitespace()
          guard position < buffer.count else {
            atContainer = true
            throw unexpected(stack[top].isObject ? "',' or '}' after object member" : "',' or ']' after array element")
          }
          let byte = buffer[position]
          if byte == ASCII.comma {
            position += 1
            if stack[top].isObject {
              stack[top].pendingKey = try parseKey(isFirst: false)
            } else {
              skipWhitespace()
            }
            break
          }
          if byte == (stack[top].isObject ? ASCII.closeBrace : ASCII.closeBracket) {
            position += 1
            let open = stack.removeLast()
            entries[open.entry].end = open.count
            entries[open.entry].payload = UInt64(entries.count)
            continue
          }
          atContainer = true
          throw unexpected(stack[top].isObject ? "',' or '}' after object member" : "',' or ']' after array element")
        }
      }
    } catch {
      var failure = error
      // Innermost first; JSONParser reverses the path once.
      for (level, container) in stack.reversed().enumerated() {
        if level == 0 && atContainer { continue }
        if !container.isObject {
          failure.path.components.append(.index(container.count))
        } else if container.pendingKey >= 0 {
          failure.path.components.append(.key(JSONTapeEntry.decodedString(entries[container.pendingKey], in: buffer)))
        }
      }
      close(stack)
      throw failure
    }
  }

  /// Closes every open container, innermost first, dropping the member or element that was being
  /// read when the input broke.
  mutating func close(_ stack: [OpenContainer]) {
    var inner = false
    for container in stack.reversed() {
      var count = container.count
      if inner {
        count += 1  // the container closed just before this one
      } else if container.pendingKey >= 0 && container.pendingKey == entries.count - 1 {
        entries.removeLast()  // a key whose value failed
      }
      entries[container.entry].end = count
      entries[container.entry].payload = UInt64(entries.count)
      inner = true
    }
  }

  /// Reads `"key" :`, appends the key to the tape, leaves the position at the member's value and
  /// returns the key's entry.
  mutating func parseKey(isFirst: Bool) throws(JSONError) -> Int {
    skipWhitespace()
    guard position < buffer.count, buffer[position] == ASCII.quote else {
      throw unexpected(isFirst ? "a string key or '}'" : "a string key")
    }
    let key = try parseString()
    skipWhitespace()
    guard position < buffer.count, buffer[position] == ASCII.colon else {
      var failure = unexpected("':' after object key")
      failure.path.components.append(.key(JSONTapeEntry.decodedString(key, in: buffer)))
      throw failure
    }
    position += 1
    skipWhitespace()
    entries.append(key)
    return entries.count - 1
  }

  mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
    let start = position
    let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    for byte in bytes {
      guard position < buffer.count else {
        throw error(.unexpectedEnd(expected: "'\(literal)'"), at: position)
      }
      guard buffer[position] == byte else {
        throw error(.unexpectedByte(buffer[position], expected: "'\(literal)'"), at: start)
      }
      position += 1
    }
  }

  func enter(_ depth: Int) throws(JSONError) {
    if depth + 1 > maxDepth { throw error(.tooDeep(limit: maxDepth), at: position) }
  }

  // MARK: Strings

  /// Checks a string starting at its opening quote and returns its entry; the text is decoded
  /// only when someone reads it.
  mutating func parseString() throws(JSONError) -> JSONTapeEntry {
    position += 1  // "
    let start = position
    var flags: UInt8 = 0
    while true {
      // Fast path: printable ASCII without escapes, which is nearly every byte of a crash report,
      // eight bytes at a time while none of them needs a closer look.
      if let base = buffer.baseAddress {
        let raw = UnsafeRawPointer(base)
        while position + 8 <= buffer.count {
          if Self.needsAttention(raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)) { break }
          position += 8
        }
      }
      while position < buffer.count {
        let byte = buffer[position]
        if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 || byte >= 0x80 { break }
        position += 1
      }
      guard position < buffer.count else {
        throw error(.unexpectedEnd(expected: "'\"' to close the string"), at: position)
      }
      let byte = buffer[position]
      switch byte {
      case ASCII.quote:
        let entry = JSONTapeEntry(kind: .string, flags: flags, start: start, end: position)
        position += 1
        return entry
      case ASCII.backslash:
        flags |= JSONTapeEntry.stringHasEscapes
        try checkEscape()
      case 0..<0x20:
        throw error(.controlCharacterInString(byte), at: position)
      default:
        position += try validatedUTF8SequenceLength(at: position)
      }
    }
  }

  /// Whether any of the eight bytes in `word` is a quote, a backslash, a control character or
  /// not ASCII (the classic "has a zero byte" bit trick, applied to `word` XOR each byte sought).
  @inline(__always)
  static func needsAttention(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasZeroByte(_ value: UInt64) -> Bool {
      (value &- ones) & ~value & highBits != 0
    }
    // A byte below 0x20, or at/above 0x80, has its high bit set after subtracting 0x20 or itself.
    let controlOrHigh = ((word &- ones &* 0x20) | word) & highBits
    return controlOrHigh != 0 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
  }

  /// Returns the length of the valid UTF-8 sequence starting at `offset` (RFC 3629: no overlong
  /// forms, no surrogates, nothing above U+10FFFF).
  func validatedUTF8SequenceLength(at offset: Int) throws(JSONError) -> Int {
    let lead = buffer[offset]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default:
      throw error(.invalidUTF8, at: offset)
    }
    guard offset + length <= buffer.count else { throw error(.invalidUTF8, at: offset) }
    let second = buffer[offset + 1]
    guard second >= low && second <= high else { throw error(.invalidUTF8, at: offset) }
    var index = offset + 2
    while index < offset + length {
      let byte = buffer[index]
      guard byte >= 0x80 && byte <= 0xBF else { throw error(.invalidUTF8, at: offset) }
      index += 1
    }
    return length
  }

  /// Checks one escape sequence (the decoding is ``JSONTapeEntry/decodedString(_:in:)``'s).
  mutating func checkEscape() throws(JSONError) {
    let escapeStart = position
    position += 1  // backslash
    guard position < buffer.count else {
      throw error(.unexpectedEnd(expected: "an escape character"), at: position)
    }
    let byte = buffer[position]
    position += 1
    switch byte {
    case ASCII.quote, ASCII.backslash, ASCII.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return
    case UInt8(ascii: "u"):
      let unit = try parseHex4(escapeStart: escapeStart)
      if unit >= 0xD800 && unit <= 0xDBFF {
        // A high surrogate must be followed by an escaped low surrogate.
        guard position + 1 < buffer.count, buffer[position] == ASCII.backslash,
          buffer[position + 1] == UInt8(ascii: "u")
        else { throw error(.loneSurrogate, at: escapeStart) }
        let secondStart = position
        position += 2
        let low = try parseHex4(escapeStart: secondStart)
        guard low >= 0xDC00 && low <= 0xDFFF else { throw error(.loneSurrogate, at: escapeStart) }
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        throw error(.loneSurrogate, at: escapeStart)
      }
    default:
      throw error(.invalidEscape, at: escapeStart)
    }
  }

  mutating func parseHex4(escapeStart: Int) throws(JSONError) -> UInt16 {
    guard position + 4 <= buffer.count else { throw error(.invalidUnicodeEscape, at: escapeStart) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let digit = JSONTapeEntry.hexDigit(buffer[position]) else {
        throw error(.invalidUnicodeEscape, at: escapeStart)
      }
      value = value << 4 | UInt16(digit)
      position += 1
    }
    return value
  }

  // MARK: Numbers

  mutating func parseNumber() throws(JSONError) -> JSONTapeEntry {
    let start = position
    var negative = false
    if buffer[position] == ASCII.minus {
      negative = true
      position += 1
    }
    guard position < buffer.count else {
      throw error(.invalidNumber("expected a digit after '-'"), at: position)
    }
    var magnitude: UInt64 = 0
    var overflow = false
    let first = buffer[position]
    if first == ASCII.zero {
      position += 1
      if position < buffer.count, isDigit(buffer[position]) {
        throw error(.invalidNumber("leading zeros are not allowed"), at: start)
      }
    } else if isDigit(first) {
      while position < buffer.count, isDigit(buffer[position]) {
        let digit = UInt64(buffer[position] &- ASCII.zero)
        if !overflow {
          let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
          let (sum, o2) = times10.addingReportingOverflow(digit)
          if o1 || o2 { overflow = true } else { magnitude = sum }
        }
        position += 1
      }
    } else {
      throw error(.invalidNumber("expected a digit"), at: position)
    }
    var integral = true
    if position < buffer.count, buffer[position] == ASCII.dot {
      integral = false
      position += 1
      guard position < buffer.count, isDigit(buffer[position]) else {
        throw error(.invalidNumber("expected a digit after '.'"), at: position)
      }
      while position < buffer.count, isDigit(buffer[position]) { position += 1 }
    }
    if position < buffer.count, buffer[position] | 0x20 == UInt8(ascii: "e") {
      integral = false
      position += 1
      if position < buffer.count, buffer[position] == ASCII.plus || buffer[position] == ASCII.minus {
        position += 1
      }
      guard position < buffer.count, isDigit(buffer[position]) else {
        throw error(.invalidNumber("expected a digit in the exponent"), at: position)
      }
      while position < buffer.count, isDigit(buffer[position]) { position += 1 }
    }
    var entry = JSONTapeEntry(kind: .number, flags: JSONTapeEntry.numberOther, start: start, end: position)
    if integral && !overflow {
      if !negative {
        entry.flags = JSONTapeEntry.numberUnsigned
        entry.payload = magnitude
      } else if magnitude <= UInt64(Int64.max) + 1 {
        entry.flags = JSONTapeEntry.numberNegative
        entry.payload = UInt64(bitPattern: magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
      }
    }
    return entry
  }

  @inline(__always)
  func isDigit(_ byte: UInt8) -> Bool { byte >= ASCII.zero && byte <= ASCII.nine }
}
