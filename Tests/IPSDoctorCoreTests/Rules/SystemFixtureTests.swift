import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The System team's rules (system terminations, resources, launch, other report kinds) against
/// the fixtures in `Fixtures/reports/MANIFEST.tsv` and, when present, the shared corpus.
@Suite("System rules on fixtures")
struct SystemFixtureTests {
  /// Ids of the rules this suite covers.
  static let ids: Set<String> = Set(
    RuleCatalog.all.map { $0.description }
      .filter { [.systemTermination, .resources, .launch, .otherReports].contains($0.category) }.map(\.id))

  static let rows: [FixtureRow] = FixtureRow.all.filter { row in
    row.expectedRules.contains(where: ids.contains) || row.mustNotFire.contains(where: ids.contains)
  }

  @Test("Manifest fixtures", arguments: rows)
  func manifestFixture(_ row: FixtureRow) throws {
    let report = try ReportReader.read(Fixtures.bytes("reports/" + row.file))
    let result = Doctor.diagnose(report)
    let fired = result.diagnoses.map(\.ruleID)
    for id in row.expectedRules where Self.ids.contains(id) {
      #expect(fired.contains(id), "\(row.file): \(id) did not fire; fired \(fired)")
    }
    for id in row.mustNotFire where Self.ids.contains(id) {
      #expect(!fired.contains(id), "\(row.file): \(id) must not fire")
    }
    if let first = row.expectedRules.first, Self.ids.contains(first),
      row.expectedRules.allSatisfy({ RuleCatalog.rule(id: $0) != nil })
    {
      #expect(fired.first == first, "\(row.file): \(first) should rank first; ranking \(fired)")
    }
  }

  /// Corpus files and which of this suite's rules must fire (`required`) or may fire once the
  /// legacy text reader fills more fields (`allowed`). Any other rule of ours firing is a false
  /// positive.
  static let corpus: [String: (required: Set<String>, allowed: Set<String>)] = [
    "crash-json/macos15-translated-full-rust-panic-abort.ips": (["abort-called"], []),
    "hang/ios7-stackshot-188.crash": (["stackshot"], []),
    "jetsam/ios10-jetsam-highwater.ips": (["jetsam-event"], []),
    // Elided with "..." by its author: read up to the break.
    "jetsam/ios9-jetsam-vm-thrashing-elided.ips": (["jetsam-event"], []),
    "legacy-text/ios11-json-header-text-body-2bad45ec.crash": (["security-violation"], []),
    "legacy-text/ios11-watchdog-8badf00d-kiosk-startup.crash": (["watchdog-timeout"], []),
    "legacy-text/ios14-libdispatch-semaphore-bug-in-client.crash": (["libdispatch-client-bug"], []),
    "legacy-text/macos-iOSonMac-tcc-camera.crash": (["privacy-usage-description-missing"], []),
    "legacy-text/macos11-rosetta-translated-abort.crash": ([], ["abort-called"]),
    "other/ios-exc-guard-in-stackoverflow-question.crash": ([], ["guard-file-descriptor"]),
    "other/ios11-cpu-usage-resource-report.crash": (["cpu-resource-limit", "resource-report"], []),
    "other/ios8-exc-resource-wakeups-185.crash": (["wakeups-resource-limit"], []),
    "other/macos14-dyld-library-missing-in-readme.ips": (["dyld-missing-library"], []),
    "panic/bridgeos-210-panic-imac-short.ips": (["kernel-panic"], []),
    "panic/bridgeos-210-panic-mbp.ips": (["kernel-panic"], []),
    "panic/macos-rtbuddy-panic-text.crash": (["kernel-panic"], []),
  ]

  static let corpusFiles: [String] = {
    guard let base = Fixtures.shared?.appendingPathComponent("corpus") else { return [] }
    var files: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: base.path)
    while let path = enumerator?.nextObject() as? String {
      if path.hasSuffix(".ips") || path.hasSuffix(".crash") { files.append(path) }
    }
    return files.sorted()
  }()

  @Test("Shared corpus: our rules fire where they should and nowhere else", arguments: corpusFiles)
  func corpusFile(_ file: String) throws {
    guard let base = Fixtures.shared?.appendingPathComponent("corpus") else { return }
    let data = try Data(contentsOf: base.appendingPathComponent(file))
    guard let report = try? ReportReader.read([UInt8](data)) else { return }
    let fired = Set(Doctor.diagnose(report).diagnoses.map(\.ruleID)).intersection(Self.ids)
    let expectation = Self.corpus[file] ?? ([], [])
    for id in expectation.required {
      #expect(fired.contains(id), "\(file): \(id) did not fire")
    }
    let unexpected = fired.subtracting(expectation.required).subtracting(expectation.allowed)
    #expect(unexpected.isEmpty, "\(file): unexpected \(unexpected.sorted())")
  }

  @Test("Watchdog figures are read from the kiosk report")
  func kioskWatchdog() throws {
    guard let base = Fixtures.shared?.appendingPathComponent("corpus") else { return }
    let data = try Data(
      contentsOf: base.appendingPathComponent("legacy-text/ios11-watchdog-8badf00d-kiosk-startup.crash"))
    let report = try ReportReader.read([UInt8](data))
    let diagnosis = try #require(WatchdogTimeoutRule().diagnose(DiagnosisContext(report: report)))
    for fragment in ["0x8badf00d", "`scene-update`", "10.00-second", "5.812 s", "busy computing"] {
      #expect(diagnosis.summary.contains(fragment), "\(fragment) missing: \(diagnosis.summary)")
    }
  }
}
