import IPSDoctorSupport

// Conveniences for building output documents: `.object(["key": value, …])` keeps the literal's
// key order, so output is deterministic.

extension JSONObject: ExpressibleByDictionaryLiteral {
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements.map { JSONObject.Member(key: $0.0, value: $0.1) })
  }
}

extension JSONValue {
  package static func int(_ value: Int) -> JSONValue {
    value >= 0 ? .number(.unsigned(UInt64(value))) : .number(.negative(Int64(value)))
  }

  package static func optional(_ value: String?) -> JSONValue {
    value.map(JSONValue.string) ?? .null
  }

  package static func optional(_ value: Int?) -> JSONValue {
    value.map(JSONValue.int) ?? .null
  }

  package static func strings(_ values: [String]) -> JSONValue {
    .array(values.map(JSONValue.string))
  }
}

extension JSONObject {
  /// Appends a member (keys keep the order they are added in).
  package mutating func append(_ key: String, _ value: JSONValue) {
    members.append(Member(key: key, value: value))
  }
}
