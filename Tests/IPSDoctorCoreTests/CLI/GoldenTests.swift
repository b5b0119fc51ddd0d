import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// End-to-end: the CLI run in process on fixtures, every format compared byte for byte with
/// `Fixtures/golden/`. Regenerate with `IPS_DOCTOR_RECORD=1 swift test --filter Golden` and review
/// the diff; nothing rewrites the files otherwise.
@Suite("Golden output")
struct GoldenTests {
  struct GoldenCase: Sendable, CustomTestStringConvertible {
    var file: String
    var arguments: [String]
    var status: ExitCode
    var environment: [String: String] = [:]
    var testDescription: String { file }
  }

  /// A diagnosed crash, the same crash unsymbolicated, a crash no rule recognises, a jetsam
  /// event with a parse warning, and a report whose body is cut off.
  static let batch = [
    CLITest.diagnosed, CLITest.unsymbolicated, CLITest.inconclusive, CLITest.jetsam, CLITest.truncated,
  ]

  static let cases: [GoldenCase] = [
    GoldenCase(file: "batch.txt", arguments: batch, status: .findings),
    GoldenCase(file: "batch-quiet.txt", arguments: batch + ["--quiet"], status: .findings),
    GoldenCase(file: "batch.json", arguments: batch + ["--format", "json"], status: .findings),
    GoldenCase(file: "batch.jsonl", arguments: batch + ["--format", "jsonl"], status: .findings),
    GoldenCase(file: "batch.sarif", arguments: batch + ["--format", "sarif"], status: .findings),
    GoldenCase(file: "batch.junit.xml", arguments: batch + ["--format", "junit"], status: .findings),
    GoldenCase(file: "batch.github.txt", arguments: batch + ["--format", "github"], status: .findings),
    GoldenCase(file: "batch.md", arguments: batch + ["--format", "markdown"], status: .findings),
    GoldenCase(file: "single.txt", arguments: [CLITest.diagnosed], status: .findings),
    GoldenCase(file: "single-verbose.txt", arguments: [CLITest.unsymbolicated, "--verbose"], status: .findings),
    GoldenCase(file: "inconclusive.txt", arguments: [CLITest.inconclusive], status: .success),
    GoldenCase(file: "help.txt", arguments: ["--help"], status: .success),
    GoldenCase(file: "show.txt", arguments: ["show", CLITest.diagnosed], status: .success),
  ]

  static var record: Bool { ProcessInfo.processInfo.environment["IPS_DOCTOR_RECORD"] == "1" }

  @Test("Output matches the golden file", arguments: cases)
  func golden(_ golden: GoldenCase) throws {
    let run = CLITest.run(golden.arguments, environment: golden.environment)
    #expect(run.status == golden.status, "stderr: \(run.stderr)")
    try Self.compare(run.stdout, with: golden.file)
  }

  static func compare(_ output: String, with name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws
  {
    let url = Fixtures.url("golden/" + name)
    if record {
      try output.write(to: url, atomically: true, encoding: .utf8)
      Issue.record(
        "Recorded \(url.path). Review the diff, then run again without IPS_DOCTOR_RECORD.",
        sourceLocation: sourceLocation)
      return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record(
        "Missing golden file \(url.path). Run IPS_DOCTOR_RECORD=1 swift test --filter Golden to create it.",
        sourceLocation: sourceLocation)
      return
    }
    if output != expected {
      let outputLines = output.split(separator: "\n", omittingEmptySubsequences: false)
      let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let index =
        zip(outputLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(outputLines.count, expectedLines.count)
      let got = index < outputLines.count ? String(outputLines[index]) : "<end of output>"
      let want = index < expectedLines.count ? String(expectedLines[index]) : "<end of file>"
      Issue.record(
        """
        Output differs from \(name) at line \(index + 1):
          expected: \(want)
          actual:   \(got)
        If the change is intended, run IPS_DOCTOR_RECORD=1 swift test --filter Golden and review the diff.
        """, sourceLocation: sourceLocation)
    }
  }

  @Test("Golden files hold no absolute paths, timestamps of the run or temporary names")
  func goldenFilesArePortable() throws {
    for golden in Self.cases {
      guard let text = try? String(contentsOf: Fixtures.url("golden/" + golden.file), encoding: .utf8) else { continue }
      #expect(!text.contains(Fixtures.root.path), "\(golden.file) holds an absolute path")
      #expect(!text.contains("/tmp/"), "\(golden.file) holds a temporary path")
    }
  }

  @Test("Output is identical whatever the number of jobs")
  func deterministicAcrossJobs() {
    for format in ["text", "json", "sarif", "junit", "markdown", "github"] {
      let one = CLITest.run(["Fixtures/reports", "Fixtures/cli", "--format", format, "--jobs", "1"])
      let many = CLITest.run(["Fixtures/reports", "Fixtures/cli", "--format", format, "--jobs", "7"])
      #expect(one.stdout == many.stdout, "\(format) output depends on --jobs")
      #expect(one.status == many.status)
      #expect(!one.stdout.isEmpty)
    }
  }
}
