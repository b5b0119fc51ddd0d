import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The byte-built frame descriptions and the termination-code shortcut must answer exactly what
/// the `String`-built and field-by-field versions answered.
@Suite("Search helpers")
struct SearchHelperTests {
  /// `describe(_:)` as it was built from `String`s, the reference answer.
  static func referenceDescribe(_ context: DiagnosisContext, _ frame: Frame) -> String {
    var parts: [String] = []
    if let image = frame.imageName { parts.append(image) }
    if let name = context.symbol(frame)?.display {
      parts.append(name + (frame.symbolLocation.map { " + " + String($0) } ?? ""))
    } else if let offset = frame.imageOffset {
      parts.append("+ " + String.hex(offset))
    } else if let address = frame.address {
      parts.append(String.hex(address))
    }
    if let file = frame.sourceFile {
      parts.append("(\(file)" + (frame.sourceLine.map { ":\($0)" } ?? "") + ")")
    }
    return parts.isEmpty ? "???" : parts.joined(separator: " ")
  }

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

  @Test("describe and framePath match the String-built forms")
  func describeFrames() {
    var frames: [Frame] = [
      Frame(), Frame(imageName: ""), Frame(imageOffset: 0x13c40, imageName: "ChatApp"),
      Frame(symbol: "main", symbolLocation: 120, imageName: "ChatApp", address: 0x1045b3c40),
      Frame(symbol: "$s7ChatApp3fooyyF", symbolLocation: 0, imageName: "ChatApp"),
      Frame(imageOffset: 16, symbol: "???", imageName: "ChatApp"), Frame(symbol: "", address: 0),
      Frame(address: .max), Frame(symbol: "naïve ✓", symbolLocation: .max, imageName: "Bücher"),
    ]
    var withSource = Frame(symbol: "f", imageName: "App")
    withSource.sourceFile = "Model.swift"
    withSource.sourceLine = 42
    frames.append(withSource)
    withSource.sourceLine = nil
    frames.append(withSource)
    var sourceOnly = Frame()
    sourceOnly.sourceFile = "Ünï.swift"
    sourceOnly.sourceLine = -1
    frames.append(sourceOnly)
    var report = CrashReport(format: .json)
    report.threads = [CrashThread(index: 0, frames: frames)]
    report.threads[0].triggered = true
    let context = DiagnosisContext(report: report)
    for frame in frames {
      #expect(context.describe(frame) == Self.referenceDescribe(context, frame), "\(frame)")
    }
    let backtrace = try! #require(context.crashedBacktrace)
    for index in [0, 7, 12, 1234567] {
      #expect(backtrace.framePath(index) == backtrace.path + "[" + String(index) + "]")
    }
  }

  @Test("frameList matches the joined form, each detail a code span")
  func frameList() {
    let frames = [
      Evidence("threads[0].frames[0]", "__pthread_kill + 8 (libsystem_kernel.dylib)"),
      Evidence("threads[0].frames[12]", "naïve ✓ `quoted` (Bücher)"), Evidence("", ""),
      Evidence("lastExceptionBacktrace[3]", String(repeating: "x", count: 300)),
    ]
    for count in 0...frames.count {
      let part = Array(frames.prefix(count))
      #expect(
        DiagnosisContext.frameList(part)
          == part.map { "\(CodeSpan.markdown($0.detail)) (\($0.path))" }.joined(separator: ", "))
    }
  }

  @Test("crashedThreadDisplay and the unsymbolicated mark match their plain forms")
  func threadDisplayAndSymbolText() {
    func thread(_ index: Int, queue: String? = nil, name: String? = nil) -> CrashThread {
      var thread = CrashThread(index: index)
      thread.queue = queue
      thread.name = name
      return thread
    }
    let threads: [CrashThread] = [
      thread(0), thread(3, queue: "com.example.sync"), thread(12, name: "Wörker ✓"), thread(7),
      thread(-2, name: "odd"), thread(4, name: "com.apple.main-thread"), thread(5, queue: "q", name: "n"),
    ]
    for thread in threads {
      var report = CrashReport(format: .json)
      var crashed = thread
      crashed.triggered = true
      report.threads = [crashed]
      let context = DiagnosisContext(report: report)
      let plain: String
      if thread.isMainThread {
        plain = "the main thread"
      } else if let queue = thread.queue {
        plain = "thread \(thread.index) (queue `\(queue)`)"
      } else if let name = thread.name {
        plain = "thread \(thread.index) (`\(name)`)"
      } else {
        plain = "thread \(thread.index)"
      }
      #expect(context.crashedThreadDisplay == plain)
    }
    let context = DiagnosisContext(report: CrashReport(format: .json))
    for symbol in [nil, "", "???", "main", "$s7ChatApp3fooyyF", "?", " ??? "] as [String?] {
      let frame = Frame(symbol: symbol)
      #expect(frame.hasSymbolText == (context.symbol(frame) != nil), "\(String(describing: symbol))")
    }
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
