import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The small text facts the rules read: signature hashes, missing symbols, privacy keys, abort
/// frames, signal names, panic messages and jetsam processes.
@Suite("Rule text helpers")
struct RuleTextHelperTests {
  @Test(
    "A signature hash is 16 lowercase hexadecimal digits",
    arguments: [
      (0, "0000000000000000"), (1, "0000000000000001"), (0xF, "000000000000000f"), (0x10, "0000000000000010"),
      (0xcbf2_9ce4_8422_2325, "cbf29ce484222325"), (.max, "ffffffffffffffff"), (1 << 63, "8000000000000000"),
    ] as [(UInt64, String)])
  func hexDigits(value: UInt64, expected: String) {
    #expect(CrashSignature.hexDigits(value) == expected)
  }

  @Test(
    "A frame lacks a symbol when it has none, an empty one or \"???\"",
    arguments: [
      (nil, true), ("", true), ("???", true), ("?", false), ("????", false), ("_$s4main3FooV3baryyF", false),
      ("main", false),
    ] as [(String?, Bool)])
  func lacksSymbol(symbol: String?, expected: Bool) {
    let frame = Frame(symbol: symbol)
    #expect(SymbolicationHint.lacksSymbol(frame) == expected)
    #expect((DiagnosisContext(report: CrashReport(format: .json)).symbol(frame) == nil) == expected)
  }

  /// Threads 0, 1 and 2 with these symbols (nil: a frame without one).
  static let threadSymbols: [[String?]] = [
    ["main", "UIApplicationMain", nil, "objc_msgSend"], ["sqlite3_step", "-[NSSQLiteConnection execute]"],
    ["café_x", ""],
  ]

  @Test(
    "The first of several fragments some frame of any thread holds, and that frame",
    arguments: [
      (["sqlite3", "NSSQLite"], 0, "threads[1].frames[0]"), (["NSSQLite", "sqlite3"], 0, "threads[1].frames[1]"),
      (["main", "UIApplicationMain"], 0, "threads[0].frames[0]"),
      // The empty fragment is in no frame; a fragment that is not ASCII is found by Characters.
      (["", "é", "objc_msgSend"], 1, "threads[2].frames[0]"), (["e\u{301}_x", "_x"], 0, "threads[2].frames[0]"),
      (["Application", "main"], 0, "threads[0].frames[1]"), (["no such symbol"], nil, nil), ([], nil, nil),
    ] as [([String], Int?, String?)])
  func allThreadSymbols(fragments: [String], fragment: Int?, path: String?) {
    var report = CrashReport(format: .json)
    report.threads = Self.threadSymbols.enumerated().map { index, symbols in
      CrashThread(index: index, frames: symbols.map { Frame(symbol: $0) })
    }
    let context = DiagnosisContext(report: report)
    let found = context.firstFrameInAnyThread(containingFirstOf: fragments)
    #expect(found?.fragment == fragment)
    #expect(found?.evidence.path == path)
    if let fragment {
      #expect(context.firstFrameInAnyThread(containing: [fragments[fragment]]) == found?.evidence)
    }
  }

