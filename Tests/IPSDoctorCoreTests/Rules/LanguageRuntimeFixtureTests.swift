import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The fixtures in `Fixtures/reports/MANIFEST.tsv` that name a language-exception, Swift-runtime or
/// memory-access rule, and the real public corpus beside the checkout.
@Suite("Language, Swift runtime and memory fixtures")
struct LanguageRuntimeFixtureTests {
  static let ourIDs = Set(
    RuleCatalog.all.map { $0.description }.filter {
      [.languageException, .swiftRuntime, .memory].contains($0.category)
    }
    .map(\.id))

  static let rows: [FixtureRow] = FixtureRow.all.filter { row in
    !Set(row.expectedRules + row.mustNotFire).isDisjoint(with: ourIDs)
  }

  static func read(_ url: URL) throws -> CrashReport {
    try ReportReader.read([UInt8](try Data(contentsOf: url)))
  }

  @Test("The manifest names fixtures for these rules")
  func manifestHasRows() {
    #expect(!Self.rows.isEmpty)
  }

  @Test("Fixture diagnoses match the manifest", arguments: rows)
  func fixture(_ row: FixtureRow) throws {
    let report = try Self.read(Fixtures.url("reports/" + row.file))
    let fired = Doctor.diagnose(report).diagnoses.map(\.ruleID)
    for id in row.mustNotFire where Self.ourIDs.contains(id) {
      #expect(!fired.contains(id), "\(id) fired on \(row.file)")
    }
    // A text report whose exception the legacy parser could not read yet has nothing to diagnose.
    if report.format != .json, report.exception == nil, report.threads.isEmpty { return }
    for id in row.expectedRules where Self.ourIDs.contains(id) {
      #expect(fired.contains(id), "\(id) did not fire on \(row.file); fired: \(fired)")
    }
    if let first = row.expectedRules.first, Self.ourIDs.contains(first),
      (row.expectedRules + row.mustNotFire).allSatisfy({ RuleCatalog.rule(id: $0) != nil })
    {
      #expect(fired.first == first, "\(first) is not ranked first on \(row.file); ranking: \(fired)")
    }
  }

  // MARK: The real corpus (../shared/corpus), when present

  static func corpus(_ path: String) -> URL? {
    guard let url = Fixtures.shared?.appendingPathComponent("corpus/" + path),
      FileManager.default.fileExists(atPath: url.path)
    else { return nil }
    return url
  }

  struct CorpusCase: CustomTestStringConvertible, Sendable {
    var path: String
    /// Rules of ours that must fire (when the report's exception could be read).
    var fires: [String]
    var mustNotFire: [String]
    var testDescription: String { path }
  }

  static let corpusCases: [CorpusCase] = [
    CorpusCase(
      path: "crash-json/macos26-osaurus-exc-bad-access-cooperative-mlx.ips",
      fires: ["null-pointer-dereference"], mustNotFire: ["invalid-address", "zombie-object"]),
    CorpusCase(
      path: "crash-json/ios18-truncated-header-hermes-segv.ips",
      fires: ["null-pointer-dereference"], mustNotFire: ["invalid-address"]),
    CorpusCase(
      path: "crash-json/ipados18-translated-full-report-hermes-segv.ips",
      fires: ["invalid-address"], mustNotFire: ["null-pointer-dereference", "stack-overflow"]),
    CorpusCase(
      path: "crash-json/macos15-sim-transit-libcxx-vector-assert.ips", fires: [],
      mustNotFire: ["swift-index-out-of-range", "swift-trap-unknown", "swift-fatal-error", "objc-range-exception"]),
    CorpusCase(
      path: "crash-json/ios16-swift-assertionfailure-unsymbolicated.ips", fires: ["swift-trap-unknown"],
      mustNotFire: ["swift-force-unwrap-nil", "swift-index-out-of-range", "swift-fatal-error"]),
    CorpusCase(
      path: "crash-json/macos12-x86-exc-bad-instruction.ips", fires: ["swift-trap-unknown"], mustNotFire: []),
    CorpusCase(
      path: "crash-json/ios26-expo-rn-errorrecovery-abort.ips", fires: ["objc-uncaught-exception"],
      mustNotFire: ["cxx-uncaught-exception"]),
    CorpusCase(
      path: "crash-json/macos15-translated-full-rust-panic-abort.ips", fires: [],
      mustNotFire: ["null-pointer-dereference", "objc-uncaught-exception", "cxx-uncaught-exception"]),
    CorpusCase(
      path: "crash-json/macos12-xctest-idb-fixture.ips", fires: [], mustNotFire: ["swift-trap-unknown"]),
    CorpusCase(
      path: "legacy-text/ios13-pac-kern-invalid-address.crash", fires: ["pointer-authentication-failure"],
      mustNotFire: ["objc-concurrent-property-access", "null-pointer-dereference"]),
    CorpusCase(
      path: "legacy-text/ios14-swift-trap-exc-breakpoint.crash", fires: ["swift-trap-unknown"],
      mustNotFire: ["swift-force-unwrap-nil", "swift-index-out-of-range"]),
    CorpusCase(
      // The watchdog killed a main thread that had stopped at pc = 0: the NULL call is the cause.
      path: "legacy-text/ios11-watchdog-8badf00d-kiosk-startup.crash", fires: ["bad-instruction-fetch"],
      mustNotFire: ["null-pointer-dereference", "invalid-address", "zombie-object"]),
    CorpusCase(
      path: "legacy-text/macos10.13-siri-segv.crash", fires: ["zombie-object"],
      mustNotFire: ["null-pointer-dereference"]),
    CorpusCase(
      path: "legacy-text/macos10.14-unreal-sigsegv-unsymbolicated.crash", fires: ["null-pointer-dereference"],
      mustNotFire: ["invalid-address"]),
    CorpusCase(
      path: "legacy-text/ios7-sigbus-alignment-plcrash.crash", fires: ["misaligned-access"], mustNotFire: []),
    CorpusCase(
      path: "legacy-text/ios14-libdispatch-semaphore-bug-in-client.crash", fires: [],
      mustNotFire: ["swift-trap-unknown", "swift-fatal-error"]),
  ]

  @Test(
    "Real corpus reports get sensible diagnoses", .enabled(if: Fixtures.shared != nil),
    arguments: corpusCases)
  func corpusCase(_ testCase: CorpusCase) throws {
    guard let url = Self.corpus(testCase.path) else { return }
    let report = try Self.read(url)
    let fired = Doctor.diagnose(report).diagnoses.map(\.ruleID)
    for id in testCase.mustNotFire {
      #expect(!fired.contains(id), "\(id) fired on \(testCase.path)")
    }
    // Legacy text reports need the text parser to fill in the exception; skip until it does.
    guard report.exception?.type != nil || report.exception?.signal != nil else { return }
    for id in testCase.fires {
      #expect(fired.contains(id), "\(id) did not fire on \(testCase.path); fired: \(fired)")
    }
  }

  @Test("No rule of ours fires on reports that are not crashes", .enabled(if: Fixtures.shared != nil))
  func nonCrashReports() throws {
    for folder in ["panic", "jetsam", "hang"] {
      for url in Fixtures.sharedFiles(in: "corpus/" + folder) {
        guard let report = try? Self.read(url) else { continue }
        let fired = Doctor.diagnose(report).diagnoses.map(\.ruleID).filter(Self.ourIDs.contains)
        #expect(fired.isEmpty, "\(url.lastPathComponent): \(fired)")
      }
    }
  }
}
