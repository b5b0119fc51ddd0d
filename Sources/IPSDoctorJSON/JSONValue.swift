import IPSDoctorSupport

/// A parsed JSON value.
///
/// Objects keep their members in source order (duplicate keys included), so nothing in a report is
/// lost; lookups by key return the last member with that key, as most JSON readers do.
/// Numbers keep their exact value: see ``JSONNumber``.
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The member named `key` when this is an object.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let object) = self else { return nil }
    return object[key]
  }

  /// The element at `index` when this is an array and the index is in range.
  package subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The name of this value's JSON type, as used in diagnostics ("object", "string", …).
  package var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  package var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  package var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  package var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  package var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  package var numberValue: JSONNumber? {
    if case .number(let value) = self { return value }
    return nil
  }
}

/// An ordered JSON object.
package struct JSONObject: Sendable, Equatable {
  package struct Member: Sendable, Equatable {
    package var key: String
    package var value: JSONValue

    package init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  package var members: [Member]

  package init(_ members: [Member] = []) {
    self.members = members
  }

  /// The value of the last member named `key`.
  package subscript(key: String) -> JSONValue? {
    var index = members.endIndex
    while index > members.startIndex {
      index -= 1
      if members[index].key == key { return members[index].value }
    }
    return nil
  }

  package var keys: [String] { members.map(\.key) }

  package var count: Int { members.count }
}

/// A JSON number, kept exactly as written.
///
/// Integers that fit are stored as `UInt64` (non-negative) or `Int64` (negative), so 64-bit addresses
/// and register values never pass through `Double`. Anything else (fractions, exponents, integers
/// beyond 64 bits) keeps its source text and converts on demand.
package enum JSONNumber: Sendable, Equatable, CustomStringConvertible {
  case unsigned(UInt64)
  case negative(Int64)
  case other(String)

  package var uint64: UInt64? {
    switch self {
    case .unsigned(let value): value
    case .negative: nil
    case .other(let text): Self.exactInteger(text).flatMap { $0 >= 0 ? UInt64(exactly: $0) : nil }
    }
  }

  package var int64: Int64? {
    switch self {
    case .unsigned(let value): Int64(exactly: value)
    case .negative(let value): value
    case .other(let text): Self.exactInteger(text).flatMap { Int64(exactly: $0) }
    }
  }

  package var int: Int? { int64.flatMap { Int(exactly: $0) } }

  package var double: Double {
    switch self {
    case .unsigned(let value): Double(value)
    case .negative(let value): Double(value)
    case .other(let text): Double(text) ?? .nan
    }
  }

  package var description: String {
    switch self {
    case .unsigned(let value): String(value)
    case .negative(let value): String(value)
    case .other(let text): text
    }
  }

  /// An integral value written with a fraction or exponent ("12.0", "1e3") when it is exact.
  private static func exactInteger(_ text: String) -> Double? {
    guard let value = Double(text), value.isFinite, abs(value) < 9_007_199_254_740_992,
      Double(Int64(value)) == value
    else { return nil }
    return value
  }
}
