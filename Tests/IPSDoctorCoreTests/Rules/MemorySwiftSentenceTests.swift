import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The frames the memory and Swift rules look at: the top frames only, and the first app frame
/// with its index.
struct SwiftTrapFrameSearchTests {

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

  /// The dispatch assertion's first frame is where the isolation trap's evidence points.
  @Test(
    "The isolation trap's evidence is the first frame holding the dispatch assertion",
    arguments: [([0], 0), ([5], 5), ([30], 30), ([3, 30], 3), ([], nil)] as [([Int], Int?)])
  func isolationTrapEvidence(indexes: [Int], first: Int?) throws {
    let report = try ReportReader.read(
      Array(Self.trap(count: 45, marker: SwiftIsolationTrap.dispatchAssert, at: indexes).utf8))
    let context = DiagnosisContext(report: report)
    let backtrace = try #require(context.crashedBacktrace)
    #expect(context.firstFrameIndex(in: backtrace, containing: SwiftIsolationTrap.dispatchAssert) == first)
    #expect(SwiftIsolationTrap.evidence(in: context)?.assert.path == first.map { "threads[0].frames[\($0)]" })
  }

  /// The first app frame at or after `start`, its index, and its evidence marked when unsymbolicated.
  @Test(
    "The first app frame from a start, with its index and evidence",
    arguments: [
      (0, 2, "Example + 0x1000 (unsymbolicated)"), (2, 2, "Example + 0x1000 (unsymbolicated)"),
      (3, 3, "Example Router.route(for:)"), (4, nil, nil), (40, nil, nil),
    ] as [(Int, Int?, String?)])
  func indexedAppFrame(start: Int, index: Int?, detail: String?) throws {
    let report = ExampleReport.trap(frames: [
      .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.uiKit, "-[UIView layoutSubviews]"),
      .frame(.app), .frame(.app, "Router.route(for:)"), .frame(.uiKit, "UIApplicationMain"),
    ])
    let context = DiagnosisContext(report: try ReportReader.read(Array(report.rendered.utf8)))
    let backtrace = try #require(context.crashedBacktrace)
    let found = context.indexedAppFrame(in: backtrace, from: start)
    #expect(found?.index == index)
    #expect(found?.evidence.detail == detail)
    #expect(found?.evidence.path == index.map { "threads[0].frames[\($0)]" })
    #expect(context.appFrameEvidence(in: backtrace, from: start) == found?.evidence)
  }
}

