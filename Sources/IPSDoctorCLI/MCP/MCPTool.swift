import IPSDoctorJSON
import IPSDoctorSupport

/// What a tool returns: a short text for the person and the structured result for the agent.
struct MCPToolResult: Sendable {
  var text: String
  var structured: JSONValue?
  var isError = false

  static func failure(_ failure: MCPToolFailure) -> MCPToolResult {
    MCPToolResult(text: failure.message, structured: nil, isError: true)
  }

  /// The `tools/call` result. Clients of the 2025-03-26 revision know no `structuredContent`:
  /// they get the structured result serialised as a second text block too.
  func json(protocolVersion: String) -> JSONValue {
    var content: [JSONValue] = [.object(["type": .string("text"), "text": .string(text)])]
    var object = JSONObject()
    if let structured {
      if protocolVersion < MCPProtocol.structuredContentRevision {
        content.append(.object(["type": .string("text"), "text": .string(JSONWriter.string(structured))]))
      }
      object.append("content", .array(content))
      object.append("structuredContent", structured)
    } else {
      object.append("content", .array(content))
    }
    object.append("isError", .bool(isError))
    return .object(object)
  }
}

/// What a running tool may consult: which files it may read, whether the client cancelled it, and
/// where its progress goes (when the client asked for progress).
struct MCPToolContext {
  var files: MCPFileAccess
  var isCancelled: () -> Bool
  /// `progress(done, total, message)`, or `nil` when the client sent no progress token.
  var progress: ((Int, Int, String) -> Void)?
  /// How many reports to read at a time.
  var jobs: Int
}

/// The arguments of a `tools/call`, read against the tool's schema: a wrong type or an unknown
/// member is `-32602` (invalid params), named in the message.
struct MCPArguments {
  let tool: String
  let object: JSONObject

  init(tool: String, _ value: JSONValue?, allowed: [String]) throws(JSONRPCError) {
    self.tool = tool
    switch value {
    case nil, .null?: object = JSONObject()
    case .object(let given)?: object = given
    case let other?:
      throw JSONRPCError(.invalidParams, "\(tool): arguments must be an object, not \(other.typeName)")
    }
    if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
      throw JSONRPCError(
        .invalidParams,
        "\(tool): unknown argument '\(unknown)' (it takes \(allowed.map { "'\($0)'" }.joined(separator: ", ")))")
    }
  }

  private func invalid(_ key: String, _ expected: String) -> JSONRPCError {
    JSONRPCError(.invalidParams, "\(tool): '\(key)' must be \(expected)")
  }

  func string(_ key: String) throws(JSONRPCError) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw invalid(key, "a string")
    }
  }

  func requiredString(_ key: String) throws(JSONRPCError) -> String {
    guard let text = try string(key) else { throw JSONRPCError(.invalidParams, "\(tool): '\(key)' is required") }
    return text
  }

  /// A list of strings; a single string is taken as a list of one.
  func strings(_ key: String) throws(JSONRPCError) -> [String] {
    switch object[key] {
    case nil, .null?: return []
    case .string(let text)?: return [text]
    case .array(let elements)?:
      var texts: [String] = []
      for element in elements {
        guard case .string(let text) = element else { throw invalid(key, "an array of strings") }
        texts.append(text)
      }
      return texts
    default: throw invalid(key, "an array of strings")
    }
  }

  func bool(_ key: String) throws(JSONRPCError) -> Bool? {
    switch object[key] {
    case nil, .null?: return nil
    case .bool(let flag)?: return flag
    default: throw invalid(key, "true or false")
    }
  }

  func integer(_ key: String, in range: ClosedRange<Int>) throws(JSONRPCError) -> Int? {
    switch object[key] {
    case nil, .null?: return nil
    case .number(let number)?:
      guard let value = number.int, range.contains(value) else {
        throw invalid(key, "a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return value
    default: throw invalid(key, "a whole number")
    }
  }

  /// One of `choices` (a schema `enum`).
  func choice(_ key: String, _ choices: [String]) throws(JSONRPCError) -> String? {
    guard let text = try string(key) else { return nil }
    guard choices.contains(text) else {
      throw invalid(key, "one of " + choices.joined(separator: ", "))
    }
    return text
  }
}

/// JSON Schema fragments for the tools' `inputSchema`.
enum MCPSchema {
  static func object(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
    var object: JSONObject = ["type": .string("object")]
    object.append("properties", .object(JSONObject(properties.map { JSONObject.Member(key: $0.0, value: $0.1) })))
    if !required.isEmpty { object.append("required", .strings(required)) }
    object.append("additionalProperties", .bool(false))
    return .object(object)
  }

  static func string(_ description: String) -> JSONValue {
    .object(["type": .string("string"), "description": .string(description)])
  }

  static func strings(_ description: String) -> JSONValue {
    .object([
      "type": .string("array"), "items": .object(["type": .string("string")]), "description": .string(description),
    ])
  }

  static func choice(_ choices: [String], _ description: String) -> JSONValue {
    .object(["type": .string("string"), "enum": .strings(choices), "description": .string(description)])
  }

  static func integer(minimum: Int, _ description: String) -> JSONValue {
    .object(["type": .string("integer"), "minimum": .int(minimum), "description": .string(description)])
  }

  static func boolean(_ description: String) -> JSONValue {
    .object(["type": .string("boolean"), "description": .string(description)])
  }
}
