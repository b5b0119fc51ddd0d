import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The frames the memory and Swift rules that fire most (null-pointer-dereference,
/// invalid-address, swift-trap-unknown, swift-fatal-error and the Swift failures they read) look
/// at: the top frames only, and the app frame with its index.
struct FiringMemorySwiftFastPathTests {

  /// A trap whose crashed thread has `count` app frames and `marker` as the symbol of each frame
  /// in `at` (an inlined frame, as optimised builds write "Swift runtime failure: …").
  static func trap(count: Int, marker: String, at indexes: [Int]) -> String {
    let frames = (0..<count).map { index in
      indexes.contains(index)
        ? ExampleReport.Frame.frame(.app, marker, inline: true)
        : .frame(.app, "Worker.step\(index)()", offset: 4096 + index * 16)
    }
    return ExampleReport.trap(frames: frames).rendered
  }

  /// Reports with markers just inside and just outside the frame limits the rules search (6 and
  /// 12), deep in the backtrace, in several frames, and in none.
  static var reportTexts: [String] {
    var texts: [String] = []
    let markers = SwiftTrapUnknownRule.otherTrapFrames + ["Swift runtime failure: Index out of range"]
    for marker in markers {
      for indexes in [[0], [5], [6], [7], [11], [12], [13], [30], [3, 30], [], [12, 40]] {
        texts.append(trap(count: 45, marker: marker, at: indexes))
      }
    }
    // Short backtraces: the byte search takes its short-text path there.
    texts.append(trap(count: 3, marker: "objc_exception_rethrow", at: [2]))
    texts.append(trap(count: 8, marker: "Swift runtime failure: x", at: [7]))
    return texts
  }

  /// Every fixture report's context, read once for the tests in this file.
  static let fixtureContexts: [(name: String, context: DiagnosisContext)] = Fixtures.files(
    in: "reports", extensions: ["ips", "crash"]
  ).compactMap { path in
    guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { return nil }
    return (path, DiagnosisContext(report: report))
  }

  /// The contexts of the reports above and of every fixture report.
  static let everyContext: [(name: String, context: DiagnosisContext)] =
    (try? contexts(generated: reportTexts)) ?? []

  /// The contexts of the reports `texts` ("generated 0", …) and of every fixture report.
  static func contexts(generated texts: [String]) throws -> [(name: String, context: DiagnosisContext)] {
    var result: [(String, DiagnosisContext)] = []
    for (index, text) in texts.enumerated() {
      result.append(("generated \(index)", DiagnosisContext(report: try ReportReader.read(Array(text.utf8)))))
    }
    return result + fixtureContexts
  }

  /// Symbols of `count` frames, `marker` in each frame of `at` and an app function elsewhere.
  static func symbols(count: Int, marker: String, at indexes: [Int]) -> [String?] {
    (0..<count).map { indexes.contains($0) ? marker : "Worker.step\($0)()" }
  }

  /// A search bounded to the top frames finds the first frame above the limit that holds the
  /// marker, and nothing below the limit: long backtraces, short ones (searched from the needle's
  /// first byte), a marker in several frames and in none.
  @Test(
    "A search bounded to the top frames finds the marker above the limit only",
    arguments: [
      (45, [0], 6, .found(0)), (45, [5], 6, .found(5)), (45, [6], 6, .absent), (45, [7], 6, .absent),
      (45, [7], 12, .found(7)), (45, [11], 12, .found(11)), (45, [12], 12, .absent), (45, [13], 12, .absent),
      (45, [30], 12, .absent), (45, [3, 30], 6, .found(3)), (45, [3, 30], 12, .found(3)), (45, [], 12, .absent),
      (45, [12, 40], 12, .absent), (45, [12, 40], 41, .found(12)), (3, [2], 6, .found(2)), (3, [2], 2, .absent),
      (8, [7], 6, .absent), (8, [7], 12, .found(7)),
    ] as [(Int, [Int], Int, ByteSearch.Outcome)])
  func boundedSearch(count: Int, indexes: [Int], limit: Int, expected: ByteSearch.Outcome) throws {
    for (marker, fragment) in [
      ("Swift runtime failure: Index out of range", "Swift runtime failure: "),
      ("x swift_task_isCurrentExecutor y", "swift_task_isCurrentExecutor"),
      ("objc_exception_rethrow", "objc_exception"),
    ] {
      let text = try #require(FrameSymbolText(texts: Self.symbols(count: count, marker: marker, at: indexes)))
      #expect(text.firstFrame(containing: fragment, before: limit) == expected, "\(fragment)")
    }
  }

  /// The marker of an inlined failure frame counts in the top 12 frames only, wherever else the
  /// backtrace holds it.
  @Test func failureFramesAreTakenFromTheTopTwelve() throws {
    let marker = "Swift runtime failure: Index out of range"
    for indexes in [[0], [11], [12], [30], [3, 30], [12, 40], []] {
      let report = try ReportReader.read(Array(Self.trap(count: 45, marker: marker, at: indexes).utf8))
      let failures = SwiftFailure.all(in: DiagnosisContext(report: report))
      #expect(failures.map(\.frameIndex) == indexes.filter { $0 < 12 }, "\(indexes)")
    }
  }

  /// swift-trap-unknown defers to the other trap rules for their frames in the top six only.
  @Test func trapRuleIgnoresOtherTrapFramesBelowTheTopSix() throws {
    for fragment in SwiftTrapUnknownRule.otherTrapFrames {
      for (indexes, fires) in [([0], false), ([5], false), ([6], true), ([30], true), ([3, 30], false)] {
        let report = try ReportReader.read(
          Array(Self.trap(count: 45, marker: "x " + fragment + " y", at: indexes).utf8))
        let diagnosis = SwiftTrapUnknownRule().diagnose(DiagnosisContext(report: report))
        // The dispatch assertion anywhere is the isolation trap (swift-isolation-trap's).
        let expected = fires && fragment != SwiftIsolationTrap.dispatchAssert
        #expect((diagnosis != nil) == expected, "\(fragment) \(indexes)")
      }
    }
  }

  /// `firstFrameIndex(…dispatchAssert…) != nil` is `SwiftIsolationTrap.evidence(in:) != nil`.
  @Test func isolationTrapTestAgreesWithItsEvidence() throws {
    var present = 0
    for (name, context) in Self.everyContext {
      guard let backtrace = context.crashedBacktrace else { continue }
      let fast = context.firstFrameIndex(in: backtrace, containing: SwiftIsolationTrap.dispatchAssert) != nil
      #expect(fast == (SwiftIsolationTrap.evidence(in: context) != nil), "\(name)")
      if fast { present += 1 }
    }
    #expect(present > 0)
  }

  /// `indexedAppFrame(in:from:)` is `appFrameEvidence(in:from:)` with the index its path names
  /// (which `crashSiteSentence` parsed back out of the path).
  @Test func indexedAppFrameAgreesWithAppFrameEvidence() throws {
    var found = 0
    for (name, context) in Self.everyContext {
      context.forEachBacktrace { backtrace in
        for start in [0, 1, 2, 7, backtrace.frames.count - 1, backtrace.frames.count, backtrace.frames.count + 3] {
          let plain = context.appFrameEvidence(in: backtrace, from: max(0, start))
          let indexed = context.indexedAppFrame(in: backtrace, from: max(0, start))
          #expect(indexed?.evidence == plain, "\(name) \(start)")
          if let plain, let indexed {
            #expect(Int(plain.path.split(separator: "[").last?.dropLast() ?? "") == indexed.index, "\(name)")
            found += 1
          }
        }
      }
    }
    #expect(found > 100)
  }
}

/// `MemoryFault.appendCrashSiteSentence(to:in:evidence:)` writes what the sentence built of
/// interpolations did (kept here as it was, the reference).
struct CrashSiteSentenceTests {

  /// The sentence as `MemoryFault.crashSiteSentence(in:evidence:)` built it.
  static func plainSentence(in context: DiagnosisContext, evidence: inout [Evidence]) -> String {
    guard let crashing = context.crashingFrame, let backtrace = context.crashedBacktrace else {
      return ""
    }
    var sentence = " The faulting frame is \(DiagnosisContext.quote(crashing.evidence))"
    evidence.append(crashing.evidence)
    if crashing.frame.symbol == "<deduplicated_symbol>", backtrace.frames.count > 1 {
      let next = context.frameEvidence(backtrace, 1)
      sentence += " (a function the linker merged with identical ones), inside \(DiagnosisContext.quote(next))"
      evidence.append(next)
    }
    if context.isAppFrame(crashing.frame) {
      if context.symbol(crashing.frame) == nil { sentence += "; symbolicate it to see the line" }
    } else if let app = context.appFrameEvidence(in: backtrace) {
      if let index = Int(app.path.split(separator: "[").last?.dropLast() ?? ""), index > 6 {
        let caller = context.frameEvidence(backtrace, 1)
        sentence +=
          ", called by \(DiagnosisContext.quote(caller)); the first app frame is far below, "
          + "\(DiagnosisContext.quote(app)), so the system frameworks were working on the app's behalf "
          + "(with an object, delegate or buffer the app gave them)"
        evidence.append(caller)
      } else {
        sentence += ", called from \(DiagnosisContext.quote(app))"
      }
      evidence.append(app)
    }
    sentence += "."
    if let thread = context.crashedThreadDisplay { sentence += " It happened on \(thread)." }
    return sentence
  }

  /// Every branch: an app frame on top (symbolicated or not), a merged function on top, the first
  /// app frame near and far below (7 and more), no app frame, a named queue and a thread name.
  static let reportTexts: [String] = {
    let system = (0..<9).map { ExampleReport.Frame.frame(.uiKit, "-[UIView layoutSubviews\($0)]") }
    return [
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x8").rendered,
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x8", frames: [.frame(.app), .frame(.app, "A.b()")]).rendered,
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x8", frames: [.frame(.app, "<deduplicated_symbol>"), .frame(.app, "A.b()")]
      ).rendered,
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x8",
        frames: [.frame(.uiKit, "<deduplicated_symbol>"), .frame(.uiKit, "x"), .frame(.app)]
      ).rendered,
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x8", frames: Array(system.prefix(3)) + [.frame(.app, "A.b()")])
        .rendered,
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x8", frames: Array(system.prefix(7)) + [.frame(.app, "A.b()")])
        .rendered,
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x4cdfaf798", frames: system + [.frame(.app)], queue: "com.example.sync"
      ).rendered,
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x4cdfaf798", frames: system, queue: "com.apple.root.user-initiated-qos.cooperative"
      ).rendered,
      ExampleReport.badAccess(
        "KERN_PROTECTION_FAILURE at 0x104c2c000", frames: [.frame(.libobjc, "objc_msgSend"), .frame(.app, "é.ü()")]
      ).rendered,
    ]
  }()

  @Test func appendedSentenceIsThePlainOne() throws {
    let contexts = try FiringMemorySwiftFastPathTests.contexts(generated: Self.reportTexts)
    var farBelow = 0
    for (name, context) in contexts {
      var plainEvidence = [Evidence("x", "y")]
      let plain = Self.plainSentence(in: context, evidence: &plainEvidence)
      var evidence = [Evidence("x", "y")]
      var text = "Before."
      MemoryFault.appendCrashSiteSentence(to: &text, in: context, evidence: &evidence)
      #expect(text == "Before." + plain, "\(name)")
      #expect(evidence == plainEvidence, "\(name)")
      if plain.contains("far below") { farBelow += 1 }
    }
    #expect(farBelow > 0)
  }

  @Test func appendedQuoteIsThePlainOne() {
    for evidence in [Evidence("", ""), Evidence("threads[0].frames[3]", "Example + 0x1f40"), Evidence("p", "é `x`")] {
      var text = "a"
      DiagnosisContext.appendQuote(evidence, to: &text)
      #expect(text == "a" + DiagnosisContext.quote(evidence))
      var bytes = UTF8TextBuilder(capacity: 8)
      bytes.append("a")
      DiagnosisContext.appendQuote(evidence, to: &bytes)
      #expect(bytes.string == "a" + DiagnosisContext.quote(evidence))
    }
  }
}