/// Expects `text` to hold `holds` in this order, and none of `lacks`.
private func expectFragments(
  of text: String, holds: [String], lacks: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  var rest = Substring(text)
  for fragment in holds {
    let range = try #require(rest.range(of: fragment), "\(fragment) in \(text)", sourceLocation: sourceLocation)
    rest = rest[range.upperBound...]
  }
  for fragment in lacks { #expect(!text.contains(fragment), "\(fragment) in \(text)", sourceLocation: sourceLocation) }
}

/// A report's context, read from its rendered JSON.
private func exampleContext(_ report: ExampleReport) throws -> DiagnosisContext {
  DiagnosisContext(report: try ReportReader.read(Array(report.rendered.utf8)))
}

/// `DiagnosisContext.quote` and `frameList`: evidence → its detail as a code span and its path.
struct EvidenceQuoteTests {
  @Test(
    "A quote is the detail as a code span, then the path in parentheses",
    arguments: [
      (Evidence("threads[0].frames[3]", "Example + 0x1f40"), "`Example + 0x1f40` (threads[0].frames[3])"),
      (Evidence("p", "é `x`"), "`` é `x` `` (p)"), (Evidence("p", "``"), "``` `` ``` (p)"), (Evidence("", ""), "`` ()"),
    ] as [(Evidence, String)])
  func quote(evidence: Evidence, expected: String) {
    #expect(DiagnosisContext.quote(evidence) == expected)
  }

  @Test(
    "A frame list is the quotes, comma-separated",
    arguments: [
      ([], ""), ([Evidence("a[0]", "A")], "`A` (a[0])"),
      ([Evidence("a[0]", "A"), Evidence("a[1]", "B `b`")], "`A` (a[0]), `` B `b` `` (a[1])"),
    ] as [([Evidence], String)])
  func frameList(frames: [Evidence], expected: String) {
    #expect(DiagnosisContext.frameList(frames) == expected)
  }
}

/// `MemoryFault.crashSiteSentence(in:evidence:)`: the faulting frame, the merged function's
/// caller, the first app frame near or far below, and the crashed thread; and the evidence it adds.
struct CrashSiteSentenceTests {
  static let system = (0..<9).map { ExampleReport.Frame.frame(.uiKit, "-[UIView layoutSubviews\($0)]") }

  /// A report, the fragments its sentence holds (in this order), those it does not, and the paths
  /// of the evidence it adds.
  typealias Case = (report: ExampleReport, holds: [String], lacks: [String], paths: [String])

  static let cases: [Case] = [
    (
      .badAccess("KERN_INVALID_ADDRESS at 0x8"),
      ["The faulting frame is `Example ImageCache.decode(_:)` (threads[0].frames[0])", "on the main thread."],
      ["symbolicate", "called", "merged"], ["threads[0].frames[0]"]
    ),
    (
      .badAccess("KERN_INVALID_ADDRESS at 0x8", frames: [.frame(.app), .frame(.app, "A.b()")]),
      ["`Example + 0x1000` (threads[0].frames[0])", "symbolicate it to see the line"], ["called"],
      ["threads[0].frames[0]"]
    ),
    (
      .badAccess(
        "KERN_INVALID_ADDRESS at 0x8", frames: [.frame(.app, "<deduplicated_symbol>"), .frame(.app, "A.b()")]),
      [
        "`Example <deduplicated_symbol>` (threads[0].frames[0])", "merged",
        "inside `Example A.b()` (threads[0].frames[1])",
      ],
      ["symbolicate", "called"], ["threads[0].frames[0]", "threads[0].frames[1]"]
    ),
    (
      .badAccess(
        "KERN_INVALID_ADDRESS at 0x8",
        frames: [.frame(.uiKit, "<deduplicated_symbol>"), .frame(.uiKit, "x"), .frame(.app)]),
      [
        "`UIKitCore <deduplicated_symbol>` (threads[0].frames[0])", "inside `UIKitCore x` (threads[0].frames[1])",
        "called from `Example + 0x1000 (unsymbolicated)` (threads[0].frames[2])",
      ], ["far below"], ["threads[0].frames[0]", "threads[0].frames[1]", "threads[0].frames[2]"]
    ),
    (
      .badAccess("KERN_INVALID_ADDRESS at 0x8", frames: Array(system.prefix(6)) + [.frame(.app, "A.b()")]),
      [
        "`UIKitCore -[UIView layoutSubviews0]` (threads[0].frames[0])",
        "called from `Example A.b()` (threads[0].frames[6])",
      ],
      ["far below", "merged"], ["threads[0].frames[0]", "threads[0].frames[6]"]
    ),
    (
      .badAccess("KERN_INVALID_ADDRESS at 0x8", frames: Array(system.prefix(7)) + [.frame(.app, "A.b()")]),
      [
        "called by `UIKitCore -[UIView layoutSubviews1]` (threads[0].frames[1])",
        "far below, `Example A.b()` (threads[0].frames[7])", "working on the app's behalf",
      ], ["called from"], ["threads[0].frames[0]", "threads[0].frames[1]", "threads[0].frames[7]"]
    ),
    (
      .badAccess("KERN_INVALID_ADDRESS at 0x4cdfaf798", frames: system + [.frame(.app)], queue: "com.example.sync"),
      [
        "far below, `Example + 0x1000 (unsymbolicated)` (threads[0].frames[9])",
        "on thread 0 (queue `com.example.sync`).",
      ],
      ["main thread"], ["threads[0].frames[0]", "threads[0].frames[1]", "threads[0].frames[9]"]
    ),
    (
      .badAccess(
        "KERN_INVALID_ADDRESS at 0x4cdfaf798", frames: system, queue: "com.apple.root.user-initiated-qos.cooperative"),
      [
        "`UIKitCore -[UIView layoutSubviews0]` (threads[0].frames[0]).",
        "(queue `com.apple.root.user-initiated-qos.cooperative`)",
      ],
      ["called", "app frame"], ["threads[0].frames[0]"]
    ),
    (
      .badAccess(
        "KERN_PROTECTION_FAILURE at 0x104c2c000", frames: [.frame(.libobjc, "objc_msgSend"), .frame(.app, "é.ü()")]),
      ["`libobjc.A.dylib objc_msgSend` (threads[0].frames[0])", "called from `Example é.ü()` (threads[0].frames[1])"],
      ["far below"], ["threads[0].frames[0]", "threads[0].frames[1]"]
    ),
  ]

  @Test(arguments: cases.indices)
  func sentence(index: Int) throws {
    let (report, holds, lacks, paths) = Self.cases[index]
    var evidence = [Evidence("exception.type", "EXC_BAD_ACCESS")]
    let sentence = MemoryFault.crashSiteSentence(in: try exampleContext(report), evidence: &evidence)
    #expect(sentence.hasPrefix(" The faulting frame is "))
    try expectFragments(of: sentence, holds: holds, lacks: lacks)
    #expect(evidence.map(\.path) == ["exception.type"] + paths)
  }

  @Test("A report without a crashed thread has no crash-site sentence")
  func noCrashedThread() throws {
    let report = ExampleReport(
      exception: ExampleReport.Exception("EXC_BAD_ACCESS", signal: "SIGSEGV"), threads: [], crashedThread: 3)
    var evidence: [Evidence] = []
    #expect(MemoryFault.crashSiteSentence(in: try exampleContext(report), evidence: &evidence) == "")
    #expect(evidence.isEmpty)
  }
}

/// The facts the memory rules' summaries state: what the app did, at which address, how far into
/// the zero page, and the frame.
struct MemorySummaryTextTests {
  static func summary(_ rule: some DiagnosisRule, _ report: ExampleReport) throws -> String {
    try #require(rule.diagnose(try exampleContext(report))?.summary)
  }

  static let read = ExampleReport.Registers(
    pc: 4_295_000_000, far: 16, esr: 2_449_473_542, esrDescription: "(Data Abort) byte read Translation fault")

  @Test(
    "null-pointer-dereference: the access, the address and the offset into the null object",
    arguments: [
      (
        "0x0000000000000010", read, ["read from address `0x10`", "inside the unmapped zero page", "offset of 16 bytes"]
      ),
      ("0x0000000000000001", nil, ["accessed address `0x1`", "inside the unmapped zero page", "offset of 1 byte:"]),
      ("0x0000000000003a10", nil, ["accessed address `0x3a10`", "just above the zero page", "offset of 14864 bytes"]),
      ("0x0000000000000000", nil, ["accessed address `0x0`", "dereferenced a null pointer."]),
      ("0x0000000000000000", ExampleReport.Registers(pc: 0), ["jumped to address `0x0`", "null function pointer"]),
    ] as [(String, ExampleReport.Registers?, [String])])
  func nullPointer(address: String, registers: ExampleReport.Registers?, fragments: [String]) throws {
    let summary = try Self.summary(
      NullPointerDereferenceRule(), .badAccess("KERN_INVALID_ADDRESS at " + address, registers: registers))
    for fragment in fragments + ["The faulting frame is `Example ImageCache.decode(_:)` (threads[0].frames[0])"] {
      #expect(summary.contains(fragment), "\(fragment) in \(summary)")
    }
    if address.hasSuffix("0000") { #expect(!summary.contains("offset of"), "\(summary)") }
  }

  @Test("invalid-address: the address, the region text quoted, the frame, and where to look next")
  func invalidAddress() throws {
    let region = "0x4cdfaf798 is not in any region.  Bytes after previous region: 4667930521"
    let summary = try Self.summary(
      InvalidAddressRule(),
      .badAccess(
        "KERN_INVALID_ADDRESS at 0x00000004cdfaf798", vmRegionInfo: region + "\n--->  GAP OF 0xc08400000 BYTES"))
    for fragment in [
      "accessed `0x4cdfaf798`", "not mapped memory", "(\"\(region)\")",
      "The faulting frame is `Example ImageCache.decode(_:)` (threads[0].frames[0])", "Address Sanitizer",
    ] {
      #expect(summary.contains(fragment), "\(fragment) in \(summary)")
    }
    #expect(!summary.contains("GAP OF"))
  }
}

/// `SwiftFailure.parse`, input → expected, and `locationSentence(in:evidence:)`.
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

  /// A report, the fragments of its first failure's sentence (in this order), those it lacks, and
  /// the paths of the evidence it adds.
  static let cases: [(report: ExampleReport, holds: [String], lacks: [String], paths: [String])] = [
    (
      .trap(
        frames: [.frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app, "Router.route(for:)")],
        asi: ["libswiftCore.dylib": ["Example/Router.swift:88: Fatal error: Unknown route"]]),
      [
        " It was raised at `Example/Router.swift:88`.",
        " The app frame that failed is `Example Router.route(for:)` (threads[0].frames[1]).",
        " It happened on the main thread.",
      ], ["symbolicate"], ["threads[0].frames[1]"]
    ),
    (
      .trap(frames: [.frame(.app, "Swift runtime failure: precondition failure", inline: true), .frame(.app)]),
      [
        " The app frame that failed is `Example + 0x1000 (unsymbolicated)` (threads[0].frames[1])",
        "; symbolicate it to see the line.", " It happened on the main thread.",
      ], ["raised at"], ["threads[0].frames[1]"]
    ),
    (
      .trap(frames: [.frame(.libswiftCore, "x")], asi: ["libswiftCore.dylib": ["Fatal error: no location"]]),
      [" It happened on the main thread."], ["raised at", "app frame"], []
    ),
  ]

  @Test(arguments: cases.indices)
  func locationSentence(index: Int) throws {
    let (report, holds, lacks, paths) = Self.cases[index]
    let context = try exampleContext(report)
    let failure = try #require(SwiftFailure.all(in: context).first)
    var evidence: [Evidence] = []
    let sentence = failure.locationSentence(in: context, evidence: &evidence)
    try expectFragments(of: sentence, holds: holds, lacks: lacks)
    #expect(evidence.map(\.path) == paths)
  }
}

