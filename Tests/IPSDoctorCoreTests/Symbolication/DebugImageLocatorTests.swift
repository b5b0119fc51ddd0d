import Foundation
import Testing

@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// Finding debug files: bundles, the DWARF file itself, folders searched, and the defaults
/// beside a report.
@Suite struct DebugImageLocatorTests {
  @Test func aFolderYieldsEverySliceOfEveryDSYM() {
    guard let folder = SharedReportSymbolicationTests.folder else { return }
    let images = DebugImageLocator.images(in: [PathName(folder.path)])
    // iOSCrashingTest (arm64) and three fat dSYMs (x86_64 + arm64).
    #expect(images.count == 7)
    #expect(Set(images.map(\.arch)) == ["arm64", "x86_64"])
    #expect(images.contains { $0.uuid == "82d13d98-219e-3040-b62a-07a297007a7c" && $0.textAddress == 0x1_0000_0000 })
  }

  @Test func theDWARFFileItselfAndTheBundleAgree() {
    guard let folder = SharedReportSymbolicationTests.folder else { return }
    let bundle = folder.appendingPathComponent("CrashingTest.dSYM")
    let file = bundle.appendingPathComponent("Contents/Resources/DWARF/CrashingTest")
    let fromBundle = DebugImageLocator.images(in: [PathName(bundle.path)]).map(\.uuid)
    let fromFile = DebugImageLocator.images(in: [PathName(file.path)]).map(\.uuid)
    #expect(fromBundle == fromFile)
    #expect(fromBundle.count == 2)
  }

  @Test func defaultsAreTheBundlesBesideTheReport() {
    guard let folder = SharedReportSymbolicationTests.folder else { return }
    let paths = DebugImageLocator.defaultPaths(forReport: PathName(folder.appendingPathComponent("ios-crash.ips").path))
    #expect(paths.count == 4)
    #expect(paths.allSatisfy { $0.display.hasSuffix(".dSYM") })
  }

  @Test func notMachOFilesAndMissingPathsYieldNothing() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try Data("not a Mach-O file at all, just text".utf8).write(to: folder.appendingPathComponent("a.txt"))
    try Data([0xCF, 0xFA, 0xED, 0xFE]).write(to: folder.appendingPathComponent("short"))
    #expect(DebugImageLocator.images(in: [PathName(folder.path), PathName("/nonexistent/x.dSYM")]).isEmpty)
  }
}
