import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// The README's CI section runs as written: the plain-commands job (between the `ci-commands`
/// markers) under GitHub's `bash -eo pipefail`, with and without its baseline, and the action job
/// (between the `ci-action` markers) names only inputs action.yml declares.
@Suite("README CI job")
struct ReadmeCITests {
  static func readme() throws -> String {
    try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  static func commandsBlock() throws -> String {
    try #require(ShellStep.markedBlock("ci-commands", in: try readme()))
  }

  /// The value of `--flag VALUE` in a command line.
  static func value(of flag: String, in command: String) -> String? {
    let words = command.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\\" })
    guard let index = words.firstIndex(of: Substring(flag)), index + 1 < words.count else { return nil }
    return String(words[index + 1])
  }

  @Test("The build step makes the binary the diagnose step runs")
  func buildAndRunAgree() throws {
    let block = try Self.commandsBlock()
    let build = try #require(ShellStep.runText(ofStep: "Build ips-doctor", in: block))
    let diagnose = try #require(ShellStep.runText(ofStep: "Diagnose crash reports", in: block))
    let package = try #require(Self.value(of: "--package-path", in: build))
    #expect(build.hasPrefix("swift build -c release "))
    #expect(diagnose.hasPrefix(package + "/.build/release/ips-doctor "))
    #expect(block.contains("path: \(package)\n"))
    #expect(block.contains("if: always()"))
  }

  @Test(
    "The diagnose step, as written: fails on new crashes and still writes the SARIF; passes once baselined",
    .enabled(if: ShellStep.tool("bash") != nil))
  func diagnoseStep() throws {
    guard ProcessTest.available else { return }
    let block = try Self.commandsBlock()
    let diagnose = try #require(ShellStep.runText(ofStep: "Diagnose crash reports", in: block))
    let build = try #require(ShellStep.runText(ofStep: "Build ips-doctor", in: block))
    let package = try #require(Self.value(of: "--package-path", in: build))
    let sarifName = try #require(Self.value(of: "--output", in: diagnose))
    let baselineName = try #require(Self.value(of: "--baseline", in: diagnose))

    let workspace = try ShellStep.workspace(reports: ActionScriptTests.reports)
    defer { CLITest.cleanUp(workspace) }
    // The binary the build step would make, where the diagnose step looks for it.
    let binary = workspace.appendingPathComponent(package + "/.build/release/ips-doctor")
    try FileManager.default.createDirectory(
      at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: binary.path, withDestinationPath: try #require(ProcessTest.executable))
    let sarif = workspace.appendingPathComponent(sarifName)
    let summary = workspace.appendingPathComponent("step-summary.md")
    let environment = ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path]

    let first = try ShellStep.runBash(diagnose, in: workspace, environment: environment)
    #expect(first.status == 1, "\(first.stderr)")
    #expect(first.stderr.contains("does not exist yet"))
    #expect(first.stdout.contains("::error "))
    let firstSARIF = try JSONParser.parse([UInt8](try Data(contentsOf: sarif)))
    #expect(SARIFOutputTests.results(firstSARIF).count == ActionScriptTests.reports.count)
    #expect(FileManager.default.fileExists(atPath: summary.path))

    // Accept the current crashes, as the README says: --write-baseline, then commit the file.
    try FileManager.default.removeItem(at: sarif)
    let write = try ShellStep.runBash(
      "\(package)/.build/release/ips-doctor crash-reports/ --write-baseline \(baselineName) --fail-on never",
      in: workspace, environment: [:])
    #expect(write.status == 0, "\(write.stderr)")
    let second = try ShellStep.runBash(diagnose, in: workspace, environment: environment)
    #expect(second.status == 0, "\(second.stderr)")
    let secondSARIF = try JSONParser.parse([UInt8](try Data(contentsOf: sarif)))
    #expect(Set(SARIFOutputTests.results(secondSARIF).compactMap { $0["baselineState"]?.stringValue }) == ["unchanged"])
  }

  @Test("The action job uses only inputs action.yml declares, and one repository name throughout")
  func actionJob() throws {
    let readme = try Self.readme()
    let block = try #require(ShellStep.markedBlock("ci-action", in: readme))
    let action = try String(contentsOf: ActionScriptTests.actionURL, encoding: .utf8)
    let lines = block.split(separator: "\n")
    let uses = try #require(lines.first { $0.contains("uses: ") && $0.contains("/ips-doctor@") })
    let repository = try #require(uses.split(separator: " ").first { $0.contains("/ips-doctor@") })
      .split(separator: "@")[0]
    #expect(uses.hasSuffix("@v1") || uses.contains("@v1 "))

    // The `with:` keys of the step that uses the action.
    let start = try #require(lines.firstIndex(of: uses))
    let stepIndent = ShellStep.indentation(uses)
    var keys: [String] = []
    var inWith = false
    for line in lines[(start + 1)...] {
      let indent = ShellStep.indentation(line)
      if indent <= stepIndent { break }
      let trimmed = line.drop { $0 == " " }
      if trimmed == "with:" {
        inWith = true
      } else if inWith, let colon = trimmed.firstIndex(of: ":") {
        keys.append(String(trimmed[..<colon]))
      }
    }
    #expect(keys.contains("path"))
    for key in keys {
      #expect(action.contains("\n  \(key):\n"), "\(key) is not an input of action.yml")
    }

    // The same owner/name in the plain job, the install lines and the formula.
    #expect(try Self.commandsBlock().contains("repository: \(repository) "))
    #expect(readme.contains("mint install \(repository) "))
    let formula = try String(contentsOf: FormulaTests.formulaURL, encoding: .utf8)
    #expect(formula.contains("https://github.com/\(repository).git"))
  }
}
