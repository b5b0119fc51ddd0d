import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// Frame descriptions and paths, input → expected; the byte-built texts and the termination-code
/// shortcut answer exactly what the `String`-built and field-by-field versions answered.
@Suite("Search helpers")
struct SearchHelperTests {
  @Test("UTF8TextBuilder numbers match String(_:) and String.hex")
  func numbers() {
    let values: [UInt64] = [
      0, 1, 9, 10, 15, 16, 99, 100, 255, 4096, 0x8badf00d, 1_000_000_007, .max, .max - 1, 1 << 63,
    ]
    for value in values {
      var decimal = UTF8TextBuilder(capacity: 0)
      decimal.appendDecimal(value)
      #expect(decimal.string == String(value))
      var hex = UTF8TextBuilder(capacity: 0)
      hex.append("é ")
      hex.appendHex(value)
      #expect(hex.string == "é " + String.hex(value))
    }
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

  @Test("The summary's exception, reason and termination match their String-built forms")
  func summaryTexts() {
    let texts: [String?] = [nil, "", "EXC_CRASH", "naïve ✓", String(repeating: "x", count: 40)]
    for type in texts {
      for signal in texts {
        var report = CrashReport(format: .json)
        report.exception = ExceptionInfo(type: type, signal: signal)
        report.exceptionReason = ExceptionReason(name: signal, composedMessage: type)
        let summary = CrashSummary(context: DiagnosisContext(report: report))
        if let type, let signal {
          #expect(summary.exception == type + " (" + signal + ")")
          #expect(summary.reason == signal + ": " + type)
        }
      }
    }
    for namespace in [nil, "SIGNAL", "FRONTBOARD", "Ünï"] {
      for code in [nil, 0, 6, 0x8bad_f00d, UInt64.max] as [UInt64?] {
        for indicator in [nil, "Abort trap: 6", ""] {
          var report = CrashReport(format: .json)
          var termination = Termination(namespace: namespace, code: code)
          termination.indicator = indicator
          report.termination = termination
          var parts: [String] = []
          if let namespace { parts.append(namespace) }
          if let code { parts.append(namespace == "SIGNAL" ? String(code) : String.hex(code)) }
          if let indicator { parts.append(indicator) }
          let summary = CrashSummary(context: DiagnosisContext(report: report))
          #expect(summary.termination == (parts.isEmpty ? nil : parts.joined(separator: " ")))
        }
      }
    }
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

  /// `reasonText(containing:)` as it searched the texts one by one, the reference answer.
  static func referenceReasonText(_ context: DiagnosisContext, _ fragment: String) -> Evidence? {
    let report = context.report
    if let message = context.exceptionMessage, message.utf8Contains(fragment) {
      return Evidence("exceptionReason.composed_message", message)
    }
    for info in report.applicationSpecificInfo {
      for (index, line) in info.lines.enumerated() where line.utf8Contains(fragment) {
        return Evidence(info.image.map { "asi[\"\($0)\"][\(index)]" } ?? "asi[\(index)]", line)
      }
    }
    if let message = report.exception?.message, message.utf8Contains(fragment) {
      return Evidence("exception.message", message)
    }
    if let termination = report.termination {
      for (index, reason) in termination.reasons.enumerated() where reason.utf8Contains(fragment) {
        return Evidence("termination.reasons[\(index)]", reason)
      }
      for (index, detail) in termination.details.enumerated() where detail.utf8Contains(fragment) {
        return Evidence("termination.details[\(index)]", detail)
      }
    }
    return nil
  }

  @Test("reasonText finds the text the one-by-one search finds")
  func reasonTexts() {
    let fragments = [
      "composed", "alpha", "beta", "gamma", "delta", "message", "reason one", "reason two", "detail", "line",
      "absent", "", "é", "x\u{301}", "0", "line 1", "Line",
    ]
    var report = CrashReport(format: .json)
    for withComposed in [false, true] {
      for withMessage in [false, true] {
        report.exceptionReason = withComposed ? ExceptionReason(composedMessage: "composed line 0") : nil
        report.applicationSpecificInfo = [
          ApplicationSpecificInfo(image: "libA", lines: ["alpha line 1", "beta"]),
          ApplicationSpecificInfo(image: nil, lines: []),
          ApplicationSpecificInfo(image: nil, lines: ["gamma x\u{301}", "delta é line"]),
        ]
        var exception = ExceptionInfo()
        exception.message = withMessage ? "message line" : nil
        report.exception = exception
        var termination = Termination(namespace: "X")
        termination.reasons = ["reason one", "reason two line"]
        termination.details = ["detail 0"]
        report.termination = termination
        let context = DiagnosisContext(report: report)
        for fragment in fragments {
          let found = context.reasonText(containing: fragment)
          let expected = Self.referenceReasonText(context, fragment)
          #expect(found?.path == expected?.path && found?.detail == expected?.detail, "\(fragment.debugDescription)")
        }
      }
    }
  }
}
