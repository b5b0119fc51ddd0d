import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// Frame descriptions and paths, numbers in text, summary texts, termination codes and reason
/// texts, input → expected.
@Suite("Search helpers")
struct SearchHelperTests {
  @Test(
    "UTF8TextBuilder writes a number in decimal and in lowercase hexadecimal after 0x",
    arguments: [
      (0, "0", "0x0"), (1, "1", "0x1"), (9, "9", "0x9"), (10, "10", "0xa"), (15, "15", "0xf"), (16, "16", "0x10"),
      (99, "99", "0x63"), (100, "100", "0x64"), (255, "255", "0xff"), (4096, "4096", "0x1000"),
      (0x8bad_f00d, "2343432205", "0x8badf00d"), (1_000_000_007, "1000000007", "0x3b9aca07"),
      (1 << 63, "9223372036854775808", "0x8000000000000000"),
      (.max - 1, "18446744073709551614", "0xfffffffffffffffe"), (.max, "18446744073709551615", "0xffffffffffffffff"),
    ] as [(UInt64, String, String)])
  func numbers(value: UInt64, decimal: String, hex: String) {
    var decimalText = UTF8TextBuilder(capacity: 0)
    decimalText.appendDecimal(value)
    #expect(decimalText.string == decimal)
    // After non-ASCII text already in the builder.
    var hexText = UTF8TextBuilder(capacity: 0)
    hexText.append("é ")
    hexText.appendHex(value)
    #expect(hexText.string == "é " + hex)
  }

  /// A frame with a source location.
  static func frame(_ frame: Frame, file: String, line: Int?) -> Frame {
    var frame = frame
    frame.sourceFile = file
    frame.sourceLine = line
    return frame
  }

  @Test(
    "A frame is described by its image, then its symbol and offset, else where it is, then its source",
    arguments: [
      (Frame(), "???"), (Frame(imageName: ""), ""),
      (Frame(imageOffset: 0x13c40, imageName: "ChatApp"), "ChatApp + 0x13c40"),
      (Frame(symbol: "main", symbolLocation: 120, imageName: "ChatApp", address: 0x1045b3c40), "ChatApp main + 120"),
      (Frame(symbol: "$s7ChatApp3fooyyF", symbolLocation: 0, imageName: "ChatApp"), "ChatApp ChatApp.foo() + 0"),
      (Frame(imageOffset: 16, symbol: "???", imageName: "ChatApp"), "ChatApp + 0x10"),
      (Frame(symbol: "", address: 0), "0x0"), (Frame(address: .max), "0xffffffffffffffff"),
      (Frame(symbol: "naïve ✓", symbolLocation: .max, imageName: "Bücher"), "Bücher naïve ✓ + 18446744073709551615"),
      // An offset in no image is the address, when there is one.
      (Frame(imageOffset: 0), "??? 0x0"), (Frame(imageOffset: 0x20, address: 0x1000), "??? 0x1000"),
      (frame(Frame(symbol: "f", imageName: "App"), file: "Model.swift", line: 42), "App f (Model.swift:42)"),
      (frame(Frame(symbol: "f", imageName: "App"), file: "Model.swift", line: nil), "App f (Model.swift)"),
      (frame(Frame(), file: "Ünï.swift", line: -1), "(Ünï.swift:-1)"),
    ] as [(Frame, String)])
  func describeFrame(frame: Frame, expected: String) {
    var report = CrashReport(format: .json)
    report.threads = [CrashThread(index: 0, frames: [frame])]
    report.threads[0].triggered = true
    #expect(DiagnosisContext(report: report).describe(frame) == expected)
  }

  @Test(
    "A summary's top frame is described from its parts as the evidence describes frames",
    arguments: [
      (CrashSummary.TopFrame(index: 0, image: nil, imageOffset: 0, isApp: false), "??? 0x0"),
      (CrashSummary.TopFrame(index: 0, image: "ChatApp", imageOffset: 0x13c40, isApp: true), "ChatApp + 0x13c40"),
      (
        CrashSummary.TopFrame(
          index: 1, image: "ChatApp", symbol: "$s7ChatApp3fooyyF", symbolLocation: 8, imageOffset: 64, isApp: true),
        "ChatApp ChatApp.foo() + 8"
      ),
      (
        CrashSummary.TopFrame(index: 2, image: "ChatApp", symbol: "???", imageOffset: 16, isApp: true), "ChatApp + 0x10"
      ),
      (CrashSummary.TopFrame(index: 3, isApp: false), "???"),
      (
        CrashSummary.TopFrame(index: 4, image: "A", symbol: "f", isApp: false, recordedText: "as recorded"),
        "as recorded"
      ),
    ] as [(CrashSummary.TopFrame, String)])
  func describeTopFrame(frame: CrashSummary.TopFrame, expected: String) {
    #expect(frame.text == expected)
  }

