import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// `--format sarif` against the OASIS SARIF 2.1.0 JSON schema (vendored in `Resources/`, see its
/// README), checked by the test target's own validator: every fixture, a batch with a baseline
/// (new, unchanged and absent results), and the shared corpus when it is there.
@Suite("SARIF schema")
struct SARIFSchemaTests {
  static let schemaURL = Fixtures.root.appendingPathComponent(
    "Tests/IPSDoctorCoreTests/Resources/sarif-schema-2.1.0.json")

  static func validator() throws -> JSONSchemaValidator {
    let bytes = [UInt8](try Data(contentsOf: schemaURL))
    return try JSONSchemaValidator(schema: try JSONParser.parse(bytes))
  }

  /// The schema's problems with `sarif`, the whole output of one run.
  static func problems(_ sarif: String, _ validator: JSONSchemaValidator) throws -> [String] {
    validator.errors(try JSONParser.parse(sarif))
  }

  /// Checks the outputs of many runs, each as a whole. Every run describes every rule: the rule
  /// descriptors are checked in the first output, and in each later one only when they differ
  /// from those.
  struct RunChecker {
    let validator: JSONSchemaValidator
    var checkedRules: JSONValue?
    static let rulesPath = "$.runs[0].tool.driver.rules"

    mutating func problems(_ sarif: String) throws -> [String] {
      let log = try JSONParser.parse(sarif)
      let rules = log["runs"]?[0]?["tool"]?["driver"]?["rules"]
      if let rules, let checkedRules, JSONSchemaValidator.equal(rules, checkedRules) {
        return validator.errors(log, skipping: [Self.rulesPath])
      }
      let problems = validator.errors(log)
      if problems.isEmpty { checkedRules = rules }
      return problems
    }
  }

  static let minimal = #"""
    {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t"}}, "results": [
      {"ruleId": "r", "level": "error", "message": {"text": "m"},
       "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.ips"}, "region": {"startLine": 1}}}]}]}]}
    """#

  @Test("The validator holds the real schema: a minimal log passes, broken ones fail")
  func schemaIsLive() throws {
    let validator = try Self.validator()
    #expect(try Self.problems(Self.minimal, validator).isEmpty)
    let broken = [
      Self.minimal.replacing(#""2.1.0""#, with: #""2.0.0""#),
      Self.minimal.replacing(#""level": "error""#, with: #""level": "fatal""#),
      Self.minimal.replacing(#""startLine": 1"#, with: #""startLine": 0"#),
      Self.minimal.replacing(#""message": {"text": "m"}"#, with: #""message": {}"#),
      Self.minimal.replacing(#"{"version""#, with: #"{"extra": 1, "version""#),
      Self.minimal.replacing(#""runs": [{"tool""#, with: #""runs": [{"results": [], "tool2""#),
    ]
    for sarif in broken {
      #expect(try !Self.problems(sarif, validator).isEmpty, "\(sarif)")
    }
    // Skipping the rule descriptors skips them only.
    let badRules = #"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "t", "rules": [{"id": 1}]}}}]}"#
    #expect(try !Self.problems(badRules, validator).isEmpty)
    #expect(validator.errors(try JSONParser.parse(badRules), skipping: [RunChecker.rulesPath]).isEmpty)
    let alsoBadVersion = badRules.replacing(#""2.1.0""#, with: #""2.0.0""#)
    #expect(!validator.errors(try JSONParser.parse(alsoBadVersion), skipping: [RunChecker.rulesPath]).isEmpty)
  }

  @Test("Each fixture report's SARIF is valid")
  func fixtures() throws {
    let validator = try Self.validator()
    let inputs =
      Fixtures.files(in: "reports", extensions: ["ips", "crash"])
      + Fixtures.files(in: "cli", extensions: ["ips"])
    #expect(inputs.count > 60)
    var checker = RunChecker(validator: validator)
    for input in inputs {
      let run = CLITest.run(["Fixtures/" + input, "--format", "sarif", "--fail-on", "never"])
      #expect(run.status == .success, "\(input): \(run.stderr)")
      #expect(try checker.problems(run.stdout) == [], "\(input)")
    }
    #expect(checker.checkedRules?.arrayValue?.isEmpty == false)
  }

  @Test("A batch with a baseline (new, unchanged and absent results) and notices is valid")
  func batchWithBaseline() throws {
    let validator = try Self.validator()
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let baseline = directory.appendingPathComponent("baseline.json").path
    let known = CLITest.run([CLITest.diagnosed, "--write-baseline", baseline, "--format", "json"])
    #expect(known.status == .findings)
    try SARIFOutputTests.addAbsentEntries(to: baseline)

    let run = CLITest.run([
      "Fixtures/reports", "Fixtures/cli", "Fixtures/no-such-folder", "--format", "sarif", "--baseline", baseline,
    ])
    #expect(run.status == .noInput)
    let sarif = try JSONParser.parse(run.stdout)
    let states = Set(sarif["runs"]?[0]?["results"]?.arrayValue?.compactMap { $0["baselineState"]?.stringValue } ?? [])
    #expect(states == ["new", "unchanged", "absent"])
    #expect(validator.errors(sarif) == [])
  }

  @Test("Each shared corpus report's SARIF is valid", .enabled(if: Fixtures.shared != nil))
  func corpus() throws {
    let validator = try Self.validator()
    let base = try #require(Fixtures.shared).appendingPathComponent("corpus")
    let files = (FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".ips") || $0.hasSuffix(".crash") }.sorted()
    #expect(files.count >= 30)
    var checker = RunChecker(validator: validator)
    for file in files {
      let run = CLITest.run([base.appendingPathComponent(file).path, "--format", "sarif", "--fail-on", "never"])
      #expect(try checker.problems(run.stdout) == [], "\(file)")
    }
  }
}
