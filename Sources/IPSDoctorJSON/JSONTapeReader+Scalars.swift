import IPSDoctorSupport

/// Strings and numbers: checked in place, their entries placed on the tape, their text decoded
/// only when read.
extension JSONTapeReader {
  // MARK: Strings

  /// Checks a string starting at its opening quote and places its entry (see ``place(_:)``); the
  /// text is decoded only when someone reads it.
  @inline(__always)
  mutating func placeString() throws(JSONError) {
    position &+= 1  // "
    let start = position
    // Fast path: printable ASCII without escapes, which is nearly every byte of a crash report,
    // eight bytes at a time up to the first byte that needs a closer look. The loop tests one
    // precomputed offset: with `position + 8 <= count` the optimizer kept several induction
    // variables here and reloaded the search constants on every word.
    let lastWord = count &- 8
    while position <= lastWord {
      let special = JSONWordBytes.special(word(at: position))
      if special != 0 {
        position &+= special.trailingZeroBitCount &>> 3
        if bytes[position] == ASCII.quote {
          place(JSONTapeEntry(kind: .string, start: start, end: position))
          position &+= 1
          return
        }
        break
      }
      position &+= 8
    }
    place(try onCopy { (copy: inout JSONTapeReader) throws(JSONError) in try copy.parseStringSlowly(from: start) })
  }

  /// The rest of a string with escapes or non-ASCII text, or near the end of the input.
  @inline(never)
  mutating func parseStringSlowly(from start: Int) throws(JSONError) -> JSONTapeEntry {
    var flags: UInt8 = 0
    while true {
      // Straight to the next byte that needs a look (paths have an escaped '/' every few bytes).
      while position <= count &- 8 {
        let special = JSONWordBytes.special(word(at: position))
        if special != 0 {
          position &+= special.trailingZeroBitCount &>> 3
          break
        }
        position &+= 8
      }
      while position < count {
        let byte = bytes[position]
        if byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 || byte >= 0x80 { break }
        position += 1
      }
      guard position < count else {
        throw Self.error(.unexpectedEnd(expected: "'\"' to close the string"), at: position)
      }
      let byte = bytes[position]
      switch byte {
      case ASCII.quote:
        let entry = JSONTapeEntry(kind: .string, flags: flags, start: start, end: position)
        position += 1
        return entry
      case ASCII.backslash:
        flags |= JSONTapeEntry.stringHasEscapes
        // The one-character escapes here, `\u` and errors in `checkEscape`.
        if position &+ 1 < count && Self.isSingleEscape(bytes[position &+ 1]) {
          position &+= 2
        } else {
          try checkEscape()
        }
      case 0..<0x20:
        throw Self.error(.controlCharacterInString(byte), at: position)
      default:
        position += try validatedUTF8SequenceLength(at: position)
      }
    }
  }

