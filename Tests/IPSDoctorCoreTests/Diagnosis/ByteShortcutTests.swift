import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The byte-level shortcuts of the diagnosis engine must answer exactly what the character-level
/// code they replace answers.
@Suite("Diagnosis byte shortcuts")
struct ByteShortcutTests {
  @Test("isMangled answers String.hasPrefix for _T0, combining marks included")
  func legacyPrefix() {
    for symbol in ["_T0", "_T07ChatApp", "_T0\u{301}x", "_T0é", "_T", "_t0x", "x_T0", ""] {
      let expected =
        symbol.hasPrefix("_T0") || symbol.hasPrefix("$s") || symbol.hasPrefix("_$s")
      #expect(SwiftDemangler.isMangled(symbol) == expected, "\(symbol.debugDescription)")
    }
    #expect(!SwiftDemangler.isMangled("_T0\u{301}x"))
  }

  @Test("textFollowing answers what the Character-wise scan answers")
  func textFollowing() {
    let texts = [
      "Library not loaded: @rpath/A.framework/A\n  Referenced from: x", "key: value ) rest",
      "key:  spaced\t \n", "key:)\u{301} tail)", "key: a\r\nb", "key: é)", "key:", "key: \n\n", "nokey",
      "key: ab]cd ef", "key: x\u{301}", "x key: K\u{212A}]", "key: tail ends here  ", "é key: plain\nmore",
    ]
    let sets: [Set<Character>] = [["\n"], ["\n", ")"], ["]", " "], ["\u{212A}"], ["\r\n"], ["\r"], []]
    for text in texts {
      for terminators in sets {
        var expected: String? = nil
        if let range = text.firstRange(of: "key:") {
          let value = text[range.upperBound...].prefix(while: { !terminators.contains($0) }).trimmingWhitespace()
          expected = value.isEmpty ? nil : value
        }
        #expect(text.textFollowing("key:", upTo: terminators) == expected, "\(text.debugDescription) \(terminators)")
      }
    }
  }

  @Test("trimmingWhitespace answers what the Character-wise trim answers")
  func trimming() {
    let samples = [
      "", " ", "\t\n ", "abc", "  abc  ", "\tabc\n", "a b", " \u{301}x ", "x \u{301}", "\r\nabc\r\n",
      "abc\r\n", "\rabc\r", "é", "  é  ", " aé ", " éa ", "\n\n", "\r", " \r ", "x\u{301} ", " \u{1F1FA}\u{1F1F8} ",
      "a\n\u{301}", "\u{0600}a ",
    ]
    for text in samples {
      #expect(text.trimmingWhitespace() == text.characterTrimmedWhitespace(), "\(text.debugDescription)")
      let sub = ("[" + text + "]").dropFirst().dropLast()
      #expect(sub.trimmingWhitespace() == sub.characterTrimmedWhitespace(), "\(text.debugDescription)")
    }
  }

  @Test("removingArrows answers what replacing(\"--->\", with: \"\") answers")
  func arrows() {
    let samples = [
      "", "--->", "---->", "------->", "--->--->", "a ---> b", "  ---> 0x1 [ 16K] r--/rwx", "-->", "--- >",
      "---\u{301}>", "--->\u{301}", "é ---> x", "\r\n---> x", "x--->y--->z", "-->--->->",
    ]
    for text in samples {
      let line = ("[" + text + "]").dropFirst().dropLast()
      #expect(MemoryFault.removingArrows(line) == String(line.replacing("--->", with: "")), "\(text.debugDescription)")
    }
  }

  @Test("parseUInt64 answers what the Character-wise parse answers")
  func numbers() {
    let samples = [
      "", " ", "0", "12", " 12 ", "\t0x1F\n", "0X1f", "0x", "0x ", "0xg", "+5", "-0", "0x+5", "1 2", "1\u{301}",
      "18446744073709551615", "18446744073709551616", "0xffffffffffffffff", "0x1ffffffffffffffff",
      "0x0000000000000000000001", "\r\n12\r\n", "12\r", "é12", "0x8badf00d", " 0x8badf00d,", "00x1", "1e3",
    ]
    for text in samples {
      #expect(String.parseUInt64(text) == String.characterParseUInt64(text), "\(text.debugDescription)")
      let sub = ("[" + text + "]").dropFirst().dropLast()
      #expect(String.parseUInt64(sub) == String.characterParseUInt64(sub), "\(text.debugDescription)")
    }
  }

  @Test("asciiFirstLine answers what the Character-wise drop and prefix answer")
  func firstLine() {
    let samples = [
      "", "\n", "\n\n", "abc", "\n\nabc\ndef", "0x8 is not in any region.\n---> x", "a\r\nb", "\r\nab",
      "\n\u{301}ab\n", "é\nx", "ab\n\u{301}", "  \n x", "ab\u{301}\nc",
    ]
    for text in samples {
      let expected = String(text.drop(while: { $0 == "\n" }).prefix(while: { $0 != "\n" }))
      if let line = MemoryFault.asciiFirstLine(text) { #expect(line == expected, "\(text.debugDescription)") }
    }
    #expect(MemoryFault.asciiFirstLine("\n\nabc\ndef") == "abc")
    #expect(MemoryFault.asciiFirstLine("a\r\nb") == nil)
  }

  @Test("Exception codes split at commas as String.split does")
  func codes() {
    let samples = [
      "0x0000000000000001, 0x0000000000000000", "0x1,,0x2", ",0x8badf00d,", "", " 12 , 0x1F ",
      "KERN_INVALID_ADDRESS at 0x0", "0x1,\u{301}0x2", "0x1\r\n,0x2", "0xé,0x3",
    ]
    for text in samples {
      let expected = text.split(separator: ",").map { String.parseUInt64($0) }
      #expect(DiagnosisContext.parseCodes(text) == expected, "\(text.debugDescription)")
    }
  }

  @Test("The rarest-byte search finds the first occurrence, as the first-byte search does")
  func rarestByteSearch() {
    let haystacks = [
      "_swift_task_isCurrentExecutorImpl\0_dispatch_assert_queue_fail\0swift_job_run\0",
      "aaaaab\0abab\0zzzz_z_\0", "--->-->\0->--->\0", "x",
    ]
    let needles = ["_", "swift_job_run", "ab", "b\0", "z_", "--->", "q", "x", "_dispatch_assert", "aab"]
    for haystack in haystacks {
      for needle in needles {
        let found = Array(haystack.utf8).withUnsafeBytes { hay in
          Array(needle.utf8).withUnsafeBytes { pattern in
            (
              FrameSymbolText.firstIndex(of: pattern, in: hay),
              ByteSearch.firstIndex(of: pattern, in: hay)
            )
          }
        }
        #expect(found.0 == found.1, "\(needle.debugDescription) in \(haystack.debugDescription)")
      }
    }
  }

  @Test("Every frame containing a marker, as utf8Contains answers frame by frame")
  func allFrames() throws {
    let texts: [String?] = ["a_b", nil, "xx_b_b", "", "q_", "bq", "-[NSAssertionHandler handleFailureInMethod:x]"]
    let text = try #require(FrameSymbolText(texts: texts))
    for needle in ["_b", "b", "q", "_", "x", "zz", "-[NSAssertionHandler handleFailureInMethod:"] {
      let expected = texts.indices.filter { texts[$0]?.utf8Contains(needle) ?? false }
      #expect(text.frames(containing: needle) == expected, "\(needle.debugDescription)")
    }
    // Non-ASCII and NUL-holding needles are left to the frame-by-frame scan.
    #expect(text.frames(containing: "é") == nil)
    #expect(text.frames(containing: "b\0") == nil)
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
