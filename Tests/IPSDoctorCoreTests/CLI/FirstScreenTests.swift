import Foundation
import Testing

@testable import IPSDoctorBatch

/// The first screen of a folder run answers: the verdict on the first line, then one line per
/// crash group (count, severity, title, where) within the width, paths and dates only with
/// `--verbose`; damaged reports counted in one warning line; the progress line erased; `--app`
/// that keeps nothing says so and exits 0.
@Suite struct FirstScreenTests {
  /// The golden batch's five reports, plus two damaged copies of the diagnosed one (its body cut
  /// in the middle of the threads).
  static func folder() throws -> URL {
    let root = try CLITest.temporaryDirectory()
    for (index, fixture) in GoldenTests.batch.enumerated() {
      try CLITest.copyFixture(fixture, to: root, as: "r\(index).ips")
    }
    let whole = try Fixtures.bytes(String(CLITest.diagnosed.dropFirst("Fixtures/".count)))
    for (index, cut) in [0.6, 0.7].enumerated() {
      try Data(whole.prefix(Int(Double(whole.count) * cut))).write(
        to: root.appendingPathComponent("damaged-\(index).ips"))
    }
    return root
  }

  @Test func theVerdictComesFirstThenOneLinePerGroup() throws {
    let root = try Self.folder()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([root.path])
    #expect(run.status == .findings)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let verdict = try #require(lines.first)
    #expect(verdict.hasPrefix("4 crash groups in 7 reports"), "\(verdict)")
    #expect(verdict.contains("worst: error"))
    #expect(verdict.contains("at or above --fail-on error"))
    #expect(lines[2] == "Crash groups:")
    let table = Array(lines[4...].prefix { !$0.isEmpty })
    #expect(table.count == 4, "\(table)")
    for line in table {
      #expect(line.count <= 80, "\(line)")
      // Count, severity, title: no path, no date, no rule id in brackets.
      #expect(line.wholeMatch(of: #/ {2,}[0-9]+× {2}(error|warning|note) +\S.*/#) != nil, "\(line)")
      #expect(!line.contains("/") || line.contains(" — in "), "\(line)")
      #expect(!line.contains("2026-"), "\(line)")
    }
    #expect(table.contains { $0.contains("Async Delegate Method Completes Off") })
    #expect(table.contains { $0.contains("Inconclusive crash: EXC_CRASH (SIGUSR1)") })
    // Where: the app frame of the async-bridge crash.
    #expect(table.contains { $0.contains(" — in PushNotificationDelega") })
    // A jetsam event: the process the system killed.
    #expect(table.contains { $0.hasSuffix("Jetsam Event — killed: ChatApp (vm-pageshortage)") }, "\(table)")
    // The whole first screen (24 rows) holds the verdict and the table.
    #expect(lines.count > 24 && lines.prefix(24).contains { $0.hasPrefix("Group 1 of 4") })
    // The summary sentence still ends the output.
    #expect(run.stdout.hasSuffix("at or above --fail-on error\n"))
  }

  @Test func damagedReportsAreOneWarningLineListedWithVerbose() throws {
    let root = try Self.folder()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([root.path])
    let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning:") }
    #expect(
      warnings == [
        "ips-doctor: warning: 3 damaged reports were diagnosed from what could be read (--verbose lists them)"
      ])
    let verbose = CLITest.run([root.path, "--verbose"])
    let listed = verbose.stderr.split(separator: "\n").filter { $0.contains("diagnosed from what could be read") }
    #expect(listed.count == 3, "\(verbose.stderr)")
    #expect(listed.allSatisfy { $0.contains(root.lastPathComponent) })
    #expect(!verbose.stderr.contains("3 damaged reports"))
    // With --quiet, none.
    #expect(!CLITest.run([root.path, "--quiet"]).stderr.contains("damaged"))
  }

  @Test func pathsAndDatesAreShownWithVerboseEachPathWhole() throws {
    let root = try Self.folder()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([root.path, "--verbose", "--summary"])
    let lines = run.stdout.split(separator: "\n").map(String.init)
    // Each example on a line of its own, whole however long the folder's path.
    for index in 0..<5 {
      let path = root.appendingPathComponent("r\(index).ips").path
      #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == path }, "\(path)")
    }
    #expect(lines.contains { $0.contains("2026-09-08") && $0.contains("app 2.4 (118)") })
    #expect(lines.contains { $0.contains("[async-bridge-completion-off-main]") })
  }

  @Test func eachGroupIsMarkedNewOrKnownAndTheVerdictCountsThem() throws {
    let root = try Self.folder()
    defer { CLITest.cleanUp(root) }
    let baseline = root.appendingPathComponent("baseline.json").path
    // A baseline of the inconclusive crash alone.
    _ = CLITest.run([CLITest.inconclusive, "--write-baseline", baseline])
    let run = CLITest.run([root.path, "--baseline", baseline])
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("4 crash groups in 7 reports (3 new, 1 known)") == true, "\(lines.first ?? "")")
    let table = lines.filter { $0.hasPrefix("  ") && $0.contains("×  ") }
    #expect(table.count == 4)
    #expect(table.filter { $0.hasSuffix(" (known)") }.count == 1)
    #expect(table.filter { $0.hasSuffix(" (new)") }.count == 3)
    #expect(table.first { $0.hasSuffix(" (known)") }?.contains("Inconclusive crash") == true)
    for line in table { #expect(line.count <= 80, "\(line)") }
  }

  @Test func theProgressLineIsErasedAtTheEnd() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    for index in 0..<40 {
      try CLITest.copyFixture(CLITest.jetsam, to: directory, as: "r\(index).ips")
    }
    let shown = CLITest.run([directory.path, "--jobs", "1"], io: CapturedIO(stderrIsTerminal: true))
    #expect(shown.stderr.contains("files read"))
    #expect(shown.stderr.hasSuffix("\r\u{1B}[K"), "\(shown.stderr.suffix(80).debugDescription)")
    #expect(!shown.stderr.contains("files read\n"))
  }

  @Test func appThatMatchesNothingSaysHowManyReportsWereReadAndExitsZero() {
    let run = CLITest.run(GoldenTests.batch + ["--app", "NoSuchApp"])
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stderr.contains("0 of 5 reports matched --app NoSuchApp"), "\(run.stderr)")
    #expect(!run.stderr.contains("no crash reports found"))
  }

  @Test func appMatchesTheProcessNameAsWellAsTheAppName() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    // The same crash, its app's display name not its process's.
    let text = String(
      decoding: try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips"), as: UTF8.self)
    let renamed = text.replacingOccurrences(of: #""app_name":"ChatApp""#, with: #""app_name":"Chat Display""#)
    #expect(renamed != text)
    let path = directory.appendingPathComponent("renamed.ips")
    try Data(renamed.utf8).write(to: path)
    for app in ["ChatApp", "chat display", "com.example"] {
      let run = CLITest.run([path.path, "--app", app, "--quiet"])
      #expect(run.status == .findings, "--app \(app): \(run.stderr)")
      #expect(run.stdout.contains("async-bridge-completion-off-main"), "--app \(app)")
    }
    let other = CLITest.run([path.path, "--app", "Chat"])
    #expect(other.status == .success)
    #expect(other.stderr.contains("0 of 1 report matched --app Chat"), "\(other.stderr)")
  }
}
