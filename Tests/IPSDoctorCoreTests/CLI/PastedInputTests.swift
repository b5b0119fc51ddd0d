import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorOutput

/// Pasted crash text through the command line: standard input (`pbpaste | ips-doctor -`), folder
/// scans that take notes and logs holding crash text, and grouping with Apple's report of the same
/// crash.
@Suite("Pasted input through the CLI")
struct PastedInputTests {
  static let crashlytics = "Fixtures/pasted/crashlytics-async-bridge-willpresent.txt"
  static let willPresentIPS = "Fixtures/reports/async-bridge-willpresent.ips"

  static func reports(_ run: CLIRun) -> [[String: Any]] {
    let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    return object?["reports"] as? [[String: Any]] ?? []
  }

  @Test("A Crashlytics trace on standard input is diagnosed and named for its source")
  func standardInput() throws {
    let io = CapturedIO(input: try Fixtures.bytes("pasted/crashlytics-async-bridge-willpresent.txt"))
    io.standardInputIsData = true
    let run = CLITest.run(["-", "--format", "json", "--fail-on", "never"], io: io)
    let report = try #require(Self.reports(run).first)
    #expect(report["path"] as? String == "<stdin>")
    #expect(report["source"] as? String == "crashlytics-text")
    #expect(report["missing"] as? [String] == ["exception", "registers", "images", "addresses"])
    let diagnoses = report["diagnoses"] as? [[String: Any]]
    #expect(diagnoses?.first?["rule"] as? String == "async-bridge-completion-off-main")
  }

  @Test("The text header names a pasted report's source and what it lacks")
  func textHeader() {
    let run = CLITest.run([Self.crashlytics, "--fail-on", "never"])
    #expect(
      run.stdout.contains(
        "Crashlytics console text (no exception type or signal, no registers, no binary images, offsets only)"))
  }

  @Test("A folder scan reads crash text in notes and logs, passes over other notes, and counts each source")
  func folderScan() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try CLITest.copyFixture(Self.crashlytics, to: directory, as: "trace.log")
    try CLITest.copyFixture("Fixtures/pasted/apple-text-quoted-in-issue.md", to: directory, as: "issue.md")
    try CLITest.copyFixture(Self.willPresentIPS, to: directory, as: "device.ips")
    try "# Notes\nWe looked for Fatal Exception: lines and found none.\n".write(
      to: directory.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
    try "Crashed: com.apple.main-thread\nbut the frames were not copied\n".write(
      to: directory.appendingPathComponent("cut.txt"), atomically: true, encoding: .utf8)
    let run = CLITest.run([directory.path, "--format", "json", "--fail-on", "never"])
    let reports = Self.reports(run)
    let prefix = directory.path + "/"
    #expect(
      reports.map { $0["path"] as? String } == [prefix + "device.ips", prefix + "issue.md", prefix + "trace.log"])
    #expect(reports.map { $0["source"] as? String } == ["apple-ips", "apple-text", "crashlytics-text"])
    #expect(run.stderr.contains("read 3 reports: 1 crashlytics-text, 1 apple-ips, 1 apple-text"))
    #expect(run.stderr.contains("skipped 1 file"))
  }

  @Test("A folder scan reads KSCrash JSON and passes over one with no crash in it")
  func kscrashInFolder() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try CLITest.copyFixture("Fixtures/thirdparty/kscrash-nsexception-trailing-comma.json", to: directory, as: "a.json")
    try #"{"report": {"id": "x", "version": "3.3.0"}, "binary_images": [], "crash": {}}"#.write(
      to: directory.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
    let run = CLITest.run([directory.path, "--format", "json", "--fail-on", "never", "-v"])
    let reports = Self.reports(run)
    #expect(reports.map { $0["source"] as? String } == ["kscrash"])
    #expect(run.stderr.contains("b.json: skipped: not an Apple crash report: a KSCrash report with no crash in it"))
    let named = CLITest.run([directory.path + "/b.json"])
    #expect(named.status == .dataError)
  }

  @Test("A Crashlytics trace and Apple's report of one crash are one group, and one baseline entry")
  func oneGroup() throws {
    let run = CLITest.run([Self.crashlytics, Self.willPresentIPS, "--format", "json", "--fail-on", "never"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let groups = try #require(object["groups"] as? [[String: Any]])
    #expect(groups.count == 1)
    #expect(groups.first?["count"] as? Int == 2)

    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let baseline = directory.appendingPathComponent("baseline.json").path
    let write = CLITest.run([Self.willPresentIPS, "--write-baseline", baseline, "--fail-on", "never"])
    #expect(write.status == .success)
    let known = CLITest.run([Self.crashlytics, "--format", "json", "--baseline", baseline])
    #expect(Self.reports(known).first?["baseline"] as? String == "known")
    #expect(known.status == .success)
  }
}
