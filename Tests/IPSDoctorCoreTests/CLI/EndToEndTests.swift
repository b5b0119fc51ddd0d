import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Exit codes")
struct ExitCodeTests {
  @Test("0: nothing at or above --fail-on")
  func success() {
    #expect(CLITest.run([CLITest.jetsam]).status == .success)  // a warning: not the app's fault
    #expect(CLITest.run([CLITest.diagnosed, "--fail-on", "never"]).status == .success)
    #expect(ExitCode.success.rawValue == 0)
  }

  @Test("1: findings at or above --fail-on")
  func findings() {
    #expect(CLITest.run([CLITest.diagnosed]).status == .findings)
    #expect(CLITest.run([CLITest.inconclusive]).status == .success)  // inconclusive: a warning
    #expect(CLITest.run([CLITest.inconclusive, "--fail-on", "warning"]).status == .findings)
    #expect(CLITest.run([CLITest.jetsam, "--fail-on", "warning"]).status == .findings)
    #expect(CLITest.run([CLITest.panic, "--fail-on", "warning"]).status == .success)  // a note only
    #expect(CLITest.run([CLITest.panic, "--fail-on", "note"]).status == .findings)
    #expect(ExitCode.findings.rawValue == 1)
  }

  @Test("64: usage error")
  func usage() {
    #expect(CLITest.run(["--nope"]).status.rawValue == 64)
  }

  @Test("65: some input yielded no report to diagnose")
  func dataError() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let broken = directory.appendingPathComponent("broken.ips")
    try "{\"bug_type\":\"309\"}\n{\"threads\": [".write(to: broken, atomically: true, encoding: .utf8)
    let run = CLITest.run([CLITest.inconclusive, broken.path])
    #expect(run.status.rawValue == 65)
    #expect(run.stderr.contains("broken.ips"))
    #expect(run.stdout.contains("inconclusive"), "the good file is still diagnosed")
    // A damaged report that was diagnosed is not one; a finding outranks an unreadable file.
    #expect(CLITest.run([CLITest.diagnosed, CLITest.truncated]).status == .findings)
    #expect(CLITest.run([CLITest.diagnosed, broken.path]).status == .findings)
  }

  @Test("66: a named path does not exist, or no report was found")
  func noInput() throws {
    let missing = CLITest.run(["Fixtures/no-such-file.ips"])
    #expect(missing.status.rawValue == 66)
    #expect(missing.stderr == "ips-doctor: error: Fixtures/no-such-file.ips: no such file or directory\n")
    #expect(missing.stdout.isEmpty)
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try "just notes".write(to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let empty = CLITest.run([directory.path])
    #expect(empty.status.rawValue == 66)
    #expect(empty.stderr.contains("no crash reports found"))
    // A missing path outranks findings in the others.
    #expect(CLITest.run([CLITest.diagnosed, "Fixtures/no-such-file.ips"]).status == .noInput)
  }

  @Test("70: internal error")
  func software() {
    let run = CLITest.run([CLITest.diagnosed], environment: ["IPS_DOCTOR_SIMULATE_INTERNAL_ERROR": "1"])
    #expect(run.status.rawValue == 70)
    #expect(run.stderr.hasPrefix("ips-doctor: error: internal error"))
  }

  @Test("73: the output file cannot be created")
  func cannotCreate() {
    let run = CLITest.run([CLITest.diagnosed, "--output", "/nonexistent-dir/out.json"])
    #expect(run.status.rawValue == 73)
    #expect(run.stderr.contains("cannot write '/nonexistent-dir/out.json'"))
  }

  @Test("The most serious status wins")
  func precedence() {
    #expect(max(ExitCode.findings, .dataError) == .findings)
    #expect(max(ExitCode.dataError, .noInput) == .noInput)
    #expect(max(ExitCode.noInput, .software) == .software)
  }
}

