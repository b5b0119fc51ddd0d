import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Every rule's signature tells one instance of its crash from another and keeps one crash one.
/// Over the rule catalog, for the first example each rule wins: another instance (other app
/// frames, or the fact the rule names: another library, symbol, selector, exception, usage key,
/// process) makes another group, and a copy of the report (another incident, time and process
/// id) makes the same group.
@Suite("Rule signatures")
struct RuleSignatureTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var ruleID: String
    var example: String
    var text: String
    var testDescription: String { "\(ruleID): \(example)" }
  }

  /// The first example each rule wins (its diagnosis comes first).
  static let cases: [Case] = RuleCatalog.all.compactMap { rule in
    let id = rule.description.id
    for example in rule.description.examples where example.expectation != .doesNotTrigger {
      let text: String
      switch example.input {
      case .inline(let inline): text = inline
      case .fixture(let path): text = (try? String(contentsOf: Fixtures.url(path), encoding: .utf8)) ?? ""
      }
      guard let report = try? ReportReader.read(Array(text.utf8)),
        Doctor.diagnose(report).diagnoses.first?.ruleID == id
      else { continue }
      return Case(ruleID: id, example: example.name, text: text)
    }
    return nil
  }

  /// The cpu usage resource report (bug_type 202) of `cpu-resource-limit`, which has no app frame:
  /// the case of a signature keyed by the reason alone.
  @Test func twoAppsCPUResourceReportsAreTwoGroups() throws {
    let report = try ReportReader.read(try Fixtures.bytes("reports/cpu-resource-202.ips"))
    #expect(Doctor.diagnose(report).diagnoses.first?.ruleID == "cpu-resource-limit")
    var other = report
    other.processName = "OtherApp"
    other.bundleID = "com.example.other"
    #expect(!Self.oneGroup(report, other))
    var copy = report
    copy.captureTime = "2027-01-02 03:04:05.00 +0000"
    #expect(Self.oneGroup(report, copy))
  }

  /// Replacements that make another instance of a rule whose signature names a fact of the report
  /// rather than an app frame.
  static let otherInstance: [String: [(String, String)]] = [
    "dyld-missing-library": [("Analytics", "Payments")],
    "dyld-missing-symbol": [("UISheetPresentationController", "UIColorWell")],
    "privacy-usage-description-missing": [("NSCameraUsageDescription", "NSMicrophoneUsageDescription")],
    "objc-uncaught-exception": [("NSInternalInconsistencyException", "NSGenericException")],
    "objc-unrecognized-selector": [("[NSNull length]", "[NSNull count]")],
  ]

  /// The report with every app frame moved and renamed: the crash of other code in the app.
  static func otherCode(_ report: CrashReport) -> CrashReport {
    let context = DiagnosisContext(report: report)
    func moved(_ frames: [Frame]) -> [Frame] {
      frames.map { frame in
        guard context.isAppFrame(frame) else { return frame }
        var copy = frame
        copy.imageOffset = frame.imageOffset.map { $0 &+ 0x4_0000 }
        copy.address = frame.address.map { $0 &+ 0x4_0000 }
        // Another type's function: `App.View.body.getter` → `App.OtherView.body.getter`.
        copy.symbol = frame.symbol.map { symbol in
          guard let dot = symbol.firstIndex(of: "."), !symbol.hasPrefix("-["), !symbol.hasPrefix("+[") else {
            return "Other" + symbol
          }
          return symbol[...dot] + "Other" + symbol[symbol.index(after: dot)...]
        }
        return copy
      }
    }
    var result = report
    for index in result.threads.indices { result.threads[index].frames = moved(result.threads[index].frames) }
    result.lastExceptionBacktrace = result.lastExceptionBacktrace.map(moved)
    return result
  }

  /// Whether a batch puts the two reports in one group.
  static func oneGroup(_ first: CrashReport, _ second: CrashReport) -> Bool {
    var groups = CrashGroups()
    for (index, report) in [first, second].enumerated() {
      groups.add(
        ReportOutcome(
          index: index, path: "\(index)", facts: ReportFacts(report), result: Doctor.diagnose(report)))
    }
    return groups.count == 1
  }

  @Test(arguments: cases) func twoInstancesAreTwoGroupsAndTwoCopiesOne(_ testCase: Case) throws {
    let report = try ReportReader.read(Array(testCase.text.utf8))
    // A copy: another incident, another time, another process id.
    var copy = report
    copy.incidentID = "11111111-2222-4333-8444-555555555555"
    copy.captureTime = "2027-01-02 03:04:05.00 +0000"
    copy.pid = (report.pid ?? 1) &+ 1
    #expect(Self.oneGroup(report, copy), "a copy is another group")

    var other = Self.otherCode(report)
    if let replacements = Self.otherInstance[testCase.ruleID] {
      var text = testCase.text
      for (old, new) in replacements { text = text.replacingOccurrences(of: old, with: new) }
      #expect(text != testCase.text, "the example has none of the replaced texts")
      other = Self.otherCode(try ReportReader.read(Array(text.utf8)))
    } else if Self.oneGroup(report, other) {
      // No app frame to tell them apart: another app's crash of the same kind.
      other.processName = "OtherApp"
      other.bundleID = "com.example.other"
    }
    #expect(Doctor.diagnose(other).diagnoses.first?.ruleID == testCase.ruleID, "the other instance is another rule's")
    #expect(
      !Self.oneGroup(report, other),
      "another instance is in the same group: \(Doctor.diagnose(report).signature) vs \(Doctor.diagnose(other).signature)"
    )
  }
}
