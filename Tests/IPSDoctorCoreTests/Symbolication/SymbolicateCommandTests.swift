import Foundation
import Testing

@testable import IPSDoctorReport

/// `ips-doctor symbolicate`, `show --dsym` and `diagnose --dsym` on the shared reports.
@Suite struct SymbolicateCommandTests {
  static func path(_ name: String) -> String? {
    SharedReportSymbolicationTests.folder?.appendingPathComponent(name).path
  }

  @Test func jsonStaysJSONWithXcodesFields() throws {
    guard let report = Self.path("multi-target-crash.ips"), let app = Self.path("CrashingInAnotherTargetTest.dSYM"),
      let framework = Self.path("AnotherTarget.framework.dSYM")
    else { return }
    let run = CLITest.run(["symbolicate", report, "--dsym", app, "--dsym", framework])
    #expect(run.status == .success)
    let symbolicated = try ReportReader.read(Array(run.stdout.utf8))
    #expect(symbolicated.format == .json)
    let frames = symbolicated.threads.flatMap(\.frames).filter { $0.sourceFile != nil }
    #expect(frames.map(\.symbol) == ["static CrashingClass.crash()", "@objc static CrashingClass.crash()", "main"])
    #expect(frames.map(\.isInline) == [true, false, false])
    #expect(frames.map(\.sourceLine) == [12, 11, 29])
    #expect(run.stderr.contains("symbolicated 2 frames"))
    // Only insertions: every byte of the input is in the output, in order (Apple's layout kept).
    let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: report)))
    var remaining = input[...]
    for byte in Array(run.stdout.utf8) where remaining.first == byte { remaining = remaining.dropFirst() }
    #expect(remaining.isEmpty)
    #expect(
      run.stdout.contains(
        #"{"symbol":"main","symbolLocation":46,"sourceFile":"main.m","sourceLine":29,"imageOffset":15972"#))
  }

  @Test func aUUIDMismatchIsReportedNotGuessed() throws {
    // Another build's DWARF file under the image's name (a link named CrashingTest).
    guard let report = Self.path("single-target-crash.ips"),
      let other = Self.path("CrashingInAnotherTargetTest.dSYM/Contents/Resources/DWARF/CrashingInAnotherTargetTest")
    else { return }
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let link = folder.appendingPathComponent("CrashingTest").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: other)
    let run = CLITest.run(["symbolicate", report, "--dsym", link])
    // Written as it was, and nothing symbolicated: exit 1.
    #expect(run.status == .findings)
    #expect(run.stderr.contains("01d2a9d5-1f8a-35c8-9228-7c7cca13c5fc matches no debug file"))
    #expect(run.stderr.contains("no frame symbolicated"))
    #expect(!run.stdout.contains("crashingMethod"))
  }

  @Test func showAndDiagnoseUseTheSymbolicatedFrames() {
    guard let report = Self.path("single-target-crash.ips"), let dSYM = Self.path("CrashingTest.dSYM") else { return }
    let show = CLITest.run(["show", report, "--dsym", dSYM])
    #expect(show.stdout.contains("-[MyClass crashingMethod] + "))
    #expect(show.stdout.contains("(main.m:21)"))
    let diagnose = CLITest.run([report, "--dsym", dSYM, "--format", "json"])
    #expect(diagnose.stdout.contains("crashingMethod"))
  }
}
