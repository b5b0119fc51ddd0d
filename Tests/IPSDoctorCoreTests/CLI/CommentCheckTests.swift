import Foundation
import Testing

/// `Tools/check-comments.sh`, which `.ci/run` runs before the build: a comment that narrates a
/// cost (instruction counts, retains and releases, allocations on every call, copies of every
/// frame) is a finding; a comment that states what holds, and code, are not.
@Suite("Comment check", .enabled(if: ShellStep.tool("bash") != nil && ShellStep.tool("grep") != nil))
struct CommentCheckTests {
  /// Comment → whether the check rejects it.
  static let cases: [(comment: String, rejected: Bool)] = [
    ("/// Joining the lines cost about 22 k instructions a report.", true),
    ("// 3.8 k instructions fewer", true),
    ("// The exception would be copied, its backtrace retained and released.", true),
    ("/// Asking each frame for its symbol is a retain and a release.", true),
    ("// As a literal the array would be allocated on every call.", true),
    ("// A loop over the array copies every backtrace out of it.", true),
    ("/// Two threads would contend for its cache line.", true),
    ("/// A byte search is faster than a set hashes.", true),
    ("/// Hashing it cost about 10 k a lookup.", true),
    ("/// A message to, or a retain/release of, an object that was already deallocated.", false),
    ("/// The first frame whose symbol contains a marker, or `nil`.", false),
    ("/// The progress line on standard error, redrawn in place; only on a terminal.", false),
    ("/// Copies `text` into `output` without its `<…>` clauses.", false),
    ("/// The system measured heavy resource use.", false),
  ]

  @Test("Each comment is rejected or kept", arguments: cases)
  func comment(_ comment: String, rejected: Bool) throws {
    let workspace = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(workspace) }
    try "let x = 1\n\(comment)\nlet y = 2\n".write(
      to: workspace.appendingPathComponent("Sample.swift"), atomically: true, encoding: .utf8)
    let result = try Self.check(workspace.path, in: workspace)
    #expect(result.status == (rejected ? 1 : 0), "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("Sample.swift:2:") == rejected, "\(result.stdout)")
  }

  @Test("Code outside comments is never a finding")
  func codeIsNotChecked() throws {
    let workspace = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(workspace) }
    try #"let text = "about 22 k instructions a report, retained and released""#.write(
      to: workspace.appendingPathComponent("Code.swift"), atomically: true, encoding: .utf8)
    let result = try Self.check(workspace.path, in: workspace)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test("Every target under Sources passes")
  func sourcesPass() throws {
    let workspace = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(workspace) }
    let result = try Self.check(nil, in: workspace)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  /// Runs the check on `directory`, or on all of Sources when `nil`.
  static func check(_ directory: String?, in workingDirectory: URL) throws -> ShellStep.Result {
    let script = Fixtures.root.appendingPathComponent("Tools/check-comments.sh").path
    var environment = ["CHECK_SCRIPT": script]
    var command = #""$CHECK_SCRIPT""#
    if let directory {
      environment["CHECK_DIR"] = directory
      command += #" "$CHECK_DIR""#
    }
    return try ShellStep.runBash(command, in: workingDirectory, environment: environment)
  }
}
