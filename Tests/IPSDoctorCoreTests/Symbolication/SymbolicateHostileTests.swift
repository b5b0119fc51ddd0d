import Foundation
import Testing

@testable import IPSDoctorReport
@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// `symbolicate` of text reports with debug files made to attack its output and its time
/// (issue 43, items 4c, 4f, 7 and 12). The debug files are made by ``MachOBuilder``.
@Suite("symbolicate: hostile debug files and text reports")
struct SymbolicateHostileTests {
  /// The builder's default UUID, as a report writes it.
  static let uuid = "000102030405060708090a0b0c0d0e0f"

  /// A text report of `App` (loaded at 0x100000000, the builder's UUID) whose crashed thread has
  /// a frame in `__text` (0x100004010) and one past it (0x100009000), with `extra` lines after.
  static func report(extra: String = "") -> String {
    """
    Incident Identifier: 11111111-2222-3333-4444-555555555555
    Hardware Model:      iPhone15,2
    Process:             App [100]
    Identifier:          com.example.App
    Code Type:           ARM-64 (Native)
    OS Version:          iPhone OS 17.0 (21A329)
    Exception Type:  EXC_CRASH (SIGABRT)
    \(extra)
    Thread 0 Crashed:
    0   App                           \t0x0000000100004010 0x100000000 + 16400
    1   App                           \t0x0000000100009000 0x100000000 + 36864

    Binary Images:
    0x100000000 - 0x10000ffff App arm64  <\(uuid)> /private/var/App

    """
  }

  /// A debug file for that report: `__text` at 0x100004000–0x100005000 and one symbol at its
  /// start named `name`.
  static func debugFile(symbol name: String, in folder: URL) throws -> String {
    var builder = MachOBuilder()
    builder.sections = [.init(segment: "__TEXT", name: "__text", address: 0x1_0000_4000, size: 0x1000)]
    builder.symbols = [("_" + name, 0x1_0000_4000)]
    return try builder.write(to: folder, as: "App")
  }