  @Test func shellSafetyIsASCIIWordsOnly() {
    let safe = ["ChatApp.app.dSYM/Contents/Resources/DWARF/ChatApp", "Kit+x@2_-.", "plain/path.dSYM"]
    let unsafe = ["", "My App.app.dSYM/x", "a'b", "é", "tab\there", "cr\r\nlf", "ünïcode/path", "$HOME", "a;b", "~/x"]
    for path in safe { #expect(SymbolicationHint.isASCIIShellSafe(path), "\(path)") }
    for path in unsafe { #expect(!SymbolicationHint.isASCIIShellSafe(path), "\(path)") }
  }

  @Test(
    "The privacy key is the letters and digits before \"UsageDescription\"",
    arguments: [
      ("", nil), ("abc", nil), ("NSCameraUsageDescription", "NSCameraUsageDescription"),
      ("key: NSPhotoLibraryAddUsageDescription, privacy-sensitive", "NSPhotoLibraryAddUsageDescription"),
      ("café NSCameraUsageDescription", "NSCameraUsageDescription"),
      ("x\u{301}UsageDescription", "x\u{301}UsageDescription"),
      ("line\r\nNSMicrophoneUsageDescription", "NSMicrophoneUsageDescription"),
      (
        "The app's Info.plist must contain an NSLocationWhenInUseUsageDescription key",
        "NSLocationWhenInUseUsageDescription"
      ),
      ("UsageDescription", nil), (" UsageDescription", nil),
    ] as [(String, String?)])
  func usageKey(text: String, expected: String?) {
    #expect(PrivacyUsageDescriptionMissingRule.usageKey(in: text) == expected)
  }

  @Test(
    "An abort frame is one of the abort functions, alone or before a space",
    arguments: [
      ("", false), ("a", false), ("abort", true), ("abort ", true), ("abort + 12", true), ("abortx", false),
      ("abort\u{301}", false), ("abort \u{301}x", false), ("abort\t1", false), ("Abort", false), ("raise", true),
      ("raise ", true), ("__pthread_kill + 8", true), ("pthread_kill", true), ("abort_with_payload", true),
      ("abort_with_payload2", false), ("abort_message extra", true), ("__abort_with_payload", true),
      ("__assert_rtn ", true), ("é abort", false), ("abort\r\n", false),
    ])
  func abortFrame(symbol: String, expected: Bool) {
    #expect(AbortCalledRule.isAbortFrame(symbol) == expected)
  }

  @Test(
    "A panic's message is its headline after the caller, to a written \\n, without its quotes",
    arguments: [
      (
        #"panic(cpu 1 caller 0xfffffff0): "AGX: GPU hang" "restarting (channel 2)""#,
        "AGX: GPU hang restarting (channel 2)"
      ),
      (#"panic(cpu 0 caller 0x1): x86 global reset detected\nDebugger message: panic"#, "x86 global reset detected"),
      ("no colon  here", "no colon here"), (#"panic(cpu 1 caller 0x2): "é  b"   "#, "é b"), ("\"\" \"\" \"", ""),
    ])
  func panicMessage(headline: String, expected: String) {
    #expect(KernelPanicRule.panicMessage(headline) == expected)
  }

  @Test(
    "A jetsam process is named with its pid, footprint and reason, report text in code spans",
    arguments: [
      (
        #"{"memoryStatus":{"pageSize":16384},"largestProcess":"Example","processes":["#
          + #"{"name":"Example","pid":412,"reason":"per-process-limit","rpages":51200},{"name":"é`x","rpages":0},"#
          + #"{"pid":-3},{"name":"","pid":0,"reason":"","rpages":1125899906842623},{"name":"backboardd","pid":35,"rpages":1}]}"#,
        [
          "`Example` (pid 412, 800.0 MB, `per-process-limit`)", "``é`x`` (0.0 MB)", "`unnamed` (pid -3)",
          "`unnamed` (pid 0, 17592186044416.0 MB)", "`backboardd` (pid 35, 0.0 MB)",
        ]
      ),
      (
        #"{"memoryStatus":{"pageSize":4096},"processes":[{"name":"a","rpages":256},{"name":"b","rpages":1},"#
          + #"{"name":"é`x","rpages":0},{"pid":-3},{"name":"","pid":0,"reason":"","rpages":281474976710655}]}"#,
        [
          "`a` (1.0 MB)", "`b` (0.0 MB)", "``é`x`` (0.0 MB)", "`unnamed` (pid -3)",
          "`unnamed` (pid 0, 1099511627776.0 MB)",
        ]
      ),
    ])
  func jetsamProcesses(body: String, expected: [String]) throws {
    let report = try ReportReader.read("{\"bug_type\":\"298\"}\n" + body)
    let analysis = try #require(JetsamAnalysis(DiagnosisContext(report: report)))
    #expect(analysis.jetsam.processes.map(analysis.describe) == expected)
  }
}
