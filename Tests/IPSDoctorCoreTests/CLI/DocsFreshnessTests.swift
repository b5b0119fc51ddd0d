import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis

@Suite("Generated docs are fresh")
struct DocsFreshnessTests {
  @Test("docs/rules.md is the output of 'ips-doctor rules --format markdown'")
  func rulesMarkdown() throws {
    let run = CLITest.run(["rules", "--format", "markdown"])
    #expect(run.status == .success)
    let committed = try String(contentsOf: Fixtures.root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
    #expect(
      committed == run.stdout,
      "docs/rules.md is out of date: run 'swift run ips-doctor rules --format markdown > docs/rules.md'")
  }

  @Test("The README documents every exit code the CLI can return")
  func readmeExitCodes() throws {
    let readme = try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
    for code in [0, 1, 64, 65, 66, 70, 73] {
      #expect(readme.contains("| \(code) |"), "README.md lacks exit code \(code)")
    }
  }

  @Test("The README's fixture command names a fixture that exists")
  func readmeFixture() throws {
    let readme = try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
    let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("swift run -c release ips-doctor ") })
    let path = String(line.dropFirst("swift run -c release ips-doctor ".count))
    #expect(FileManager.default.fileExists(atPath: Fixtures.root.appendingPathComponent(path).path))
    let run = CLITest.run([path])
    #expect(run.stdout.contains("async-bridge-completion-off-main"))
  }
}
