import Foundation
import Testing

/// The Makefile's `install` and `uninstall` with a `PREFIX` that holds shell and Make syntax: the
/// files land in the folder named by those characters, and nothing they spell runs. `swift` is
/// a stand-in script that names a folder holding `echo` as `ips-doctor`, so nothing is built.
@Suite("Makefile", .enabled(if: ShellStep.tool("make") != nil && ShellStep.tool("install") != nil))
struct MakefileTests {
  @Test("A PREFIX with quotes, $, backticks and $(shell) is a folder name, never a command")
  func prefixIsQuoted() throws {
    let workspace = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(workspace) }
    let root = workspace.path
    let bin = workspace.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let fakeSwift = workspace.appendingPathComponent("swift").path
    try "#!/bin/sh\ncase \"$*\" in *--show-bin-path*) echo '\(bin.path)';; esac\n".write(
      toFile: fakeSwift, atomically: true, encoding: .utf8)
    // Run by `sh` and a link to `echo`: no file written here is executed (another test's child
    // could hold it open for writing: ETXTBSY).
    let echo = try #require(ShellStep.tool("echo"))
    try FileManager.default.createSymbolicLink(
      atPath: bin.appendingPathComponent("ips-doctor").path, withDestinationPath: echo)

    let prefix =
      root + "/p\"q$(shell touch \(root)/PWNED-make)`touch \(root)/PWNED-tick`$(touch \(root)/PWNED-dollar)'r$$HOME"
    let environment = ["MAKEFILE": Fixtures.root.path, "FAKE_SWIFT": "sh " + fakeSwift, "WEIRD_PREFIX": prefix]
    let install = try ShellStep.runBash(
      #"make -s -C "$MAKEFILE" install SWIFT="$FAKE_SWIFT" PREFIX="$WEIRD_PREFIX""#, in: workspace,
      environment: environment)
    #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: root)
    #expect(!names.contains { $0.hasPrefix("PWNED") }, "\(names)")
    let installed = prefix + "/bin/ips-doctor"
    #expect(FileManager.default.isExecutableFile(atPath: installed))
    let manual = try String(contentsOfFile: prefix + "/share/man/man1/ips-doctor.1", encoding: .utf8)
    #expect(manual == "--generate-manual\n")

    let uninstall = try ShellStep.runBash(
      #"make -s -C "$MAKEFILE" uninstall SWIFT="$FAKE_SWIFT" PREFIX="$WEIRD_PREFIX""#, in: workspace,
      environment: environment)
    #expect(uninstall.status == 0, "\(uninstall.stderr)")
    #expect(!FileManager.default.fileExists(atPath: installed))
    #expect(!(try FileManager.default.contentsOfDirectory(atPath: root)).contains { $0.hasPrefix("PWNED") })
  }
}
