import Foundation
import Testing

@testable import IPSDoctorSymbolication

/// Without `--dsym` and without a dSYM beside the report, Spotlight is asked by UUID, as Xcode
/// asks it. Here a stand-in for `mdfind` (`IPS_DOCTOR_MDFIND`) answers from a folder elsewhere.
@Suite struct SpotlightLookupTests {
  /// A shell script that answers `mdfind "com_apple_xcode_dsym_uuids == UUID"` with `path` for
  /// `uuid` only, and logs every query to `log`.
  static func standIn(in directory: URL, uuid: String, path: String, log: URL) throws -> String {
    let script = directory.appendingPathComponent("mdfind")
    try """
    #!/bin/sh
    echo "$1" >> '\(log.path)'
    [ "$1" = "com_apple_xcode_dsym_uuids == \(uuid)" ] && echo '\(path)'
    exit 0
    """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    return script.path
  }

  @Test func aDSYMThatSpotlightKnowsSymbolicatesTheReport() throws {
    guard let shared = SharedReportSymbolicationTests.folder else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let reports = directory.appendingPathComponent("reports")
    try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
    for index in 0..<3 {
      try FileManager.default.copyItem(
        at: shared.appendingPathComponent("ios-crash.crash"), to: reports.appendingPathComponent("\(index).crash"))
    }
    let log = directory.appendingPathComponent("queries.log")
    let dSYM = shared.appendingPathComponent("iOSCrashingTest.app.dSYM").path
    let mdfind = try Self.standIn(
      in: directory, uuid: "82D13D98-219E-3040-B62A-07A297007A7C", path: dSYM, log: log)
    let run = CLITest.run(
      [reports.path, "--format", "jsonl", "--jobs", "2"], environment: ["IPS_DOCTOR_MDFIND": mdfind])
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.contains("CrashClass.pleaseCrash()") }, "\(lines.first ?? "")")
    // Asked once for the run, not once per report.
    let queries = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(queries.filter { $0.contains("82D13D98") }.count == 1, "\(queries)")

    // Turned off, the frames stay unsymbolicated.
    let off = CLITest.run([reports.path, "--format", "jsonl"], environment: ["IPS_DOCTOR_MDFIND": ""])
    #expect(!off.stdout.contains("CrashClass.pleaseCrash()"))
  }

  /// Only hexadecimal digits and dashes reach the shell.
  @Test func aUUIDThatIsNotOneIsNotAsked() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let log = directory.appendingPathComponent("queries.log")
    let mdfind = try Self.standIn(in: directory, uuid: "X", path: "/nonexistent", log: log)
    let lookup = SpotlightLookup(command: mdfind)
    #expect(lookup.files(for: "82d13d98-219e-3040-b62a-07a2970$(touch pwned)").isEmpty)
    #expect(lookup.files(for: "'; rm -rf /; '").isEmpty)
    #expect(!FileManager.default.fileExists(atPath: log.path), "the stand-in was run")
  }
}
