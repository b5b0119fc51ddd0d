import Foundation
import Testing

@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

/// `getcwd` names the working directory as the folder it is; on macOS `/tmp`, `/var` and `/etc`
/// are links into `/private`, so a report named through the link is still inside it.
@Suite struct PhysicalPathTests {
  @Test func aReportNamedThroughALinkIsRelativeToTheSourceRoot() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let physical = root.appendingPathComponent("private/work")
    try FileManager.default.createDirectory(
      at: physical.appendingPathComponent("crashes"), withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: physical.appendingPathComponent("crashes/a b.ips"))
    let link = root.appendingPathComponent("work").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: physical.path)
    let workingDirectory = try #require(POSIX.physicalPath(PathName(physical.path))).display + "/"

    let (uri, isRelative) = SARIFReporter.uriReference(link + "/crashes/a b.ips", workingDirectory: workingDirectory)
    #expect(uri == "crashes/a%20b.ips")
    #expect(isRelative)
    // As written, inside: relative without asking the file system.
    #expect(
      SARIFReporter.uriReference(workingDirectory + "crashes/x.ips", workingDirectory: workingDirectory) == (
        "crashes/x.ips", true
      ))
    // Outside, or gone: an absolute file URI.
    #expect(
      SARIFReporter.uriReference("/nonexistent/r.ips", workingDirectory: workingDirectory) == (
        "file:///nonexistent/r.ips", false
      ))
    #expect(SARIFReporter.uriReference("r.ips", workingDirectory: workingDirectory) == ("r.ips", true))
  }

  @Test func physicalPathsResolveLinksAndDots() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let real = try #require(POSIX.physicalPath(PathName(root.path)))
    try FileManager.default.createDirectory(at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: root.path + "/l", withDestinationPath: root.path + "/a")
    #expect(POSIX.physicalPath(PathName(root.path + "/l/b/../b")) == PathName(real.display + "/a/b"))
    #expect(POSIX.physicalPath(PathName(root.path + "/missing")) == nil)
  }
}
