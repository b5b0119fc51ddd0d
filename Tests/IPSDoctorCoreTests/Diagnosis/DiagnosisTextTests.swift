import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The text facts of the diagnosis engine, input → expected: mangled names, the text after a
/// marker, memory-map arrows, first lines and searches in a backtrace's symbols.
@Suite("Diagnosis text facts")
struct DiagnosisTextTests {
  @Test(
    "A symbol is mangled when it starts with _T0, $s or _$s",
    arguments: [
      ("_T0", true), ("_T07ChatApp", true), ("$s4main3FooV", true), ("_$s4main3FooV", true),
      // "0\u{301}" is one Character, not "0"; "é" after "_T0" is a Character of its own.
      ("_T0\u{301}x", false), ("_T0é", true), ("_T", false), ("_t0x", false), ("x_T0", false), ("", false),
    ])
  func mangled(symbol: String, expected: Bool) {
    #expect(SwiftDemangler.isMangled(symbol) == expected)
  }

  /// The terminator sets of ``textFollowing(text:expected:)``, in the order of its expectations.
  static let terminatorSets = ["\n", "\n)", "] ", "\u{212A}", "\r\n", "\r", ""]

  @Test(
    "The trimmed text after \"key:\" up to an ASCII terminator byte, for each set of terminators",
    arguments: [
      ("Library not loaded: @rpath/A.framework/A\n  Referenced from: x", [nil, nil, nil, nil, nil, nil, nil]),
      (
        "key: value ) rest",
        ["value ) rest", "value", nil, "value ) rest", "value ) rest", "value ) rest", "value ) rest"]
      ),
      ("key:  spaced\t \n", ["spaced", "spaced", nil, "spaced", "spaced", "spaced", "spaced"]),
      // A terminator ends the text also where a combining mark follows it.
      (
        "key:)\u{301} tail)",
        [")\u{301} tail)", nil, ")\u{301}", ")\u{301} tail)", ")\u{301} tail)", ")\u{301} tail)", ")\u{301} tail)"]
      ),
      // The text ends before the CR LF pair that holds a terminator.
      ("key: a\r\nb", ["a", "a", nil, "a\r\nb", "a", "a", "a\r\nb"]),
      ("key: é)", ["é)", "é", nil, "é)", "é)", "é)", "é)"]), ("key:", [nil, nil, nil, nil, nil, nil, nil]),
      ("key: \n\n", [nil, nil, nil, nil, nil, nil, nil]), ("nokey", [nil, nil, nil, nil, nil, nil, nil]),
      ("key: ab]cd ef", ["ab]cd ef", "ab]cd ef", nil, "ab]cd ef", "ab]cd ef", "ab]cd ef", "ab]cd ef"]),
      ("key: x\u{301}", ["x\u{301}", "x\u{301}", nil, "x\u{301}", "x\u{301}", "x\u{301}", "x\u{301}"]),
      // A non-ASCII terminator ends nothing.
      ("x key: K\u{212A}]", ["K\u{212A}]", "K\u{212A}]", nil, "K\u{212A}]", "K\u{212A}]", "K\u{212A}]", "K\u{212A}]"]),
      (
        "key: tail ends here  ",
        [
          "tail ends here", "tail ends here", nil, "tail ends here", "tail ends here", "tail ends here",
          "tail ends here",
        ]
      ),
      ("é key: plain\nmore", ["plain", "plain", nil, "plain\nmore", "plain", "plain\nmore", "plain\nmore"]),
    ] as [(String, [String?])])
  func textFollowing(text: String, expected: [String?]) {
    for (terminators, value) in zip(Self.terminatorSets, expected) {
      #expect(text.textFollowing("key:", upTo: terminators) == value, "\(terminators)")
    }
  }

