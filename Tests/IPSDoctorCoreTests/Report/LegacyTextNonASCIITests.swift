import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// Text reports whose lines hold bytes that are not ASCII: names, paths, symbols and reasons in
/// other scripts, invalid UTF-8 and CRLF endings. Every delimiter of the format is ASCII, so these
/// bytes only ever belong to a field's text.
@Suite("Legacy text: lines that are not ASCII")
struct LegacyTextNonASCIITests {
  static let report = """
    Incident Identifier: 6A1B2C3D-0000-4000-8000-123456789ABC
    Hardware Model:      iPhone14,2
    Process:             Café ☕️ [4242]
    Path:                /private/var/containers/Bundle/Application/AAAA/Café.app/Café
    Identifier:          com.example.café
    Version:             2.4 ß (118)
    Code Type:           ARM-64 (Native)
    Parent Process:      ランチャー [1]
    OS Version:          iPhone OS 17.4 (21E219)

    Exception Type:  EXC_CRASH (SIGABRT)
    Exception Codes: 0x0000000000000000, 0x0000000000000000
    Exception Reason: naïve – 无效的参数 😱
    Termination Reason: Namespace SIGNAL, Code 6 Abort trap: 6 ☠️
    Triggered by Thread:  0, Dispatch queue: 漢字キュー

    Application Specific Information:
    Fehler: Größe ungültig 🚫
    *** Terminating app — ☕️

    Last Exception Backtrace:
    (0x1045a1234 0x1045a1000 ü)

    Thread 0 name:  Dispatch queue: 漢字キュー
    Thread 0 Crashed:
    0   Café                          0x00000001045a1234 Café.brew(_:) + 52 (Café.swift:42)
    1   Café                          0x00000001045a1000 表示する() + 8 (画面.swift:7) [inlined]
    2   Café                          0x00000001045a2000 🍩.glaze() + 4
    3   libdispatch.dylib             0x00000001a0000100 _dispatch_call_block_and_release + 32

    Thread 1 name:  工作线程 ⚙️
    Thread 1:
    0   libsystem_kernel.dylib        0x00000001e0000008 mach_msg2_trap + 8

    Thread 0 crashed with ARM Thread State (64-bit):
        x0: 0x0000000000000000   x1: 0xffffffffffffffff
       far: 0x0000000000000010  esr: 0x92000006 (Data Abort) lecture — 読み取り

    Binary Images:
    0x1045a0000 - 0x1046bffff Café arm64  <6f1c3b2a9d8e4f00a1b2c3d4e5f60718> /private/var/containers/Bundle/Application/AAAA/Café.app/Café
    0x1a0000000 - 0x1a004ffff libdispatch.dylib arm64e  <3333444455556666777788889999aaaa> /usr/lib/system/libdispatch.dylib
    0x1e0000000 - 0x1e003ffff libsystem_kernel.dylib arm64e  <4444555566667777888899990000bbbb> /usr/lib/system/libsystem_kernel.dylib
    """

  /// The report read as a file would be, from its bytes.
  static func read(_ bytes: [UInt8]) throws -> CrashReport { try ReportReader.read(bytes) }

  static func checkFields(_ report: CrashReport) throws {
    #expect(report.format == .legacyText)
    #expect(report.processName == "Café ☕️")
    #expect(report.pid == 4242)
    #expect(report.processPath == "/private/var/containers/Bundle/Application/AAAA/Café.app/Café")
    #expect(report.bundleID == "com.example.café")
    #expect(report.buildVersion == "118")
    #expect(report.appVersion == "2.4 ß")
    #expect(report.parentProcess == "ランチャー [1]")
    #expect(report.exception?.type == "EXC_CRASH")
    #expect(report.exception?.signal == "SIGABRT")
    #expect(report.exceptionReason?.composedMessage == "naïve – 无效的参数 😱")
    #expect(report.termination?.namespace == "SIGNAL")
    #expect(report.termination?.code == 6)
    #expect(report.termination?.indicator == "Abort trap: 6 ☠️")
    #expect(report.applicationSpecificInfo.first?.lines == ["Fehler: Größe ungültig 🚫", "*** Terminating app — ☕️"])

    #expect(report.threads.count == 2)
    #expect(report.faultingThread == 0)
    let crashed = report.threads[0]
    #expect(crashed.queue == "漢字キュー")
    #expect(crashed.name == nil)
    #expect(report.threads[1].name == "工作线程 ⚙️")
    #expect(crashed.frames.count == 4)
    let first = crashed.frames[0]
    #expect(first.imageName == "Café")
    #expect(first.imageIndex == 0)
    #expect(first.imageOffset == 0x1234)
    #expect(first.symbol == "Café.brew(_:)")
    #expect(first.symbolLocation == 52)
    #expect(first.sourceFile == "Café.swift")
    #expect(first.sourceLine == 42)
    #expect(crashed.frames[1].symbol == "表示する()")
    #expect(crashed.frames[1].sourceFile == "画面.swift")
    #expect(crashed.frames[1].isInline)
    #expect(crashed.frames[2].symbol == "🍩.glaze()")
    #expect(crashed.frames[3].imageIndex == 1)

    let registers = try #require(crashed.state?.registers)
    #expect(registers.map(\.name) == ["x0", "x1", "far", "esr"])
    #expect(registers[1].value == UInt64.max)
    #expect(crashed.state?.esrDescription == "(Data Abort) lecture — 読み取り")

    #expect(report.images.count == 3)
    #expect(report.images[0].name == "Café")
    #expect(report.images[0].path == "/private/var/containers/Bundle/Application/AAAA/Café.app/Café")
    #expect(report.images[0].base == 0x1045a0000)

    let backtrace = try #require(report.lastExceptionBacktrace)
    #expect(backtrace.map(\.address) == [0x1045a1234, 0x1045a1000])
    #expect(backtrace.map(\.imageIndex) == [0, 0])
    #expect(report.warnings.map(\.message) == ["could not read the address \"ü\" of the last exception backtrace"])
    #expect(report.warnings.map(\.location) == ["line 22"])
  }

