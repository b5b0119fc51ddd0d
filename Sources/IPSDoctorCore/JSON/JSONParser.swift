/// A strict RFC 8259 JSON parser over raw bytes, with no Foundation in the parsing path.
///
/// - Strings are validated as UTF-8 (invalid bytes are an error, never repaired) and every escape,
///   including UTF-16 surrogate pairs, is decoded.
/// - Integers keep their exact 64-bit value (see ``JSONNumber``).
/// - Nesting is capped (512 levels by default) so hostile input fails cleanly instead of exhausting
///   the stack.
/// - Errors carry the byte offset, line, column and the JSON path of the value being parsed.
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
    let (value, end) = try parsePrefix(buffer, from: 0, maxDepth: maxDepth)
    var trailing = end
    while trailing < buffer.count, Reader.isWhitespace(buffer[trailing]) { trailing += 1 }
    if trailing < buffer.count {
      throw JSONError(
        reason: .trailingContent, location: SourceLocation(offset: trailing, in: buffer))
    }
    return value
  }

  /// Parses one JSON value that starts at `start` (after optional whitespace) and returns it with the
  /// offset just past its last byte. Whatever follows the value is left alone.
  public static func parsePrefix(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth
  ) throws(JSONError) -> (value: JSONValue, end: Int) {
    let (value, end, error) = parsePrefixRecovering(buffer, from: start, maxDepth: maxDepth)
    if let error { throw error }
    // Without an error there is always a value.
    guard let value else { throw JSONError(reason: .empty, location: SourceLocation(offset: end, in: buffer)) }
    return (value, end)
  }

  /// Like ``parsePrefix(_:from:maxDepth:)``, but when the input breaks inside an array or object
  /// it also returns what was read before the break: every open container closed at that point,
  /// without the value that failed. For salvaging truncated or hand-edited reports; the error is
  /// always returned with it.
  public static func parsePrefixRecovering(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, maxDepth: Int = defaultMaxDepth
  ) -> (value: JSONValue?, end: Int, error: JSONError?) {
    var reader = Reader(buffer: buffer, position: start, maxDepth: maxDepth)
    do throws(JSONError) {
      reader.skipWhitespace()
      guard reader.position < buffer.count else {
        throw JSONError(reason: .empty, location: reader.location(reader.position))
      }
      let value = try reader.parseValue()
      return (value, reader.position, nil)
    } catch {
      return (reader.recovered, reader.position, finished(error, in: buffer))
    }
  }

  /// Paths are collected innermost-first while the error unwinds; put them in reading order and
  /// compute line and column once.
  private static func finished(_ error: JSONError, in buffer: UnsafeBufferPointer<UInt8>)
    -> JSONError
  {
    var error = error
    error.path.components.reverse()
    error.location = SourceLocation(offset: error.location.offset, in: buffer)
    return error
  }
}

// MARK: - Reader

private enum ASCII {
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
  var position: Int
  let maxDepth: Int
  /// After an error: the containers that were open, closed where the input broke, without the
  /// value that failed. See ``JSONParser/parsePrefixRecovering(_:from:maxDepth:)``.
  var recovered: JSONValue?

