import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Outputs never destroy inputs, never replace what is not a regular file, and never pass a
/// failed write off as success (the hardening issue's data-loss items).
@Suite struct OutputSafetyTests {
  static let report = "Fixtures/reports/null-pointer-dereference.ips"

  /// A temporary folder holding a copy of the report as `in.ips`.
  static func folderWithReport() throws -> (root: URL, input: String) {
    let root = try CLITest.temporaryDirectory()
    try CLITest.copyFixture(report, to: root, as: "in.ips")
    return (root, root.appendingPathComponent("in.ips").path)
  }

  @Test func outputOntoAnInputIsRefusedAndTheInputKept() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    let original = try Data(contentsOf: URL(fileURLWithPath: input))

    let direct = CLITest.run([input, "-o", input])
    #expect(direct.status == .usage)
    #expect(direct.stderr.contains("--output") && direct.stderr.contains("is the input"))

    // The same file by another path: a folder scan that finds it, and a symbolic link to it.
    let inFolder = CLITest.run([root.path, "-o", input])
    #expect(inFolder.status == .usage)
    let link = root.appendingPathComponent("link.txt").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
    #expect(CLITest.run([input, "-o", link]).status == .usage)
    #expect(CLITest.run(["show", input, "-o", link]).status == .usage)

    #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
  }

  @Test func twoOutputsOntoOneFileAreRefused() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    let shared = root.appendingPathComponent("out").path
    let run = CLITest.run([input, "-o", shared, "--write-baseline", root.path + "/./out"])
    #expect(run.status == .usage)
    #expect(run.stderr.contains("are the same file"))
    #expect(!FileManager.default.fileExists(atPath: shared))

    let summary = CLITest.run(
      [input, "--format", "github", "-o", shared], environment: ["GITHUB_STEP_SUMMARY": shared])
    #expect(summary.status == .usage)
  }

  /// On macOS's volumes (case- and normalisation-insensitive) `out.json` and `OUT.json`, or `é`
  /// composed and decomposed, are one file: two new outputs named so are refused everywhere.
  @Test(arguments: [
    ("out.json", "OUT.json"), ("Résumé.sarif", "re\u{301}sume\u{301}.sarif"), ("b.json", "B.JSON"),
  ])
  func twoNewOutputsThatFoldToOneNameAreRefused(first: String, second: String) throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([input, "-o", root.path + "/" + first, "--write-baseline", root.path + "/" + second])
    #expect(run.status == .usage)
    #expect(run.stderr.contains("are the same file"), "\(run.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).count == 1)
    // Names that differ otherwise are two files.
    #expect(CLITest.run([input, "-o", root.path + "/a.json", "-o", root.path + "/a2.json"]).status == .findings)
  }

  @Test func theBaselineIsAnInputExceptToWriteBaseline() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    let baseline = root.appendingPathComponent("baseline.json").path
    #expect(CLITest.run([input, "--write-baseline", baseline]).status == .findings)
    let before = try Data(contentsOf: URL(fileURLWithPath: baseline))
    let clobber = CLITest.run([input, "--baseline", baseline, "-o", baseline])
    #expect(clobber.status == .usage)
    #expect(try Data(contentsOf: URL(fileURLWithPath: baseline)) == before)
    // Updating the baseline that was read is what --write-baseline is for.
    #expect(CLITest.run([input, "--baseline", baseline, "--write-baseline", baseline]).status == .success)
  }

  @Test func aSymbolicLinkIsWrittenThroughToItsTarget() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    let link = root.appendingPathComponent("latest.txt").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "reports/out.txt")
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("reports"), withIntermediateDirectories: true)
    #expect(CLITest.run([input, "-q", "-o", link]).status == .findings)
    let attributes = try FileManager.default.attributesOfItem(atPath: link)
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    let written = try String(contentsOfFile: root.appendingPathComponent("reports/out.txt").path, encoding: .utf8)
    #expect(written.contains("null-pointer-dereference"))
  }

  @Test func aReplacedFileKeepsItsMode() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    let output = root.appendingPathComponent("out.txt").path
    #expect(FileManager.default.createFile(atPath: output, contents: Data("old".utf8)))
    chmod(output, 0o640)
    #expect(CLITest.run([input, "-q", "-o", output]).status == .findings)
    let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
    #expect(mode == 0o640)
  }

  @Test func aCharacterDeviceIsWrittenThroughNotReplaced() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    #expect(CLITest.run([input, "-o", "/dev/null"]).status == .findings)
    var info = stat()
    #expect(lstat("/dev/null", &info) == 0)
    #expect(info.st_mode & S_IFMT == S_IFCHR)
  }

  /// `/dev/fd/N` writes to descriptor N where it stands (a pipe here), as `/dev/stdout` does.
  @Test func aDescriptorPathWritesToThatDescriptor() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(ends[0]) }
    let run = CLITest.run([input, "-q", "-o", "/dev/fd/\(ends[1])"])
    close(ends[1])
    #expect(run.status == .findings)
    let read = POSIX.readAll(fd: ends[0], sizeHint: 0, limit: 1 << 20, waitForData: true)
    #expect((try? read.get()).map { String(decoding: $0, as: UTF8.self) }?.contains("null-pointer-dereference") == true)
    #expect(CLITest.run([input, "-o", "/dev/fd/987"]).status == .cannotCreate)
  }

  @Test func aFolderOrBlockDeviceIsNotAnOutput() throws {
    let (root, input) = try Self.folderWithReport()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([input, "-o", root.path])
    #expect(run.status == .cannotCreate)
    #expect(run.stderr.contains("is a directory"))
    #expect(CLITest.run([input, "-o", root.path + "/missing/out.txt"]).status == .cannotCreate)
  }

  /// A failed spill (a full disk, a file size limit) neither loses nor repeats text: every write
  /// fails, on `/dev/full` where the system has it and on a descriptor open only for reading.
  static let failingSpillFiles: [String] = (Capability.devFull ? ["/dev/full"] : []) + ["read-only"]

  @Test(arguments: failingSpillFiles)
  func aFailedSpillKeepsEverythingOnceInMemory(file: String) throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let readOnly = root.appendingPathComponent("spill").path
    try Data().write(to: URL(fileURLWithPath: readOnly))
    let spool = Spool(openFile: { _ in file == "/dev/full" ? open("/dev/full", O_RDWR) : open(readOnly, O_RDONLY) })
    var expected = ""
    for index in 0..<20_000 {
      let line = "section \(index) \(String(repeating: "x", count: index % 13))\n"
      expected += line
      spool.write(line)
    }
    var written: [UInt8] = []
    let out = TextOutput(sink: { text in
      written += text.utf8
      return true
    })
    spool.drain(into: out)
    out.flush()
    #expect(out.failure == nil)
    #expect(String(decoding: written, as: UTF8.self) == expected)
  }

  /// Standard output that cannot be written is an error (73), with a message, in every command.
  @Test(arguments: [["--format", "sarif", "--fail-on", "never"], ["--format", "junit"], ["-q"]])
  func aFailedStandardOutputWriteExits73(options: [String]) {
    let io = FailingOutputIO()
    let run = CLITest.run([Self.report] + options, io: io)
    #expect(run.status == .cannotCreate)
    #expect(run.stderr.contains("cannot write standard output: no space left on device"))
    #expect(CLITest.run(["--version"], io: FailingOutputIO()).status == .cannotCreate)
    #expect(CLITest.run(["rules"], io: FailingOutputIO()).status == .cannotCreate)
  }
}

