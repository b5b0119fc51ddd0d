import IPSDoctorJSON
import IPSDoctorSupport

/// A JSON-RPC 2.0 request id: a string or an integer (MCP allows no other kind, and no `null`).
enum JSONRPCID: Sendable, Hashable {
  case string(String)
  case number(Int64)

  init?(_ value: JSONValue) {
    switch value {
    case .string(let text): self = .string(text)
    case .number(let number):
      guard let integer = number.int64 else { return nil }
      self = .number(integer)
    default: return nil
    }
  }

  var json: JSONValue {
    switch self {
    case .string(let text): .string(text)
    case .number(let value): value >= 0 ? .number(.unsigned(UInt64(value))) : .number(.negative(value))
    }
  }
}

/// The error codes of JSON-RPC 2.0 that the server answers with.
enum JSONRPCErrorCode: Int, Sendable {
  case parseError = -32700
  case invalidRequest = -32600
  case methodNotFound = -32601
  case invalidParams = -32602
  case internalError = -32603
}

/// A protocol error: its code and a message for the person reading the client's log.
struct JSONRPCError: Error, Sendable, Equatable {
  var code: JSONRPCErrorCode
  var message: String

  init(_ code: JSONRPCErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }
}

/// One line read from the client, classified.
enum JSONRPCMessage: Sendable {
  /// A request: the client waits for a response with its id.
  case request(id: JSONRPCID, method: String, params: JSONValue?)
  /// A notification: no id, never answered.
  case notification(method: String, params: JSONValue?)
  /// The client's answer to a request the server sent (`roots/list`).
  case response(id: JSONRPCID, result: JSONValue?, error: JSONValue?)
  /// Not a message the server can act on; answered with this error, with the id when one could be
  /// read (`null` otherwise).
  case invalid(id: JSONRPCID?, JSONRPCError)

  /// Classifies one line. `line` is the message without its line feed.
  static func parse(_ line: [UInt8]) -> JSONRPCMessage {
    let value: JSONValue
    do throws(JSONError) {
      value = try JSONParser.parse(line)
    } catch {
      return .invalid(id: nil, JSONRPCError(.parseError, "parse error: \(error.description)"))
    }
    return classify(value)
  }

  static func classify(_ value: JSONValue) -> JSONRPCMessage {
    guard case .object(let object) = value else {
      if case .array = value {
        return .invalid(
          id: nil,
          JSONRPCError(
            .invalidRequest,
            "batch requests are not supported: MCP 2025-06-18 removed JSON-RPC batching; send one message a line"))
      }
      return .invalid(id: nil, JSONRPCError(.invalidRequest, "a message must be a JSON object, not \(value.typeName)"))
    }
    var id: JSONRPCID?
    if let rawID = object["id"] {
      guard let valid = JSONRPCID(rawID) else {
        return .invalid(id: nil, JSONRPCError(.invalidRequest, "id must be a string or an integer"))
      }
      id = valid
    }
    guard object["jsonrpc"] == .string("2.0") else {
      return .invalid(id: id, JSONRPCError(.invalidRequest, "jsonrpc must be \"2.0\""))
    }
    let params = object["params"]
    if let params {
      switch params {
      case .object, .array: break
      default:
        return .invalid(id: id, JSONRPCError(.invalidRequest, "params must be an object or an array"))
      }
    }
    guard let rawMethod = object["method"] else {
      if let id, object["result"] != nil || object["error"] != nil {
        return .response(id: id, result: object["result"], error: object["error"])
      }
      return .invalid(id: id, JSONRPCError(.invalidRequest, "a request needs a method"))
    }
    guard case .string(let method) = rawMethod else {
      return .invalid(id: id, JSONRPCError(.invalidRequest, "method must be a string"))
    }
    guard let id else { return .notification(method: method, params: params) }
    return .request(id: id, method: method, params: params)
  }
}

/// The messages the server writes, one compact JSON object a line.
enum JSONRPCOutgoing {
  static func result(id: JSONRPCID, _ result: JSONValue) -> JSONValue {
    .object(["jsonrpc": .string("2.0"), "id": id.json, "result": result])
  }

  static func error(id: JSONRPCID?, _ error: JSONRPCError) -> JSONValue {
    .object([
      "jsonrpc": .string("2.0"), "id": id?.json ?? .null,
      "error": .object(["code": .int(error.code.rawValue), "message": .string(error.message)]),
    ])
  }

  static func notification(method: String, params: JSONValue) -> JSONValue {
    .object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
  }

  static func request(id: JSONRPCID, method: String, params: JSONValue? = nil) -> JSONValue {
    var object: JSONObject = ["jsonrpc": .string("2.0"), "id": id.json, "method": .string(method)]
    if let params { object.append("params", params) }
    return .object(object)
  }

  /// The line to write: compact JSON (no raw line feed can occur in it) and a line feed.
  static func line(_ message: JSONValue) -> String {
    JSONWriter.string(message, style: .compact) + "\n"
  }
}
