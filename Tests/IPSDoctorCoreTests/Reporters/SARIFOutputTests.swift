import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput

/// What `--format sarif` says beyond the schema: baseline states, fingerprints, locations, the rule
/// descriptors, and `executionSuccessful` against the exit status.
@Suite("SARIF output")
struct SARIFOutputTests {
  /// A signature no fixture has, of a catalog rule, and one the baseline names no rule for.
  static let absentWithRule = "00000000000000aa"
  static let absentWithoutRule = "00000000000000bb"

  /// Adds the two absent signatures to the baseline file at `path`.
  static func addAbsentEntries(to path: String) throws {
    var baseline = try Baseline.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    baseline.entries[absentWithRule] = .init(
      id: absentWithRule, rule: "watchdog-timeout", title: "Watchdog Timeout", count: 4, components: [])
    baseline.entries[absentWithoutRule] = .init(id: absentWithoutRule, components: [])
    try (JSONWriter.string(baseline.json) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  }

  static func results(_ sarif: JSONValue) -> [JSONValue] {
    sarif["runs"]?[0]?["results"]?.arrayValue ?? []
  }

  static func rules(_ sarif: JSONValue) -> [JSONValue] {
    sarif["runs"]?[0]?["tool"]?["driver"]?["rules"]?.arrayValue ?? []
  }

  static func uri(_ result: JSONValue) -> String? {
    result["locations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue
  }

  @Test("With a baseline: unchanged for known signatures, new for the others, absent for unseen ones")
  func baselineStates() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let baseline = directory.appendingPathComponent("baseline.json").path
    #expect(CLITest.run([CLITest.diagnosed, "--write-baseline", baseline, "--format", "json"]).status == .findings)
    try Self.addAbsentEntries(to: baseline)

    let run = CLITest.run([CLITest.diagnosed, CLITest.otherCrash, "--format", "sarif", "--baseline", baseline])
    #expect(run.status == .findings)
    let sarif = try JSONParser.parse(run.stdout)
    let results = Self.results(sarif)
    let states = results.map { ($0["baselineState"]?.stringValue ?? "-") + " " + (Self.uri($0) ?? "-") }
    #expect(
      states == [
        "unchanged \(CLITest.diagnosed)", "new \(CLITest.otherCrash)",
        "absent file://\(baseline)", "absent file://\(baseline)",
      ])

    let rules = Self.rules(sarif)
    let absent = results.filter { $0["baselineState"]?.stringValue == "absent" }
    #expect(absent.count == 2)
    let known = try #require(absent.first)
    #expect(known["ruleId"]?.stringValue == "watchdog-timeout")
    let index = try #require(known["ruleIndex"]?.numberValue?.int)
    #expect(rules[index]["id"]?.stringValue == "watchdog-timeout")
    #expect(known["message"]?["text"]?.stringValue == "Not seen in this run: Watchdog Timeout (in the baseline)")
    #expect(known["kind"]?.stringValue == "pass" && known["level"]?.stringValue == "none")
    #expect(known["partialFingerprints"]?["crashSignature/v1"]?.stringValue == Self.absentWithRule)
    #expect(known["properties"]?["baselineCount"]?.numberValue?.int == 4)
    let unnamed = try #require(absent.last)
    #expect(unnamed["ruleId"]?.stringValue == Finding.Builtin.inconclusive.rawValue)
    #expect(unnamed["partialFingerprints"]?["crashSignature/v1"]?.stringValue == Self.absentWithoutRule)
  }

  @Test("A missing baseline makes every result new; no baseline, no baselineState")
  func noBaseline() throws {
    let missing = CLITest.run([CLITest.diagnosed, "--format", "sarif", "--baseline", "/nonexistent/baseline.json"])
    #expect(missing.status == .findings)
    #expect(Self.results(try JSONParser.parse(missing.stdout)).map { $0["baselineState"]?.stringValue } == ["new"])
    let none = CLITest.run([CLITest.diagnosed, CLITest.otherCrash, "--format", "sarif"])
    let results = Self.results(try JSONParser.parse(none.stdout))
    #expect(results.count == 2)
    #expect(results.allSatisfy { $0["baselineState"] == nil })
  }

  @Test("partialFingerprints carry each report's crash signature, as --format json states it")
  func fingerprints() throws {
    let inputs = [CLITest.diagnosed, CLITest.unsymbolicated, CLITest.otherCrash, CLITest.inconclusive, CLITest.panic]
    let json = try JSONParser.parse(CLITest.run(inputs + ["--format", "json"]).stdout)
    var signatures: [String: String] = [:]
    for report in json["reports"]?.arrayValue ?? [] {
      if let path = report["path"]?.stringValue, let id = report["signature"]?["id"]?.stringValue {
        signatures[path] = id
      }
    }
    #expect(signatures.count == inputs.count)
    let results = Self.results(try JSONParser.parse(CLITest.run(inputs + ["--format", "sarif"]).stdout))
    #expect(results.count == inputs.count)
    for result in results {
      let path = try #require(Self.uri(result))
      #expect(result["partialFingerprints"]?["crashSignature/v1"]?.stringValue == signatures[path], "\(path)")
    }
    // Different crashes, different fingerprints.
    #expect(Set(signatures.values).count > 1)
  }

