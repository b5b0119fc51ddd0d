import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// One rule example, named for the test report.
struct RuleExampleCase: CustomTestStringConvertible, Sendable {
  let ruleID: String
  let example: RuleExample

  var testDescription: String {
    let verb = example.expectation == .doesNotTrigger ? "ignores" : "triggers"
    return "\(ruleID): \(example.name) \(verb)"
  }

  static let all: [RuleExampleCase] = RuleCatalog.all.flatMap { rule in
    rule.description.examples.map { RuleExampleCase(ruleID: rule.description.id, example: $0) }
  }
}

@Suite("Rule examples")
struct RuleExampleTests {
  @Test("Rule examples behave as documented", arguments: RuleExampleCase.all)
  func example(_ testCase: RuleExampleCase) throws {
    let example = testCase.example
    let location = Testing.SourceLocation(
      fileID: example.fileID, filePath: example.filePath, line: example.line, column: example.column)
    let bytes: [UInt8]
    switch example.input {
    case .inline(let text): bytes = Array(text.utf8)
    case .fixture(let path): bytes = try Fixtures.bytes(path)
    }
    let report = try ReportReader.read(bytes)
    #expect(report.bodyError == nil, "example does not parse: \(report.bodyError!)", sourceLocation: location)
    guard let rule = RuleCatalog.rule(id: testCase.ruleID) else {
      Issue.record("rule \(testCase.ruleID) is not registered", sourceLocation: location)
      return
    }
    let diagnosis = rule.init().diagnose(DiagnosisContext(report: report))
    switch example.expectation {
    case .doesNotTrigger:
      #expect(diagnosis == nil, "fired: \(diagnosis?.summary ?? "")", sourceLocation: location)
    case .triggers(let confidence, let fragments):
      guard let diagnosis else {
        Issue.record("did not fire", sourceLocation: location)
        return
      }
      #expect(diagnosis.confidence >= confidence, "confidence \(diagnosis.confidence)", sourceLocation: location)
      for fragment in fragments {
        #expect(
          diagnosis.summary.contains(fragment),
          "summary lacks \"\(fragment)\": \(diagnosis.summary)", sourceLocation: location)
      }
      #expect(!diagnosis.evidence.isEmpty, "no evidence", sourceLocation: location)
    }
  }
}

@Suite("Rule catalog")
struct RuleCatalogTests {
  @Test("Ids are unique and kebab-case")
  func ids() {
    let ids = RuleCatalog.ids
    #expect(Set(ids).count == ids.count, "duplicate ids")
    for id in ids {
      let valid =
        id.first?.isLetter == true && id.last != "-" && !id.contains("--")
        && id.allSatisfy { ($0.isLowercase && $0.isASCII) || $0.isNumber || $0 == "-" }
      #expect(valid, "\(id) is not kebab-case")
    }
  }

  @Test("The pinned ids exist")
  func pinnedIDs() {
    let pinned = [
      "async-bridge-completion-off-main", "completion-handler-called-off-main",
      "swift-isolation-check-failed", "objc-uncaught-exception", "swift-force-unwrap-nil",
      "swift-index-out-of-range", "null-pointer-dereference", "stack-overflow", "zombie-object",
      "watchdog-timeout", "jetsam-memory-limit", "dyld-missing-library",
    ]
    for id in pinned {
      #expect(RuleCatalog.rule(id: id) != nil, "\(id) is missing")
    }
  }

  @Test("Every rule describes itself and has both kinds of example")
  func descriptions() {
    for rule in RuleCatalog.all {
      let description = rule.description
      #expect(description.summary.hasSuffix("."), "\(description.id): summary must end with a period")
      #expect(!description.title.isEmpty && description.title.first!.isUppercase, "\(description.id): title")
      #expect(!description.rationale.isEmpty, "\(description.id): rationale")
      #expect(!description.remedy.isEmpty, "\(description.id): remedy")
      #expect(
        description.examples.contains { $0.expectation != .doesNotTrigger }, "\(description.id): no triggering example")
      #expect(
        description.examples.contains { $0.expectation == .doesNotTrigger },
        "\(description.id): no non-triggering example")
    }
  }

  @Test("Every rule file is registered")
  func registration() throws {
    let rulesFolder = Fixtures.root.appendingPathComponent("Sources/IPSDoctorDiagnosis/Rules")
    let enumerator = FileManager.default.enumerator(atPath: rulesFolder.path)
    var typeNames: [String] = []
    while let path = enumerator?.nextObject() as? String {
      let name = (path as NSString).lastPathComponent
      if name.hasSuffix("Rule.swift") && name != "DiagnosisRule.swift" {
        typeNames.append(String(name.dropLast(".swift".count)))
      }
    }
    let registered = Set(RuleCatalog.all.map { String(describing: $0) })
    #expect(!typeNames.isEmpty)
    for name in typeNames {
      #expect(registered.contains(name), "\(name) is not in RuleCatalog.all")
    }
  }
}
