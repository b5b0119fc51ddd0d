import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorJSON
@testable import IPSDoctorSupport

/// Runs the MCP server over in-memory streams, through the same line reader and message handling
/// as `ips-doctor mcp` on standard input and output.
enum MCPTest {
  static let founding = "Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips"

  static func initialize(id: Int = 0, version: String = "2025-06-18", roots: Bool = false) -> String {
    let capabilities = roots ? #"{"roots":{"listChanged":true}}"# : "{}"
    return
      #"{"jsonrpc":"2.0","id":\#(id),"method":"initialize","params":{"protocolVersion":"\#(version)","capabilities":\#(capabilities),"clientInfo":{"name":"test","version":"1"}}}"#
  }

  static let initialized = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#

  /// A `tools/call` request.
  static func call(id: Int, _ tool: String, _ arguments: String, meta: String? = nil) -> String {
    let metaPart = meta.map { #","_meta":\#($0)"# } ?? ""
    return
      #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)\#(metaPart)}}"#
  }

  /// A JSON string literal.
  static func quoted(_ text: String) -> String { JSONWriter.quoted(text) }

  /// The repository root, where relative paths start.
  static var root: PathName { PathName(Fixtures.root.path) }

  final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var errors = ""

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    func log(_ text: String) { lock.withLock { errors += text + "\n" } }
    var all: [String] { lock.withLock { lines } }
    var log: String { lock.withLock { errors } }
  }

  struct Session {
    /// Every message the server wrote, parsed, in order.
    var messages: [JSONValue]
    var log: String
    var served: Bool

    /// The response to the request `id`.
    func response(_ id: Int) -> JSONValue? {
      messages.first { $0["id"] == .number(.unsigned(UInt64(id))) && $0["method"] == nil }
    }

    /// The `structuredContent` of the tool call `id`.
    func structured(_ id: Int) -> JSONValue? { response(id)?["result"]?["structuredContent"] }

    func isError(_ id: Int) -> Bool? { response(id)?["result"]?["isError"]?.boolValue }

    /// The first text block of the tool call `id`.
    func text(_ id: Int) -> String { response(id)?["result"]?["content"]?[0]?["text"]?.stringValue ?? "" }

    func errorCode(_ id: Int?) -> Int? {
      let match = messages.first { message in
        message["error"] != nil
          && (id.map { message["id"] == .number(.unsigned(UInt64($0))) } ?? (message["id"] == .null))
      }
      return match?["error"]?["code"]?.numberValue?.int
    }
  }

  /// Serves `lines` (each followed by a line feed) and returns what the server wrote.
  static func run(
    _ lines: [String], workingDirectory: PathName = root, messageLimit: Int = MCPProtocol.defaultMessageLimit,
    pieceSize: Int = 1 << 16, raw: [UInt8]? = nil
  ) -> Session {
    let input = raw ?? Array(lines.map { $0 + "\n" }.joined().utf8)
    let output = Output()
    let server = MCPServer(
      workingDirectory: workingDirectory, jobs: 2, messageLimit: messageLimit,
      write: { line in
        output.append(line)
        return true
      }, log: { output.log($0) })
    let served = server.serve(MemorySource(input, pieceSize: pieceSize))
    return Session(messages: parse(output.all), log: output.log, served: served)
  }

  static func parse(_ lines: [String]) -> [JSONValue] {
    lines.map { line in
      #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"), "one message a line: \(line.prefix(200))")
      do {
        return try JSONParser.parse(String(line.dropLast()))
      } catch {
        Issue.record("the server wrote a line that is not JSON: \(line.prefix(200))")
        return .null
      }
    }
  }
}

/// Bytes the test hands the server while it runs: `read` waits for more until `close`.
final class MCPFeed: MCPByteSource, @unchecked Sendable {
  private let monitor = Monitor(conditions: 1)
  private var pending: [UInt8] = []
  private var closed = false

  func send(_ line: String) {
    monitor.locked {
      pending += Array((line + "\n").utf8)
      monitor.broadcast(0)
    }
  }

  func close() {
    monitor.locked {
      closed = true
      monitor.broadcast(0)
    }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    monitor.locked {
      while pending.isEmpty && !closed { monitor.wait(0) }
      let count = min(buffer.count, pending.count)
      guard count > 0 else { return 0 }
      pending.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      pending.removeFirst(count)
      return count
    }
  }
}
