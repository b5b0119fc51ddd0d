import Foundation
import Synchronization
import Testing

@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// Without `--dsym` and without a dSYM beside the report, Spotlight is asked by UUID, as Xcode
/// asks it. Here a stand-in for `mdfind` (`IPS_DOCTOR_MDFIND`) answers from a folder elsewhere.
@Suite struct SpotlightLookupTests {
  static let knownUUID = "82D13D98-219E-3040-B62A-07A297007A7C"

  /// A shell script that answers a query naming `uuid` with `path`, and logs every query (its
  /// one argument) to `log`, after `delay` seconds.
  static func standIn(in directory: URL, uuid: String, path: String, log: URL, delay: String = "0") throws -> String {
    let script = directory.appendingPathComponent("mdfind")
    let text = """
      #!/bin/sh
      [ $# -eq 1 ] || exit 2
      sleep \(delay)
      printf '%s\\n' "$1" >> '\(log.path)'
      case "$1" in *"com_apple_xcode_dsym_uuids == \(uuid)"*) echo '\(path)' ;; esac
      exit 0
      """
    // Written through a descriptor no other test's child can inherit: a program still holding the
    // script open for writing would make running it fail with ETXTBSY.
    let fd = open(script.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    try #require(fd >= 0)
    _ = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
    close(fd)
    return script.path
  }

  static func queries(_ log: URL) -> [String] {
    ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  static func uuid(_ number: Int) -> String {
    let hex = String(number, radix: 16, uppercase: true)
    return "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - hex.count) + hex
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
    let mdfind = try Self.standIn(in: directory, uuid: Self.knownUUID, path: dSYM, log: log)
    let run = CLITest.run(
      [reports.path, "--format", "jsonl", "--jobs", "2"], environment: ["IPS_DOCTOR_MDFIND": mdfind])
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.contains("CrashClass.pleaseCrash()") }, "\(lines.first ?? "")")
    // Asked once for the run, not once per report.
    #expect(Self.queries(log).filter { $0.contains("82D13D98") }.count == 1, "\(Self.queries(log))")

    // Turned off, the frames stay unsymbolicated.
    let off = CLITest.run([reports.path, "--format", "jsonl"], environment: ["IPS_DOCTOR_MDFIND": ""])
    #expect(!off.stdout.contains("CrashClass.pleaseCrash()"))
  }

  /// A report's missing UUIDs go in one query (a few for thousands), and a UUID is asked once.
  @Test func manyUUIDsAreAskedInFewQueriesOnce() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let log = directory.appendingPathComponent("queries.log")
    let lookup = SpotlightLookup(program: try Self.standIn(in: directory, uuid: "X", path: "/nonexistent", log: log))
    let uuids = (0..<600).map(Self.uuid)
    let answers = lookup.files(for: uuids)
    #expect(answers.count == 600)
    #expect(answers.values.allSatisfy { $0.isEmpty })
    #expect(lookup.queryCount == 3)  // 256 + 256 + 88
    #expect(Self.queries(log).count == 3)
    #expect(
      Self.queries(log).first?.hasPrefix("com_apple_xcode_dsym_uuids == 00000000-0000-0000-0000-000000000000 || ")
        == true)
    _ = lookup.files(for: Array(uuids.prefix(10)))
    #expect(lookup.queryCount == 3)
  }

  /// A run makes at most `queryLimit` queries: a folder of reports of many builds cannot start a
  /// program per report.
  @Test func aRunStopsAskingAtTheQueryLimit() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let log = directory.appendingPathComponent("queries.log")
    let lookup = SpotlightLookup(
      program: try Self.standIn(in: directory, uuid: "X", path: "/nonexistent", log: log), queryLimit: 4)
    for number in 0..<10 { _ = lookup.files(for: [Self.uuid(number)]) }
    #expect(lookup.queryCount == 4)
    #expect(Self.queries(log).count == 4)
  }

  /// Workers that need one UUID at once share one query: the others wait for its answer, and
  /// nobody waits for a query about other UUIDs.
  @Test func concurrentAsksForOneUUIDShareOneQuery() throws {
    guard let shared = SharedReportSymbolicationTests.folder else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let log = directory.appendingPathComponent("queries.log")
    let dSYM = shared.appendingPathComponent("iOSCrashingTest.app.dSYM").path
    let lookup = SpotlightLookup(
      program: try Self.standIn(in: directory, uuid: Self.knownUUID, path: dSYM, log: log, delay: "0.3"))
    final class Count: Sendable { let value = Mutex(0) }
    let found = Count()
    WorkerThreads.run(count: 4) { _ in
      let answer = lookup.files(for: [Self.knownUUID.lowercased()])
      if answer[Self.knownUUID.lowercased()]?.isEmpty == false { found.value.withLock { $0 += 1 } }
    }
    #expect(found.value.withLock { $0 } == 4)
    #expect(lookup.queryCount == 1)
    #expect(Self.queries(log).count == 1)
  }

  /// Only hexadecimal digits and dashes reach the query.
  @Test func aUUIDThatIsNotOneIsNotAsked() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let log = directory.appendingPathComponent("queries.log")
    let lookup = SpotlightLookup(program: try Self.standIn(in: directory, uuid: "X", path: "/nonexistent", log: log))
    #expect(lookup.files(for: ["82d13d98-219e-3040-b62a-07a2970$(touch pwned)"]).isEmpty)
    #expect(lookup.files(for: ["'; rm -rf /; '", "82D13D98219E3040B62A07A297007A7C-", "-82D13D98"]).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: log.path), "the stand-in was run")
    #expect(SpotlightLookup.queryKey("82D13D98219E3040B62A07A297007A7C") == "82d13d98-219e-3040-b62a-07a297007a7c")
  }

  /// No shell: arguments reach the program as they are.
  @Test func subprocessArgumentsAreNotInterpreted() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let marker = directory.appendingPathComponent("pwned").path
    let output = try #require(
      Subprocess.run(
        "printf", arguments: ["%s|", "a b", "$(touch \(marker))", "`touch \(marker)`", ";touch \(marker)"]))
    #expect(
      String(decoding: output.bytes, as: UTF8.self) == "a b|$(touch \(marker))|`touch \(marker)`|;touch \(marker)|")
    #expect(output.exitStatus == 0)
    #expect(!output.wasCut)
    #expect(!FileManager.default.fileExists(atPath: marker))
  }

  /// Output past the limit, or a program that does not finish in time, is cut and the program
  /// stopped; a program that does not exist is `nil`.
  @Test func subprocessIsBoundedInOutputAndTime() throws {
    let endless = try #require(Subprocess.run("yes", arguments: [], limit: 1000))
    #expect(endless.bytes.count == 1000)
    #expect(endless.wasCut)
    #expect(endless.exitStatus == nil)
    let slow = try #require(Subprocess.run("sleep", arguments: ["30"], timeout: 100))
    #expect(slow.wasCut)
    #expect(slow.exitStatus == nil)
    #expect(Subprocess.run("/nonexistent/mdfind", arguments: []) == nil)
    // Standard input is /dev/null: a program that reads it ends at once.
    let reader = try #require(Subprocess.run("cat", arguments: []))
    #expect(reader.bytes.isEmpty && reader.exitStatus == 0)
  }
}