  @Test(
    "A memory map line without its \"--->\" arrows",
    arguments: [
      ("", ""), ("--->", ""), ("---->", "-"), ("------->", "----"), ("--->--->", ""), ("a ---> b", "a  b"),
      ("  ---> 0x1 [ 16K] r--/rwx", "   0x1 [ 16K] r--/rwx"), ("-->", "-->"), ("--- >", "--- >"),
      ("---\u{301}>", "---\u{301}>"), ("--->\u{301}", "--->\u{301}"), ("é ---> x", "é  x"),
      ("\r\n---> x", "\r\n x"), ("x--->y--->z", "xyz"), ("-->--->->", "-->->"),
    ])
  func arrows(text: String, expected: String) {
    #expect(MemoryFault.removingArrows(("[" + text + "]").dropFirst().dropLast()) == expected)
  }

  @Test(
    "The memory map's line with the arrow: the first line that holds one, whole",
    arguments: [
      ("0x8 is not in any region.\n--->  \n      __TEXT 1043c4000", "--->  "),
      ("a\n  __DATA 1 ---> 2 [ 16K]\nb ---> c", "  __DATA 1 ---> 2 [ 16K]"), ("---> only", "---> only"),
      ("no arrow\n-->", nil), ("", nil), ("x\r\n---> y\r\nz", "---> y\r"), ("é\n--->é", "--->é"),
      ("a\n\n--->", "--->"), ("--->\u{301}\n--->", "--->"),
    ] as [(String, String?)])
  func arrowLine(text: String, expected: String?) {
    #expect(MemoryFault.firstArrowLine(in: text).map(String.init) == expected)
  }

  @Test(
    "The first line after leading line feeds",
    arguments: [
      ("", nil), ("\n", nil), ("\n\n", nil), ("abc", "abc"), ("\n\nabc\ndef", "abc"),
      ("0x8 is not in any region.\n---> x", "0x8 is not in any region."), ("ab\n\u{301}", "ab"), ("  \n x", "  "),
      // A carriage return before a line feed stays on the line (and is trimmed from the headline).
      ("a\r\nb", "a\r"), ("\r\nab", "\r"), ("\n\u{301}ab\n", "\u{301}ab"), ("é\nx", "é"),
      ("ab\u{301}\nc", "ab\u{301}"),
    ] as [(String, String?)])
  func firstLine(text: String, expected: String?) {
    #expect(MemoryFault.firstLine(text).map(String.init) == expected)
  }

  @Test(
    "The rarest-byte search finds the first occurrence of each needle",
    arguments: [
      (
        "_swift_task_isCurrentExecutorImpl\0_dispatch_assert_queue_fail\0swift_job_run\0",
        [0, 62, nil, nil, nil, nil, 51, 22, 34, nil]
      ),
      ("aaaaab\0abab\0zzzz_z_\0", [16, nil, 4, 5, 15, nil, nil, nil, nil, 3]),
      ("--->-->\0->--->\0", [nil, nil, nil, nil, nil, 0, nil, nil, nil, nil]),
      ("x", [nil, nil, nil, nil, nil, nil, nil, 0, nil, nil]),
    ] as [(String, [Int?])])
  func rarestByteSearch(haystack: String, expected: [Int?]) {
    let needles = ["_", "swift_job_run", "ab", "b\0", "z_", "--->", "q", "x", "_dispatch_assert", "aab"]
    for (needle, offset) in zip(needles, expected) {
      Array(haystack.utf8).withUnsafeBytes { hay in
        Array(needle.utf8).withUnsafeBytes { pattern in
          #expect(FrameSymbolText.firstIndex(of: pattern, in: hay) == offset, "\(needle.debugDescription)")
          #expect(ByteSearch.firstIndex(of: pattern, in: hay) == offset, "\(needle.debugDescription)")
        }
      }
    }
  }

  @Test(
    "Every frame whose symbol contains a marker",
    arguments: [
      ("_b", [0, 2]), ("b", [0, 2, 5]), ("q", [4, 5]), ("_", [0, 2, 4]), ("x", [2, 6]), ("zz", []),
      ("-[NSAssertionHandler handleFailureInMethod:", [6]),
      // Markers that are not ASCII or hold a NUL are left to the frame-by-frame scan.
      ("é", nil), ("b\0", nil),
    ] as [(String, [Int]?)])
  func allFrames(needle: String, expected: [Int]?) throws {
    let texts: [String?] = ["a_b", nil, "xx_b_b", "", "q_", "bq", "-[NSAssertionHandler handleFailureInMethod:x]"]
    let text = try #require(FrameSymbolText(texts: texts))
    #expect(text.frames(containing: needle) == expected)
  }