  init(buffer: UnsafeBufferPointer<UInt8>, position: Int, maxDepth: Int) {
    self.buffer = buffer
    self.position = position
    self.maxDepth = maxDepth
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
  enum OpenContainer {
    case array([JSONValue])
    case object([JSONObject.Member], key: String)
  }

  /// Parses one value without recursion: containers live on an explicit stack, so the depth limit,
  /// not the thread's stack size, bounds nesting.
  mutating func parseValue() throws(JSONError) -> JSONValue {
    var stack: [OpenContainer] = []
    // Set when an error is about the innermost container itself (a missing ',' say), so its path
    // stops at the container rather than naming the next member.
    var atContainer = false
    do throws(JSONError) {
      while true {
        // Read a value: a scalar, an empty container, or the opening of a non-empty one.
        var value: JSONValue
        guard position < buffer.count else { throw unexpected("a value") }
        switch buffer[position] {
        case ASCII.openBrace:
          try enter(stack.count)
          position += 1
          skipWhitespace()
          if position < buffer.count && buffer[position] == ASCII.closeBrace {
            position += 1
            value = .object(JSONObject())
          } else {
            let key = try parseKey(isFirst: true)
            stack.append(.object([], key: key))
            skipWhitespace()
            continue
          }
        case ASCII.openBracket:
          try enter(stack.count)
          position += 1
          skipWhitespace()
          if position < buffer.count && buffer[position] == ASCII.closeBracket {
            position += 1
            value = .array([])
          } else {
            stack.append(.array([]))
            continue
          }
        case ASCII.quote: value = .string(try parseString())
        case ASCII.minus, ASCII.zero...ASCII.nine: value = .number(try parseNumber())
        case UInt8(ascii: "t"):
          try expectLiteral("true")
          value = .bool(true)
        case UInt8(ascii: "f"):
          try expectLiteral("false")
          value = .bool(false)
        case UInt8(ascii: "n"):
          try expectLiteral("null")
          value = .null
        default:
          throw unexpected("a value")
        }

        // Attach the value to the open containers, closing as many as end here.
        while true {
          guard !stack.isEmpty else { return value }
          skipWhitespace()
          // Switch on the popped container itself (not a copy kept in a local), so the element
          // arrays below stay uniquely referenced and `append` does not copy them.
          switch stack.removeLast() {
          case .array(var elements):
            elements.append(value)
            guard position < buffer.count else {
              stack.append(.array(elements))
              atContainer = true
              throw unexpected("',' or ']' after array element")
            }
            if buffer[position] == ASCII.comma {
              position += 1
              skipWhitespace()
              stack.append(.array(elements))
            } else if buffer[position] == ASCII.closeBracket {
              position += 1
              value = .array(elements)
              continue
            } else {
              stack.append(.array(elements))
              atContainer = true
              throw unexpected("',' or ']' after array element")
            }
          case .object(var members, let key):
            members.append(JSONObject.Member(key: key, value: value))
            guard position < buffer.count else {
              stack.append(.object(members, key: key))
              atContainer = true
              throw unexpected("',' or '}' after object member")
            }
            if buffer[position] == ASCII.comma {
              position += 1
              stack.append(.object(members, key: ""))
              members = []  // the stack holds the only reference now
              let next = try parseKey(isFirst: false)
              if case .object(let filled, _) = stack.removeLast() {
                stack.append(.object(filled, key: next))
              }
              skipWhitespace()
            } else if buffer[position] == ASCII.closeBrace {
              position += 1
              value = .object(JSONObject(members))
              continue
            } else {
              // The error is about the object itself, not the member just read.
              stack.append(.object(members, key: ""))
              atContainer = true
              throw unexpected("',' or '}' after object member")
            }
          }
          break
        }
      }
    } catch {
      recovered = Self.close(stack)
      var failure = error
      // Innermost first; JSONParser reverses the path once.
      for (level, container) in stack.reversed().enumerated() {
        if level == 0 && atContainer { continue }
        switch container {
        case .array(let elements): failure.path.components.append(.index(elements.count))
        case .object(_, let key):
          if !key.isEmpty { failure.path.components.append(.key(key)) }
        }
      }
      throw failure
    }
  }

  /// Closes every open container, innermost first, dropping the member or element that was being
  /// read when the input broke.
  static func close(_ stack: [OpenContainer]) -> JSONValue? {
    var value: JSONValue?
    for container in stack.reversed() {
      switch container {
      case .array(var elements):
        if let value { elements.append(value) }
        value = .array(elements)
      case .object(var members, let key):
        if let value, !key.isEmpty { members.append(JSONObject.Member(key: key, value: value)) }
        value = .object(JSONObject(members))
      }
    }
    return value
  }

  /// Reads `"key" :` and leaves the position at the member's value.
  mutating func parseKey(isFirst: Bool) throws(JSONError) -> String {
    skipWhitespace()
    guard position < buffer.count, buffer[position] == ASCII.quote else {
      throw unexpected(isFirst ? "a string key or '}'" : "a string key")
    }
    let key = try parseString()
    skipWhitespace()
    guard position < buffer.count, buffer[position] == ASCII.colon else {
      var failure = unexpected("':' after object key")
      failure.path.components.append(.key(key))
      throw failure
    }
    position += 1
    skipWhitespace()
    return key
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

  /// Parses a string starting at its opening quote.
  mutating func parseString() throws(JSONError) -> String {
    position += 1  // "
    let start = position
    // Fast path: printable ASCII without escapes, which is nearly every string in a crash report.
    while position < buffer.count {
      let byte = buffer[position]
      if byte == ASCII.quote {
        let text = String(
          decoding: UnsafeBufferPointer(rebasing: buffer[start..<position]), as: UTF8.self)
        position += 1
        return text
      }
      if byte == ASCII.backslash || byte < 0x20 || byte >= 0x80 { break }
      position += 1
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(position - start + 16)
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<position]))
    while true {
      guard position < buffer.count else {
        throw error(.unexpectedEnd(expected: "'\"' to close the string"), at: position)
      }
      let byte = buffer[position]
      switch byte {
      case ASCII.quote:
        position += 1
        return String(decoding: bytes, as: UTF8.self)
      case ASCII.backslash:
        try parseEscape(into: &bytes)
      case 0..<0x20:
        throw error(.controlCharacterInString(byte), at: position)
      case 0x20..<0x80:
        bytes.append(byte)
        position += 1
      default:
        let length = try validatedUTF8SequenceLength(at: position)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<position + length]))
        position += length
      }
    }
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

  mutating func parseEscape(into bytes: inout [UInt8]) throws(JSONError) {
    let escapeStart = position
    position += 1  // backslash
    guard position < buffer.count else {
      throw error(.unexpectedEnd(expected: "an escape character"), at: position)
    }
    let byte = buffer[position]
    position += 1
    switch byte {
    case ASCII.quote: bytes.append(ASCII.quote)
    case ASCII.backslash: bytes.append(ASCII.backslash)
    case ASCII.slash: bytes.append(ASCII.slash)
    case UInt8(ascii: "b"): bytes.append(0x08)
    case UInt8(ascii: "f"): bytes.append(0x0C)
    case UInt8(ascii: "n"): bytes.append(0x0A)
    case UInt8(ascii: "r"): bytes.append(0x0D)
    case UInt8(ascii: "t"): bytes.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHex4(escapeStart: escapeStart)
      var scalarValue = UInt32(unit)
      if unit >= 0xD800 && unit <= 0xDBFF {
        // A high surrogate must be followed by an escaped low surrogate.
        guard position + 1 < buffer.count, buffer[position] == ASCII.backslash,
          buffer[position + 1] == UInt8(ascii: "u")
        else { throw error(.loneSurrogate, at: escapeStart) }
        let secondStart = position
        position += 2
        let low = try parseHex4(escapeStart: secondStart)
        guard low >= 0xDC00 && low <= 0xDFFF else { throw error(.loneSurrogate, at: escapeStart) }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        throw error(.loneSurrogate, at: escapeStart)
      }
      guard let scalar = Unicode.Scalar(scalarValue) else {
        throw error(.loneSurrogate, at: escapeStart)
      }
      bytes.append(contentsOf: UTF8.encode(scalar)!)
    default:
      throw error(.invalidEscape, at: escapeStart)
    }
  }

  mutating func parseHex4(escapeStart: Int) throws(JSONError) -> UInt16 {
    guard position + 4 <= buffer.count else { throw error(.invalidUnicodeEscape, at: escapeStart) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = buffer[position]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw error(.invalidUnicodeEscape, at: escapeStart)
      }
      value = value << 4 | UInt16(digit)
      position += 1
    }
    return value
  }

  // MARK: Numbers

  mutating func parseNumber() throws(JSONError) -> JSONNumber {
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
        let digit = UInt64(buffer[position] - ASCII.zero)
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
    if integral && !overflow {
      if !negative { return .unsigned(magnitude) }
      if magnitude <= UInt64(Int64.max) { return .negative(-Int64(magnitude)) }
      if magnitude == UInt64(Int64.max) + 1 { return .negative(.min) }
    }
    return .other(
      String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<position]), as: UTF8.self))
  }

  @inline(__always)
  func isDigit(_ byte: UInt8) -> Bool { byte >= ASCII.zero && byte <= ASCII.nine }
}