/// The summaries the memory rules now write piece by piece read as their interpolations did.
struct MemorySummaryTextTests {

  static func summary(_ rule: some DiagnosisRule, _ text: String) throws -> String? {
    rule.diagnose(DiagnosisContext(report: try ReportReader.read(Array(text.utf8))))?.summary
  }

  @Test func nullPointerSummaries() throws {
    let read = ExampleReport.Registers(
      pc: 4_295_000_000, far: 16, esr: 2_449_473_542, esrDescription: "(Data Abort) byte read Translation fault")
    let sixteen = try Self.summary(
      NullPointerDereferenceRule(),
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000000010", registers: read).rendered)
    #expect(
      sixteen?.hasPrefix(
        "The app read from address `0x10`, inside the unmapped zero page: it dereferenced a null pointer (an offset of 16 bytes: a field of a struct, object or C++ `this` that is null). The faulting frame is `"
      ) == true)
    let one = try Self.summary(
      NullPointerDereferenceRule(), ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000000001").rendered)
    #expect(
      one?.hasPrefix(
        "The app accessed address `0x1`, inside the unmapped zero page: it dereferenced a null pointer (an offset of 1 byte: a field"
      ) == true)
    let likely = try Self.summary(
      NullPointerDereferenceRule(), ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000003a10").rendered)
    #expect(
      likely?.hasPrefix(
        "The app accessed address `0x3a10`, just above the zero page: most likely a field far inside a null pointer's memory (an offset of 14864 bytes: "
      ) == true)
    let zero = try Self.summary(
      NullPointerDereferenceRule(), ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000000000").rendered)
    #expect(
      zero?.hasPrefix(
        "The app accessed address `0x0`, inside the unmapped zero page: it dereferenced a null pointer. The faulting frame is `"
      ) == true)
    let jump = ExampleReport.Registers(pc: 0)
    let jumped = try Self.summary(
      NullPointerDereferenceRule(),
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000000000", registers: jump).rendered)
    #expect(
      jumped?.hasPrefix(
        "The app jumped to address `0x0`: it called a null function pointer, block or closure. The faulting frame is `")
        == true)
  }