  /// The high bit of each of the eight bytes in `word` that is a quote, a backslash, a control
  /// character or not ASCII; only the lowest set bit is exact, as borrows can mark bytes above it.
  ///
  /// Returns the length of the valid UTF-8 sequence starting at `offset` (RFC 3629: no overlong
  /// forms, no surrogates, nothing above U+10FFFF).
  func validatedUTF8SequenceLength(at offset: Int) throws(JSONError) -> Int {
    let lead = bytes[offset]
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
      throw Self.error(.invalidUTF8, at: offset)
    }
    guard offset + length <= count else { throw Self.error(.invalidUTF8, at: offset) }
    let second = bytes[offset + 1]
    guard second >= low && second <= high else { throw Self.error(.invalidUTF8, at: offset) }
    var index = offset + 2
    while index < offset + length {
      let byte = bytes[index]
      guard byte >= 0x80 && byte <= 0xBF else { throw Self.error(.invalidUTF8, at: offset) }
      index += 1
    }
    return length
  }

  /// Whether `\` and `byte` make a complete escape: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`
  /// or `\t`.
  @inline(__always)
  static func isSingleEscape(_ byte: UInt8) -> Bool {
    switch byte {
    case ASCII.quote, ASCII.backslash, ASCII.slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
      UInt8(ascii: "r"), UInt8(ascii: "t"):
      true
    default: false
    }
  }

  /// Checks one escape sequence (the decoding is ``JSONTapeEntry/decodedString(_:in:)``'s).
  mutating func checkEscape() throws(JSONError) {
    let escapeStart = position
    position += 1  // backslash
    guard position < count else {
      throw Self.error(.unexpectedEnd(expected: "an escape character"), at: position)
    }
    let byte = bytes[position]
    position += 1
    switch byte {
    case ASCII.quote, ASCII.backslash, ASCII.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return
    case UInt8(ascii: "u"):
      let unit = try parseHex4(escapeStart: escapeStart)
      if unit >= 0xD800 && unit <= 0xDBFF {
        // A high surrogate must be followed by an escaped low surrogate.
        guard position + 1 < count, bytes[position] == ASCII.backslash,
          bytes[position + 1] == UInt8(ascii: "u")
        else { throw Self.error(.loneSurrogate, at: escapeStart) }
        let secondStart = position
        position += 2
        let low = try parseHex4(escapeStart: secondStart)
        guard low >= 0xDC00 && low <= 0xDFFF else { throw Self.error(.loneSurrogate, at: escapeStart) }
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        throw Self.error(.loneSurrogate, at: escapeStart)
      }
    default:
      throw Self.error(.invalidEscape, at: escapeStart)
    }
  }

  mutating func parseHex4(escapeStart: Int) throws(JSONError) -> UInt16 {
    guard position + 4 <= count else { throw Self.error(.invalidUnicodeEscape, at: escapeStart) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let digit = JSONTapeEntry.hexDigit(bytes[position]) else {
        throw Self.error(.invalidUnicodeEscape, at: escapeStart)
      }
      value = value << 4 | UInt16(digit)
      position += 1
    }
    return value
  }

  // MARK: Numbers

  /// Reads the number at the position and places its entry. Fast path: a non-negative integer of
  /// at most 19 digits with no fraction or exponent, which cannot overflow 64 bits; anything else,
  /// errors included, is left to the general code.
  @inline(__always)
  mutating func placeNumber() throws(JSONError) {
    let start = position
    let first = bytes[start] &- ASCII.zero
    if first <= 9 {
      var magnitude = UInt64(first)
      var end = start &+ 1
      if first != 0 {
        let limit = min(count, start &+ 19)
        while end < limit {
          let digit = bytes[end] &- ASCII.zero
          if digit > 9 { break }
          magnitude = magnitude &* 10 &+ UInt64(digit)
          end &+= 1
        }
      }
      // A digit here is a twentieth one or follows a leading zero.
      if end == count || !Self.continuesNumber(bytes[end]) {
        position = end
        place(JSONTapeEntry(exactNumber: magnitude, flags: JSONTapeEntry.numberUnsigned, start: start, end: end))
        return
      }
    }
    place(try onCopy { (copy: inout JSONTapeReader) throws(JSONError) in try copy.parseNumberSlowly() })
  }

  @inline(__always)
  static func continuesNumber(_ byte: UInt8) -> Bool {
    byte &- ASCII.zero <= 9 || byte == ASCII.dot || byte | 0x20 == UInt8(ascii: "e")
  }

  @inline(never)
  mutating func parseNumberSlowly() throws(JSONError) -> JSONTapeEntry {
    let start = position
    var negative = false
    if bytes[position] == ASCII.minus {
      negative = true
      position += 1
    }
    guard position < count else {
      throw Self.error(.invalidNumber("expected a digit after '-'"), at: position)
    }
    var magnitude: UInt64 = 0
    var overflow = false
    let first = bytes[position]
    if first == ASCII.zero {
      position += 1
      if position < count, isDigit(bytes[position]) {
        throw Self.error(.invalidNumber("leading zeros are not allowed"), at: start)
      }
    } else if isDigit(first) {
      while position < count, isDigit(bytes[position]) {
        let digit = UInt64(bytes[position] &- ASCII.zero)
        if !overflow {
          let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
          let (sum, o2) = times10.addingReportingOverflow(digit)
          if o1 || o2 { overflow = true } else { magnitude = sum }
        }
        position += 1
      }
    } else {
      throw Self.error(.invalidNumber("expected a digit"), at: position)
    }
    var integral = true
    if position < count, bytes[position] == ASCII.dot {
      integral = false
      position += 1
      guard position < count, isDigit(bytes[position]) else {
        throw Self.error(.invalidNumber("expected a digit after '.'"), at: position)
      }
      while position < count, isDigit(bytes[position]) { position += 1 }
    }
    if position < count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      integral = false
      position += 1
      if position < count, bytes[position] == ASCII.plus || bytes[position] == ASCII.minus {
        position += 1
      }
      guard position < count, isDigit(bytes[position]) else {
        throw Self.error(.invalidNumber("expected a digit in the exponent"), at: position)
      }
      while position < count, isDigit(bytes[position]) { position += 1 }
    }
    if integral && !overflow {
      if !negative {
        return JSONTapeEntry(exactNumber: magnitude, flags: JSONTapeEntry.numberUnsigned, start: start, end: position)
      } else if magnitude <= UInt64(Int64.max) + 1 {
        let value = UInt64(bitPattern: magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
        return JSONTapeEntry(exactNumber: value, flags: JSONTapeEntry.numberNegative, start: start, end: position)
      }
    }
    return JSONTapeEntry(kind: .number, flags: JSONTapeEntry.numberOther, start: start, end: position)
  }

  @inline(__always)
  func isDigit(_ byte: UInt8) -> Bool { byte >= ASCII.zero && byte <= ASCII.nine }
}
