/// Reads typed fields out of a parsed JSON document leniently: a missing field is simply absent, a
/// field of the wrong type becomes a ``ReportWarning`` naming its JSON path, and integers written as
/// numeric strings ("812", "0x1f") are accepted.
///
/// Paths are autoclosures: they are built only when a warning names them, not for every field read
/// (building them eagerly was a fifth of the read time).
struct FieldDecoder {
  var warnings: [ReportWarning] = []

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

  mutating func string(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> String? {
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

  mutating func uint64(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> UInt64? {
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

  mutating func int(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> Int? {
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

  mutating func bool(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> Bool? {
    guard let value = object[key] else { return nil }
    return bool(value, at: path().appending(key.description))
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
  /// unescaping into the string's own storage in one pass costs a fraction of
  /// ``JSONTapeEntry/decodedString(_:in:)``'s byte-by-byte array, which is kept for `\u` escapes.
  static func text(_ node: JSONNode) -> String {
    let entry = node.entry
    let raw = UnsafeBufferPointer(rebasing: node.view.bytes[entry.start..<entry.end])
    guard entry.flags & JSONTapeEntry.stringHasEscapes != 0 else { return String(decoding: raw, as: UTF8.self) }
    var sawUnicodeEscape = false
    let text = String(unsafeUninitializedCapacity: raw.count) { output in
      var written = 0
      var index = 0
      while index < raw.count {
        var byte = raw[index]
        index += 1
        if byte == ASCII.backslash && index < raw.count {
          switch raw[index] {
          case UInt8(ascii: "b"): byte = 0x08
          case UInt8(ascii: "f"): byte = 0x0C
          case UInt8(ascii: "n"): byte = 0x0A
          case UInt8(ascii: "r"): byte = 0x0D
          case UInt8(ascii: "t"): byte = 0x09
          case UInt8(ascii: "u"):
            sawUnicodeEscape = true
            return 0
          default: byte = raw[index]  // \" \\ \/
          }
          index += 1
        }
        output[written] = byte
        written += 1
      }
      return written
    }
    return sawUnicodeEscape ? JSONTapeEntry.decodedString(entry, in: node.view.bytes) : text
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
    guard let value = object[key] else { return [] }
    switch value.kind {
    case .string: return [Self.text(value)]
    case .array:
      var result: [String] = []
      result.reserveCapacity(value.count)
      for (index, element) in value.elements.enumerated() {
        switch element.kind {
        case .string: result.append(Self.text(element))
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
