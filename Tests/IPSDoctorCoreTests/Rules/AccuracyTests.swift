import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// Measures the top diagnosis against the expert labels of `../shared/corpus` (`EXPECTED.tsv`) and
/// `../shared/corpus-peers` (`MANIFEST.tsv`), prints the table and holds the goal of issue #32: the
/// right top diagnosis (or `inconclusive` where that is allowed) on at least 95 % of the labelled
/// reports of each corpus, and never a wrong diagnosis stated as `definite`. Skips when the shared
/// material is not beside the checkout.
@Suite("Diagnosis accuracy on the labelled corpora", .enabled(if: Fixtures.shared != nil))
struct AccuracyTests {
  /// One labelled report.
  struct Label: Sendable {
    var file: String
    /// Accepted rule-id prefixes, and the words `inconclusive` and `not-a-crash-report`.
    var expected: [String]
  }

  /// What ips-doctor said about one report, judged against its label.
  struct Outcome: Sendable {
    var label: Label
    /// The top rule id, `inconclusive`, or `unreadable`.
    var got: String
    var confidence: Confidence?
    var isRight: Bool
  }

  /// Reads a labels file: the file name in column 0 and the expected prefixes in `column`.
  static func labels(_ folder: String, _ table: String, column: Int) -> [Label] {
    guard let base = Fixtures.shared?.appendingPathComponent(folder),
      let text = try? String(contentsOf: base.appendingPathComponent(table), encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard columns.count > column else { return nil }
      return Label(
        file: String(columns[0]), expected: columns[column].split(separator: "|").map(String.init))
    }
  }

  static func judge(_ label: Label, in folder: String) -> Outcome {
    let url = Fixtures.shared!.appendingPathComponent(folder).appendingPathComponent(label.file)
    let acceptsInconclusive =
      label.expected.contains("inconclusive") || label.expected.contains("not-a-crash-report")
    guard let bytes = try? Data(contentsOf: url), let report = try? ReportReader.read([UInt8](bytes))
    else {
      // Refusing to read the file is the right answer only for what is not a crash report.
      return Outcome(
        label: label, got: "unreadable", confidence: nil,
        isRight: label.expected.contains("not-a-crash-report"))
    }
    guard let top = Doctor.diagnose(report).diagnoses.first else {
      return Outcome(label: label, got: "inconclusive", confidence: nil, isRight: acceptsInconclusive)
    }
    let isRight = label.expected.contains { prefix in
      prefix != "inconclusive" && prefix != "not-a-crash-report" && top.ruleID.hasPrefix(prefix)
    }
    return Outcome(label: label, got: top.ruleID, confidence: top.confidence, isRight: isRight)
  }

  /// Judges every labelled report of `folder`, prints the table and checks the goal.
  static func measure(_ folder: String, _ labels: [Label]) {
    let outcomes = labels.map { judge($0, in: folder) }
    let right = outcomes.filter(\.isRight).count
    var lines = ["\(folder): \(right)/\(outcomes.count) right"]
    for outcome in outcomes {
      let mark = outcome.isRight ? "ok   " : "WRONG"
      lines.append(
        "\(mark) \(outcome.label.file)\n        expected \(outcome.label.expected.joined(separator: "|"))"
          + "  got \(outcome.got) (\(outcome.confidence?.rawValue ?? "-"))")
    }
    print(lines.joined(separator: "\n"))
    #expect(!outcomes.isEmpty, "no labels in \(folder)")
    #expect(right * 100 >= outcomes.count * 95, "\(folder): \(right)/\(outcomes.count) right, below 95 %")
    for outcome in outcomes where !outcome.isRight && outcome.confidence == .definite {
      Issue.record("\(folder)/\(outcome.label.file): wrong definite diagnosis \(outcome.got)")
    }
  }

  @Test("The real-report corpus is diagnosed as its experts labelled it")
  func corpus() {
    Self.measure("corpus", Self.labels("corpus", "EXPECTED.tsv", column: 1))
  }

  @Test("Other crash tools' reports are diagnosed as their experts labelled them")
  func peers() {
    Self.measure("corpus-peers", Self.labels("corpus-peers", "MANIFEST.tsv", column: 6))
  }
}