  @Test("Symbol names and report bytes cannot forge lines, workflow commands or terminal escapes")
  func symbolNamesAndReportBytesAreEscaped() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let evil = "evil\u{1B}]52;c;cHduZWQ=\u{07}\n::error file=a::pwned\n##[group]x\r\u{9B}2J\n0   App 0x1 0x0 + 1"
    let dSYM = try Self.debugFile(symbol: evil, in: folder)
    let input = Self.report(extra: "Crashed Note: \u{1B}[2J\u{1B}]52;c;eA==\u{07} ##[endgroup]\n::warning::x\n")
    let reportPath = folder.appendingPathComponent("r.crash").path
    try Data(input.utf8).write(to: URL(fileURLWithPath: reportPath))
    let run = CLITest.run(["symbolicate", reportPath, "--dsym", dSYM])
    #expect(run.status == .success)
    #expect(run.stderr.contains("symbolicated 1 frame"), "\(run.stderr)")
    // Before: the name's ESC, BEL, C1 CSI, line feeds and `::error` went out raw.
    #expect(OutputInvariants.lineViolations(run.stdout) == [])
    #expect(
      run.stdout.split(separator: "\n", omittingEmptySubsequences: false).count
        == input.split(separator: "\n", omittingEmptySubsequences: false).count)
    #expect(run.stdout.contains("evil\\u{1B}]52;c;cHduZWQ=\\u{7}\\n\\u{3A}:error file=a::pwned\\n\\u{23}#[group]x"))
    // The frame lines keep their tab and columns.
    #expect(run.stdout.contains("0   App                           \t0x0000000100004010 evil"))
    #expect(run.stdout.contains("1   App                           \t0x0000000100009000 0x100000000 + 36864\n"))
  }

  @Test("A JSON report's own strings go out with `##[` and bidi controls as JSON escapes of the same text")
  func jsonReportBytesAreEscaped() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    var text = String(decoding: try Fixtures.bytes("reports/abort-called-c-assert.ips"), as: UTF8.self)
    let hostile = "CallBox ##[group]x \u{202E}gpj.exe \u{85}\u{7F}"
    let escapedHostile = #"CallBox \u0023#[group]x \u202Egpj.exe \u0085\u007F"#
    text = text.replacingOccurrences(of: #""procName" : "CallBox""#, with: #""procName" : ""# + hostile + "\"")
    let reportPath = folder.appendingPathComponent("r.ips").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: reportPath))
    let original = try ReportReader.read(Array(text.utf8))
    #expect(original.processName == hostile)
    let run = CLITest.run(["symbolicate", reportPath, "--dsym", folder.path])
    #expect(run.status == .success)
    // Before: the string's bytes went out as they were.
    #expect(OutputInvariants.lineViolations(run.stdout) == [])
    #expect(run.stdout.contains(escapedHostile))
    // The same report, value for value.
    let written = try ReportReader.read(Array(run.stdout.utf8))
    #expect(written.processName == hostile)
    #expect(written.threads.count == original.threads.count)
  }

  @Test("A text line keeps its tabs and a CRLF report's carriage returns, and loses its controls")
  func safeLineKeepsColumns() {
    #expect(LegacyTextSymbolication.safeLine("0   App\t0x1 x") == "0   App\t0x1 x")
    #expect(LegacyTextSymbolication.safeLine("Process: App\r") == "Process: App\r")
    #expect(LegacyTextSymbolication.safeLine("a\u{1B}[2Jb\rc\r") == "a\\u{1B}[2Jb\\rc\r")
    #expect(LegacyTextSymbolication.safeLine("\t::error::x") == "\t\\u{3A}:error::x")
    #expect(LegacyTextSymbolication.safeLine("x ##[group]") == "x \\u{23}#[group]")
  }

  @Test("When the UUID matched, the no-frame warning says so and not that none matched")
  func matchedUUIDWithoutFramesIsNamed() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    // The symbol lies before both frames' code: the UUID matches, no frame has a symbol.
    var builder = MachOBuilder()
    builder.sections = [.init(segment: "__TEXT", name: "__text", address: 0x1_0000_A000, size: 0x1000)]
    builder.symbols = [("_f", 0x1_0000_A000)]
    let dSYM = try builder.write(to: folder, as: "App")
    let reportPath = folder.appendingPathComponent("r.crash").path
    try Data(Self.report().utf8).write(to: URL(fileURLWithPath: reportPath))
    let run = CLITest.run(["symbolicate", reportPath, "--dsym", dSYM])
    // Written, but nothing symbolicated: a failure a script sees.
    #expect(run.status == .findings)
    #expect(run.stderr.contains("no frame symbolicated (App matched by UUID"), "\(run.stderr)")
    #expect(!run.stderr.contains("none with a UUID"))
    // And when it did not match, that is what it says.
    builder.uuid = Array(repeating: 0xAB, count: 16)
    let other = try builder.write(to: folder, as: "App")
    let mismatched = CLITest.run(["symbolicate", reportPath, "--dsym", other])
    #expect(mismatched.stderr.contains("none with a UUID of the report's images"), "\(mismatched.stderr)")
  }

  @Test("A dSYM whose DWARF passes its budget is given up with a warning; the report is still written")
  func overBudgetDWARFIsGivenUp() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    // 600 units each reading one 65,536-declaration abbreviation table from another offset.
    var abbrev: [UInt8] = []
    var offsets: [UInt32] = []
    for code in 1...65_536 {
      offsets.append(UInt32(abbrev.count))
      abbrev += DebugBytes.uleb(UInt64(code)) + DebugBytes.uleb(0x11) + [0] + DebugBytes.uleb(3) + DebugBytes.uleb(8)
      abbrev += [0, 0]
    }
    var info: [UInt8] = []
    for unit in 0..<600 {
      info += DWARFBuilder.unit4(
        abbreviationOffset: offsets[unit * 100], DebugBytes.uleb(UInt64(unit * 100 + 1)) + [0x61, 0])
    }
    var builder = MachOBuilder.dSYM(code: 0x1_0000_4000..<0x1_0000_5000, dwarf: ["info": info, "abbrev": abbrev])
    builder.symbols = [("_f", 0x1_0000_4000)]
    let dSYM = try builder.write(to: folder, as: "App")
    let reportPath = folder.appendingPathComponent("r.crash").path
    try Data(Self.report().utf8).write(to: URL(fileURLWithPath: reportPath))
    let run = CLITest.run(["symbolicate", reportPath, "--dsym", dSYM])
    #expect(run.status == .success)
    #expect(run.stderr.contains("needs more than"), "\(run.stderr)")
    // The symbol table still names the frame.
    #expect(run.stdout.contains("0x0000000100004010 f (in App) + 16"), "\(run.stdout)")
  }

  @Test("A .dSYM link to / beside a report is not searched; a link to a file is read")
  func linksBesideAReportStayInside() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("x.dSYM").path, withDestinationPath: "/")
    let file = try Self.debugFile(symbol: "f", in: folder)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("y.dSYM").path, withDestinationPath: file)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("z.dSYM"), withIntermediateDirectories: false)
    let report = folder.appendingPathComponent("r.crash").path
    let paths = DebugImageLocator.defaultPaths(forReport: PathName(report)).map(\.display).sorted()
    #expect(paths == ["y.dSYM", "z.dSYM"].map { folder.appendingPathComponent($0).path })
  }

  /// 20,000 frame lines naming images not in the report, against 20,000 images: each line
  /// searched every image by name and then by address (O(frames x images); a 6.3 MB report
  /// took 26 s in a release build).
  @Test("A text report of 20,000 images and 20,000 frames is rewritten by index")
  func framesAgainstManyImages() throws {
    let count = 20_000
    var lines = ["Process: App [1]", "Code Type: ARM-64 (Native)", "", "Thread 0 Crashed:"]
    for index in 0..<count {
      let address = 0x2_0000_0000 + UInt64(index) * 0x10000 + 0x10
      lines.append(
        "\(index) Missing\(index) 0x\(String(address, radix: 16)) 0x\(String(address - 0x10, radix: 16)) + 16")
    }
    lines += ["", "Binary Images:"]
    for index in 0..<count {
      let base = 0x1_0000_0000 + UInt64(index) * 0x10000
      lines.append(
        "0x\(String(base, radix: 16)) - 0x\(String(base + 0xFFFF, radix: 16)) Image\(index) arm64 <\(Self.uuid)> /x")
    }
    let text = lines.joined(separator: "\n") + "\n"
    let report = try ReportReader.read(Array(text.utf8))
    #expect(report.images.count == count)
    let (output, frames) = LegacyTextSymbolication.rewrite(text, report: report, symbolicator: Symbolicator(images: []))
    #expect(frames == 0)
    #expect(output == text)
    // The summary `symbolicate` prints finds the frames' images by name through the same index.
    #expect(Symbolicator(images: []).summary(of: report).symbolicatedFrames == 0)
    // Found by address when the name is not an image's.
    let finder = ReportImageFinder(report.images)
    #expect(finder.index(containing: 0x1_0000_0000 + 7 * 0x10000 + 5) == 7)
    #expect(finder.index(named: "Image9") == 9)
    #expect(finder.index(containing: 0x3_0000_0000) == nil)
  }
}