/// A terminal-less IO whose standard output fails as a full disk does.
final class FailingOutputIO: CapturedIO, @unchecked Sendable {
  override func writeStandardOutput(_ text: String) throws(FileError) {
    throw FileError(.other, POSIX.message(ENOSPC))
  }
}

/// One invocation writes several outputs, each in the format its name says; the gate is decided once.
@Suite struct SeveralOutputsTests {
  @Test func eachFileInItsFormatAndTheFormatOnStandardOutput() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let sarif = root.appendingPathComponent("ips-doctor.sarif").path
    let markdown = root.appendingPathComponent("summary.md").path
    let sarifJSON = root.appendingPathComponent("x.sarif.json").path
    let run = CLITest.run(
      [CLITest.diagnosed, CLITest.inconclusive, "--format", "github", "-o", sarif, "-o", markdown, "-o", sarifJSON])
    #expect(run.status == .findings)
    #expect(run.stdout.hasPrefix("::error "))
    #expect(try String(contentsOfFile: sarif, encoding: .utf8).contains("\"version\": \"2.1.0\""))
    #expect(try String(contentsOfFile: sarifJSON, encoding: .utf8).contains("\"version\": \"2.1.0\""))
    #expect(try String(contentsOfFile: markdown, encoding: .utf8).hasPrefix("# Crash report diagnosis"))
  }

  @Test func withoutFormatOnlyTheFilesAreWrittenAndSummarised() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let json = root.appendingPathComponent("out.json").path
    let run = CLITest.run([CLITest.diagnosed, "--format", "json", "-o", json])
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("written to"))
    #expect(CLITest.run(["show", CLITest.diagnosed, "-o", json, "-o", json + "2"]).status == .usage)
  }

  /// `-o FORMAT:FILE` names the file's format, over its extension and `--format`; `./` before a
  /// name that starts like one keeps it a plain name.
  @Test func aFormatNamedWithTheFileWinsOverItsExtension() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let results = root.appendingPathComponent("results.json").path
    let copy = root.appendingPathComponent("copy.sarif").path
    let run = CLITest.run(
      [CLITest.diagnosed, "--format", "github", "-o", "sarif:" + results, "-o", "json:" + copy])
    #expect(run.status == .findings)
    #expect(run.stdout.hasPrefix("::error "))
    #expect(try String(contentsOfFile: results, encoding: .utf8).contains("\"version\": \"2.1.0\""))
    #expect(try String(contentsOfFile: copy, encoding: .utf8).contains("\"schemaVersion\""))

    let source = root.appendingPathComponent("a.swift").path
    try Data("struct A {}\n".utf8).write(to: URL(fileURLWithPath: source))
    let checked = root.appendingPathComponent("check.json").path
    let check = CLITest.run(["check", source, "-o", "sarif:" + checked])
    #expect(check.status == .success, "\(check.stderr)")
    #expect(try String(contentsOfFile: checked, encoding: .utf8).contains("\"version\": \"2.1.0\""))
    #expect(CLITest.run(["check", source, "-f", "json", "-o", "sarif:" + checked]).status == .usage)

    #expect(OutputFormat.explicit("sarif:a.json")! == (.sarif, "a.json"))
    #expect(OutputFormat.explicit("sarif:json:x")! == (.sarif, "json:x"))
    #expect(OutputFormat.explicit("./sarif:x") == nil)
    #expect(OutputFormat.explicit("notes:x") == nil)
    #expect(OutputFormat.explicit("/tmp/json:x") == nil)
    let plain = root.appendingPathComponent("notes:x").path
    #expect(CLITest.run([CLITest.diagnosed, "-q", "-o", plain]).status == .findings)
    #expect(FileManager.default.fileExists(atPath: plain))
  }
}

