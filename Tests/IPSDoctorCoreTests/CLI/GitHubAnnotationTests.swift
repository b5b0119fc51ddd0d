import Foundation
import Testing

@testable import IPSDoctorOutput

/// `--format github`: one annotation per crash group, errors first, within GitHub's limits, and the
/// step summary whatever the format.
@Suite struct GitHubAnnotationTests {
  @Test func oneAnnotationPerGroupWithItsCount() throws {
    let root = try BatchViewTests.folder()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([root.path, "--format", "github"])
    let annotations = run.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
    #expect(annotations.count == 3, "\(annotations)")
    #expect(annotations.first?.contains("50 reports") == true)
    #expect(annotations.allSatisfy { $0.hasPrefix("::error ") })
  }

  /// GitHub shows 10 annotations of a level in a step: past that, one line says how many were left.
  @Test func moreGroupsThanGitHubShowsAreCountedNotDropped() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let errors = Fixtures.files(in: "reports").filter { $0.hasSuffix(".ips") }
    for (index, file) in errors.enumerated() {
      try CLITest.copyFixture("Fixtures/" + file, to: root, as: "r\(index).ips")
    }
    let run = CLITest.run([root.path, "--format", "github"])
    let lines = run.stdout.split(separator: "\n")
    let errorLines = lines.filter { $0.hasPrefix("::error ") }
    #expect(errorLines.count == GitHubReporter.perLevelLimit)
    #expect(lines.contains { $0.hasPrefix("ips-doctor: ") && $0.contains("more error annotations were not written") })
    // Errors come before warnings and notices.
    let firstOther = lines.firstIndex { $0.hasPrefix("::warning") || $0.hasPrefix("::notice") }
    let lastError = lines.lastIndex { $0.hasPrefix("::error") }
    if let firstOther, let lastError { #expect(lastError < firstOther) }
  }

  @Test func theStepSummaryIsWrittenInAnActionWhateverTheFormat() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let summary = root.appendingPathComponent("summary.md").path
    let sarif = root.appendingPathComponent("out.sarif").path
    let run = CLITest.run(
      [CLITest.diagnosed, CLITest.inconclusive, "-o", sarif],
      environment: ["GITHUB_STEP_SUMMARY": summary, "GITHUB_ACTIONS": "true"])
    #expect(run.status == .findings)
    let text = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(text.contains("## Crash groups"))
    #expect(text.contains("async-bridge-completion-off-main"))
    // Outside an action, only the github format writes it.
    let other = root.appendingPathComponent("other.md").path
    _ = CLITest.run([CLITest.diagnosed, "--format", "json"], environment: ["GITHUB_STEP_SUMMARY": other])
    #expect(!FileManager.default.fileExists(atPath: other))
  }
}

/// Every id the tool emits can be explained, and SARIF says what the exit status says.
@Suite struct EmittedIDTests {
  @Test(arguments: Finding.Builtin.allCases)
  func explainKnowsTheBuiltinIDs(builtin: Finding.Builtin) {
    for format in ["text", "json", "markdown"] {
      let run = CLITest.run(["explain", builtin.rawValue, "--format", format])
      #expect(run.status == .success)
      #expect(run.stdout.contains(builtin.title))
    }
  }

  @Test func sarifRulesHaveHelpURIsAndPlainHelp() throws {
    let run = CLITest.run([CLITest.diagnosed, "--format", "sarif"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let runs = try #require(json["runs"] as? [[String: Any]])
    let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rules = try #require(driver["rules"] as? [[String: Any]])
    let founding = try #require(rules.first { $0["id"] as? String == "async-bridge-completion-off-main" })
    #expect((founding["helpUri"] as? String)?.hasPrefix("https://") == true)
    let help = try #require(founding["help"] as? [String: String])
    #expect(help["text"]?.contains("```") == false)
    let invocation = try #require((runs.first?["invocations"] as? [[String: Any]])?.first)
    #expect(invocation["executionSuccessful"] as? Bool == true)
  }

  @Test func sarifExecutionFailsWhenAnInputCouldNotBeRead() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let broken = root.appendingPathComponent("broken.ips")
    try Data("{\"bug_type\":\"309\"}\n[1]".utf8).write(to: broken)
    let run = CLITest.run([broken.path, "--format", "sarif"])
    #expect(run.status == .dataError)
    #expect(run.stdout.contains("\"executionSuccessful\": false"))
  }
}