  @Test("Names, paths, reasons, symbols and register text in other scripts")
  func nonASCIIFields() throws {
    try Self.checkFields(try Self.read(Array(Self.report.utf8)))
    try Self.checkFields(LegacyTextSamples.parse(Self.report))
  }

  @Test("CRLF line endings read the same")
  func crlf() throws {
    let crlf = Self.report.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    #expect(crlf.utf8.count == Self.report.utf8.count + Self.report.utf8.filter { $0 == 0x0A }.count)
    try Self.checkFields(try Self.read(Array(crlf.utf8)))
  }

  /// `text` with each "¤" replaced by the invalid UTF-8 byte 0xFF.
  static func withInvalidBytes(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      if bytes.count >= 1 && bytes[bytes.count - 1] == 0xC2 && byte == 0xA4 {
        bytes[bytes.count - 1] = 0xFF
      } else {
        bytes.append(byte)
      }
    }
    return bytes
  }

  @Test("Invalid UTF-8 in a line is read with replacement characters")
  func invalidUTF8() throws {
    let text = """
      Process:             Ca¤fe [12]
      Path:                /Applications/Ca¤fe.app/Ca¤fe
      Identifier:          com.example.cafe
      Exception Type:  EXC_BAD_ACCESS (SIGSEGV¤)
      Crashed Thread:  0

      Application Specific Information:
      bad ¤¤ bytes

      Thread 0 name: wor¤ker
      Thread 0 Crashed:
      0   Ca¤fe                         0x0000000100004000 sym¤bol + 8
      1   ¤                             0x0000000100004010 0x100000000 + 16400
      2   Ca¤fe   ¤

      Thread 0 crashed with ARM Thread State (64-bit):
          x0: 0x0000000000000001  esr: 0x1 ¤

      Binary Images:
      0x100000000 - 0x100007fff Ca¤fe arm64  <6f1c3b2a9d8e4f00a1b2c3d4e5f60718> /Applications/Ca¤fe.app/Ca¤fe
      0x100008000 - 0x10000ffff ¤
      """
    let bytes = Self.withInvalidBytes(text)
    #expect(bytes.contains(0xFF))
    let report = try Self.read(bytes)
    let name = "Ca\u{FFFD}fe"
    #expect(report.processName == name)
    #expect(report.pid == 12)
    #expect(report.processPath == "/Applications/\(name).app/\(name)")
    #expect(report.exception?.signal == "SIGSEGV\u{FFFD}")
    #expect(report.applicationSpecificInfo.first?.lines == ["bad \u{FFFD}\u{FFFD} bytes"])
    #expect(report.threads.first?.name == "wor\u{FFFD}ker")
    let frames = try #require(report.threads.first?.frames)
    #expect(frames.count == 2)
    #expect(frames[0].imageName == name)
    #expect(frames[0].symbol == "sym\u{FFFD}bol")
    #expect(frames[0].imageIndex == 0)
    #expect(frames[1].imageIndex == 0)
    #expect(report.threads.first?.state?.esrDescription == "\u{FFFD}")
    #expect(report.images.map(\.name) == [name, "\u{FFFD}"])
    #expect(report.images.first?.path == "/Applications/\(name).app/\(name)")
    #expect(report.warnings.map(\.message) == ["could not read the stack frame"])
    #expect(report.warnings.map(\.location) == ["line 14"])
  }
}
