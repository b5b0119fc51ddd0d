import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorOutput

/// Docs and help agree with the binary: docs/cli.md's usage block and options table are what
/// `--help` and `help <command>` are made from (``OptionSpec/all``, ``Command/usage``), and every id
/// an output names is one `explain` knows. Regenerate with `IPS_DOCTOR_RECORD=1 swift test --filter
/// HelpDocs` and review the diff.
@Suite struct HelpDocsTests {
  static let path = Fixtures.root.appendingPathComponent("docs/cli.md")

  /// The text between `<!-- name: … -->` and `<!-- end name -->`, and the document with `body`
  /// there instead.
  static func section(_ name: String, of document: String, replacingWith body: String? = nil) throws -> (
    current: String, replaced: String
  ) {
    let open = try #require(document.range(of: "<!-- \(name): "), "no <!-- \(name): … --> marker in docs/cli.md")
    let start = try #require(document.range(of: "-->\n", range: open.upperBound..<document.endIndex)).upperBound
    let end = try #require(document.range(of: "<!-- end \(name) -->", range: start..<document.endIndex)).lowerBound
    let current = String(document[start..<end])
    return (current, document.replacingCharacters(in: start..<end, with: body ?? current))
  }

  @Test func cliDocsUsageAndOptionsAreTheHelpsOwn() throws {
    var document = try String(contentsOf: Self.path, encoding: .utf8)
    let expected = [("usage", Help.markdownUsage()), ("options", Help.markdownOptionsTable())]
    for (name, text) in expected {
      let (current, replaced) = try Self.section(name, of: document, replacingWith: text)
      if GoldenTests.record {
        document = replaced
      } else {
        #expect(current == text, "docs/cli.md's \(name) differs from the help: IPS_DOCTOR_RECORD=1 regenerates it")
      }
    }
    if GoldenTests.record { try document.write(to: Self.path, atomically: true, encoding: .utf8) }
  }

  /// Each usage line of the docs is the one `help <command>` prints, and each option in the table
  /// is listed by `help <command>` for each command it names.
  @Test func helpOfEachCommandPrintsWhatTheDocsSay() throws {
    let document = try String(contentsOf: Self.path, encoding: .utf8)
    let usage = try Self.section("usage", of: document).current
    let table = try Self.section("options", of: document).current
    for command in Command.allCases {
      let help = CLITest.run(["help", command.rawValue])
      #expect(help.status == .success, "help \(command.rawValue)")
      #expect(help.stdout.contains("USAGE: " + command.usage), "help \(command.rawValue)")
      #expect(usage.contains(command.usage + "\n"))
      for spec in OptionSpec.all where spec.commands.contains(command) {
        #expect(help.stdout.contains("--" + spec.long), "help \(command.rawValue) lacks --\(spec.long)")
        #expect(table.contains("`" + spec.spelling + "`"))
      }
    }
    // `help diagnose` is the general help.
    #expect(CLITest.run(["help", "diagnose"]).stdout == CLITest.run(["--help"]).stdout)
  }

  /// SARIF names rules by id: each one `explain` knows, and each with a page to link to.
  @Test func everySARIFRuleHasAHelpURIAndIsExplained() throws {
    let batch = CLITest.run(GoldenTests.batch + ["--format", "sarif"])
    let check = CLITest.run(["check", "Fixtures/swift", "--format", "sarif", "--fail-on", "never"])
    for run in [batch, check] {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      let runs = try #require(object["runs"] as? [[String: Any]])
      let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
      let rules = try #require(driver["rules"] as? [[String: Any]])
      #expect(!rules.isEmpty)
      let ids = Set(rules.compactMap { $0["id"] as? String })
      for rule in rules {
        let id = rule["id"] as? String ?? "?"
        #expect((rule["helpUri"] as? String)?.hasPrefix("https://") == true, "\(id) has no helpUri")
      }
      let results = try #require(runs.first?["results"] as? [[String: Any]])
      for result in results {
        let id = try #require(result["ruleId"] as? String)
        #expect(ids.contains(id))
        #expect(CLITest.run(["explain", id]).status == .success, "explain \(id)")
      }
    }
    #expect(CLITest.run(["explain", "async-delegate-completion-off-main"]).status == .success)
    for builtin in Finding.Builtin.allCases {
      #expect(CLITest.run(["explain", builtin.rawValue]).status == .success)
    }
  }
}