  @Test func invalidAddressSummary() throws {
    let text = ExampleReport.badAccess(
      "KERN_INVALID_ADDRESS at 0x00000004cdfaf798",
      vmRegionInfo:
        "0x4cdfaf798 is not in any region.  Bytes after previous region: 4667930521\n--->  GAP OF 0xc08400000 BYTES"
    ).rendered
    let summary = try Self.summary(InvalidAddressRule(), text)
    #expect(
      summary?.hasPrefix(
        "The app accessed `0x4cdfaf798`, which is not mapped memory (\"0x4cdfaf798 is not in any region.  Bytes after previous region: 4667930521\"). The faulting frame is `"
      ) == true)
    #expect(
      summary?.hasSuffix(
        " This is the symptom, not the root cause: the pointer was freed, overwritten or never initialised earlier. Reproduce with the Address Sanitizer, Thread Sanitizer, Guard Malloc or Zombie Objects to find where."
      ) == true)
  }
}

/// `SwiftFailure.parse`, input → expected, and `appendLocationSentence(to:in:evidence:)`
/// against the sentence as it was built of interpolations (kept here as it was, the reference).
struct SwiftFailureTextTests {

  @Test(
    "A Swift failure's kind and the file and line it names",
    arguments: [
      (
        "Example/Router.swift:88: Fatal error: Unknown route: settings/privacy", "Fatal error", "Example/Router.swift",
        88
      ),
      (
        "Example/Cache.swift:12: Precondition failed: capacity must be positive", "Precondition failed",
        "Example/Cache.swift", 12
      ),
      ("  Ünïcödé/Fïlé.swift:7:  Assertion failed: é", "Assertion failed", "Ünïcödé/Fïlé.swift", 7),
      ("a:b: Fatal error", "Fatal error", nil, nil), (":Fatal error: x", "Fatal error", nil, nil),
      ("x: Fatal error", "Fatal error", nil, nil),
      ("Fatal error: message: file Module/File.swift, line 42", "Fatal error", "Module/File.swift", 42),
      ("Fatal error: file Module/File.swift, line 9", "Fatal error", "Module/File.swift", 9),
      ("Swift runtime failure: Index out of range", "Swift runtime failure", nil, nil),
      // Neither a combining mark after the line nor Arabic-Indic digits make a line number.
      ("Module/File.swift:4:\u{301}: Fatal error: mark", "Fatal error", nil, nil),
      ("Module/File.swift:\u{661}\u{662}: Fatal error: arabic digits", "Fatal error", nil, nil),
      ("F.swift:-3: Fatal error: negative", "Fatal error", "F.swift", -3),
      ("\tF.swift:3:\t Fatal error:\tmessage\n", "Fatal error", "F.swift", 3),
    ] as [(String, String, String?, Int?)])
  func parse(line: String, kind: String, file: String?, number: Int?) throws {
    let failure = try #require(SwiftFailure.parse(line, evidence: Evidence("p", line)))
    #expect(failure.kind.rawValue == kind)
    #expect(failure.file == file)
    #expect(failure.line == number)
  }

