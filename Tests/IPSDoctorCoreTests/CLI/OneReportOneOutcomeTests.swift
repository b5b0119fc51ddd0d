import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorSupport

/// A report is counted once: a truncated `.ips` whose body could not be read is "could not be
/// read", not also an inconclusive group; and a modern text report's `Version: 1.0 (1)` is the
/// version and build of its `.ips`, so `--app-version` finds both copies of one crash.
@Suite struct OneReportOneOutcomeTests {
  static func json(_ run: CLIRun) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
  }

  /// The first `length` bytes of the body of the diagnosed fixture: its header is whole, the body
  /// stops after the first key.
  static func truncated(_ length: Int) throws -> Data {
    let text = String(
      decoding: try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips"), as: UTF8.self)
    let newline = try #require(text.firstIndex(of: "\n"))
    return Data((String(text[...newline]) + String(text[text.index(after: newline)...].prefix(length))).utf8)
  }

  @Test func aTruncatedReportIsUnreadableAndNoGroup() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try Self.truncated(80).write(to: directory.appendingPathComponent("truncated.ips"))
    try CLITest.copyFixture("Fixtures/cli/inconclusive-sigusr1.ips", to: directory, as: "inconclusive.ips")

    let run = CLITest.run([directory.path, "--format", "json"])
    #expect(run.status == .dataError)
    let object = try Self.json(run)
    let summary = try #require(object["summary"] as? [String: Any])
    let groups = try #require(object["groups"] as? [[String: Any]])
    #expect(summary["reports"] as? Int == 2)
    #expect(summary["unreadable"] as? Int == 1)
    #expect(summary["inconclusive"] as? Int == 1)
    #expect((summary["bySeverity"] as? [String: Int])?["warning"] == 1, "\(summary)")
    // One group: the inconclusive report's; the truncated one is in none.
    #expect(groups.count == 1)
    #expect(groups.first?["examples"] as? [String] == [directory.appendingPathComponent("inconclusive.ips").path])

    let text = CLITest.run([directory.path])
    #expect(text.stdout.contains("1 inconclusive, 1 could not be read; 1 crash group"), "\(text.stdout)")
  }

  /// `ios-crash.crash` and `ios-crash.ips` of `../shared/symbolication`: one crash of app 1.0
  /// build 1 on iOS 15.5, whose text form says `Version: 1.0 (1)`.
  @Test(.enabled(if: BaselineAcrossSymbolicationTests.available))
  func theTextAndJSONCopiesOfACrashHaveOneVersion() throws {
    let shared = try #require(BaselineAcrossSymbolicationTests.folder)
    let paths = ["ios-crash.ips", "ios-crash.crash"].map { shared.appendingPathComponent($0).path }
    let run = CLITest.run(paths + ["--format", "json", "--app-version", "1.0 (1)", "--fail-on", "never"])
    let object = try Self.json(run)
    let groups = try #require(object["groups"] as? [[String: Any]])
    #expect((object["summary"] as? [String: Any])?["reports"] as? Int == 2, "\(run.stdout.prefix(600))")
    #expect(groups.map { $0["appVersions"] as? [String] } == [["1.0 (1)"]])
    #expect(CLITest.run([paths[1], "--app-version", "1.0"]).status != .noInput)
  }

  /// A modern iOS text report written without the shared material: `show` writes an `.ips` of
  /// iOS 26 as `Version: 2.4 (118)`, and reading that text back gives version 2.4, build 118.
  @Test func showWritesAndReadsTheModernOrder() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let shown = CLITest.run(["show", CLITest.diagnosed])
    #expect(shown.status == .success)
    #expect(shown.stdout.contains("\nVersion:") && shown.stdout.contains(" 2.4 (118)\n"), "\(shown.stdout.prefix(800))")
    let text = directory.appendingPathComponent("shown.crash")
    try Data(shown.stdout.utf8).write(to: text)
    let both = CLITest.run(
      [CLITest.diagnosed, text.path, "--app-version", "2.4 (118)", "--format", "json", "--fail-on", "never"])
    let summary = try #require(try Self.json(both)["summary"] as? [String: Any])
    #expect(summary["reports"] as? Int == 2, "\(both.stdout.prefix(600)) \(both.stderr)")
    let groups = try #require(try Self.json(both)["groups"] as? [[String: Any]])
    #expect(groups.map { $0["appVersions"] as? [String] } == [["2.4 (118)"]])
  }
}
