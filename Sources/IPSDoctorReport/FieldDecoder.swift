import IPSDoctorJSON
import IPSDoctorSupport

/// Reads typed fields out of a parsed JSON document leniently: a missing field is simply absent, a
/// field of the wrong type becomes a ``ReportWarning`` naming its JSON path, and integers written as
/// numeric strings ("812", "0x1f") are accepted.
///
/// Paths are autoclosures: they are built only when a warning names them, not for every field read
/// (building them eagerly was a fifth of the read time).
struct FieldDecoder {
  var warnings: [ReportWarning] = []
  /// Where the texts that reports share (symbols, image paths and names, queue labels) are looked
  /// up by ``sharedString(_:at:)``; without one they are decoded like any other string. The
  /// table's handle, not the table: a decoder lives only within the read that was given the table.
  let texts: SharedTexts.Handle?
  /// Whether the body lost list entries to its budget (`BodyBudget`): an index past a cut list
  /// is then expected, and the cut's own warning says why.
  var bodyWasCut: Bool { cutBody != nil }
  /// The body, when it lost list entries to its budget (for ``CrashReport/rereadCrashedThread``).
  var cutBody: JSONDocument?
  /// The crashed thread's tape indices when it was read again alone (see
  /// `CrashReport.rereadCrashedThread`), where the body's cuts were undone, and what it did not
  /// keep alone.
  var reread: (thread: Range<Int>, warnings: [ReportWarning])?

  init(texts: SharedTexts? = nil) {
    self.texts = texts?.handle
  }

  mutating func warn(_ path: JSONPath, _ message: String) {
    warnings.append(ReportWarning(location: path.description, message: message))
  }

  mutating func wrongType(_ value: JSONNode, at path: JSONPath, expected: String) {
    warn(path, "expected \(expected), found \(value.typeName); ignored")
  }

