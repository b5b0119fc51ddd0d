import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis

/// What a reader sees first names one cause: `-q` prints one line per crash, and a catch-all rule
/// ("Uncaught Objective-C Exception") is not offered as an alternative to a specific cause.
@Suite struct OneCrashOneLineTests {
  static let founding = "Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips"

  @Test func quietPrintsOneLinePerCrash() {
    let run = CLITest.run([Self.founding, "-q"])
    #expect(run.status == .findings)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 1, "\(run.stdout)")
    #expect(lines.first?.contains("[async-bridge-completion-off-main] (definite)") == true)
  }

  @Test func aCatchAllIsNoAlternativeToASpecificCause() {
    let run = CLITest.run([Self.founding])
    #expect(!run.stdout.contains("objc-uncaught-exception"), "\(run.stdout)")
    // JSON keeps every finding; only what the reader is shown first changes.
    #expect(CLITest.run([Self.founding, "--format", "json"]).stdout.contains("objc-uncaught-exception"))
  }

  @Test func alternativesKeepSpecificCausesAndDropCatchAlls() {
    func finding(_ id: String) -> Diagnosis {
      Diagnosis(
        ruleID: id, title: id, confidence: .likely, severity: .error, summary: "", evidence: [], remedy: "",
        references: [])
    }
    let specific = [finding("zombie-object"), finding("objc-uncaught-exception"), finding("heap-corruption")]
    #expect(RuleCatalog.alternatives(specific).map(\.ruleID) == ["heap-corruption"])
    // Under a catch-all, the others are all worth reading.
    let general = [finding("objc-uncaught-exception"), finding("abort-called")]
    #expect(RuleCatalog.alternatives(general).map(\.ruleID) == ["abort-called"])
    #expect(RuleCatalog.catchAllIDs.contains("objc-uncaught-exception"))
    #expect(RuleCatalog.catchAllIDs.contains("swift-trap-unknown"))
    #expect(!RuleCatalog.catchAllIDs.contains("zombie-object"))
  }

  @Test func aMissingDSYMIsAnErrorNamingIt() {
    let run = CLITest.run([Self.founding, "--dsym", "/nonexistent/Missing.app.dSYM"])
    #expect(run.status == .noInput)
    #expect(run.stderr.contains("--dsym '/nonexistent/Missing.app.dSYM': no such file or directory"), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    for command in ["symbolicate", "show"] {
      #expect(CLITest.run([command, Self.founding, "--dsym", "/nonexistent/x.dSYM"]).status == .noInput)
    }
  }
}

/// `--app` names an app by its name, its bundle identifier, or a team's prefix of it.
@Suite struct AppFilterTests {
  @Test(arguments: [
    ("ChatApp", true), ("chatapp", true), ("com.example.chat", true), ("com.example", true), ("com.example.", true),
    ("com", true), ("com.exam", false), ("com.example.chatty", false), ("Chat", false), ("", false),
  ])
  func matches(filter: String, expected: Bool) {
    #expect(ReportFilter.app(filter, matchesName: "ChatApp", bundleID: "com.example.chat") == expected)
  }

  @Test func aTeamPrefixKeepsEveryTarget() {
    let run = CLITest.run(["Fixtures/reports", "--app", "com.example", "--format", "jsonl", "--fail-on", "never"])
    #expect(run.status == .success)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count > 1)
    #expect(lines.allSatisfy { $0.contains(#""bundleID":"com.example."#) }, "\(lines.first ?? "")")
  }
}