@Suite("Batches")
struct BatchTests {
  @Test("A broken, an empty and an unreadable file among good ones: each reported, the batch goes on")
  func mixedBatch() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try CLITest.copyFixture(CLITest.diagnosed, to: directory, as: "a-good.ips")
    try "{\"bug_type\":\"309\"}\n{\"threads\": [".write(
      to: directory.appendingPathComponent("b-broken.ips"), atomically: true, encoding: .utf8)
    try Data().write(to: directory.appendingPathComponent("c-empty.ips"))
    try CLITest.copyFixture(CLITest.jetsam, to: directory, as: "d-unreadable.ips")
    try CLITest.copyFixture(CLITest.unsymbolicated, to: directory, as: "e-good.crash")
    let unreadable = directory.appendingPathComponent("d-unreadable.ips")
    chmod(unreadable.path, 0)
    // Root reads a chmod 000 file anyway (tests run as root in some containers).
    let rootCanRead = access(unreadable.path, R_OK) == 0

    let run = CLITest.run([directory.path, "--format", "json"])
    #expect(run.status == .findings)
    #expect(CLITest.run([directory.path, "--format", "json", "--fail-on", "never"]).status == .success)
    let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let reports = try #require(document["reports"] as? [[String: Any]])
    let names = reports.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) }
    #expect(names == ["a-good.ips", "b-broken.ips", "c-empty.ips", "d-unreadable.ips", "e-good.crash"])
    func error(_ name: String) -> String? {
      let report = reports.first { ($0["path"] as? String)?.hasSuffix(name) == true }
      return (report?["error"] as? [String: Any])?["message"] as? String
    }
    #expect(error("a-good.ips") == nil)
    #expect(error("b-broken.ips")?.contains("not valid JSON") == true)
    #expect(error("c-empty.ips") == "the file is empty")
    if rootCanRead {
      // Running as root: chmod 000 does not stop reading, so this file reads fine.
      #expect(error("d-unreadable.ips") == nil)
    } else {
      #expect(error("d-unreadable.ips") == "permission denied")
    }
    #expect(error("e-good.crash") == nil)
    let first = reports[0]["diagnoses"] as? [[String: Any]]
    #expect(first?.first?["rule"] as? String == "async-bridge-completion-off-main")
  }

  @Test("Folders: recursive, sorted, hidden skipped, other files only when they look like reports")
  func folderScan() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let nested = directory.appendingPathComponent("z/inner")
    try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
    try CLITest.copyFixture(CLITest.jetsam, to: nested, as: "deep.ips")
    try CLITest.copyFixture(CLITest.jetsam, to: directory.appendingPathComponent(".hidden"), as: "secret.ips")
    try CLITest.copyFixture(CLITest.jetsam, to: directory, as: ".dot.ips")
    try CLITest.copyFixture(CLITest.jetsam, to: directory, as: "renamed.txt")
    try CLITest.copyFixture(CLITest.diagnosed, to: directory, as: "b.log")
    try "hello {\"bug_type\"}".write(
      to: directory.appendingPathComponent("readme.md"), atomically: true, encoding: .utf8)
    try "# Notes\nIncident Identifier: and Exception Type: are the labels of a text report.\n".write(
      to: directory.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("dir.ips"), withIntermediateDirectories: true)
    let run = CLITest.run([directory.path + "/", "--format", "jsonl", "--fail-on", "never"])
    let paths = run.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? String
    }
    let prefix = directory.path + "/"
    #expect(paths == [prefix + "b.log", prefix + "renamed.txt", prefix + "z/inner/deep.ips"])
    #expect(run.stderr.contains("dir.ips: skipped: a directory named like a crash report"))
    // A hidden file named explicitly is read.
    #expect(CLITest.run([directory.appendingPathComponent(".dot.ips").path]).status == .success)
  }

  @Test("A symbolic link loop in a scanned folder is reported, not followed forever")
  func symlinkLoop() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try CLITest.copyFixture(CLITest.jetsam, to: directory, as: "a.ips")
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("loop").path, withDestinationPath: directory.path)
    try FileManager.default.createSymbolicLink(
      atPath: directory.appendingPathComponent("self.ips").path,
      withDestinationPath: directory.appendingPathComponent("self.ips").path)
    let run = CLITest.run([directory.path, "--format", "jsonl", "--follow"])
    #expect(run.stdout.split(separator: "\n").count == 1)
    #expect(run.stderr.contains("loop: skipped: symbolic link loop"))
    #expect(run.stderr.contains("self.ips: skipped: symbolic link loop"))
  }

  @Test("A FIFO named like a report is skipped without blocking")
  func fifo() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try CLITest.copyFixture(CLITest.jetsam, to: directory, as: "a.ips")
    let fifo = directory.appendingPathComponent("pipe.ips").path
    #expect(mkfifo(fifo, 0o644) == 0)
    let scanned = CLITest.run([directory.path])
    #expect(scanned.status == .success)
    #expect(scanned.stderr.contains("pipe.ips: skipped: a FIFO (named pipe), not a regular file"))
    // Named on the command line, a FIFO is read as `cat` would (ExitStatusPolicyTests).
  }

  @Test(
    "File names that are not UTF-8 are shown escaped and still read",
    .enabled(
      if: Capability.keepsNonUTF8Names(in: FileManager.default.temporaryDirectory.path),
      "this file system refuses such names"))
  func nonUTF8Names() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let source = try Data(contentsOf: Fixtures.url("cli/jetsam-event.ips"))
    var path = Array(directory.path.utf8) + Array("/bad-\u{1}".utf8) + [0xFF] + Array(".ips".utf8) + [0]
    let fd = path.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
    }
    #expect(fd >= 0)
    _ = source.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    let run = CLITest.run([directory.path, "--format", "jsonl"])
    #expect(run.status == .success)
    #expect(run.stdout.contains("bad-\\\\u{1}\\\\xFF.ips"), "\(run.stdout.prefix(300))")
  }

  @Test("--max-size refuses larger files with a clear per-file error")
  func maxSize() {
    let run = CLITest.run([CLITest.diagnosed, CLITest.jetsam, "--max-size", "2K", "--quiet"])
    #expect(run.status == .dataError)
    #expect(!run.stdout.contains(CLITest.diagnosed))
    #expect(run.stderr.contains(CLITest.diagnosed + ": error: the file is "), "\(run.stderr)")
    #expect(run.stderr.contains("larger than the --max-size limit of 2 KiB"))
  }

  @Test("- reads standard input")
  func standardInput() throws {
    let bytes = Array(try Data(contentsOf: Fixtures.url("reports/async-bridge-didreceive-simplified-symbols.ips")))
    let run = CLITest.run(["-", "--quiet"], io: CapturedIO(input: bytes))
    #expect(run.status == .findings)
    #expect(run.stdout.hasPrefix("<stdin>: error: Async Delegate Method"))
  }

  @Test("--strict turns report warnings into errors (exit 65)")
  func strict() {
    #expect(CLITest.run([CLITest.jetsam]).status == .success)
    let run = CLITest.run([CLITest.jetsam, "--strict", "--quiet"])
    #expect(run.status == .dataError)
    #expect(run.stderr.contains("--strict: the report has 1 warning"))
  }

  @Test("--output writes atomically and infers the format")
  func outputFile() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let target = directory.appendingPathComponent("report.sarif")
    try "old".write(to: target, atomically: true, encoding: .utf8)
    let run = CLITest.run([CLITest.diagnosed, "--output", target.path])
    #expect(run.status == .findings)
    #expect(run.stdout.isEmpty)
    let written = try String(contentsOf: target, encoding: .utf8)
    #expect(written.contains("\"version\": \"2.1.0\""))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(leftovers == ["report.sarif"], "temporary files left: \(leftovers)")
  }

  @Test("A baseline: known signatures pass, new ones fail")
  func baseline() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let baseline = directory.appendingPathComponent("baseline.json").path
    // First run: no baseline yet; write it.
    let first = CLITest.run([CLITest.diagnosed, "--baseline", baseline, "--write-baseline", baseline])
    #expect(first.status == .findings)
    let written = try String(contentsOf: URL(fileURLWithPath: baseline), encoding: .utf8)
    #expect(written.contains("async-bridge-completion-off-main"))
    // Second run: the same crash is known.
    let second = CLITest.run([CLITest.diagnosed, "--baseline", baseline, "--format", "json"])
    #expect(second.status == .success)
    #expect(second.stdout.contains("\"baseline\": \"known\""))
    // The same crash unsymbolicated is known (its frames' image and offsets are the same); a new
    // crash group fails.
    let unsymbolicated = CLITest.run([CLITest.unsymbolicated, "--baseline", baseline, "--quiet"])
    #expect(unsymbolicated.status == .success, "\(unsymbolicated.stdout)")
    let third = CLITest.run([CLITest.diagnosed, CLITest.otherCrash, "--baseline", baseline, "--quiet"])
    #expect(third.status == .findings)
    #expect(
      third.stdout.contains(
        "simplified-symbols.ips: error: Async Delegate Method Completes Off The Main Thread [async-bridge-completion-off-main] (definite) (known)"
      ))
    // Rewriting an unchanged baseline changes no bytes.
    _ = CLITest.run([CLITest.diagnosed, "--baseline", baseline, "--write-baseline", baseline])
    #expect(try String(contentsOf: URL(fileURLWithPath: baseline), encoding: .utf8) == written)
    // A missing baseline (a first run in CI) is an empty one, with a note; a broken one is an
    // error.
    let firstRun = CLITest.run([CLITest.diagnosed, "--baseline", directory.appendingPathComponent("none.json").path])
    #expect(firstRun.status == .findings)
    #expect(firstRun.stderr.contains("does not exist yet: every crash group counts as new"))
    #expect(CLITest.run([CLITest.diagnosed, "--baseline", CLITest.jetsam]).status == .dataError)
  }

  @Test("Options may come before or after paths")
  func optionPlacement() {
    let before = CLITest.run(["--format", "jsonl", CLITest.jetsam])
    let after = CLITest.run([CLITest.jetsam, "--format", "jsonl"])
    #expect(before.stdout == after.stdout)
    #expect(before.stdout.hasPrefix("{\"path\""))
  }
}

