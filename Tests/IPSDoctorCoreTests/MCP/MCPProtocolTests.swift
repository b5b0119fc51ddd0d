import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorSupport

/// `ips-doctor mcp`'s JSON-RPC layer: the handshake, the errors every malformed message gets, and
/// that the server keeps serving after each.
@Suite struct MCPProtocolTests {
  @Test("initialize answers the client's revision when supported, else the latest")
  func handshake() {
    for (asked, answered) in [("2025-06-18", "2025-06-18"), ("2025-03-26", "2025-03-26"), ("2099-01-01", "2025-06-18")]
    {
      let session = MCPTest.run([MCPTest.initialize(id: 1, version: asked), MCPTest.initialized])
      let result = session.response(1)?["result"]
      #expect(result?["protocolVersion"] == .string(answered))
      #expect(result?["serverInfo"]?["name"] == .string("ips-doctor"))
      #expect(result?["capabilities"]?["tools"] != nil)
      // The initialized notification is not answered.
      #expect(session.messages.count == 1)
      #expect(session.served)
    }
  }

  @Test("initialize without a protocolVersion is invalid params; a second initialize is refused")
  func initializeErrors() {
    let session = MCPTest.run([
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
      MCPTest.initialize(id: 2),
      MCPTest.initialize(id: 3),
    ])
    #expect(session.errorCode(1) == -32602)
    #expect(session.response(2)?["result"] != nil)
    #expect(session.errorCode(3) == -32600)
  }

