import Foundation
import Testing

/// The sources build on macOS as well as on Linux: nothing in them calls what Darwin marks
/// unavailable or does not have, names a Linux-only path, or tests for a platform outside
/// `IPSDoctorSupport`. This runs on Linux, so the mistake cannot come back unseen.
@Suite struct PlatformGuardTests {
  static func violations(_ source: String, allowsConditionals: Bool = false) -> [String] {
    PlatformGuard.check(source, file: "x.swift", allowsConditionals: allowsConditionals).map(\.what)
  }

  @Test func theSourcesUseNothingDarwinLacks() throws {
    let root = Fixtures.root.appendingPathComponent("Sources")
    let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
    #expect(files.count > 100)
    var found: [PlatformGuard.Violation] = []
    for file in files {
      let source = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      found += PlatformGuard.check(source, file: file, allowsConditionals: file.hasPrefix("IPSDoctorSupport/"))
    }
    #expect(found.isEmpty, "\(found.map(\.description).joined(separator: "\n"))")
  }

  @Test func docsListEveryForbiddenName() throws {
    let page = try String(contentsOf: Fixtures.root.appendingPathComponent("docs/platforms.md"), encoding: .utf8)
    for entry in PlatformGuard.forbidden {
      #expect(page.contains("`\(entry.name)`"), "docs/platforms.md does not list \(entry.name)")
    }
  }

  @Test(arguments: [
    ("let pipe = popen(command, \"r\")", ["popen"]),
    ("  _ = system (\"ls\")", ["system"]),
    ("let fd = open(path, O_TMPFILE)", ["O_TMPFILE"]),
    ("let when = info.st_mtim.tv_sec", ["st_mtim"]),
    ("let f = \"/proc/self/fd/\"", ["\"/proc/\""]),
    ("open(\"/dev/full\", O_RDWR)", ["\"/dev/full\""]),
    ("let environment = _NSGetEnviron()!.pointee", ["_NSGetEnviron"]),
    ("guard pclose(p) == 0, fork() > 0 else {}", ["pclose", "fork"]),
  ])
  func aCallOrNameDarwinLacksIsFound(source: String, expected: [String]) {
    let found = Self.violations(source)
    #expect(found.count == expected.count, "\(found)")
    for (what, name) in zip(found, expected) { #expect(what.hasPrefix(name), "\(what)") }
  }

  @Test(arguments: [
    "// popen(command, \"r\") is unavailable on Darwin",
    "/* fork() */ let x = 1",
    "let message = \"use popen( or system( elsewhere\"",
    "let value = Int.random(in: 0..<3)",
    "case .system(let name): break",
    "func system(_ x: Int) {}",
    "let text = \"multi-threaded process forked\"",
    "let isForked = forkCount > 0",
    "let x = #\"raw \"popen(\" text\"#",
  ])
  func aMentionIsNotAUse(source: String) {
    #expect(Self.violations(source).isEmpty, "\(Self.violations(source))")
  }

  @Test func aLinuxOnlyBranchMayUseLinuxNames() {
    let source = """
      #if os(Linux)
        let prefixes = ["/dev/fd/", "/proc/self/fd/"]
      #else
        let prefixes = ["/dev/fd/", "/proc/"]
      #endif
      #if canImport(Glibc)
        _ = mallopt(-8, 2)
      #elseif canImport(Darwin)
        _ = mallopt(-8, 2)
      #endif
      """
    let found = PlatformGuard.check(source, file: "x.swift", allowsConditionals: true)
    #expect(found.map(\.line) == [4, 9], "\(found)")
  }

  @Test func conditionalsAndCLibraryImportsBelongToSupport() {
    let source = """
      #if canImport(Glibc)
        import Glibc
      #endif
      #if DEBUG
      #endif
      """
    #expect(Self.violations(source).count == 2)
    #expect(Self.violations(source, allowsConditionals: true).isEmpty)
  }

  @Test func theLexerKeepsLinesAndStrings() {
    let lexed = SwiftLexed("let a = \"x // y\" // z\n/* a\n b */ let c = #\"q\"# + \"\"\"\n  popen(\n  \"\"\"\n")
    #expect(lexed.code.count == 6)
    #expect(lexed.code[0] == "let a = \"\" ")
    #expect(lexed.literals[0] == ["x // y"])
    #expect(lexed.code[2] == " let c = \"\" + \"")
    #expect(lexed.literals[3] == ["  popen("])
  }
}
