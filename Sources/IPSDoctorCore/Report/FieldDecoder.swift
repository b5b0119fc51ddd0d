/// Reads typed fields out of a JSON tree leniently: a missing field is simply absent, a field of the
/// wrong type becomes a ``ReportWarning`` naming its JSON path, and integers written as numeric
/// strings ("812", "0x1f") are accepted.
///
/// Paths are autoclosures: they are built only when a warning names them, not for every field read
/// (building them eagerly was a fifth of the read time).
struct FieldDecoder {
  var warnings: [ReportWarning] = []

  mutating func warn(_ path: JSONPath, _ message: String) {
    warnings.append(ReportWarning(location: path.description, message: message))
  }

  mutating func wrongType(_ value: JSONValue, at path: JSONPath, expected: String) {
    warn(path, "expected \(expected), found \(value.typeName); ignored")
  }

  mutating func string(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) -> String? {
    guard let value = object[key] else { return nil }
    switch value {
    case .string(let text): return text
    case .number(let number): return number.description
    case .null: return nil
    default:
      wrongType(value, at: path().appending(key), expected: "a string")
      return nil
    }
  }

  mutating func uint64(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) -> UInt64? {
    guard let value = object[key] else { return nil }
    return uint64(value, at: path().appending(key))
  }

  mutating func uint64(_ value: JSONValue, at path: @autoclosure () -> JSONPath) -> UInt64? {
    switch value {
    case .number(let number):
      if let exact = number.uint64 { return exact }
      if let negative = number.int64 {
        // Apple writes some 64-bit values (e.g. esr, flags) as signed; keep the bit pattern.
        return UInt64(bitPattern: negative)
      }
      warn(path(), "number \(number) is not a 64-bit integer; ignored")
      return nil
    case .string(let text):
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

  mutating func int(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) -> Int? {
    guard let value = object[key] else { return nil }
    return int(value, at: path().appending(key))
  }

  mutating func int(_ value: JSONValue, at path: @autoclosure () -> JSONPath) -> Int? {
    switch value {
    case .number(let number):
      if let exact = number.int { return exact }
      warn(path(), "number \(number) is not an integer in range; ignored")
      return nil
    case .string(let text):
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

  mutating func bool(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) -> Bool? {
    guard let value = object[key] else { return nil }
    switch value {
    case .bool(let flag): return flag
    case .number(let number):
      if number.uint64 == 0 { return false }
      if number.uint64 == 1 { return true }
      warn(path().appending(key), "expected a boolean, found number \(number); ignored")
      return nil
    case .string(let text):
      switch text.lowercased() {
      case "true", "1", "yes": return true
      case "false", "0", "no": return false
      default:
        wrongType(value, at: path().appending(key), expected: "a boolean")
        return nil
      }
    case .null: return nil
    default:
      wrongType(value, at: path().appending(key), expected: "a boolean")
      return nil
    }
  }

  mutating func object(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) -> JSONObject? {
    guard let value = object[key] else { return nil }
    switch value {
    case .object(let inner): return inner
    case .null: return nil
    default:
      wrongType(value, at: path().appending(key), expected: "an object")
      return nil
    }
  }

  mutating func array(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) -> [JSONValue]? {
    guard let value = object[key] else { return nil }
    switch value {
    case .array(let elements): return elements
    case .null: return nil
    default:
      wrongType(value, at: path().appending(key), expected: "an array")
      return nil
    }
  }

  /// An array of strings; a lone string is accepted as a one-element array.
  mutating func strings(_ object: JSONObject, _ key: String, at path: @autoclosure () -> JSONPath) -> [String] {
    guard let value = object[key] else { return [] }
    switch value {
    case .string(let text): return [text]
    case .array(let elements):
      var result: [String] = []
      for (index, element) in elements.enumerated() {
        switch element {
        case .string(let text): result.append(text)
        case .number(let number): result.append(number.description)
        case .null: continue
        default: wrongType(element, at: path().appending(key).appending(index), expected: "a string")
        }
      }
      return result
    case .null: return []
    default:
      wrongType(value, at: path().appending(key), expected: "an array of strings")
      return []
    }
  }
}