  @Test("A backtrace's symbol text answers as the same symbols given as texts")
  func framesAgreeWithTexts() throws {
    let long = String(repeating: "specialized closure #1 in Module.Type.method(_:) ", count: 6)
    let symbols: [String?] = [nil, "a_b", "", nil, "xx_b_b", long, "café_b", "q_", nil]
    let frames = symbols.map { Frame(imageIndex: 0, imageOffset: 16, symbol: $0) }
    let fromFrames = try #require(FrameSymbolText(frames))
    let fromTexts = try #require(FrameSymbolText(texts: symbols))
    for needle in ["_b", "b", "q", "_", "x", "zz", "Module.Type", "method(_:) spec", "é", "b\0", ""] {
      #expect(fromFrames.frames(containing: needle) == fromTexts.frames(containing: needle), "\(needle)")
      #expect(fromFrames.firstFrame(containing: needle) == fromTexts.firstFrame(containing: needle), "\(needle)")
      for limit in [0, 2, 5, 9] {
        #expect(
          fromFrames.firstFrame(containing: needle, before: limit)
            == fromTexts.firstFrame(containing: needle, before: limit), "\(needle) before \(limit)")
      }
    }
    #expect(fromFrames.frames(containing: "_b") == [1, 4, 6])
    // A symbol holding a NUL makes no text, wherever it is; frames without symbols make an empty one.
    #expect(FrameSymbolText([Frame(symbol: "a"), Frame(symbol: "b\0c")]) == nil)
    #expect(FrameSymbolText([Frame(symbol: "a\0"), Frame(symbol: "b")]) == nil)
    let empty = try #require(FrameSymbolText([Frame(), Frame()]))
    #expect(empty.firstFrame(containing: "a") == .absent)
    #expect(try #require(FrameSymbolText([])).contains("a") == false)
  }

  @Test("The possibly mangled symbols of a backtrace include every mangled one, and few others")
  func possiblyMangledSymbols() throws {
    let symbols: [String?] = [
      "$s4main3FooV3baryyF", nil, "_$s4main3FooV3baryyF", "$S4main3FooV", "$e4main3FooV", "_T0abc",
      "_T0\u{301}x", "__pthread_kill", "_dispatch_main", "$", "_", "", "main", "$x", "_T",
      "-[UIApplication _run]", "specialized $s4main", "_$", "$s",
    ]
    let frames = symbols.map { Frame(imageIndex: 0, imageOffset: 16, symbol: $0) }
    let text = try #require(FrameSymbolText(frames))
    var visited: [Int] = []
    text.forEachPossiblyMangledSymbol { visited.append($0) }
    let mangled = symbols.indices.filter { symbols[$0].map(SwiftDemangler.isMangled) ?? false }
    #expect(mangled == [0, 2, 3, 4, 5, 18])
    #expect(Set(mangled).isSubset(of: visited))
    #expect(visited == visited.sorted())
    // Beyond the mangled ones, only symbols that start like one: "_T0" and a combining mark,
    // "_T" alone and "_$" alone.
    #expect(Set(visited).subtracting(mangled) == [6, 14, 17])

    // The context's demangled names are those of every mangled symbol of its backtraces.
    var report = CrashReport(format: .json)
    report.threads = [CrashThread(index: 0, frames: frames)]
    report.faultingThread = 0
    let context = DiagnosisContext(report: report)
    for index in frames.indices {
      let expected = symbols[index].flatMap { SwiftDemangler.isMangled($0) ? $0 : nil }
      #expect((context.demangledSymbols[symbols[index] ?? ""] != nil) == (expected != nil), "\(index)")
    }
  }
}
