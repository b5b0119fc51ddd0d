import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorSupport

/// dSYMs are loud: a debug file of another build is a warning in `diagnose` in every format and in
/// `symbolicate`; `symbolicate` fails when it symbolicated nothing; `--require-symbols` fails a run
/// whose app frames have no symbols; the advice follows the report's symbolication state and names
/// ips-doctor's own way first. The debug files are made by ``MachOBuilder``.
@Suite struct DSYMWarningTests {
  /// The report of ``SymbolicateHostileTests`` and debug files of its `App`: one with its UUID
  /// (`matching`) and one with another UUID (`other`), each in a folder of its own.
  struct Setup {
    var folder: URL
    var report: String
    var matching: String
    var other: String
  }

  static func setUp() throws -> Setup {
    let folder = try CLITest.temporaryDirectory()
    let report = folder.appendingPathComponent("r.crash").path
    try Data(SymbolicateHostileTests.report().utf8).write(to: URL(fileURLWithPath: report))
    let matchingFolder = folder.appendingPathComponent("matching")
    let otherFolder = folder.appendingPathComponent("other")
    for url in [matchingFolder, otherFolder] {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    // Code for both of the report's frames (0x100004010 and 0x100009000).
    var builder = MachOBuilder()
    builder.sections = [.init(segment: "__TEXT", name: "__text", address: 0x1_0000_4000, size: 0x6000)]
    builder.symbols = [("_crashHere", 0x1_0000_4000), ("_caller", 0x1_0000_8000)]
    let matching = try builder.write(to: matchingFolder, as: "App")
    builder.uuid = Array(repeating: 0xAB, count: 16)
    let other = try builder.write(to: otherFolder, as: "App")
    return Setup(folder: folder, report: report, matching: matching, other: other)
  }

  @Test func aDebugFileOfAnotherBuildIsAWarningInEveryFormat() throws {
    let setup = try Self.setUp()
    defer { CLITest.cleanUp(setup.folder) }
    let plain = CLITest.run([setup.report])
    let text = CLITest.run([setup.report, "--dsym", setup.other])
    #expect(text.status == plain.status, "a warning does not change the exit status")
    #expect(text.stderr.contains("warning: "), "\(text.stderr)")
    #expect(text.stderr.contains("App: the report's UUID"), "\(text.stderr)")
    #expect(text.stderr.contains("has another UUID, not used"))
    #expect(!plain.stderr.contains("another UUID"))
    let verbose = CLITest.run([setup.report, "--dsym", setup.other, "--verbose"])
    #expect(verbose.stderr.contains("has another UUID, not used"))

    let json = CLITest.run([setup.report, "--dsym", setup.other, "--format", "json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let notices = try #require(object["notices"] as? [[String: Any]])
    #expect(notices.contains { $0["kind"] as? String == "dsym-mismatch" && ($0["path"] as? String) == setup.report })

    let sarif = CLITest.run([setup.report, "--dsym", setup.other, "--format", "sarif"])
    #expect(sarif.stdout.contains("\"level\": \"warning\""), "\(sarif.stdout.suffix(600))")
    #expect(sarif.stdout.contains("another UUID, not used"))

    let github = CLITest.run([setup.report, "--dsym", setup.other, "--format", "github"])
    #expect(github.stdout.contains("::warning title=ips-doctor::"), "\(github.stdout)")

    let markdown = CLITest.run([setup.report, "--dsym", setup.other, "--format", "markdown"])
    #expect(markdown.stdout.contains("## Symbols"))

    let show = CLITest.run(["show", setup.report, "--dsym", setup.other])
    #expect(show.stderr.contains("has another UUID, not used"), "\(show.stderr)")
  }

  @Test func aDSYMThatMatchesNoImageByNameOrUUIDIsAWarningToo() throws {
    let setup = try Self.setUp()
    defer { CLITest.cleanUp(setup.folder) }
    let renamed = setup.folder.appendingPathComponent("Other")
    try FileManager.default.copyItem(atPath: setup.other, toPath: renamed.path)
    let run = CLITest.run([setup.report, "--dsym", renamed.path, "--format", "json"])
    #expect(run.stderr.contains("no debug file of --dsym has the UUID of an image of the 1 report"), "\(run.stderr)")
    #expect(run.stdout.contains("\"dsym-mismatch\""))
    // The right one says nothing of the kind.
    let right = CLITest.run([setup.report, "--dsym", setup.matching])
    #expect(!right.stderr.contains("UUID"), "\(right.stderr)")
  }

  @Test func symbolicateFailsWhenItSymbolicatedNothing() throws {
    let setup = try Self.setUp()
    defer { CLITest.cleanUp(setup.folder) }
    let wrong = CLITest.run(["symbolicate", setup.report, "--dsym", setup.other])
    #expect(wrong.status == .findings, "\(wrong.stderr)")
    #expect(wrong.stderr.contains("warning: ") && wrong.stderr.contains("has another UUID, not used"))
    #expect(wrong.stderr.contains("error: ") && wrong.stderr.contains("no frame symbolicated"))
    let right = CLITest.run(["symbolicate", setup.report, "--dsym", setup.matching])
    #expect(right.status == .success, "\(right.stderr)")
    #expect(right.stdout.contains("crashHere"))
    // A report with nothing left to symbolicate is no failure.
    let again = setup.folder.appendingPathComponent("again.crash")
    try Data(right.stdout.utf8).write(to: again)
    let done = CLITest.run(["symbolicate", again.path, "--dsym", setup.matching])
    #expect(done.status == .success, "\(done.stderr)")
    #expect(done.stderr.contains("nothing to symbolicate"))
  }

  @Test func requireSymbolsFailsARunWithUnsymbolicatedAppFrames() throws {
    let setup = try Self.setUp()
    defer { CLITest.cleanUp(setup.folder) }
    let bare = CLITest.run([setup.report, "--require-symbols", "--fail-on", "never"])
    #expect(bare.status == .dataError, "\(bare.stderr)")
    #expect(bare.stderr.contains("error: \(setup.report): the app's frames are not symbolicated (App)"))
    let sarif = CLITest.run([setup.report, "--require-symbols", "--format", "sarif"])
    #expect(sarif.stdout.contains("not symbolicated"))
    let symbolicated = CLITest.run([setup.report, "--require-symbols", "--dsym", setup.matching, "--fail-on", "never"])
    #expect(symbolicated.status == .success, "\(symbolicated.stderr)")
    // Without the option, the same report passes.
    #expect(CLITest.run([setup.report, "--fail-on", "never"]).status == .success)
  }

  @Test func theAdviceFollowsTheSymbolicationStateAndNamesIPSDoctorFirst() throws {
    let setup = try Self.setUp()
    defer { CLITest.cleanUp(setup.folder) }
    let bare = CLITest.run([setup.report])
    let ownWay = try #require(bare.stdout.range(of: "ips-doctor \(setup.report) --dsym App.app.dSYM"), "\(bare.stdout)")
    let atos = try #require(bare.stdout.range(of: "atos -arch arm64"))
    #expect(ownWay.lowerBound < atos.lowerBound)
    let symbolicated = CLITest.run([setup.report, "--dsym", setup.matching])
    #expect(symbolicated.stdout.contains("crashHere"), "\(symbolicated.stdout)")
    #expect(!symbolicated.stdout.contains("Symbolicate the app's frames"))
    #expect(!symbolicated.stdout.contains("atos"))
  }

  @Test func symbolicateTakesSeveralReportsOrAFolderIntoAFolder() throws {
    let setup = try Self.setUp()
    defer { CLITest.cleanUp(setup.folder) }
    let pull = setup.folder.appendingPathComponent("pull")
    let out = setup.folder.appendingPathComponent("out")
    for url in [pull, out] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    for name in ["a.crash", "b.crash"] {
      try FileManager.default.copyItem(atPath: setup.report, toPath: pull.appendingPathComponent(name).path)
    }
    try Data("not a report\n".utf8).write(to: pull.appendingPathComponent("notes.txt"))
    let folder = CLITest.run(["symbolicate", pull.path, "--dsym", setup.matching, "-o", out.path])
    #expect(folder.status == .success, "\(folder.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names == ["a.crash", "b.crash"])
    for name in names {
      let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
      #expect(text.contains("crashHere"), "\(name)")
    }
    // Named one by one, the same; with one that matches nothing, the worst status.
    let bare = setup.folder.appendingPathComponent("bare")
    try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
    let named = CLITest.run([
      "symbolicate", pull.appendingPathComponent("a.crash").path, setup.report, "--dsym", setup.other, "-o", bare.path,
    ])
    #expect(named.status == .findings, "\(named.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: bare.path).sorted() == ["a.crash", "r.crash"])
    // Several reports need a folder to go to; the reports' own folder is refused.
    #expect(CLITest.run(["symbolicate", pull.path, "--dsym", setup.matching]).status == .usage)
    let onto = CLITest.run(["symbolicate", pull.path, "--dsym", setup.matching, "-o", pull.path])
    #expect(onto.status == .usage, "\(onto.stderr)")
    #expect(onto.stderr.contains("refusing to overwrite an input"))
  }
}
