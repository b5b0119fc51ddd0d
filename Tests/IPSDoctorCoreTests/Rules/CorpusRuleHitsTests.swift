import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Runs the whole catalog over the real reports in `../shared/corpus` and prints which rules fired,
/// so a person can read what ips-doctor says about real crashes.
@Suite("Rule hits on the shared corpus")
struct CorpusRuleHitsTests {
  static let files: [URL] = ["crash-json", "legacy-text", "panic", "jetsam", "hang", "other"]
    .flatMap { Fixtures.sharedFiles(in: "corpus/" + $0) }

  @Test("The engine diagnoses every corpus file and prints a table of rule hits", .enabled(if: !files.isEmpty))
  func table() throws {
    var lines: [String] = []
    var diagnosed = 0
    for url in Self.files {
      let name = url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
      let bytes = [UInt8](try Data(contentsOf: url))
      guard let report = try? ReportReader.read(bytes) else {
        lines.append(name.padding(toLength: 64, withPad: " ", startingAt: 0) + " (not a report)")
        continue
      }
      let result = Doctor.diagnose(report)
      let hits = result.diagnoses.map { "\($0.ruleID) (\($0.confidence.rawValue))" }
      if !hits.isEmpty { diagnosed += 1 }
      lines.append(
        name.padding(toLength: 64, withPad: " ", startingAt: 0) + " "
          + (hits.isEmpty ? "inconclusive" : hits.joined(separator: ", ")))
      // Every diagnosis is well formed.
      for diagnosis in result.diagnoses {
        #expect(!diagnosis.summary.isEmpty && !diagnosis.remedy.isEmpty, "\(name): \(diagnosis.ruleID)")
        #expect(!diagnosis.evidence.isEmpty, "\(name): \(diagnosis.ruleID) has no evidence")
      }
      // The founding rule needs the main-thread assertion, which no corpus report has.
      #expect(!result.diagnoses.contains { $0.ruleID == "async-bridge-completion-off-main" }, "\(name)")
    }
    print("Rule hits on \(Self.files.count) corpus files (\(diagnosed) diagnosed):")
    print(lines.joined(separator: "\n"))
    #expect(diagnosed >= Self.files.count / 2, "fewer than half of the corpus files were diagnosed")
  }
}