  @Test("tools/list names the six tools, each with an object input schema")
  func toolsList() {
    let session = MCPTest.run([
      MCPTest.initialize(), MCPTest.initialized, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    ])
    let tools = session.response(1)?["result"]?["tools"]?.arrayValue ?? []
    #expect(
      Set(tools.compactMap { $0["name"]?.stringValue })
        == ["diagnose", "triage", "symbolicate", "check_source", "explain_rule", "list_rules"])
    for tool in tools {
      #expect(tool["inputSchema"]?["type"] == .string("object"))
      let description = tool["description"]?.stringValue ?? ""
      #expect(!description.isEmpty)
    }
  }

  @Test("A request before initialize is refused, but ping is answered")
  func beforeInitialize() {
    let session = MCPTest.run([
      #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    ])
    #expect(session.errorCode(1) == -32600)
    #expect(session.response(2)?["result"] == .object([:]))
  }

  @Test("Malformed JSON is -32700 with id null, and the next request is answered")
  func malformedJSON() {
    let session = MCPTest.run([
      MCPTest.initialize(), #"{"jsonrpc":"2.0","id":1,"method":"ping""#, "not json at all",
      #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    ])
    let parseErrors = session.messages.filter { $0["error"]?["code"] == .int(-32700) }
    #expect(parseErrors.count == 2)
    #expect(parseErrors.allSatisfy { $0["id"] == .null })
    #expect(session.response(2)?["result"] != nil)
  }

  @Test("A batch array is refused with -32600 (MCP 2025-06-18 has no batching) and serving goes on")
  func batchIsRefused() {
    let session = MCPTest.run([
      MCPTest.initialize(),
      #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#, "[]",
      #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    ])
    let refusals = session.messages.filter { $0["error"]?["code"] == .int(-32600) }
    #expect(refusals.count == 2)
    #expect(refusals.allSatisfy { $0["id"] == .null })
    #expect(session.response(1) == nil && session.response(2) == nil)
    #expect(session.response(3)?["result"] != nil)
  }

  @Test("Invalid requests: no jsonrpc, a boolean id, a method that is not a string, params not structured")
  func invalidRequests() {
    let session = MCPTest.run([
      MCPTest.initialize(),
      #"{"id":1,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":3,"method":42}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"ping","params":"x"}"#,
      "42",
    ])
    #expect(session.errorCode(1) == -32600)
    #expect(session.errorCode(3) == -32600)
    #expect(session.errorCode(4) == -32600)
    // The boolean id and the bare number: id null.
    #expect(session.messages.filter { $0["id"] == .null && $0["error"]?["code"] == .int(-32600) }.count == 2)
  }

  @Test("An unknown method is -32601; notifications, known or not, are never answered")
  func unknownMethodAndNotifications() {
    let session = MCPTest.run([
      MCPTest.initialize(), MCPTest.initialized,
      #"{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}"#,
      #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
      #"{"jsonrpc":"2.0","id":"a","method":"resources/list"}"#,
    ])
    #expect(session.messages.count == 2)
    #expect(session.messages.last?["id"] == .string("a"))
    #expect(session.messages.last?["error"]?["code"] == .int(-32601))
  }

  @Test("A line over the limit is refused without being kept, and the next message is answered")
  func overLongLine() {
    let big =
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""# + String(repeating: "x", count: 3 << 20)
      + #""}}"#
    // Pieces of 4 KiB: the line arrives in hundreds of reads.
    let session = MCPTest.run(
      [MCPTest.initialize(), big, #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#], messageLimit: 1 << 20,
      pieceSize: 4096)
    #expect(session.response(1) == nil)
    let refusal = session.messages.first { $0["error"]?["code"] == .int(-32600) }
    #expect(refusal?["id"] == .null)
    #expect(refusal?["error"]?["message"]?.stringValue?.contains("limit") == true)
    #expect(session.response(2)?["result"] != nil)
    #expect(session.log.contains("refused a message"))
  }

  @Test("Messages split across reads, CRLF line ends and a last line without a line feed are read")
  func framing() {
    let text = MCPTest.initialize() + "\r\n\n" + #"{"jsonrpc":"2.0","id":5,"method":"ping"}"#
    let session = MCPTest.run([], pieceSize: 7, raw: Array(text.utf8))
    #expect(session.response(0)?["result"] != nil)
    #expect(session.response(5)?["result"] != nil)
  }

  @Test("Ten thousand pings in a few reads are answered, each once, in order")
  func manyMessages() {
    let pings = (1...10_000).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# }
    let session = MCPTest.run([MCPTest.initialize()] + pings, pieceSize: 1 << 16)
    let ids = session.messages.compactMap { $0["id"]?.numberValue?.int }
    #expect(ids == Array(0...10_000))
  }

  @Test("The line reader drops an over-long line a read at a time: memory stays near the limit")
  func lineReaderBounds() {
    let input = Array(String(repeating: "y", count: 10_000).utf8) + [0x0A] + Array("{}\n".utf8)
    var reader = MCPLineReader(source: MemorySource(input, pieceSize: 100), limit: 1000)
    #expect(reader.next() == .tooLong(10_000))
    #expect(reader.next() == .message(Array("{}".utf8)))
    #expect(reader.next() == .end)
  }

  @Test("tools/call: an unknown tool and bad arguments are -32602, naming what is wrong")
  func invalidToolCalls() {
    let session = MCPTest.run([
      MCPTest.initialize(),
      MCPTest.call(id: 1, "no_such_tool", "{}"),
      MCPTest.call(id: 2, "diagnose", "{}"),
      MCPTest.call(id: 3, "diagnose", #"{"path":"a.ips","text":"x"}"#),
      MCPTest.call(id: 4, "diagnose", #"{"path":42}"#),
      MCPTest.call(id: 5, "diagnose", #"{"file":"a.ips"}"#),
      MCPTest.call(id: 6, "triage", #"{"paths":[],"top":3}"#),
      MCPTest.call(id: 7, "triage", #"{"paths":["Fixtures"],"since":"yesterday"}"#),
      MCPTest.call(id: 8, "explain_rule", "{}"),
      #"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{}}}"#,
    ])
    for id in 1...9 { #expect(session.errorCode(id) == -32602, "request \(id)") }
    let message = session.response(5)?["error"]?["message"]?.stringValue ?? ""
    #expect(message.contains("'file'"))
  }
}
