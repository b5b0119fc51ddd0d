import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// `Formula/ips-doctor.rb`, the Homebrew formula. Homebrew itself is not run (that needs a Mac);
/// Ruby checks its syntax when installed, and its `install` and `test do` claims are checked
/// against the repository and the CLI.
@Suite("Homebrew formula")
struct FormulaTests {
  static let formulaURL = Fixtures.root.appendingPathComponent("Formula/ips-doctor.rb")

  static func formula() throws -> String { try String(contentsOf: formulaURL, encoding: .utf8) }

  /// The first double-quoted string after `marker` on its line.
  static func quoted(after marker: String, in text: String) -> String? {
    guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }),
      let range = line.range(of: marker)
    else { return nil }
    let rest = line[range.upperBound...]
    guard let open = rest.firstIndex(of: "\"") else { return nil }
    let body = rest[rest.index(after: open)...]
    guard let close = body.firstIndex(of: "\"") else { return nil }
    return String(body[..<close])
  }

  @Test("ruby -c accepts it", .enabled(if: ShellStep.tool("ruby") != nil))
  func rubySyntax() throws {
    let ruby = try #require(ShellStep.tool("ruby"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ruby)
    process.arguments = ["-c", Self.formulaURL.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  @Test("It installs through make install with the Makefile's PREFIX and build flags")
  func install() throws {
    let formula = try Self.formula()
    #expect(formula.contains(#"system "make", "install", "PREFIX=#{prefix}""#))
    let makefile = try String(contentsOf: Fixtures.root.appendingPathComponent("Makefile"), encoding: .utf8)
    #expect(makefile.contains("build -c release --product ips-doctor $(SWIFT_BUILD_FLAGS)"))
    #expect(makefile.contains("PREFIX ?= "))
  }

  @Test("Its test diagnoses a report the repository has, and the assertions hold for it")
  func testBlock() throws {
    let formula = try Self.formula()
    let fixture = try #require(Self.quoted(after: "pkgshare.install", in: formula))
    #expect(FileManager.default.fileExists(atPath: Fixtures.root.appendingPathComponent(fixture).path))
    let name = (fixture as NSString).lastPathComponent
    #expect(formula.contains(#"pkgshare/"\#(name)""#))
    // `shell_output(..., 1)` expects exit status 1, and the rule id in the output.
    #expect(formula.contains(##"shell_output("#{bin}/ips-doctor #{report}", 1)"##))
    let rule = try #require(Self.quoted(after: "assert_match ", in: formula))
    let run = CLITest.run([fixture])
    #expect(run.status == .findings)
    #expect(run.stdout.contains(rule))
    // The version check.
    let version = CLITest.run(["--version"])
    #expect(version.stdout.contains(IPSDoctor.version))
    #expect(formula.contains(##"assert_match(/\d+\.\d+\.\d+/, shell_output("#{bin}/ips-doctor --version"))"##))
  }
}
