import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

@Suite("Concurrency rules on the fixtures")
struct ConcurrencyFixtureTests {
  /// Reads a fixture and diagnoses it; `nil` when the reader cannot give the rules anything to
  /// work with yet (a legacy text report before the text parser reads its backtraces).
  static func diagnoseFixture(_ file: String) throws -> (report: CrashReport, result: DiagnosisResult)? {
    let report = try ReportReader.read(Fixtures.bytes("reports/" + file))
    if report.threads.isEmpty && (report.lastExceptionBacktrace ?? []).isEmpty { return nil }
    return (report, Doctor.diagnose(report))
  }

  static let ourIDs = Set(
    RuleCatalog.all.map { $0.description }.filter { [.concurrency, .frameworks].contains($0.category) }.map(\.id))

  static let rows: [FixtureRow] = FixtureRow.all.filter { row in
    (row.expectedRules + row.mustNotFire).contains { ourIDs.contains($0) }
  }

  @Test("The manifest lists fixtures for our rules")
  func manifestHasRows() {
    #expect(Self.rows.count >= 10, "only \(Self.rows.count) rows mention the concurrency rules")
  }

  @Test("Expected rules fire, rank first and must-not-fire rules stay silent", arguments: rows)
  func fixture(_ row: FixtureRow) throws {
    guard let (_, result) = try Self.diagnoseFixture(row.file) else {
      // The legacy text reader does not read backtraces yet; nothing to diagnose.
      return
    }
    let fired = result.diagnoses.map(\.ruleID)
    for id in row.expectedRules where Self.ourIDs.contains(id) {
      #expect(fired.contains(id), "\(row.file): \(id) did not fire; fired: \(fired)")
    }
    for id in row.mustNotFire where Self.ourIDs.contains(id) {
      #expect(!fired.contains(id), "\(row.file): \(id) fired but must not")
    }
    if let first = row.expectedRules.first, Self.ourIDs.contains(first),
      row.expectedRules.allSatisfy({ RuleCatalog.rule(id: $0) != nil })
    {
      #expect(result.diagnoses.first?.ruleID == first, "\(row.file): ranked \(fired)")
    }
  }

  @Test("At most one of our rules is definite on each fixture", arguments: rows)
  func noDefiniteTies(_ row: FixtureRow) throws {
    guard let (_, result) = try Self.diagnoseFixture(row.file) else { return }
    let definite = result.diagnoses.filter { $0.confidence == .definite && Self.ourIDs.contains($0.ruleID) }
    #expect(definite.count <= 1, "\(row.file): several definite concurrency findings \(definite.map(\.ruleID))")
  }

  @Test("Our rules stay silent on the rest of the fixtures")
  func silentElsewhere() throws {
    let mentioned = Set(Self.rows.map(\.file))
    for row in FixtureRow.all where !mentioned.contains(row.file) {
      guard let (_, result) = try Self.diagnoseFixture(row.file) else { continue }
      let ours = result.diagnoses.filter { Self.ourIDs.contains($0.ruleID) }.map(\.ruleID)
      #expect(ours.isEmpty, "\(row.file): \(ours) fired")
    }
  }

  @Test("Our rules fire nothing on the real corpus")
  func corpus() throws {
    guard let shared = Fixtures.shared else { return }
    let root = shared.appendingPathComponent("corpus")
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return }
    var checked = 0
    while let path = enumerator.nextObject() as? String {
      guard !path.hasSuffix(".md"), !path.hasSuffix(".tsv") else { continue }
      let url = root.appendingPathComponent(path)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue, let data = try? Data(contentsOf: url),
        let report = try? ReportReader.read([UInt8](data))
      else { continue }
      checked += 1
      let ours = Doctor.diagnose(report).diagnoses.filter { Self.ourIDs.contains($0.ruleID) }
      // None of the corpus reports is a concurrency or main-thread crash.
      #expect(ours.isEmpty, "\(path): \(ours.map { "\($0.ruleID) \($0.confidence): \($0.summary)" })")
    }
    #expect(checked > 0)
  }
}