  @Test(
    "Text without a failure marker at a line's start is no Swift failure",
    arguments: ["prefix Fatal error: not at the start", ""])
  func notAFailure(line: String) {
    #expect(SwiftFailure.parse(line, evidence: Evidence("p", line)) == nil)
  }

  /// The sentence as `SwiftFailure.locationSentence(in:evidence:)` built it.
  static func plainSentence(_ failure: SwiftFailure, in context: DiagnosisContext, evidence: inout [Evidence]) -> String
  {
    var sentence = ""
    if let location = failure.location { sentence += " It was raised at `\(location)`." }
    guard let backtrace = context.crashedBacktrace else { return sentence }
    let start = failure.frameIndex.map { $0 + 1 } ?? 0
    if let app = context.appFrameEvidence(in: backtrace, from: start) {
      sentence += " The app frame that failed is \(DiagnosisContext.quote(app))"
      sentence += app.detail.hasSuffix("(unsymbolicated)") ? "; symbolicate it to see the line." : "."
      evidence.append(app)
    }
    if let thread = context.crashedThreadDisplay { sentence += " It happened on \(thread)." }
    return sentence
  }

  @Test func appendedLocationSentenceIsThePlainOne() throws {
    let texts = [
      ExampleReport.trap(
        frames: [.frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app, "Router.route(for:)")],
        asi: ["libswiftCore.dylib": ["Example/Router.swift:88: Fatal error: Unknown route"]]
      ).rendered,
      ExampleReport.trap(frames: [
        .frame(.app, "Swift runtime failure: precondition failure", inline: true), .frame(.app),
      ]).rendered,
      ExampleReport.trap(
        frames: [.frame(.libswiftCore, "x")], asi: ["libswiftCore.dylib": ["Fatal error: no location"]]
      ).rendered,
    ]
    let contexts = try FiringMemorySwiftFastPathTests.contexts(generated: texts)
    var compared = 0
    for (name, context) in contexts {
      for failure in SwiftFailure.all(in: context) {
        var plainEvidence: [Evidence] = []
        let plain = Self.plainSentence(failure, in: context, evidence: &plainEvidence)
        var evidence: [Evidence] = []
        var text = "Summary."
        failure.appendLocationSentence(to: &text, in: context, evidence: &evidence)
        #expect(text == "Summary." + plain, "\(name)")
        #expect(evidence == plainEvidence, "\(name)")
        compared += 1
      }
    }
    #expect(compared > 10)
  }
}