/// Every file a run reads is an input, whatever kind: Swift sources and `--report` for `check`,
/// and for `symbolicate`, `show` and `diagnose` every file the dSYM search opens (named with
/// `--dsym` or found beside the report). An output onto one is refused with exit 64, naming both,
/// and the file is left as it was.
@Suite struct InputKindsAreNeverOutputsTests {
  /// A folder with `r.ips`, `a.swift`, `b.swift` and `App.dSYM` (a Mach-O header as its DWARF
  /// file, and an `Info.plist`).
  static func folder() throws -> (root: URL, paths: [String: String]) {
    let root = try CLITest.temporaryDirectory()
    try CLITest.copyFixture(OutputSafetyTests.report, to: root, as: "r.ips")
    let dwarf = root.appendingPathComponent("App.dSYM/Contents/Resources/DWARF")
    try FileManager.default.createDirectory(at: dwarf, withIntermediateDirectories: true)
    var machO = Data([0xCF, 0xFA, 0xED, 0xFE])
    machO.append(Data(count: 60))
    try machO.write(to: dwarf.appendingPathComponent("App"))
    try Data("<plist/>\n".utf8).write(to: root.appendingPathComponent("App.dSYM/Contents/Info.plist"))
    try Data("struct A {}\n".utf8).write(to: root.appendingPathComponent("a.swift"))
    try Data("struct B {}\n".utf8).write(to: root.appendingPathComponent("b.swift"))
    let paths = [
      "report": "r.ips", "dwarf": "App.dSYM/Contents/Resources/DWARF/App", "plist": "App.dSYM/Contents/Info.plist",
      "bundle": "App.dSYM", "a": "a.swift", "b": "b.swift",
    ].mapValues { root.appendingPathComponent($0).path }
    return (root, paths)
  }