  mutating func string(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> String? {
    guard let value = object[key] else { return nil }
    return string(value, at: path().appending(key.description))
  }

  /// Strings, most fields of a report, are read inline; the rest below.
  @inline(__always)
  mutating func string(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> String? {
    if value.kind == .string { return Self.text(value) }
    return nonString(value, at: path())
  }

  /// ``string(_:at:)`` for a text that many reports have (a frame's symbol, an image's path): from
  /// ``texts`` when it holds the same text.
  @inline(__always)
  mutating func sharedString(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> String? {
    if value.kind == .string {
      guard let texts else { return Self.text(value) }
      return texts.text(value, decode: Self.text)
    }
    return nonString(value, at: path())
  }

  /// ``sharedString(_:at:)`` for a node the caller has found to be a string, so that no path is
  /// passed: the path's closure made the compiler call a copy of ``sharedString(_:at:)`` for each
  /// caller rather than inline it.
  @inline(__always)
  func sharedText(_ string: JSONNode) -> String {
    guard let texts else { return Self.text(string) }
    return texts.text(string, decode: Self.text)
  }

  /// ``sharedText(_:)`` of `node` when it is a string, else `nil` (as ``JSONNode/string``).
  @inline(__always)
  func sharedText(ifString node: JSONNode) -> String? {
    node.kind == .string ? sharedText(node) : nil
  }

  private mutating func nonString(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> String? {
    switch value.kind {
    case .string: return Self.text(value)
    case .number: return value.number?.description
    case .null: return nil
    default:
      wrongType(value, at: path(), expected: "a string")
      return nil
    }
  }

  mutating func uint64(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> UInt64? {
    guard let value = object[key] else { return nil }
    return uint64(value, at: path().appending(key.description))
  }

  /// Non-negative integers, most numbers in a report, are read in place; the rest below.
  @inline(__always)
  mutating func uint64(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> UInt64? {
    let entry = value.entry
    if entry.kind == .number && entry.flags == JSONTapeEntry.numberUnsigned { return entry.word }
    return anyUInt64(value, at: path())
  }

  private mutating func anyUInt64(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> UInt64? {
    switch value.kind {
    case .number:
      let number = value.number!
      if let exact = number.uint64 { return exact }
      if let negative = number.int64 {
        // Apple writes some 64-bit values (e.g. esr, flags) as signed; keep the bit pattern.
        return UInt64(bitPattern: negative)
      }
      warn(path(), "number \(number) is not a 64-bit integer; ignored")
      return nil
    case .string:
      let text = Self.text(value)
      if let parsed = String.parseUInt64(text) { return parsed }
      warn(path(), "expected an integer, found string \"\(TerminalText.escaped(String(text.prefix(40))))\"; ignored")
      return nil
    case .null:
      return nil
    default:
      wrongType(value, at: path(), expected: "an integer")
      return nil
    }
  }

  mutating func int(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> Int? {
    guard let value = object[key] else { return nil }
    return int(value, at: path().appending(key.description))
  }

  /// Non-negative integers in range are read in place; the rest below.
  @inline(__always)
  mutating func int(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> Int? {
    let entry = value.entry
    if entry.kind == .number && entry.flags == JSONTapeEntry.numberUnsigned && entry.word <= UInt64(Int.max) {
      return Int(entry.word)
    }
    return anyInt(value, at: path())
  }

  private mutating func anyInt(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> Int? {
    switch value.kind {
    case .number:
      let number = value.number!
      if let exact = number.int { return exact }
      warn(path(), "number \(number) is not an integer in range; ignored")
      return nil
    case .string:
      let text = Self.text(value)
      let trimmed = text.trimmingWhitespace()
      if let parsed = Int(trimmed) { return parsed }
      if let parsed = String.parseUInt64(trimmed), let exact = Int(exactly: parsed) { return exact }
      warn(path(), "expected an integer, found string \"\(TerminalText.escaped(String(text.prefix(40))))\"; ignored")
      return nil
    case .null:
      return nil
    default:
      wrongType(value, at: path(), expected: "an integer")
      return nil
    }
  }

  mutating func bool(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> Bool? {
    switch value.kind {
    case .true: return true
    case .false: return false
    case .number:
      let number = value.number!
      if number.uint64 == 0 { return false }
      if number.uint64 == 1 { return true }
      warn(path(), "expected a boolean, found number \(number); ignored")
      return nil
    case .string:
      switch value.string!.lowercased() {
      case "true", "1", "yes": return true
      case "false", "0", "no": return false
      default:
        wrongType(value, at: path(), expected: "a boolean")
        return nil
      }
    case .null: return nil
    default:
      wrongType(value, at: path(), expected: "a boolean")
      return nil
    }
  }

  // The variants below take a member already found by a one-pass walk over an object's members
  // (see `CrashReport.apply(crashBody:decoder:)`): `key` only names it in a warning's path.

  mutating func string(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> String?
  {
    guard let value else { return nil }
    return string(value, at: path().appending(key.description))
  }

  /// ``sharedString(_:at:)`` for a member already found.
  mutating func sharedString(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> String?
  {
    guard let value else { return nil }
    return sharedString(value, at: path().appending(key.description))
  }

  /// ``string(_:named:in:)`` kept as an ``ImageUUID``: the usual dashed form read from the tape's
  /// bytes (no `String` made), anything else as its text. `nil` exactly when ``string(_:named:in:)``
  /// is, with the same warnings.
  mutating func uuid(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> ImageUUID?
  {
    guard let value else { return nil }
    if let bytes = value.unescapedStringBytes, let canonical = ImageUUID(canonical: bytes) { return canonical }
    return string(value, at: path().appending(key.description)).map { ImageUUID($0) }
  }

  /// ``string(_:named:in:)`` kept as an ``InlineText``: a short ASCII string without escapes is
  /// read from the tape's bytes (no `String` made), anything else as its text. `nil` exactly when
  /// ``string(_:named:in:)`` is, with the same warnings.
  mutating func inlineText(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> InlineText?
  {
    guard let value else { return nil }
    if let bytes = value.unescapedStringBytes, let kept = InlineText(ascii: bytes) { return kept }
    return string(value, at: path().appending(key.description)).map { InlineText($0) }
  }

  /// ``string(_:named:in:)`` answering `existing` when the member is the same text (see
  /// ``text(_:reusing:)``).
  mutating func string(
    _ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath, reusing existing: String?
  ) -> String? {
    guard let value else { return nil }
    if value.kind == .string { return Self.text(value, reusing: existing) }
    return string(value, at: path().appending(key.description))
  }

  mutating func uint64(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> UInt64?
  {
    guard let value else { return nil }
    return uint64(value, at: path().appending(key.description))
  }

  mutating func int(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath) -> Int? {
    guard let value else { return nil }
    return int(value, at: path().appending(key.description))
  }

  mutating func bool(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath) -> Bool? {
    guard let value else { return nil }
    return bool(value, at: path().appending(key.description))
  }

  mutating func object(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> JSONNode?
  {
    container(value, key, .object, at: path(), expected: "an object")
  }

  mutating func array(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> JSONNode?
  {
    container(value, key, .array, at: path(), expected: "an array")
  }

  /// The text of a string node. JSON writers escape every "/" in a path as "\/", and Apple's do:
  /// such text is unescaped into the string's own storage in one pass, not through
  /// ``JSONTapeEntry/decodedString(_:in:)``'s byte-by-byte array, which is kept for `\u` escapes.
  static func text(_ node: JSONNode) -> String {
    let entry = node.entry
    let raw = UnsafeBufferPointer(rebasing: node.view.bytes[entry.start..<entry.stringEnd])
    guard entry.flags & JSONTapeEntry.stringHasEscapes != 0 else { return JSONTapeEntry.text(validUTF8: raw) }
    var sawUnicodeEscape = false
    let text = String(unsafeUninitializedCapacity: raw.count) { output in
      var written = 0
      var index = 0
      let input = UnsafeRawPointer(raw.baseAddress!)
      let destination = UnsafeMutableRawPointer(output.baseAddress!)
      while index < raw.count {
        // Eight bytes at a time while none is a backslash (`written` never passes `index`, so the
        // store stays inside the capacity).
        while index + 8 <= raw.count {
          let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          let backslashes = UInt64(littleEndian: word) ^ 0x5C5C_5C5C_5C5C_5C5C
          let found = (backslashes &- 0x0101_0101_0101_0101) & ~backslashes & 0x8080_8080_8080_8080
          destination.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
          guard found == 0 else {
            // The lowest flagged byte is the first backslash (only bytes above a match can be
            // flagged falsely): keep the bytes before it, already stored, and unescape it below.
            let before = found.trailingZeroBitCount &>> 3
            index += before
            written += before
            // "\/", every slash of a path: the slash, then on with the words.
            if index + 1 < raw.count && raw[index + 1] == UInt8(ascii: "/") {
              output[written] = UInt8(ascii: "/")
              index += 2
              written += 1
              continue
            }
            break
          }
          index += 8
          written += 8
        }
        guard index < raw.count else { break }
        var byte = raw[index]
        index += 1
        if byte == ASCII.backslash && index < raw.count {
          guard let decoded = Self.singleEscape(raw[index]) else {
            sawUnicodeEscape = true
            return 0
          }
          byte = decoded
          index += 1
        }
        output[written] = byte
        written += 1
      }
      return written
    }
    return sawUnicodeEscape ? JSONTapeEntry.decodedString(entry, in: node.view.bytes) : text
  }

  /// The text of `node` (a string), or `existing` when that is the same text. A crash body repeats
  /// a few header fields (incident id, bundle id) and names its process path again as an image's
  /// path: those are answered with the string already made. Only strings too long to be stored inline (more than 15 UTF-8 bytes) are compared.
  @inline(__always)
  static func text(_ node: JSONNode, reusing existing: String?) -> String {
    if let existing, existing.utf8.count > 15, textEquals(node, existing) { return existing }
    return text(node)
  }

  /// The byte that the escape `\` + `letter` stands for, `nil` for `\u` (whose code point takes
  /// decoding). The tape has validated every escape, so any other letter is `"`, `\` or `/`.
  @inline(__always)
  static func singleEscape(_ letter: UInt8) -> UInt8? {
    switch letter {
    case UInt8(ascii: "b"): return 0x08
    case UInt8(ascii: "f"): return 0x0C
    case UInt8(ascii: "n"): return 0x0A
    case UInt8(ascii: "r"): return 0x0D
    case UInt8(ascii: "t"): return 0x09
    case UInt8(ascii: "u"): return nil
    default: return letter  // \" \\ \/
    }
  }

  /// Whether the string node `node` decodes to `text`, compared on the bytes: eight at a time up
  /// to each escape, an escape by its one decoded byte. `\u` escapes (and text without contiguous
  /// UTF-8) answer `false`, so the caller decodes the node as usual.
  static func textEquals(_ node: JSONNode, _ text: String) -> Bool {
    let entry = node.entry
    guard entry.kind == .string else { return false }
    let raw = UnsafeBufferPointer(rebasing: node.view.bytes[entry.start..<entry.stringEnd])
    let answer = text.utf8.withContiguousStorageIfAvailable { text -> Bool in
      // Unescaping only shortens text.
      guard raw.count >= text.count else { return false }
      guard let input = raw.baseAddress, let other = text.baseAddress else { return raw.count == text.count }
      if entry.flags & JSONTapeEntry.stringHasEscapes == 0 {
        return raw.count == text.count && memcmp(input, other, raw.count) == 0
      }
      var index = 0
      var matched = 0
      while index < raw.count {
        // Eight bytes at a time up to the first byte that differs or is a backslash (an escape
        // must be decoded: its bytes may not be matched as they are).
        while index + 8 <= raw.count && matched + 8 <= text.count {
          let word = UInt64(littleEndian: UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self))
          let difference = word ^ UInt64(littleEndian: UnsafeRawPointer(other + matched).loadUnaligned(as: UInt64.self))
          let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
          let found = (backslashes &- 0x0101_0101_0101_0101) & ~backslashes & 0x8080_8080_8080_8080
          if difference | found != 0 {
            // The lowest flagged byte of `found` is the first backslash (only bytes above a match
            // can be flagged falsely).
            let same = min(difference.trailingZeroBitCount, found.trailingZeroBitCount) &>> 3
            index += same
            matched += same
            break
          }
          index += 8
          matched += 8
        }
        guard index < raw.count else { break }
        var byte = raw[index]
        index += 1
        if byte == ASCII.backslash {
          guard index < raw.count, let decoded = Self.singleEscape(raw[index]) else { return false }
          byte = decoded
          index += 1
        }
        guard matched < text.count, text[matched] == byte else { return false }
        matched += 1
      }
      return matched == text.count
    }
    return answer ?? false
  }

  /// The member `key` when it is an object.
  mutating func object(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> JSONNode? {
    container(object, key, .object, at: path(), expected: "an object")
  }

  /// The member `key` when it is an array.
  mutating func array(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> JSONNode? {
    container(object, key, .array, at: path(), expected: "an array")
  }

  private mutating func container(
    _ object: JSONNode, _ key: StaticString, _ kind: JSONTapeEntry.Kind, at path: @autoclosure () -> JSONPath,
    expected: String
  ) -> JSONNode? {
    container(object[key], key, kind, at: path(), expected: expected)
  }

  private mutating func container(
    _ value: JSONNode?, _ key: StaticString, _ kind: JSONTapeEntry.Kind, at path: @autoclosure () -> JSONPath,
    expected: String
  ) -> JSONNode? {
    guard let value else { return nil }
    if value.kind == kind { return value }
    if value.kind != .null { wrongType(value, at: path().appending(key.description), expected: expected) }
    return nil
  }

  /// An array of strings; a lone string is accepted as a one-element array.
  mutating func strings(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> [String] {
    strings(object[key], named: key, in: path())
  }

  /// The member value form of ``strings(_:_:at:)``; `shared`, the strings are looked up like
  /// ``sharedText(_:)``'s.
  mutating func strings(
    _ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath, shared: Bool = false
  ) -> [String] {
    guard let value else { return [] }
    switch value.kind {
    case .string: return [shared ? sharedText(value) : Self.text(value)]
    case .array:
      var result: [String] = []
      result.reserveCapacity(value.count)
      for (index, element) in value.elements.enumerated() {
        switch element.kind {
        case .string: result.append(shared ? sharedText(element) : Self.text(element))
        case .number: result.append(element.number!.description)
        case .null: continue
        default:
          wrongType(element, at: path().appending(key.description).appending(index), expected: "a string")
        }
      }
      return result
    case .null: return []
    default:
      wrongType(value, at: path().appending(key.description), expected: "an array of strings")
      return []
    }
  }
}

/// An object member's key as its length and its first and last 8 bytes, so that the decoders can
/// switch over the keys they know: comparing two words beats comparing each candidate key byte by
/// byte. Keys longer than 16 bytes also need ``JSONNode/keyEquals(_:)``, as their middle is not
/// covered. The constants for the keys the decoders know are generated (`MemberName+Keys.swift`,
/// from `Tools/member-names.tsv` by `Tools/generate-member-names.sh`).
struct MemberName: Equatable {
  /// In UTF-8 bytes, after decoding escapes.
  var length: Int
  /// The first 8 bytes, little-endian, zero-padded.
  var head: UInt64
  /// The last 8 bytes when the key is longer than 8 bytes, else 0.
  var tail: UInt64

  init(length: Int, head: UInt64, tail: UInt64) {
    self.length = length
    self.head = head
    self.tail = tail
  }

  @inline(__always)
  init(_ key: JSONNode) {
    let entry = key.entry
    let buffer = key.view.bytes
    let count = entry.stringEnd - entry.start
    guard entry.flags & JSONTapeEntry.stringHasEscapes == 0, let base = buffer.baseAddress else {
      var text = JSONTapeEntry.decodedString(entry, in: buffer)
      self = text.withUTF8 { MemberName(bytes: UnsafeRawBufferPointer($0)) }
      return
    }
    guard entry.start + 8 <= buffer.count else {
      self.init(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[entry.start..<entry.stringEnd]))
      return
    }
    // One load, masked to the key (the bytes after it, at least the closing quote, exist).
    let word = UInt64(littleEndian: UnsafeRawPointer(base + entry.start).loadUnaligned(as: UInt64.self))
    var tail: UInt64 = 0
    if count > 8 {
      tail = UInt64(littleEndian: UnsafeRawPointer(base + entry.stringEnd - 8).loadUnaligned(as: UInt64.self))
    }
    self.init(length: count, head: count >= 8 ? word : word & ((1 << (UInt64(count) * 8)) - 1), tail: tail)
  }

  init(bytes: UnsafeRawBufferPointer) {
    var head: UInt64 = 0
    var tail: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { head |= UInt64(byte) << (UInt64(index) * 8) }
    if bytes.count > 8 {
      for (index, byte) in bytes.suffix(8).enumerated() { tail |= UInt64(byte) << (UInt64(index) * 8) }
    }
    self.init(length: bytes.count, head: head, tail: tail)
  }
}