@Suite("Terminal behaviour")
struct TerminalTests {
  static let escape = "\u{1B}["

  @Test("Colour only on a terminal, never with NO_COLOR, and as --color says")
  func colour() {
    #expect(!CLITest.run([CLITest.diagnosed]).stdout.contains(Self.escape))
    #expect(CLITest.run([CLITest.diagnosed], io: CapturedIO(stdoutIsTerminal: true)).stdout.contains(Self.escape))
    #expect(
      !CLITest.run([CLITest.diagnosed], environment: ["NO_COLOR": "1"], io: CapturedIO(stdoutIsTerminal: true)).stdout
        .contains(Self.escape))
    #expect(
      CLITest.run([CLITest.diagnosed], environment: ["NO_COLOR": ""], io: CapturedIO(stdoutIsTerminal: true)).stdout
        .contains(Self.escape), "an empty NO_COLOR does not count")
    #expect(
      !CLITest.run([CLITest.diagnosed], environment: ["TERM": "dumb"], io: CapturedIO(stdoutIsTerminal: true)).stdout
        .contains(Self.escape))
    #expect(
      CLITest.run([CLITest.diagnosed, "--color", "always"], environment: ["NO_COLOR": "1"]).stdout.contains(Self.escape)
    )
    #expect(
      !CLITest.run([CLITest.diagnosed, "--color", "never"], io: CapturedIO(stdoutIsTerminal: true)).stdout.contains(
        Self.escape))
    #expect(
      !CLITest.run([CLITest.diagnosed, "--format", "json"], io: CapturedIO(stdoutIsTerminal: true)).stdout.contains(
        Self.escape))
  }

  @Test("Colour does not change the words")
  func colourIsOnlyDecoration() {
    let plain = CLITest.run([CLITest.diagnosed]).stdout
    let coloured = CLITest.run([CLITest.diagnosed, "--color", "always"]).stdout
    #expect(coloured.replacing(/\u{1B}\[[0-9;]*m/, with: "") == plain)
  }

  @Test("The progress line: only on a terminal, never in CI or with --no-progress")
  func progress() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    for index in 0..<40 {
      try CLITest.copyFixture(CLITest.jetsam, to: directory, as: "r\(index).ips")
    }
    let shown = CLITest.run([directory.path, "--jobs", "1"], io: CapturedIO(stderrIsTerminal: true))
    #expect(shown.stderr.contains("32 reports diagnosed, 32/40 files read"))
    // Erased at the end: what follows on the terminal is the output.
    #expect(shown.stderr.hasSuffix("\r\u{1B}[K"))
    #expect(!shown.stdout.contains("diagnosed, "))
    let ci = CLITest.run(
      [directory.path, "--jobs", "1"], environment: ["CI": "true"], io: CapturedIO(stderrIsTerminal: true))
    #expect(!ci.stderr.contains("files read"))
    let piped = CLITest.run([directory.path, "--jobs", "1"])
    #expect(!piped.stderr.contains("files read"))
    let off = CLITest.run([directory.path, "--jobs", "1", "--no-progress"], io: CapturedIO(stderrIsTerminal: true))
    #expect(!off.stderr.contains("files read"))
    #expect(shown.stdout == piped.stdout)
  }

  @Test("GITHUB_STEP_SUMMARY gets a Markdown summary appended")
  func stepSummary() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let summary = directory.appendingPathComponent("summary.md")
    try "previous step\n".write(to: summary, atomically: true, encoding: .utf8)
    let run = CLITest.run(
      [CLITest.diagnosed, CLITest.jetsam, "--format", "github"], environment: ["GITHUB_STEP_SUMMARY": summary.path])
    #expect(
      run.stdout.hasPrefix("::error file=Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips,line=1,title=")
    )
    let text = try String(contentsOf: summary, encoding: .utf8)
    #expect(text.hasPrefix("previous step\n# ips-doctor\n"))
    #expect(text.contains("| Count | Severity | Rule |"))
  }
}

