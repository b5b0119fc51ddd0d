import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorReport

/// Inputs that are not Apple crash reports are named for what they are and never diagnosed.
@Suite struct ForeignInputTests {
  static let samples: [(name: String, text: String, kind: String)] = [
    ("package.json", #"{"name": "web", "version": "1.0.0", "dependencies": {}}"#, "JSON document"),
    ("report.plcrash", "plcrash\u{1}\u{0}binary", "PLCrashReporter binary report"),
    (
      "crash.clsrecord", #"{"identity":{"generator":"Crashlytics iOS SDK/10.0.0","display_version":"1.0"}}"#,
      "Crashlytics on-device record"
    ),
    (
      "leaks.txt",
      """
      Process:         Demo [14968]
      Identifier:      Demo
      Report Version:  7
      ----

      leaks Report Version: 4.0
      Process 14968: 2 leaks for 64 total leaked bytes.
      """, "output of leaks"
    ),
    (
      "sample.txt",
      """
      Analysis of sampling Demo (pid 4242) every 1 millisecond
      Process:         Demo [4242]
      Call graph:
          1000 Thread_1   DispatchQueue_1: com.apple.main-thread  (serial)
      """, "output of sample"
    ),
    (
      "spindump.txt",
      """
      Process:          demo [99159]
      Path:             /usr/libexec/demo
      Time Since Fork:  835348s
      Num samples:      1000 (1-1000)

        Thread 0x3461855    1000 samples (1-1000)    priority 4 (base 4)
      """, "spindump or sample"
    ),
  ]

  @Test func eachKindIsNamed() {
    for sample in Self.samples {
      let kind = ForeignInput.identify(Array(sample.text.utf8))
      #expect(kind?.contains(sample.kind) == true, "\(sample.name): \(kind ?? "nil")")
    }
  }

  /// Apple's reports, whole or damaged, JSON or text, are never taken for something else.
  @Test func appleReportsAreNeverForeign() throws {
    var files = Fixtures.files(in: "reports") + Fixtures.files(in: "cli")
    files = files.filter { $0.hasSuffix(".ips") || $0.hasSuffix(".crash") }
    #expect(files.count > 20)
    for file in files {
      let bytes = try Fixtures.bytes(file)
      #expect(ForeignInput.identify(bytes) == nil, "\(file)")
    }
    // A body without its header line, and a truncated one, stay Apple's.
    let report = try Fixtures.bytes("reports/null-pointer-dereference.ips")
    let body = Array(report.drop { $0 != 0x0A }.dropFirst())
    #expect(ForeignInput.identify(body) == nil)
    #expect(ForeignInput.identify(Array(body.prefix(body.count / 2))) == nil)
  }

  @Test func namedOnTheCommandLineItIsAnError() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let path = root.appendingPathComponent("package.json").path
    try Data(Self.samples[0].text.utf8).write(to: URL(fileURLWithPath: path))
    let run = CLITest.run([path])
    #expect(run.status == .dataError)
    #expect(run.stderr.contains("not an Apple crash report: a JSON document that is not an Apple crash report"))
    #expect(!run.stdout.contains("inconclusive"))
  }

  @Test func foundInAFolderItIsSkippedAndCounted() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    for sample in Self.samples {
      // Named like reports, so that the scan reads every one of them.
      try Data(sample.text.utf8).write(to: root.appendingPathComponent(sample.name + ".ips"))
    }
    try CLITest.copyFixture("Fixtures/reports/null-pointer-dereference.ips", to: root, as: "real.ips")
    let run = CLITest.run([root.path])
    #expect(run.status == .findings)
    #expect(run.stdout.contains("1 report: 1 diagnosed") || run.stdout.contains("null-pointer-dereference"))
    #expect(run.stderr.contains("skipped \(Self.samples.count) files that are not Apple crash reports"))
    #expect(!run.stderr.contains("package.json.ips"))
    let verbose = CLITest.run([root.path, "-v"])
    #expect(verbose.stderr.contains("package.json.ips: skipped: not an Apple crash report"))
  }
}