  @Test("A frame's path is its backtrace's path and its index in brackets")
  func framePaths() throws {
    var report = CrashReport(format: .json)
    report.threads = [CrashThread(index: 0, frames: [Frame()])]
    report.threads[0].triggered = true
    let backtrace = try #require(DiagnosisContext(report: report).crashedBacktrace)
    for (index, path) in [
      (0, "threads[0].frames[0]"), (7, "threads[0].frames[7]"), (1234567, "threads[0].frames[1234567]"),
    ] {
      #expect(backtrace.framePath(index) == path)
    }
  }

  /// A thread at `index` with `queue` and `name`.
  static func thread(_ index: Int, queue: String? = nil, name: String? = nil) -> CrashThread {
    var thread = CrashThread(index: index)
    thread.queue = queue
    thread.name = name
    return thread
  }

  @Test(
    "The crashed thread is named the main thread, or by its number and its queue or name",
    arguments: [
      (thread(0), "the main thread"), (thread(4, name: "com.apple.main-thread"), "the main thread"),
      (thread(3, queue: "com.example.sync"), "thread 3 (queue `com.example.sync`)"),
      (thread(12, name: "Wörker ✓"), "thread 12 (`Wörker ✓`)"), (thread(7), "thread 7"),
      (thread(-2, name: "odd"), "thread -2 (`odd`)"), (thread(5, queue: "q", name: "n"), "thread 5 (queue `q`)"),
      // Report text in a code span no backtick in it can close.
      (thread(6, queue: "a`b"), "thread 6 (queue ``a`b``)"), (thread(8, name: "`x"), "thread 8 (`` `x ``)"),
    ] as [(CrashThread, String)])
  func crashedThreadDisplay(thread: CrashThread, expected: String) {
    var report = CrashReport(format: .json)
    var crashed = thread
    crashed.triggered = true
    report.threads = [crashed]
    #expect(DiagnosisContext(report: report).crashedThreadDisplay == expected)
  }

  @Test(
    "A frame has symbol text, and a symbol, unless its symbol is missing, empty or ???",
    arguments: [
      (nil, false), ("", false), ("???", false), ("main", true), ("$s7ChatApp3fooyyF", true), ("?", true),
      (" ??? ", true),
    ] as [(String?, Bool)])
  func symbolText(symbol: String?, expected: Bool) {
    let frame = Frame(symbol: symbol)
    #expect(frame.hasSymbolText == expected)
    #expect((DiagnosisContext(report: CrashReport(format: .json)).symbol(frame) != nil) == expected)
  }

  @Test(
    "The summary's exception is the type and the signal in parentheses; its reason the name, a colon, the message",
    arguments: [
      ("EXC_CRASH", "SIGABRT", "EXC_CRASH (SIGABRT)", "SIGABRT: EXC_CRASH"),
      ("naïve ✓", "EXC_CRASH", "naïve ✓ (EXC_CRASH)", "EXC_CRASH: naïve ✓"),
      (
        String(repeating: "x", count: 40), "", String(repeating: "x", count: 40) + " ()",
        ": " + String(repeating: "x", count: 40)
      ),
      ("", "", " ()", ": "),
    ])
  func summaryException(type: String, signal: String, exception: String, reason: String) {
    var report = CrashReport(format: .json)
    report.exception = ExceptionInfo(type: type, signal: signal)
    report.exceptionReason = ExceptionReason(name: signal, composedMessage: type)
    let summary = CrashSummary(context: DiagnosisContext(report: report))
    #expect(summary.exception == exception)
    #expect(summary.reason == reason)
  }

  @Test(
    "The summary's termination is its namespace, code (decimal for a signal, else hexadecimal) and indicator",
    arguments: [
      (nil, nil, nil, nil), ("SIGNAL", 6, "Abort trap: 6", "SIGNAL 6 Abort trap: 6"),
      ("SIGNAL", .max, nil, "SIGNAL 18446744073709551615"), ("FRONTBOARD", 0x8bad_f00d, nil, "FRONTBOARD 0x8badf00d"),
      ("Ünï", 0, nil, "Ünï 0x0"), (nil, .max, "", "0xffffffffffffffff "), (nil, nil, "Abort trap: 6", "Abort trap: 6"),
      ("SIGNAL", nil, nil, "SIGNAL"), (nil, 6, nil, "0x6"), (nil, nil, "", ""),
    ] as [(String?, UInt64?, String?, String?)])
  func summaryTermination(namespace: String?, code: UInt64?, indicator: String?, expected: String?) {
    var report = CrashReport(format: .json)
    var termination = Termination(namespace: namespace, code: code)
    termination.indicator = indicator
    report.termination = termination
    #expect(CrashSummary(context: DiagnosisContext(report: report)).termination == expected)
  }

