@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// A JSON Schema (draft-04) validator for exactly the keywords the SARIF 2.1.0 schema uses.
///
/// Invariant: a schema with any keyword outside ``keywords`` is refused when the validator is made,
/// so a keyword it does not check can never pass silently. `format` is accepted and not checked;
/// `default`, `description`, `title`, `id` and `$schema` are annotations. `$ref` may only point
/// into the root's `definitions` (`#/definitions/name`).
struct JSONSchemaValidator {
  struct SchemaError: Error, CustomStringConvertible {
    var description: String
  }

  /// The keywords checked, then those accepted and ignored.
  static let checked: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "$ref", "minItems",
    "uniqueItems", "minimum", "maximum", "pattern", "oneOf", "anyOf", "allOf", "definitions",
  ]
  static let ignored: Set<String> = ["format", "default", "description", "title", "id", "$schema"]
  static var keywords: Set<String> { checked.union(ignored) }

  let root: JSONValue
  private let definitions: [String: JSONValue]
  /// Each `pattern` of the schema, compiled once when the validator is made (`nil` when it does
  /// not compile).
  private let patterns: [String: Regex<AnyRegexOutput>?]

  init(schema: JSONValue) throws(SchemaError) {
    root = schema
    var definitions: [String: JSONValue] = [:]
    for member in schema["definitions"]?.objectValue?.members ?? [] {
      definitions[member.key] = member.value
    }
    self.definitions = definitions
    var patterns: [String: Regex<AnyRegexOutput>?] = [:]
    try Self.checkKeywords(schema, at: "#", definitions: definitions, patterns: &patterns)
    self.patterns = patterns
  }

  /// Every schema reachable from `schema` uses known keywords and resolvable references; its
  /// patterns go into `patterns`.
  private static func checkKeywords(
    _ schema: JSONValue, at path: String, definitions: [String: JSONValue],
    patterns: inout [String: Regex<AnyRegexOutput>?]
  ) throws(SchemaError) {
    guard let object = schema.objectValue else {
      if schema.boolValue != nil { return }
      throw SchemaError(description: "\(path): a schema must be an object")
    }
    for member in object.members {
      let at = path + "/" + member.key
      guard keywords.contains(member.key) else {
        throw SchemaError(description: "\(at): keyword not supported by this validator")
      }
      switch member.key {
      case "properties", "definitions":
        for property in member.value.objectValue?.members ?? [] {
          try checkKeywords(property.value, at: at + "/" + property.key, definitions: definitions, patterns: &patterns)
        }
      case "items", "additionalProperties":
        try checkKeywords(member.value, at: at, definitions: definitions, patterns: &patterns)
      case "oneOf", "anyOf", "allOf":
        for (index, element) in (member.value.arrayValue ?? []).enumerated() {
          try checkKeywords(element, at: at + "/\(index)", definitions: definitions, patterns: &patterns)
        }
      case "pattern":
        if let pattern = member.value.stringValue, patterns[pattern] == nil {
          patterns[pattern] = .some(try? Regex(pattern))
        }
      case "$ref":
        guard let name = referenceName(member.value.stringValue), definitions[name] != nil else {
          throw SchemaError(description: "\(at): unresolvable reference")
        }
      default:
        break
      }
    }
  }

  private static func referenceName(_ reference: String?) -> String? {
    guard let reference, reference.hasPrefix("#/definitions/") else { return nil }
    return String(reference.dropFirst("#/definitions/".count))
  }

  /// Every way `instance` breaks the schema, as "path: what"; empty when it is valid.
  func errors(_ instance: JSONValue) -> [String] {
    errors(instance, skipping: [])
  }

  /// ``errors(_:)`` without the values at `skipped` (paths as the errors spell them, such as
  /// `$.runs[0].tool.driver.rules`): for a part already checked in a value equal to it.
  func errors(_ instance: JSONValue, skipping skipped: Set<String>) -> [String] {
    var errors: [String] = []
    validate(instance, against: root, at: "$", skipping: skipped, into: &errors)
    return errors
  }

  private func validate(
    _ instance: JSONValue, against schema: JSONValue, at path: String, skipping skipped: Set<String> = [],
    into errors: inout [String]
  ) {
    if !skipped.isEmpty && skipped.contains(path) { return }
    if let allowed = schema.boolValue {
      if !allowed { errors.append("\(path): no value is allowed here") }
      return
    }
    guard let schema = schema.objectValue else { return }

    if let reference = schema["$ref"]?.stringValue {
      // init made sure it resolves.
      if let name = Self.referenceName(reference), let target = definitions[name] {
        validate(instance, against: target, at: path, skipping: skipped, into: &errors)
      }
    }
    if let type = schema["type"] {
      let types = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
      if !types.contains(where: { Self.matches(instance, type: $0) }) {
        errors.append("\(path): expected \(types.joined(separator: " or "))")
      }
    }
    if let values = schema["enum"]?.arrayValue, !values.contains(where: { Self.equal($0, instance) }) {
      errors.append("\(path): not one of the enumerated values")
    }

    if let number = instance.numberValue {
      if let minimum = schema["minimum"]?.numberValue, number.double < minimum.double {
        errors.append("\(path): below the minimum \(minimum)")
      }
      if let maximum = schema["maximum"]?.numberValue, number.double > maximum.double {
        errors.append("\(path): above the maximum \(maximum)")
      }
    }
    if let text = instance.stringValue, let pattern = schema["pattern"]?.stringValue {
      // JSON Schema patterns are unanchored ECMA 262 expressions.
      let regex: Regex<AnyRegexOutput>? = patterns[pattern] ?? (try? Regex(pattern))
      if let regex {
        if !text.contains(regex) { errors.append("\(path): does not match /\(pattern)/") }
      } else {
        errors.append("\(path): the schema's pattern /\(pattern)/ does not compile")
      }
    }
    if let elements = instance.arrayValue {
      if let minimum = schema["minItems"]?.numberValue?.int, elements.count < minimum {
        errors.append("\(path): fewer than \(minimum) items")
      }
      if schema["uniqueItems"]?.boolValue == true {
        for index in elements.indices where elements[..<index].contains(where: { Self.equal($0, elements[index]) }) {
          errors.append("\(path)[\(index)]: repeats an earlier item")
        }
      }
      if let items = schema["items"] {
        for (index, element) in elements.enumerated() {
          validate(element, against: items, at: "\(path)[\(index)]", skipping: skipped, into: &errors)
        }
      }
    }
    if let object = instance.objectValue {
      for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
        errors.append("\(path): missing required property \"\(name)\"")
      }
      let properties = schema["properties"]?.objectValue
      for member in object.members {
        let at = "\(path).\(member.key)"
        if let property = properties?[member.key] {
          validate(member.value, against: property, at: at, skipping: skipped, into: &errors)
        } else if let additional = schema["additionalProperties"] {
          if additional.boolValue == false {
            errors.append("\(at): property not allowed")
          } else {
            validate(member.value, against: additional, at: at, skipping: skipped, into: &errors)
          }
        }
      }
    }

    for sub in schema["allOf"]?.arrayValue ?? [] {
      validate(instance, against: sub, at: path, skipping: skipped, into: &errors)
    }
    if let choices = schema["anyOf"]?.arrayValue,
      !choices.contains(where: { isValid(instance, against: $0, at: path) })
    {
      errors.append("\(path): matches none of anyOf")
    }
    if let choices = schema["oneOf"]?.arrayValue {
      let matching = choices.filter { isValid(instance, against: $0, at: path) }.count
      if matching != 1 { errors.append("\(path): matches \(matching) of oneOf, not exactly 1") }
    }
  }

  private func isValid(_ instance: JSONValue, against schema: JSONValue, at path: String) -> Bool {
    var errors: [String] = []
    validate(instance, against: schema, at: path, into: &errors)
    return errors.isEmpty
  }

  static func matches(_ instance: JSONValue, type: String) -> Bool {
    switch (type, instance) {
    case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string),
      ("array", .array), ("object", .object):
      true
    case ("integer", .number(let number)): number.int64 != nil || number.uint64 != nil
    default: false
    }
  }

  /// JSON equality: objects compare as sets of members, numbers by value.
  static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.number(let x), .number(let y)): x == y || x.double == y.double
    case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
    case (.object(let x), .object(let y)):
      Set(x.keys) == Set(y.keys) && x.count == y.count
        && x.members.allSatisfy { member in y[member.key].map { equal(member.value, $0) } == true }
    default: false
    }
  }
}