  static func contents(_ paths: [String: String]) throws -> [String: Data] {
    try paths.filter { $0.key != "bundle" }.mapValues { try Data(contentsOf: URL(fileURLWithPath: $0)) }
  }

  /// Runs `arguments` (with `{name}` replaced by the folder's paths) and expects a refusal that
  /// names `phrase`, with every file unchanged.
  static func expectRefused(_ arguments: [String], _ phrase: String) throws {
    let (root, paths) = try folder()
    defer { CLITest.cleanUp(root) }
    let before = try contents(paths)
    let resolved = arguments.map { argument in
      paths.reduce(argument) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
    let run = CLITest.run(resolved)
    #expect(run.status == .usage, "\(arguments): \(run.stderr)")
    #expect(run.stderr.contains("refusing to overwrite an input") && run.stderr.contains(phrase), "\(run.stderr)")
    #expect(try contents(paths) == before, "\(arguments)")
  }

  @Test func checkNeverWritesASourceOrTheReport() throws {
    // `check -o *.swift`: the shell put a.swift after -o.
    try Self.expectRefused(["check", "-o", "{a}", "{b}"], "a Swift source")
    try Self.expectRefused(["check", "{a}", "-o", "{a}"], "the input")
    try Self.expectRefused(["check", "{a}", "--report", "{report}", "-o", "{report}"], "the --report")
  }

  @Test func symbolicateNeverWritesADebugFile() throws {
    try Self.expectRefused(["symbolicate", "{report}", "--dsym", "{bundle}", "-o", "{dwarf}"], "the debug file")
    try Self.expectRefused(["symbolicate", "{report}", "--dsym", "{dwarf}", "-o", "{dwarf}"], "the debug file")
    // Found beside the report, not named.
    try Self.expectRefused(["symbolicate", "{report}", "-o", "{dwarf}"], "the debug file")
    try Self.expectRefused(["symbolicate", "{report}", "-o", "{plist}"], "the debug file")
    try Self.expectRefused(["show", "{report}", "-o", "{dwarf}"], "the debug file")
  }

  @Test func diagnoseNeverWritesADebugFileOrAReport() throws {
    try Self.expectRefused(["{report}", "--dsym", "{dwarf}", "-o", "{dwarf}"], "the debug file")
    try Self.expectRefused(["{report}", "-o", "{dwarf}"], "the debug file")
    try Self.expectRefused(["{report}", "--write-baseline", "{plist}"], "the debug file")
    // `ips-doctor -o *.ips`: a report the shell put after -o.
    try Self.expectRefused(["-o", "{report}", "{a}"], "a crash report")
  }

  @Test func outputsThatAreNoInputStillWork() throws {
    let (root, paths) = try Self.folder()
    defer { CLITest.cleanUp(root) }
    let out = root.appendingPathComponent("out.ips").path
    #expect(CLITest.run(["symbolicate", paths["report"]!, "-o", out]).status == .success)
    #expect(
      CLITest.run(["check", paths["a"]!, "-o", root.appendingPathComponent("new.swift").path]).status == .success)
    #expect(CLITest.run([paths["report"]!, "-o", root.appendingPathComponent("out.txt").path]).status == .findings)
  }
}
