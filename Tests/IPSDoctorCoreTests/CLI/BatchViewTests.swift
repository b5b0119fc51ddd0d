import Foundation
import Testing

@testable import IPSDoctorCore

/// The text output of a batch scales: each crash group once, the largest in full.
@Suite struct BatchViewTests {
  /// 3 crashes in 150 reports (50 copies each).
  static func folder() throws -> URL {
    let root = try CLITest.temporaryDirectory()
    let fixtures = [
      "Fixtures/reports/null-pointer-dereference.ips", "Fixtures/reports/async-bridge-willpresent.ips",
      "Fixtures/reports/abort-called-c-assert.ips",
    ]
    for (index, fixture) in fixtures.enumerated() {
      for copy in 0..<(50 - index) {
        try CLITest.copyFixture(fixture, to: root, as: "r\(index)-\(copy).ips")
      }
    }
    return root
  }

  @Test func eachGroupIsShownOnceWhateverTheNumberOfReports() throws {
    let root = try Self.folder()
    defer { CLITest.cleanUp(root) }
    let run = CLITest.run([root.path])
    #expect(run.status == .findings)
    let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count < 250, "\(lines.count) lines for 3 crashes")
    #expect(run.stdout.contains("Crash groups (3 in 147 reports)"))
    #expect(run.stdout.contains("Group 1 of 3 (50 reports)"))
    #expect(run.stdout.components(separatedBy: "How to fix it").count - 1 == 3)
    #expect(run.stdout.hasSuffix("147 reports: 147 diagnosed; 3 crash groups; 147 at or above --fail-on error\n"))
  }

  @Test func topAndSummaryChooseHowManyGroupsAreShownInFull() throws {
    let root = try Self.folder()
    defer { CLITest.cleanUp(root) }
    let one = CLITest.run([root.path, "--top", "1"])
    #expect(one.stdout.components(separatedBy: "How to fix it").count - 1 == 1)
    #expect(one.stdout.contains("2 more groups are in the table only"))
    let summary = CLITest.run([root.path, "--summary"])
    #expect(!summary.stdout.contains("How to fix it"))
    #expect(summary.stdout.contains("Crash groups (3 in 147 reports)"))
    #expect(CLITest.run([root.path, "--top", "all"]).stdout.components(separatedBy: "How to fix it").count - 1 == 3)
    #expect(CLITest.run([root.path, "--top", "some"]).status == .usage)
  }

  /// The sections are kept in a temporary file; without one they are kept in memory, the same.
  @Test func sectionsReadBackAsKeptWithOrWithoutAFile() {
    for store in [SectionStore(), SectionStore(openFile: { _ in -1 })] {
      store.keep("first é\n", for: "a")
      store.keep("second\n", for: "b")
      store.keep("ignored\n", for: "a")
      #expect(store.text(for: "a") == "first é\n")
      #expect(store.text(for: "b") == "second\n")
      #expect(store.text(for: "c") == nil)
    }
  }
}
