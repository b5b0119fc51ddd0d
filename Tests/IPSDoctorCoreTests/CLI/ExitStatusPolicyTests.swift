import Foundation
import Testing

@testable import IPSDoctorCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exit codes that mean what they say, counts that add up, and input errors on standard error.
@Suite struct ExitStatusPolicyTests {
  static let crash = "Fixtures/reports/null-pointer-dereference.ips"
  static let truncated = CLITest.truncated

  /// A folder with one crash (exit 1 on its own) and one file that is no report at all (exit 65).
  static func mixedFolder() throws -> URL {
    let root = try CLITest.temporaryDirectory()
    try CLITest.copyFixture(crash, to: root, as: "a.ips")
    try Data("not a crash report".utf8).write(to: root.appendingPathComponent("b.ips"))
    return root
  }

  @Test func aNewCrashIsNotHiddenByAnUnreadableFile() throws {
    let root = try Self.mixedFolder()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([root.path])
    #expect(run.status == .findings)
    // The unreadable file is an error on standard error, named, and not part of the text output.
    #expect(run.stderr.contains("b.ips") && run.stderr.contains("error:"))
    #expect(!run.stdout.contains("b.ips"))
    #expect(run.stdout.contains("2 reports: 1 diagnosed, 1 could not be read"))
  }

  @Test func anUnreadableFileAloneExits65() throws {
    let root = try Self.mixedFolder()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([root.appendingPathComponent("b.ips").path])
    #expect(run.status == .dataError)
    #expect(run.stdout.isEmpty)
  }

  @Test func failOnNeverExitsZeroUnlessTheCommandFailed() throws {
    let root = try Self.mixedFolder()
    defer { CLITest.cleanUp(root) }
    #expect(CLITest.run([root.path, "--fail-on", "never"]).status == .success)
    #expect(CLITest.run([root.path, "--fail-on", "never", "--format", "sarif"]).status == .success)
    // A path that does not exist is the command's failure.
    #expect(CLITest.run([root.path, root.path + "/missing.ips", "--fail-on", "never"]).status == .noInput)
  }

  /// A damaged report that was diagnosed counts once, as diagnosed, with a note; not 65.
  @Test func aDamagedButDiagnosedReportIsNotAnError() {
    let run = CLITest.run([Self.truncated, Self.crash])
    #expect(run.status == .findings)
    #expect(run.stdout.contains("2 reports: 2 diagnosed (1 from damaged reports); "))
    #expect(run.stdout.contains("note:"))
    #expect(run.stderr.contains("truncated-body.ips") && run.stderr.contains("warning:"))
    #expect(run.stderr.contains("diagnosed from what could be read"))
    // Under --strict it is refused.
    #expect(CLITest.run([Self.truncated, "--strict", "--fail-on", "error"]).status >= .findings)
  }

  @Test func summaryCountsAddUpToTheReports() throws {
    let root = try Self.mixedFolder()
    defer { CLITest.cleanUp(root) }
    try CLITest.copyFixture(Self.truncated, to: root, as: "c.ips")
    try CLITest.copyFixture(CLITest.inconclusive, to: root, as: "d.ips")
    let run = CLITest.run([root.path, "--format", "json"])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let summary = try #require(json["summary"] as? [String: Any])
    let reports = summary["reports"] as? Int
    let parts = ["diagnosed", "inconclusive", "unreadable"].compactMap { summary[$0] as? Int }
    #expect(reports == 4)
    #expect(parts.reduce(0, +) == reports)
  }

  /// With `--output`, one line on standard error says what happened.
  @Test func aRunWrittenToAFileSummarisesOnStandardError() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let output = root.appendingPathComponent("x.sarif").path
    let run = CLITest.run([Self.crash, "-o", output])
    #expect(run.status == .findings)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("1 report: 1 diagnosed"))
    #expect(run.stderr.contains("written to"))
  }

  /// A FIFO named on the command line is read to its end, as `cat` would.
  @Test func aNamedFIFOIsRead() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let fifo = root.appendingPathComponent("pipe").path
    try #require(mkfifo(fifo, 0o600) == 0)
    let contents = try Fixtures.bytes("reports/null-pointer-dereference.ips")
    let thread = Thread {
      let fd = open(fifo, O_WRONLY)
      guard fd >= 0 else { return }
      contents.withUnsafeBytes { _ = write(fd, $0.baseAddress!, $0.count) }
      close(fd)
    }
    thread.start()
    let run = CLITest.run([fifo, "-q"])
    #expect(run.status == .findings, "\(run.stderr)")
    #expect(run.stdout.contains("null-pointer-dereference"))
  }

  /// With no path, a pipe on standard input is read; a terminal is a usage error (off macOS).
  @Test func noPathReadsAPipeOnStandardInput() throws {
    let io = CapturedIO(input: try Fixtures.bytes("reports/null-pointer-dereference.ips"))
    io.standardInputIsData = true
    let run = CLITest.run(["-q"], io: io)
    #expect(run.status == .findings)
    #expect(run.stdout.contains("<stdin>"))
    #expect(CLITest.run(["-q"]).status == .usage)
  }

  /// With no path, the system's report folder is read only for a person at a terminal: a standard
  /// input that is `/dev/null` or closed (launchd, cron, CI) is no input, on every platform.
  @Test func noPathReadsTheReportFolderOnlyAtATerminal() throws {
    let folder: (String?) -> String? = { home in home.map { $0 + "/Library/Logs/DiagnosticReports" } }
    let terminal = CapturedIO()
    terminal.standardInputIsTerminal = true
    #expect(
      CLI.defaultInput(environment: ["HOME": "/Users/me"], io: terminal, reportFolder: folder)
        == "/Users/me/Library/Logs/DiagnosticReports")
    let detached = CapturedIO()
    #expect(CLI.defaultInput(environment: ["HOME": "/Users/me"], io: detached, reportFolder: folder) == nil)
    let data = CapturedIO()
    data.standardInputIsData = true
    data.standardInputIsTerminal = true
    #expect(CLI.defaultInput(environment: ["HOME": "/Users/me"], io: data, reportFolder: folder) == "-")

    guard ProcessTest.available else { return }
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    for stdin in [ProcessTest.Stream.file("/dev/null", flags: O_RDONLY), .closed] {
      let run = try ProcessTest.run([Array("-q".utf8)], in: root.path, stdin: stdin)
      #expect(run.status == 64, "\(run.stderr)")
      #expect(!run.stderr.contains("DiagnosticReports"))
    }
  }
}
