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
  }

  @Test("Each fixture report's SARIF is valid")
  func fixtures() throws {
    let validator = try Self.validator()
    let inputs =
      Fixtures.files(in: "reports", extensions: ["ips", "crash"])
      + Fixtures.files(in: "cli", extensions: ["ips"])
    #expect(inputs.count > 60)
    for input in inputs {
      let run = CLITest.run(["Fixtures/" + input, "--format", "sarif", "--fail-on", "never"])
      #expect(run.status == .success, "\(input): \(run.stderr)")
      #expect(try Self.problems(run.stdout, validator) == [], "\(input)")
    }
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
    for file in files {
      let run = CLITest.run([base.appendingPathComponent(file).path, "--format", "sarif", "--fail-on", "never"])
      #expect(try Self.problems(run.stdout, validator) == [], "\(file)")
    }
  }
}
