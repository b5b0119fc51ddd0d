import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// The test validator itself: each keyword accepts what it should and rejects what it should, so
/// that `SARIFSchemaTests` passing means something.
@Suite("JSON Schema validator")
struct JSONSchemaValidatorTests {
  func validator(_ schema: String) throws -> JSONSchemaValidator {
    try JSONSchemaValidator(schema: try JSONParser.parse(schema))
  }

  func errors(_ schema: String, _ instance: String) throws -> [String] {
    try validator(schema).errors(try JSONParser.parse(instance))
  }

  @Test("type, including integer and a list of types")
  func type() throws {
    #expect(try errors(#"{"type": "string"}"#, #""a""#).isEmpty)
    #expect(try !errors(#"{"type": "string"}"#, "1").isEmpty)
    #expect(try errors(#"{"type": "integer"}"#, "-3").isEmpty)
    #expect(try !errors(#"{"type": "integer"}"#, "1.5").isEmpty)
    #expect(try errors(#"{"type": "number"}"#, "1.5").isEmpty)
    #expect(try !errors(#"{"type": "boolean"}"#, "0").isEmpty)
    #expect(try errors(#"{"type": ["array", "null"]}"#, "null").isEmpty)
    #expect(try !errors(#"{"type": ["array", "null"]}"#, "{}").isEmpty)
  }

  @Test("properties, required and additionalProperties")
  func objects() throws {
    let closed = #"{"properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false}"#
    #expect(try errors(closed, #"{"a": 1}"#).isEmpty)
    #expect(try errors(closed, #"{}"#) == [#"$: missing required property "a""#])
    #expect(try errors(closed, #"{"a": 1, "b": 2}"#) == ["$.b: property not allowed"])
    #expect(try errors(closed, #"{"a": "x"}"#) == ["$.a: expected integer"])
    let typed = #"{"additionalProperties": {"type": "string"}}"#
    #expect(try errors(typed, #"{"x": "y"}"#).isEmpty)
    #expect(try errors(typed, #"{"x": 1}"#) == ["$.x: expected string"])
  }

  @Test("items, minItems and uniqueItems (objects equal whatever their key order)")
  func arrays() throws {
    let schema = #"{"items": {"type": "object"}, "minItems": 1, "uniqueItems": true}"#
    #expect(try errors(schema, #"[{"a": 1, "b": 2}, {"a": 1, "b": 3}]"#).isEmpty)
    #expect(try errors(schema, "[]") == ["$: fewer than 1 items"])
    #expect(try errors(schema, #"[{"a": 1, "b": 2}, {"b": 2, "a": 1}]"#) == ["$[1]: repeats an earlier item"])
    #expect(try errors(schema, #"[{}, 3]"#) == ["$[1]: expected object"])
  }

  @Test("enum, minimum, maximum and pattern (unanchored unless the pattern anchors)")
  func values() throws {
    #expect(try errors(#"{"enum": ["a", "b"]}"#, #""b""#).isEmpty)
    #expect(try errors(#"{"enum": ["a", "b"]}"#, #""c""#) == ["$: not one of the enumerated values"])
    #expect(try errors(#"{"minimum": 1, "maximum": 3}"#, "1").isEmpty)
    #expect(try !errors(#"{"minimum": 1}"#, "0").isEmpty)
    #expect(try !errors(#"{"maximum": 3}"#, "3.5").isEmpty)
    #expect(try errors(#"{"pattern": "[0-9]+"}"#, #""v12x""#).isEmpty)
    #expect(try !errors(#"{"pattern": "^[0-9]+$"}"#, #""v12x""#).isEmpty)
  }

  @Test("$ref into definitions, anyOf, oneOf and allOf")
  func composition() throws {
    let schema = #"""
      {"definitions": {"n": {"type": "integer"}},
       "properties": {"x": {"$ref": "#/definitions/n"}},
       "anyOf": [{"required": ["x"]}, {"required": ["y"]}],
       "oneOf": [{"required": ["x"]}, {"required": ["z"]}],
       "allOf": [{"type": "object"}]}
      """#
    #expect(try errors(schema, #"{"x": 1}"#).isEmpty)
    #expect(try errors(schema, #"{"x": "1"}"#) == ["$.x: expected integer"])
    #expect(try errors(schema, #"{"x": 1, "z": 2}"#) == ["$: matches 2 of oneOf, not exactly 1"])
    #expect(try errors(schema, #"{"y": 1}"#) == ["$: matches 0 of oneOf, not exactly 1"])
    #expect(try errors(schema, #"{"w": 1}"#).contains("$: matches none of anyOf"))
  }

  @Test("A keyword it does not implement, or a reference it cannot resolve, is refused")
  func refusesWhatItCannotCheck() throws {
    #expect(throws: JSONSchemaValidator.SchemaError.self) { _ = try validator(#"{"maxItems": 2}"#) }
    #expect(throws: JSONSchemaValidator.SchemaError.self) {
      _ = try validator(#"{"properties": {"a": {"patternProperties": {}}}}"#)
    }
    #expect(throws: JSONSchemaValidator.SchemaError.self) { _ = try validator(##"{"$ref": "#/definitions/missing"}"##) }
    #expect(throws: JSONSchemaValidator.SchemaError.self) { _ = try validator(#"{"$ref": "other.json#/x"}"#) }
  }
}