  @Test("Locations: relative to %SRCROOT% (the working directory), else file:// URIs")
  func locations() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try CLITest.copyFixture(CLITest.otherCrash, to: directory, as: "outside.ips")
    let outside = directory.appendingPathComponent("outside.ips").path
    let inside = Fixtures.root.appendingPathComponent(CLITest.diagnosed).path
    let run = CLITest.run(["./" + CLITest.unsymbolicated, inside, outside, "--format", "sarif"])
    var locations: [String: String] = [:]
    for result in Self.results(try JSONParser.parse(run.stdout)) {
      let artifact = result["locations"]?[0]?["physicalLocation"]?["artifactLocation"]
      locations[artifact?["uri"]?.stringValue ?? "?"] = artifact?["uriBaseId"]?.stringValue ?? "none"
      #expect(result["locations"]?[0]?["physicalLocation"]?["region"]?["startLine"]?.numberValue?.int == 1)
    }
    #expect(
      locations == [
        CLITest.unsymbolicated: "%SRCROOT%", CLITest.diagnosed: "%SRCROOT%", "file://" + outside: "none",
      ])
    #expect(SARIFReporter.uri("/w/a/b.ips", workingDirectory: "/w/") == "a/b.ips")
    #expect(SARIFReporter.uri("/wx/b.ips", workingDirectory: "/w/") == "file:///wx/b.ips")
    #expect(SARIFReporter.uri("././a.ips", workingDirectory: nil) == "a.ips")
  }

  /// `value[key][member]` as a string, empty when missing.
  static func text(_ value: JSONValue, _ key: String, _ member: String) -> String {
    value[key]?[member]?.stringValue ?? ""
  }

  @Test("Each rule has its descriptions, help in text and Markdown, tags, and its first https reference")
  func ruleDescriptors() throws {
    let run = CLITest.run([CLITest.diagnosed, "--format", "sarif"])
    let rules = Self.rules(try JSONParser.parse(run.stdout))
    let catalog: [RuleDescription] = RuleCatalog.all.map { $0.description }
    #expect(rules.count == catalog.count + Finding.Builtin.allCases.count)
    #expect(Set(rules.compactMap { $0["id"]?.stringValue }).count == rules.count)
    for rule in rules {
      let id = rule["id"]?.stringValue ?? "?"
      let texts: [String] = [
        Self.text(rule, "shortDescription", "text"), Self.text(rule, "fullDescription", "text"),
        Self.text(rule, "help", "text"), Self.text(rule, "help", "markdown"),
      ]
      #expect(!texts.contains(""), "\(id)")
      let tags: [String] = rule["properties"]?["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
      let category: String = Self.text(rule, "properties", "category")
      #expect(tags == ["crash", category], "\(id)")
      let description: RuleDescription? = catalog.first { $0.id == id }
      let expected: String? =
        description?.references.first { $0.hasPrefix("https://") } ?? Finding.Builtin(rawValue: id)?.helpURI
      #expect(rule["helpUri"]?.stringValue == expected, "\(id)")
    }
    #expect(rules.contains { $0["helpUri"] != nil })
  }

  @Test(
    "executionSuccessful and exitCode agree with the exit status",
    arguments: [
      ([CLITest.inconclusive], ExitCode.success),
      ([CLITest.diagnosed], .findings),
      (["Fixtures/no-such-report.ips"], .noInput),
    ])
  func executionSuccessful(_ inputs: [String], _ status: ExitCode) throws {
    let run = CLITest.run(inputs + ["--format", "sarif"])
    #expect(run.status == status)
    let invocation = try JSONParser.parse(run.stdout)["runs"]?[0]?["invocations"]?[0]
    #expect(invocation?["exitCode"]?.numberValue?.int == Int(status.rawValue))
    #expect(invocation?["executionSuccessful"]?.boolValue == (status == .success || status == .findings))
  }

  @Test("A report that cannot be read: exit 65, executionSuccessful false")
  func unreadable() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let path = directory.appendingPathComponent("broken.ips").path
    try #"{"bug_type":"309","#.write(toFile: path, atomically: true, encoding: .utf8)
    let run = CLITest.run([path, "--format", "sarif"])
    #expect(run.status == .dataError)
    let invocation = try JSONParser.parse(run.stdout)["runs"]?[0]?["invocations"]?[0]
    #expect(invocation?["exitCode"]?.numberValue?.int == 65)
    #expect(invocation?["executionSuccessful"]?.boolValue == false)
  }
}
