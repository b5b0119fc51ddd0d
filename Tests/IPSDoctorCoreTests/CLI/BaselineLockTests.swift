import Foundation
import Testing

@testable import IPSDoctorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Two runs that update one baseline at the same time both keep their crash groups.
@Suite struct BaselineLockTests {
  /// Both runs read the baseline (still missing) before either writes it: each waits on its
  /// standard input with its output open as a temporary file, which it opens only after reading
  /// the baseline. Then each gets a different report, and the baseline ends with both groups.
  @Test func concurrentWriteBaselineRunsKeepEachOthersGroups() throws {
    guard ProcessTest.available else { return }
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let directory = folder.path
    let baseline = directory + "/b.json"
    var children: [SignalCleanupTests.Child] = []
    for name in ["a", "b"] {
      let logs = directory + "/" + name
      try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
      children.append(
        try SignalCleanupTests.Child(
          ["-", "--baseline", baseline, "--write-baseline", baseline, "--fail-on", "never", "-o", logs + "/out.txt"],
          directory: logs))
    }
    for name in ["a", "b"] {
      var waited = 0
      while !SignalCleanupTests.names(in: directory + "/" + name).contains(where: { $0.contains(".tmp-") }),
        waited < 6_000
      {
        usleep(10_000)
        waited += 1
      }
    }
    for (child, report) in zip(children, [CLITest.diagnosed, CLITest.otherCrash]) {
      let bytes = try [UInt8](Data(contentsOf: Fixtures.root.appendingPathComponent(report)))
      #expect(bytes.withUnsafeBytes { POSIX.writeAll(child.input, $0) })
    }
    for child in children { #expect(child.wait() == 0) }

    let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline)))
    let signatures = try #require((written as? [String: Any])?["signatures"] as? [[String: Any]])
    // One entry per crash group; the group's other keys (`sameAs`) point at it.
    let groups = signatures.filter { $0["sameAs"] == nil }
    let rules = Set(groups.compactMap { $0["rule"] as? String })
    #expect(groups.count == 2, "\(rules)")
  }
}
