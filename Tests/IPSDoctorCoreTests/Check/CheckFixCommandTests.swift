import Foundation
import Testing

@testable import IPSDoctorBatch

/// `ips-doctor check --fix`, `--diff` and `--fix-warnings` on the command line: what is written,
/// what is printed, the exit status, and the files never written.
@Suite struct CheckFixCommandTests {
  static let founding = "Fixtures/swift/founding-crash-plain-class.swift"

  static func permissions(_ url: URL) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
  }

  @Test func fixRewritesInPlaceKeepsTheModeAndIsIdempotent() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try CLITest.copyFixture(Self.founding, to: folder, as: "Push.swift")
    let file = folder.appendingPathComponent("Push.swift")
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
    let original = try Data(contentsOf: file)

    let run = CLITest.run(["check", file.path, "--fix"])
    #expect(run.status == .success, "\(run.stdout)\(run.stderr)")
    #expect(
      run.stdout.contains(
        "Push.swift:5:5: note: rewrote 'PushNotificationDelegate.userNotificationCenter(_:didReceive:)' as 'userNotificationCenter(_:didReceive:withCompletionHandler:)'"
      ))
    #expect(run.stdout.hasSuffix("ips-doctor check --fix: 2 methods rewritten in 1 file; 0 refused; 0 left.\n"))
    let fixed = try Data(contentsOf: file)
    #expect(fixed != original)
    #expect(try Self.permissions(file) == 0o640)
    // No temporary file is left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Push.swift"])

    #expect(CLITest.run(["check", file.path]).status == .success)
    let again = CLITest.run(["check", file.path, "--fix"])
    #expect(again.status == .success)
    #expect(again.stdout.hasSuffix("ips-doctor check --fix: 0 methods rewritten in 0 files; 0 refused; 0 left.\n"))
    #expect(try Data(contentsOf: file) == fixed)
  }

  @Test func diffWritesNothingAndAppliesWithGit() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let run = CLITest.run(["check", "Fixtures/swift-fix/usernotifications.swift", "--diff"])
    #expect(run.status == .success)
    #expect(
      run.stdout.hasPrefix(
        "--- a/Fixtures/swift-fix/usernotifications.swift\n+++ b/Fixtures/swift-fix/usernotifications.swift\n@@ "))
    #expect(run.stderr.contains("note: the diff rewrites"))
    #expect(
      run.stdout == String(decoding: try Fixtures.bytes("swift-fix/golden/usernotifications.diff"), as: UTF8.self))
    // An absolute path inside the working directory is named relative to it.
    let absolute = CLITest.run(["check", Fixtures.root.path + "/Fixtures/swift-fix/usernotifications.swift", "--diff"])
    #expect(absolute.stdout == run.stdout)

    guard let git = ShellStep.tool("git") else { return }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Fixtures/swift-fix"), withIntermediateDirectories: true)
    try CLITest.copyFixture(
      "Fixtures/swift-fix/usernotifications.swift", to: folder.appendingPathComponent("Fixtures/swift-fix"),
      as: "usernotifications.swift")
    try Data(run.stdout.utf8).write(to: folder.appendingPathComponent("fix.patch"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: git)
    process.arguments = ["apply", "fix.patch"]
    process.currentDirectoryURL = folder
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let applied = try Data(contentsOf: folder.appendingPathComponent("Fixtures/swift-fix/usernotifications.swift"))
    let direct = CheckFixTests.fix([("u.swift", try Fixtures.bytes("swift-fix/usernotifications.swift"))])
    #expect([UInt8](applied) == direct.fixed)
  }

  @Test func warningsAreLeftWithAReasonUnlessAsked() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try CLITest.copyFixture("Fixtures/swift-fix/pushkit.swift", to: folder, as: "Push.swift")
    let file = folder.appendingPathComponent("Push.swift")
    let original = try Data(contentsOf: file)
    let run = CLITest.run(["check", file.path, "--fix"])
    #expect(run.stdout.contains("Push.swift:7:3: note: not rewritten: a warning, not an error ("))
    #expect(run.stdout.contains("--fix-warnings rewrites it"))
    #expect(try Data(contentsOf: file) == original)
    #expect(run.status == .success)
    #expect(CLITest.run(["check", file.path, "--fix", "--fail-on", "warning"]).status == .findings)

    let warnings = CLITest.run(["check", file.path, "--fix", "--fix-warnings", "--fail-on", "warning"])
    #expect(warnings.status == .success)
    #expect(try Data(contentsOf: file) != original)
  }

  @Test func aRefusalLeavesTheFileAndFailsTheRun() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try CLITest.copyFixture("Fixtures/swift/objc-renamed-method.swift", to: folder, as: "Renamed.swift")
    let file = folder.appendingPathComponent("Renamed.swift")
    let original = try Data(contentsOf: file)
    let run = CLITest.run(["check", file.path, "--fix"])
    #expect(run.status == .findings)
    #expect(run.stdout.contains("Renamed.swift:6:5: warning: not rewritten: it is named @objc("))
    #expect(try Data(contentsOf: file) == original)
  }

  @Test func neverThroughASymbolicLink() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try CLITest.copyFixture(Self.founding, to: folder, as: "Target.swift.txt")
    let target = folder.appendingPathComponent("Target.swift.txt")
    let link = folder.appendingPathComponent("Link.swift")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let original = try Data(contentsOf: target)
    let run = CLITest.run(["check", link.path, "--fix"])
    #expect(run.status == .findings)
    #expect(run.stdout.contains("not rewritten: the file is a symbolic link"))
    #expect(try Data(contentsOf: target) == original)
  }

  @Test func aFileNamedTwiceIsRewrittenOnce() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try CLITest.copyFixture(Self.founding, to: folder, as: "Push.swift")
    let file = folder.appendingPathComponent("Push.swift")
    let other = folder.appendingPathComponent("Same.swift")
    try FileManager.default.linkItem(at: file, to: other)
    let run = CLITest.run(["check", file.path, other.path, "--fix"])
    #expect(run.status == .success, "\(run.stdout)")
    #expect(run.stdout.hasSuffix("2 methods rewritten in 1 file; 0 refused; 0 left.\n"))
    let once = CheckFixTests.fix([("p.swift", try Fixtures.bytes("swift/founding-crash-plain-class.swift"))])
    #expect([UInt8](try Data(contentsOf: file)) == once.fixed)
  }

  @Test func withAReportOnlyTheMethodItsBridgeFrameNames() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try CLITest.copyFixture(Self.founding, to: folder, as: "Push.swift")
    let file = folder.appendingPathComponent("Push.swift")
    let run = CLITest.run(["check", folder.path, "--fix", "--report", CLITest.diagnosed])
    #expect(run.status == .success, "\(run.stdout)\(run.stderr)")
    #expect(
      run.stdout.contains(
        "Push.swift:5:5: note: rewrote 'PushNotificationDelegate.userNotificationCenter(_:didReceive:)'"))
    #expect(run.stdout.hasSuffix("1 method rewritten in 1 file; 0 refused; 0 left.\n"))
    // willPresent, which the report does not name, is still reported.
    let after = CLITest.run(["check", file.path])
    #expect(after.status == .findings)
    #expect(after.stdout.contains("userNotificationCenter(_:willPresent:)"))
    #expect(!after.stdout.contains("userNotificationCenter(_:didReceive:)'"))
  }

  /// The README's three commands, run as written on the founding crash's report and source.
  @Test func theReadmeCrashToPatchWorkflow() throws {
    let readme = String(
      decoding: try Data(contentsOf: Fixtures.root.appendingPathComponent("README.md")), as: UTF8.self)
    let block = try #require(ShellStep.markedBlock("crash-to-patch", in: readme))
    let commands = block.split(separator: "\n").map { line in
      (line.range(of: " #").map { line[..<$0.lowerBound] } ?? line[...]).split(separator: " ").map(String.init)
    }
    #expect(commands.count == 3)
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try CLITest.copyFixture(Self.founding, to: folder, as: "Push.swift")
    let file = folder.appendingPathComponent("Push.swift")
    let original = try Data(contentsOf: file)
    var runs: [CLIRun] = []
    for command in commands {
      #expect(command.first == "ips-doctor")
      let arguments = command.dropFirst().map { word in
        word == "crash.ips" ? CLITest.diagnosed : word == "Sources" ? folder.path : word
      }
      runs.append(CLITest.run(arguments))
    }
    #expect(runs[0].stdout.contains("async-bridge-completion-off-main"))
    #expect(runs[1].status == .success)
    #expect(runs[1].stdout.hasPrefix("--- a/"))
    #expect(runs[1].stdout.contains("+        withCompletionHandler completionHandler: @escaping () -> Void"))
    #expect(runs[2].status == .success)
    #expect(try Data(contentsOf: file) != original)
    #expect(
      CLITest.run(["check", file.path, "--fail-on", "never"]).stdout.contains("userNotificationCenter(_:didReceive:)")
        == false)
  }

  /// A patch keeps the file's bytes, for `git apply`; on a terminal it is shown escaped.
  @Test func aPatchOnATerminalIsEscaped() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let file = folder.appendingPathComponent("Push.swift")
    let source =
      "final class D: UNUserNotificationCenterDelegate {\n  func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {\n    print(\"\u{1B}[31m\")\n  }\n}\n"
    try Data(source.utf8).write(to: file)
    let piped = CLITest.run(["check", file.path, "--diff"])
    #expect(piped.stdout.contains("\u{1B}[31m"))
    let terminal = CLITest.run(["check", file.path, "--diff"], io: CapturedIO(stdoutIsTerminal: true))
    #expect(terminal.stdout.contains("+  func userNotificationCenter("))
    #expect(!terminal.stdout.contains("\u{1B}"))
  }

  @Test func usage() {
    #expect(CLITest.run(["check", Self.founding, "--fix-warnings"]).status == .usage)
    #expect(CLITest.run(["check", Self.founding, "--fix", "--format", "json"]).status == .usage)
    #expect(CLITest.run(["check", Self.founding, "--diff", "--format", "sarif"]).status == .usage)
    #expect(CLITest.run(["--fix", Self.founding]).status == .usage)
  }
}