/// swift-trap-unknown's summary: the trap, the frame it stopped in, the app frame that called it
/// when that is another frame, and the thread.
struct TrapSummaryTextTests {
  @Test(
    "swift-trap-unknown names the stopping frame, its app caller and the thread",
    arguments: [
      (
        ExampleReport.trap(frames: [
          .frame(.app, offset: 0x1c2f4), .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
        ]),
        ["trap instruction (EXC_BREAKPOINT (SIGTRAP))", "at `Example + 0x1c2f4` (threads[0].frames[0])"],
        ["The app frame that called it"]
      ),
      (
        ExampleReport.trap(frames: [
          .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app),
          .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
        ]),
        [
          "stopped the app in `_assertionFailure(_:_:file:line:flags:)` (threads[0].frames[0]) with EXC_BREAKPOINT (SIGTRAP)",
          " The app frame that called it is `Example + 0x1000 (unsymbolicated)` (threads[0].frames[1]).",
        ], ["trap instruction"]
      ),
      (
        ExampleReport.trap(
          frames: [.frame(.app, "Parser.next()"), .frame(.app, "Parser.run()")], type: "EXC_BAD_INSTRUCTION",
          signal: "SIGILL"),
        ["trap instruction (EXC_BAD_INSTRUCTION (SIGILL))", "at `Example Parser.next()` (threads[0].frames[0])"],
        ["The app frame that called it", "Parser.run()"]
      ),
    ] as [(ExampleReport, [String], [String])])
  func summary(report: ExampleReport, holds: [String], lacks: [String]) throws {
    let summary = try #require(SwiftTrapUnknownRule().diagnose(try exampleContext(report))?.summary)
    try expectFragments(of: summary, holds: holds, lacks: lacks)
    #expect(summary.hasSuffix(" It happened on the main thread."), "\(summary)")
  }
}
