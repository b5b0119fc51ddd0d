import Foundation
import Testing

@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// A batch whose reports share one dSYM: the run's loaded debug images are lent to one report at
/// a time, so every report gets the same symbols at any number of jobs.
@Suite struct SharedDebugImageTests {
  @Test(arguments: [1, 4])
  func everyCopySymbolicatesAlike(jobs: Int) throws {
    guard let folder = SharedReportSymbolicationTests.folder else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let report = folder.appendingPathComponent("ios-crash.crash")
    for index in 0..<40 {
      try FileManager.default.copyItem(at: report, to: directory.appendingPathComponent("\(index).crash"))
    }
    let dSYM = folder.appendingPathComponent("iOSCrashingTest.app.dSYM").path
    let run = CLITest.run([directory.path, "--format", "jsonl", "--jobs", String(jobs), "--dsym", dSYM])
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == 40)
    // Each line names its file first; the rest is the same for every copy.
    let bodies = Set(lines.map { line in line.replacing(/"path":"[^"]*"/, with: "") })
    #expect(bodies.count == 1, "the copies symbolicated differently")
    // And symbolicated: the app's function is named.
    #expect(lines.allSatisfy { $0.contains("CrashClass.pleaseCrash()") }, "\(lines.first ?? "")")
  }

  /// The pool lends a loaded file to one borrower at a time and hands it back to the next.
  @Test func thePoolLendsEachCopyOnce() throws {
    guard let folder = SharedReportSymbolicationTests.folder else { return }
    let path = PathName(
      folder.appendingPathComponent("iOSCrashingTest.app.dSYM/Contents/Resources/DWARF/iOSCrashingTest").path)
    let pool = DebugImagePool()
    let first = pool.borrow(path)
    let second = pool.borrow(path)
    #expect(!first.isEmpty && !second.isEmpty)
    // Two borrowers at once: two copies.
    #expect(first.first !== second.first)
    pool.giveBack(path, first)
    // An idle copy is lent again rather than loaded anew.
    #expect(pool.borrow(path).first === first.first)
    // A remembered answer is the answer: a used copy and a fresh one agree, asked twice.
    let used = try #require(first.first), fresh = try #require(DebugImage.load(path: path).first)
    for offset in stride(from: UInt64(0), to: 0x8000, by: 0x40) {
      let address = used.textAddress + offset
      _ = used.lookup(fileAddress: address)
      #expect(used.lookup(fileAddress: address) == fresh.lookup(fileAddress: address))
    }
  }
}

/// The UUID spellings reports and dSYMs use meet in one form.
@Suite struct UUIDNormalisationTests {
  @Test(arguments: [
    ("82D13D98-219E-3C2E-9D1A-0A6A4C6E5F10", "82d13d98-219e-3c2e-9d1a-0a6a4c6e5f10"),
    ("82d13d98219e3c2e9d1a0a6a4c6e5f10", "82d13d98-219e-3c2e-9d1a-0a6a4c6e5f10"),
    ("<82d13d98219e3c2e9d1a0a6a4c6e5f10>", "82d13d98-219e-3c2e-9d1a-0a6a4c6e5f10"),
    ("NOT-A-UUID", "not-a-uuid"), ("", ""), ("ABC", "abc"),
  ])
  func normalised(uuid: String, expected: String) {
    #expect(Symbolicator.normalized(uuid) == expected)
  }
}
