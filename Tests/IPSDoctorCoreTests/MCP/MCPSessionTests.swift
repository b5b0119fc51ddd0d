import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorJSON
@testable import IPSDoctorSupport

/// What spans messages: the client's roots, cancellation, and the real executable on a pipe.
@Suite struct MCPSessionTests {
  static func fileURI(_ path: String) -> String {
    "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
  }

  @Test("A client with roots is asked roots/list after initialized; paths outside them are refused")
  func rootsConfine() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let root = folder.appendingPathComponent("My Root")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Fixtures.url("reports/async-bridge-didreceive-simplified-symbols.ips"),
      to: root.appendingPathComponent("inside.ips"))
    // A link inside the root to a report outside it.
    let outside = folder.appendingPathComponent("outside.ips")
    try FileManager.default.copyItem(at: Fixtures.url("reports/invalid-address.ips"), to: outside)
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("link-out.ips").path, withDestinationPath: outside.path)

    let answer =
      #"{"jsonrpc":"2.0","id":"ips-doctor-roots-1","result":{"roots":[{"uri":\#(MCPTest.quoted(Self.fileURI(root.path))),"name":"r"}]}}"#
    let session = MCPTest.run([
      MCPTest.initialize(roots: true), MCPTest.initialized, answer,
      MCPTest.call(id: 1, "diagnose", #"{"path":\#(MCPTest.quoted(root.appendingPathComponent("inside.ips").path))}"#),
      MCPTest.call(id: 2, "diagnose", #"{"path":\#(MCPTest.quoted(outside.path))}"#),
      MCPTest.call(
        id: 3, "diagnose", #"{"path":\#(MCPTest.quoted(root.appendingPathComponent("link-out.ips").path))}"#),
      MCPTest.call(id: 4, "triage", #"{"paths":[\#(MCPTest.quoted(root.path))]}"#),
      MCPTest.call(id: 5, "check_source", #"{"paths":["Fixtures/swift"]}"#),
      MCPTest.call(
        id: 6, "diagnose",
        #"{"path":\#(MCPTest.quoted(root.appendingPathComponent("inside.ips").path)),"dsym":[\#(MCPTest.quoted(outside.path))]}"#
      ),
    ])
    let request = session.messages.first { $0["method"] == .string("roots/list") }
    #expect(request?["id"] == .string("ips-doctor-roots-1"))
    #expect(session.isError(1) == false)
    #expect(session.isError(2) == true)
    #expect(session.text(2).contains("outside the roots"))
    #expect(session.isError(3) == true)
    // The folder's link out is skipped, not read: one report, and a notice.
    #expect(session.structured(4)?["summary"]?["reports"] == .int(1))
    let notices = session.structured(4)?["notices"]?.arrayValue ?? []
    #expect(notices.contains { ($0["message"]?.stringValue ?? "").contains("outside the roots") })
    #expect(session.isError(5) == true)
    #expect(session.isError(6) == true)
    #expect(session.text(6).hasPrefix("dsym"))
  }

  @Test("A client that declares roots but never answers gets tool errors, not a hang")
  func rootsNeverAnswered() {
    let session = MCPTest.run([
      MCPTest.initialize(roots: true), MCPTest.initialized,
      MCPTest.call(id: 1, "diagnose", #"{"path":"\#(MCPTest.founding)"}"#),
      MCPTest.call(id: 2, "list_rules", "{}"),
    ])
    #expect(session.isError(1) == true)
    #expect(session.isError(2) == false)
    // Nor does a client that declares roots and calls a tool before it says it is initialized.
    let early = MCPTest.run([
      MCPTest.initialize(roots: true), MCPTest.call(id: 1, "diagnose", #"{"path":"\#(MCPTest.founding)"}"#),
    ])
    #expect(early.isError(1) == true)
    #expect(early.text(1).contains("roots"))
  }

  @Test("file: URIs are decoded; other schemes and remote hosts are not roots")
  func fileURIs() {
    #expect(MCPFileAccess.path(fromFileURI: "file:///Users/a/My%20App") == PathName("/Users/a/My App"))
    #expect(MCPFileAccess.path(fromFileURI: "file://localhost/tmp") == PathName("/tmp"))
    #expect(MCPFileAccess.path(fromFileURI: "https://example.com/x") == nil)
    #expect(MCPFileAccess.path(fromFileURI: "file://server/share") == nil)
    #expect(MCPFileAccess.path(fromFileURI: "file:///a%2") == nil)
    #expect(MCPFileAccess.contains(PathName("/a/b"), PathName("/a/b/c")))
    #expect(!MCPFileAccess.contains(PathName("/a/b"), PathName("/a/bc")))
    #expect(MCPFileAccess.contains(PathName("/"), PathName("/x")))
  }

  @Test("notifications/cancelled stops a running triage and drops a queued call: no response, serving goes on")
  func cancellation() throws {
    let feed = MCPFeed()
    let output = MCPTest.Output()
    final class Box: @unchecked Sendable { var server: MCPServer? }
    let box = Box()
    let server = MCPServer(
      workingDirectory: MCPTest.root, jobs: 1,
      write: { line in
        output.append(line)
        // At the first progress of call 7, the client cancels it; the tool goes on only once the
        // server has read the cancellation, so the test does not race the triage.
        if line.contains("notifications/progress")
          && output.all.filter({ $0.contains("notifications/progress") }).count == 1
        {
          feed.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"test"}}"#)
          feed.send(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#)
          var waited = 0
          while waited < 12_000,
            box.server?.hasCancelled(.number(7)) != true || box.server?.hasCancelled(.number(9)) != true
          {
            usleep(5000)
            waited += 1
          }
          feed.send(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)
          feed.close()
        }
        return true
      }, log: { output.log($0) })
    box.server = server
    feed.send(MCPTest.initialize())
    feed.send(MCPTest.call(id: 7, "triage", #"{"paths":["Fixtures/reports"]}"#, meta: #"{"progressToken":7}"#))
    // Queued behind the triage, and cancelled before it starts.
    feed.send(MCPTest.call(id: 9, "diagnose", #"{"path":"\#(MCPTest.founding)"}"#))
    #expect(server.serve(feed))
    let session = MCPTest.Session(messages: MCPTest.parse(output.all), log: output.log, served: true)
    #expect(session.response(7) == nil)
    #expect(session.response(9) == nil)
    #expect(session.messages.filter { $0["method"] == .string("notifications/progress") }.count == 1)
    #expect(session.response(8)?["result"] != nil)
    #expect(!server.hasCancelled(.number(7)))
  }

  @Test("The real executable serves over a pipe: stdout carries only protocol messages")
  func executableOverPipe() throws {
    guard ProcessTest.available, let executable = ProcessTest.executable else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["mcp"]
    process.currentDirectoryURL = Fixtures.root
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let lines = [
      MCPTest.initialize(), MCPTest.initialized, #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
      MCPTest.call(id: 2, "diagnose", #"{"path":"\#(MCPTest.founding)"}"#), "{oops",
      #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    ]
    input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    try input.fileHandleForWriting.close()
    let written = output.fileHandleForReading.readDataToEndOfFile()
    _ = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let text = String(decoding: written, as: UTF8.self)
    let messages = MCPTest.parse(text.split(separator: "\n", omittingEmptySubsequences: true).map { $0 + "\n" })
    #expect(messages.count == 5)
    let session = MCPTest.Session(messages: messages, log: "", served: true)
    #expect(session.response(1)?["result"]?["tools"]?.arrayValue?.count == 6)
    #expect(session.structured(2)?["diagnoses"]?[0]?["rule"] == .string("async-bridge-completion-off-main"))
    #expect(session.errorCode(nil) == -32700)
    #expect(session.response(3)?["result"] != nil)
  }

  @Test("Standard output that cannot be written ends the server with 73; empty input ends it with 0")
  func executableExitStatus() throws {
    guard ProcessTest.available else { return }
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let input = folder.appendingPathComponent("messages.jsonl").path
    try Data((MCPTest.initialize() + "\n" + #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n").utf8)
      .write(to: URL(fileURLWithPath: input))
    let mcp = [Array("mcp".utf8)]
    // A file that cannot grow past 512 bytes fails as a full disk does.
    let limited = try ProcessTest.run(
      mcp, in: folder.path, stdin: .file(input, flags: O_RDONLY),
      stdout: .file(folder.appendingPathComponent("out").path, flags: O_WRONLY | O_CREAT | O_TRUNC), fileSizeLimit: 1)
    #expect(limited.status == ExitCode.cannotCreate.rawValue, "\(limited.stderr)")
    #expect(limited.stderr.contains("standard output could not be written"))
    let closed = try ProcessTest.run(mcp, in: folder.path, stdin: .file(input, flags: O_RDONLY), stdout: .closed)
    #expect(closed.status == ExitCode.cannotCreate.rawValue)
    let empty = try ProcessTest.run(mcp, in: folder.path)
    #expect(empty.status == 0)
    #expect(empty.stderr.isEmpty)
  }

  @Test("The command line: mcp takes no argument, and serves a CLIIO's standard input")
  func commandLine() {
    #expect(CLITest.run(["mcp", "extra"]).status == .usage)
    let io = CapturedIO(
      input: Array((MCPTest.initialize() + "\n" + #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n").utf8))
    let run = CLITest.run(["mcp"], io: io)
    #expect(run.status == .success)
    #expect(run.stdout.split(separator: "\n").count == 2)
    #expect(CLITest.run(["help", "mcp"]).stdout.contains("Model Context Protocol"))
  }

  @Test("The official MCP Python SDK lists the tools, calls diagnose, triage and check_source, and declares roots")
  func pythonSDK() throws {
    guard ProcessTest.available, let executable = ProcessTest.executable else { return }
    let environment = ProcessInfo.processInfo.environment
    let python = environment["IPS_DOCTOR_MCP_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "/work/venv-mcp/bin/python"
    guard FileManager.default.isExecutableFile(atPath: python) else { return }
    // Skipped cleanly when the interpreter has no `mcp` package.
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: python)
    probe.arguments = ["-c", "import mcp.client.stdio"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    try probe.run()
    probe.waitUntilExit()
    guard probe.terminationStatus == 0 else { return }

    let script = Fixtures.root.appendingPathComponent("Tests/IPSDoctorCoreTests/Resources/mcp_sdk_client.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script, executable, Fixtures.root.path]
    process.currentDirectoryURL = Fixtures.root
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("diagnose: async-bridge-completion-off-main"))
    #expect(text.contains("roots: 'Fixtures/swift' is outside the roots"))
    #expect(text.contains("ok"))
  }
}