@Suite("Catalog commands")
struct CatalogCommandTests {
  @Test("rules lists every rule in text, JSON and Markdown")
  func rules() throws {
    let text = CLITest.run(["rules"])
    #expect(text.status == .success)
    for id in RuleCatalog.ids { #expect(text.stdout.contains(id)) }
    let json = CLITest.run(["rules", "--format", "json"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect((document["rules"] as? [[String: Any]])?.count == RuleCatalog.all.count)
    let markdown = CLITest.run(["rules", "--format", "markdown"])
    #expect(markdown.stdout.hasPrefix("# ips-doctor rules\n"))
  }

  @Test("explain prints the summary, rationale, remedy, references and examples")
  func explain() throws {
    let rule = try #require(RuleCatalog.all.first).description
    let run = CLITest.run(["explain", rule.id])
    #expect(run.status == .success)
    #expect(run.stdout.hasPrefix(rule.id + " — " + rule.title))
    for heading in ["Why it happens", "How to fix it"] { #expect(run.stdout.contains(heading)) }
    if let reference = rule.references.first { #expect(run.stdout.contains(reference)) }
    if let example = rule.examples.first { #expect(run.stdout.contains(example.name)) }
  }
}

@Suite("show")
struct ShowCommandTests {
  @Test("show prints the legacy text layout; exit 0, 65 or 66 by what could be read")
  func show() throws {
    let good = CLITest.run(["show", CLITest.diagnosed])
    #expect(good.status == .success)
    #expect(good.stdout.hasPrefix("Incident Identifier:"))
    #expect(good.stdout.contains("Exception Type:  EXC_CRASH (SIGABRT)"))
    #expect(good.stderr.isEmpty)
    let truncated = CLITest.run(["show", CLITest.truncated])
    #expect(truncated.status == .dataError)
    #expect(truncated.stdout.hasPrefix("Incident Identifier:") || !truncated.stdout.isEmpty)
    #expect(truncated.stderr.hasPrefix("ips-doctor: Fixtures/cli/truncated-body.ips:46:1599: error: "))
    #expect(CLITest.run(["show", "Fixtures/none.ips"]).status == .noInput)
    #expect(CLITest.run(["show", "Fixtures"]).status == .dataError)
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let notAReport = directory.appendingPathComponent("hello.txt")
    try "hello world\n".write(to: notAReport, atomically: true, encoding: .utf8)
    let refused = CLITest.run(["show", notAReport.path])
    #expect(refused.status == .dataError)
    #expect(refused.stdout.isEmpty)
    #expect(refused.stderr.contains("hello.txt:1:1: error: not a crash report"))
    let strict = CLITest.run(["show", CLITest.jetsam, "--strict"])
    #expect(strict.status == .dataError)
    #expect(strict.stderr.contains("1 parse warning"))
    let bytes = Array(try Data(contentsOf: Fixtures.url("cli/jetsam-event.ips")))
    #expect(CLITest.run(["show", "-"], io: CapturedIO(input: bytes)).status == .success)
  }
}