/// swift-trap-unknown's summary, now written piece by piece, reads as its interpolations did
/// (rebuilt here from the context the old way).
struct TrapSummaryTextTests {

  @Test func summariesReadAsTheInterpolatedOnes() throws {
    let texts = [
      ExampleReport.trap(frames: [
        .frame(.app, offset: 0x1c2f4), .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
      ]).rendered,
      ExampleReport.trap(frames: [
        .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app),
        .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
      ]).rendered,
      ExampleReport.trap(
        frames: [.frame(.app, "Parser.next()"), .frame(.app, "Parser.run()")], type: "EXC_BAD_INSTRUCTION",
        signal: "SIGILL"
      ).rendered,
    ]
    for text in texts {
      let context = DiagnosisContext(report: try ReportReader.read(Array(text.utf8)))
      let summary = try #require(SwiftTrapUnknownRule().diagnose(context)).summary
      let backtrace = try #require(context.crashedBacktrace)
      let top = context.frameEvidence(backtrace, 0)
      let opening: String
      if let name = context.symbol(backtrace.frames[0])?.display, !context.isAppFrame(backtrace.frames[0]) {
        opening =
          "The Swift standard library stopped the app in `\(name)` (\(top.path)) with \(context.exceptionDisplay), but the report records no message. `\(name)` is where `fatalError`, `precondition`, `assert` and the library's own checks (force unwrap of nil, with `!` or through an implicitly unwrapped optional, index out of range, failed cast) end."
      } else {
        opening =
          "The app stopped on a trap instruction (\(context.exceptionDisplay)) in its own code at \(DiagnosisContext.quote(top)), and the report records no message. In Swift this is a failed runtime check — a force unwrap of nil (`!` or an implicitly unwrapped optional), an index out of range, an arithmetic overflow, a failed `as!`, `try!`, a `precondition` or `fatalError` — whose message an optimised build drops."
      }
      #expect(summary.hasPrefix(opening), "\(summary)")
      if let app = context.appFrameEvidence(in: backtrace), app.path != top.path {
        #expect(summary.contains(" The app frame that called it is \(DiagnosisContext.quote(app))."), "\(summary)")
      }
      #expect(summary.hasSuffix(" It happened on \(try #require(context.crashedThreadDisplay))."), "\(summary)")
    }
  }
}