  @Test("terminationCode finds the codes the report states, and only those")
  func terminationCodes() {
    var report = CrashReport(format: .json)
    var exception = ExceptionInfo()
    exception.codes = "0x0000000000000001, 0x000000008badf00d"
    report.exception = exception
    var termination = Termination(namespace: "SIGNAL", code: 6)
    termination.reasons = ["Namespace FRONTBOARD, Code 0xdead10cc"]
    report.termination = termination
    let context = DiagnosisContext(report: report)
    #expect(context.terminationCode(in: [6]) == nil)  // a signal number, not a termination code
    #expect(context.terminationCode(in: [0x8badf00d])?.evidence.path == "exception.codes")
    #expect(context.terminationCode(in: [1, 0x8badf00d])?.code == 1)
    let text = context.terminationCode(in: Set([0xdead10cc, 7]))
    #expect(text?.evidence.path == "termination.reasons[0]")
    #expect(text?.namespace == "SIGNAL")
    #expect(context.terminationCode(in: [2, 3]) == nil)
    report.termination?.namespace = "FRONTBOARD"
    #expect(DiagnosisContext(report: report).terminationCode(in: [6])?.evidence.path == "termination.code")
  }

  /// A report with every kind of reason text: the composed message and the exception message
  /// when asked for, application-specific lines of a named and an unnamed image, termination
  /// reasons and details.
  static func reasonReport(composed: Bool, message: Bool) -> CrashReport {
    var report = CrashReport(format: .json)
    report.exceptionReason = composed ? ExceptionReason(composedMessage: "composed line 0") : nil
    report.applicationSpecificInfo = [
      ApplicationSpecificInfo(image: "libA", lines: ["alpha line 1", "beta"]),
      ApplicationSpecificInfo(image: nil, lines: []),
      ApplicationSpecificInfo(image: nil, lines: ["gamma x\u{301}", "delta é line"]),
    ]
    var exception = ExceptionInfo()
    exception.message = message ? "message line" : nil
    report.exception = exception
    var termination = Termination(namespace: "X")
    termination.reasons = ["reason one", "reason two line"]
    termination.details = ["detail 0"]
    report.termination = termination
    return report
  }

  @Test(
    "reasonText is the first text holding the fragment: composed message, application-specific lines, exception message, termination reasons, details",
    arguments: [
      (true, true, "composed", "exceptionReason.composed_message", "composed line 0"),
      (true, true, "line", "exceptionReason.composed_message", "composed line 0"),
      (true, true, "0", "exceptionReason.composed_message", "composed line 0"),
      (true, true, "line 1", "asi[\"libA\"][0]", "alpha line 1"), (true, true, "beta", "asi[\"libA\"][1]", "beta"),
      (true, true, "gamma", "asi[0]", "gamma x\u{301}"), (true, true, "x\u{301}", "asi[0]", "gamma x\u{301}"),
      (true, true, "é", "asi[1]", "delta é line"), (true, true, "message", "exception.message", "message line"),
      (true, true, "reason one", "termination.reasons[0]", "reason one"),
      (true, true, "reason two", "termination.reasons[1]", "reason two line"),
      (true, true, "detail", "termination.details[0]", "detail 0"),
      (false, false, "line", "asi[\"libA\"][0]", "alpha line 1"),
      (false, false, "0", "termination.details[0]", "detail 0"),
      (false, true, "message", "exception.message", "message line"),
      // An ASCII fragment is found also where a combining mark follows it.
      (true, true, "gamma x", "asi[0]", "gamma x\u{301}"),
      // No text holds these: the empty fragment, a different case, the messages left out.
      (true, true, "absent", nil, nil), (true, true, "", nil, nil), (true, true, "Line", nil, nil),
      (false, false, "composed", nil, nil), (false, false, "message", nil, nil),
    ] as [(Bool, Bool, String, String?, String?)])
  func reasonText(composed: Bool, message: Bool, fragment: String, path: String?, detail: String?) {
    let context = DiagnosisContext(report: Self.reasonReport(composed: composed, message: message))
    let found = context.reasonText(containing: fragment)
    #expect(found?.path == path)
    #expect(found?.detail == detail)
  }
}
