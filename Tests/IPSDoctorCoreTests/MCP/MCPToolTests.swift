import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorSupport

/// The server's tools through the whole message path: each tool's result for a fixture, and the
/// tool errors (`isError: true`) for what cannot be done.
@Suite struct MCPToolTests {
  static let rule = "async-bridge-completion-off-main"

  /// Runs one session of `initialize`, `initialized` and the given tool calls.
  static func session(_ calls: [String], workingDirectory: PathName = MCPTest.root) -> MCPTest.Session {
    MCPTest.run([MCPTest.initialize(), MCPTest.initialized] + calls, workingDirectory: workingDirectory)
  }

  @Test("diagnose by path returns the report object of --format json, key for key")
  func diagnosePathIsTheCLIJSON() throws {
    let session = Self.session([MCPTest.call(id: 1, "diagnose", #"{"path":"\#(MCPTest.founding)"}"#)])
    #expect(session.isError(1) == false)
    let structured = try #require(session.structured(1))
    #expect(structured["diagnoses"]?[0]?["rule"] == .string(Self.rule))
    #expect(session.text(1).contains(Self.rule))

    let cli = CLITest.run([MCPTest.founding, "--format", "json"])
    let document = try JSONParser.parse(cli.stdout)
    let expected = try #require(document["reports"]?[0]?.objectValue)
    let got = try #require(structured.objectValue)
    #expect(got.keys == expected.keys)
    for member in expected.members where member.key != "path" {
      #expect(got[member.key] == member.value, "\(member.key)")
    }
    #expect(got["path"]?.stringValue?.hasSuffix(MCPTest.founding) == true)
  }

  @Test("diagnose on pasted text finds the same rule, and names the input <text>")
  func diagnoseText() throws {
    let text = String(
      decoding: try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips"), as: UTF8.self)
    let session = Self.session([MCPTest.call(id: 1, "diagnose", #"{"text":\#(MCPTest.quoted(text))}"#)])
    #expect(session.structured(1)?["diagnoses"]?[0]?["rule"] == .string(Self.rule))
    #expect(session.structured(1)?["path"] == .string("<text>"))
  }

  @Test("diagnose on a large pasted report (4 MiB of trailing blanks) still diagnoses it")
  func diagnoseLargeText() throws {
    let text =
      String(decoding: try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips"), as: UTF8.self)
      + String(repeating: " ", count: 4 << 20)
    let session = Self.session([MCPTest.call(id: 1, "diagnose", #"{"text":\#(MCPTest.quoted(text))}"#)])
    #expect(session.structured(1)?["diagnoses"]?[0]?["rule"] == .string(Self.rule))
  }

  @Test("diagnose errors are tool results with isError: a missing file, a folder, text that is no report")
  func diagnoseErrors() {
    let session = Self.session([
      MCPTest.call(id: 1, "diagnose", #"{"path":"Fixtures/reports/no-such-report.ips"}"#),
      MCPTest.call(id: 2, "diagnose", #"{"path":"Fixtures/reports"}"#),
      MCPTest.call(id: 3, "diagnose", #"{"text":"hello, this is not a crash report"}"#),
      #"{"jsonrpc":"2.0","id":4,"method":"ping"}"#,
    ])
    #expect(session.isError(1) == true)
    #expect(session.text(1).contains("no-such-report.ips"))
    #expect(session.isError(2) == true)
    #expect(session.text(2).contains("triage"))
    #expect(session.isError(3) == true)
    #expect(session.text(3).contains("<text>"))
    #expect(session.response(4)?["result"] != nil)
  }

  @Test("triage groups a folder, diagnoses the top groups and sends progress for a progressToken")
  func triageFolder() throws {
    let session = Self.session([
      MCPTest.call(id: 1, "triage", #"{"paths":["Fixtures/reports"],"top":2}"#, meta: #"{"progressToken":"t1"}"#)
    ])
    let structured = try #require(session.structured(1))
    let groups = structured["groups"]?.arrayValue ?? []
    let reports = structured["summary"]?["reports"]?.numberValue?.int ?? 0
    #expect(groups.count > 10)
    #expect(reports >= groups.count)
    #expect(groups.compactMap { $0["count"]?.numberValue?.int }.reduce(0, +) == reports)
    let top = structured["topDiagnoses"]?.arrayValue ?? []
    #expect(top.count == 2)
    #expect(top.first?["signature"] == groups.first?["signature"])
    #expect(top.first?["report"]?["signature"]?["id"] == groups.first?["signature"])
    let progress = session.messages.filter { $0["method"] == .string("notifications/progress") }
    #expect(!progress.isEmpty)
    #expect(progress.allSatisfy { $0["params"]?["progressToken"] == .string("t1") })
    #expect(progress.last?["params"]?["progress"] == progress.last?["params"]?["total"])
    // Progress comes before the result.
    let resultIndex = try #require(session.messages.firstIndex { $0["id"] == .int(1) })
    #expect(session.messages.lastIndex { $0["method"] == .string("notifications/progress") }! < resultIndex)
  }

  @Test("triage filters as the command line does, and sends no progress without a token")
  func triageFilters() throws {
    let session = Self.session([
      MCPTest.call(id: 1, "triage", #"{"paths":["Fixtures/reports"],"rule":"async-bridge","top":0}"#)
    ])
    let structured = try #require(session.structured(1))
    let groups = structured["groups"]?.arrayValue ?? []
    #expect(!groups.isEmpty)
    #expect(groups.allSatisfy { $0["rule"]?.stringValue?.hasPrefix("async-bridge") == true })
    #expect((structured["summary"]?["reports"]?.numberValue?.int ?? 0) > 0)
    #expect(structured["topDiagnoses"] == .array([]))
    #expect(!session.messages.contains { $0["method"] == .string("notifications/progress") })
  }

  @Test("triage of a path that does not exist is a tool error")
  func triageMissing() {
    let session = Self.session([MCPTest.call(id: 1, "triage", #"{"paths":["Fixtures/none-here"]}"#)])
    #expect(session.isError(1) == true)
    #expect(session.text(1).contains("none-here"))
  }

  @Test("symbolicate without a dSYM says nothing matched and names the app image still unsymbolicated")
  func symbolicateWithoutDSYM() throws {
    let session = Self.session([
      MCPTest.call(id: 1, "symbolicate", #"{"path":"Fixtures/reports/async-bridge-didreceive-unsymbolicated.ips"}"#),
      MCPTest.call(id: 2, "symbolicate", #"{"path":"Fixtures/reports/gone.ips"}"#),
      MCPTest.call(id: 3, "symbolicate", #"{"text":"not a report"}"#),
      MCPTest.call(id: 4, "symbolicate", #"{"dsym":["x.dSYM"]}"#),
    ])
    #expect(session.isError(2) == true)
    #expect(session.text(2).contains("gone.ips"))
    #expect(session.isError(3) == true)
    #expect(session.errorCode(4) == -32602)
    let structured = try #require(session.structured(1))
    #expect(structured["symbolicatedFrames"] == .int(0))
    #expect((structured["unsymbolicatedAppImages"]?.arrayValue ?? []).count >= 1)
    #expect(session.text(1).contains("No frame symbolicated"))
  }

  @Test("symbolicate with dSYMs returns the frames with function, file and line (shared material)")
  func symbolicateWithDSYM() throws {
    guard let folder = SharedReportSymbolicationTests.folder else { return }
    let report = folder.appendingPathComponent("multi-target-crash.ips").path
    let app = folder.appendingPathComponent("CrashingInAnotherTargetTest.dSYM").path
    let framework = folder.appendingPathComponent("AnotherTarget.framework.dSYM").path
    let session = Self.session([
      MCPTest.call(
        id: 1, "symbolicate",
        #"{"path":\#(MCPTest.quoted(report)),"dsym":[\#(MCPTest.quoted(app)),\#(MCPTest.quoted(framework))]}"#)
    ])
    let structured = try #require(session.structured(1))
    #expect(structured["symbolicatedFrames"] == .int(2))
    let frames = structured["frames"]?.arrayValue ?? []
    #expect(
      frames.compactMap { $0["symbol"]?.stringValue }
        == ["static CrashingClass.crash()", "@objc static CrashingClass.crash()", "main"])
    #expect(frames.compactMap { $0["line"]?.numberValue?.int } == [12, 11, 29])
    #expect(frames.compactMap { $0["inline"]?.boolValue } == [true, false, false])
  }

  @Test("check_source finds the founding crash's delegate method, with line and fix")
  func checkSource() throws {
    let session = Self.session([
      MCPTest.call(id: 1, "check_source", #"{"paths":["Fixtures/swift/founding-crash-plain-class.swift"]}"#),
      MCPTest.call(id: 2, "check_source", #"{"paths":["Fixtures/swift/none.swift"]}"#),
      MCPTest.call(id: 3, "check_source", #"{"paths":["Fixtures/swift"],"defaultIsolation":"nonisolated"}"#),
    ])
    let swiftFiles = Fixtures.files(in: "swift", extensions: ["swift"]).count
    #expect(session.structured(3)?["filesScanned"] == .int(swiftFiles))
    let folderFindings = session.structured(3)?["findings"]?.arrayValue ?? []
    let findings = session.structured(1)?["findings"]?.arrayValue ?? []
    #expect(!findings.isEmpty)
    #expect(findings.allSatisfy { $0["rule"] == .string("async-delegate-completion-off-main") })
    #expect(findings.allSatisfy { ($0["line"]?.numberValue?.int ?? 0) > 0 && !($0["fix"]?.stringValue ?? "").isEmpty })
    #expect(session.text(1).contains("fix:"))
    #expect(session.isError(2) == true)
    #expect(folderFindings.count > findings.count)
  }

  @Test("explain_rule explains a rule and suggests a near id; list_rules lists the catalog")
  func catalog() {
    let session = Self.session([
      MCPTest.call(id: 1, "explain_rule", #"{"id":"\#(Self.rule)"}"#),
      MCPTest.call(id: 2, "explain_rule", #"{"id":"async-bridge-completion-of-main"}"#),
      MCPTest.call(id: 3, "list_rules", "{}"),
      MCPTest.call(id: 4, "explain_rule", #"{"id":"inconclusive"}"#),
    ])
    #expect(session.structured(1)?["id"] == .string(Self.rule))
    let remedy = session.structured(1)?["remedy"]?.stringValue ?? ""
    #expect(!remedy.isEmpty)
    #expect(session.isError(2) == true)
    #expect(session.text(2).contains(Self.rule))
    #expect(session.structured(3)?["rules"]?.arrayValue?.count == RuleCatalog.all.count)
    #expect(session.structured(4)?["id"] == .string("inconclusive"))
  }

  @Test("A 2025-03-26 client gets the structured result as JSON text too")
  func olderRevisionGetsJSONText() throws {
    let session = MCPTest.run([
      MCPTest.initialize(version: "2025-03-26"), MCPTest.call(id: 1, "list_rules", "{}"),
    ])
    let content = session.response(1)?["result"]?["content"]?.arrayValue ?? []
    #expect(content.count == 2)
    let json = try JSONParser.parse(content[1]["text"]?.stringValue ?? "")
    #expect(json == session.structured(1))
  }
}
