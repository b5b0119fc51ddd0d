import Foundation
import Testing

@testable import IPSDoctorCLI

/// A report that writes its app version and build as empty strings has no version: the header and
/// the crash-group table say nothing rather than "app ·".
@Suite struct EmptyVersionTests {
  @Test func anEmptyVersionIsNotShown() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    var text = String(decoding: try Fixtures.bytes("reports/invalid-address.ips"), as: UTF8.self)
    for (from, to) in [
      ("\"app_version\":\"7.3\"", "\"app_version\":\"\""), ("\"build_version\":\"7310\"", "\"build_version\":\"\""),
      ("\"CFBundleShortVersionString\":\"7.3\"", "\"CFBundleShortVersionString\":\"\""),
      ("\"CFBundleVersion\":\"7310\"", "\"CFBundleVersion\":\"\""),
    ] {
      text = text.replacingOccurrences(of: from, with: to)
    }
    #expect(!text.contains("7310"))
    for name in ["a.ips", "b.ips"] {
      try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }
    // The table's versions are shown with --verbose.
    for extra in [[], ["--verbose"]] {
      let run = CLITest.run([directory.path, "--color", "never"] + extra)
      #expect(run.stdout.contains("Crash groups"))
      // No version word with nothing after it, in the table or in a report's header.
      #expect(!run.stdout.contains("app  ·") && !run.stdout.contains("app ·"), "\(run.stdout)")
      #expect(!run.stdout.contains("Acme  ·"), "\(run.stdout)")
    }
  }
}
