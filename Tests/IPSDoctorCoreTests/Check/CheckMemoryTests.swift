import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCheck
@testable import IPSDoctorOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `check` scans each file as it reads it and keeps of it only what judging needs: its display
/// name, its types, its `async` methods with a body and its notes; never its bytes.
@Suite("check: memory per file")
struct CheckMemoryTests {
  @Test("A scanned file keeps its types and its async methods with a body, nothing else")
  func keptDeclarations() {
    let text =
      "final class Delegate: NSObject, UNUserNotificationCenterDelegate {\n"
      + (0..<50).map { "  func helper\($0)() {}\n" }.joined()
      + "  func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {}\n"
      + "}\nfunc global() async {}\nprotocol P { func required() async }\n"
    var checker = SourceChecker()
    checker.add(.init(display: "a.swift", bytes: Array(text.utf8)))
    #expect(checker.filesScanned == 1)
    let kept = checker.files.first?.declarations
    #expect(kept?.functions.map(\.name) == ["userNotificationCenter"])
    #expect(kept?.types.map(\.name) == ["Delegate", "P"])
    #expect(checker.result().findings.map(\.line) == [52])
  }

  @Test(
    "Findings are written a finding at a time as render makes them whole, in every format",
    arguments: OutputFormat.allCases, [false, true])
  func writtenAsRendered(_ format: OutputFormat, _ verbose: Bool) {
    var checker = SourceChecker()
    for index in 0..<30 {
      let text =
        "final class D\(index): NSObject, UNUserNotificationCenterDelegate {\n"
        + "  func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async {}\n"
        + "}\n"
      checker.add(.init(display: "f\(index).swift", bytes: Array(text.utf8)))
    }
    let findings = checker.result().findings
    #expect(findings.count == 30)
    var written = ""
    let out = TextOutput(sink: { text in
      written += text
      return true
    })
    CheckOutput.write(findings, format: format, filesScanned: 30, verbose: verbose, to: out)
    out.flush()
    #expect(written == CheckOutput.render(findings, format: format, filesScanned: 30, verbose: verbose))
  }

  @Test(
    "100,000 tiny files are checked in well under a kilobyte and a half each",
    .enabled(if: Sweeps.full, "a full sweep (IPS_DOCTOR_SWEEPS=1)"))
  func manyTinyFiles() throws {
    guard ProcessTest.available else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let count = 100_000
    for folder in 0..<count / 1_000 {
      let path = directory.path + "/d\(folder)"
      try #require(mkdir(path, 0o755) == 0)
      for index in folder * 1_000..<(folder + 1) * 1_000 {
        let text = "import UIKit\nfinal class Type\(index): NSObject {\n  func run() { print(\(index)) }\n}\n"
        let fd = open(path + "/F\(index).swift", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        try #require(written == text.utf8.count)
      }
    }
    let one = directory.appendingPathComponent("d0/F0.swift").path
    // A child's peak is at least its parent's (this test process's): the baseline says where.
    let baseline = try MergeMemoryTests.peakBytes(["check", one])
    let peak = try MergeMemoryTests.peakBytes(["check", directory.path])
    // Before files were scanned as read, each kept its bytes in a 4 KiB buffer: 476 MB in all.
    #expect(peak < max(baseline, 20 << 20) + count * 1_536, "peak \(peak) bytes, baseline \(baseline)")
  }
}
