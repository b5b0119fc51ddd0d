import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorSupport

/// The small text helpers of the core, input → expected: ASCII, combining marks, carriage returns
/// and wide characters.
@Suite("Text helpers")
struct TextHelperTests {
  @Test(
    "trimmingWhitespace drops spaces, tabs, CRs and LFs that are Characters of their own",
    arguments: [
      ("", ""), (" ", ""), ("\t\n ", ""), ("abc", "abc"), ("  abc  ", "abc"), ("\tabc\n", "abc"), ("a b", "a b"),
      // A combining mark joins the space before it: " \u{301}" is not whitespace.
      (" \u{301}x ", " \u{301}x"), ("x \u{301}", "x \u{301}"),
      // A CR LF pair is one Character, which is neither "\r" nor "\n": it stays.
      ("\r\nabc\r\n", "\r\nabc\r\n"), ("abc\r\n", "abc\r\n"), ("\rabc\r", "abc"),
      ("é", "é"), ("  é  ", "é"), (" aé ", "aé"), (" éa ", "éa"), ("\n\n", ""), ("\r", ""), (" \r ", ""),
      ("x\u{301} ", "x\u{301}"), (" \u{1F1FA}\u{1F1F8} ", "\u{1F1FA}\u{1F1F8}"),
      // After a line feed a combining mark stands alone (a Character that is not whitespace).
      ("a\n\u{301}", "a\n\u{301}"),
      // U+0600 is a prepended scalar: it joins the letter after it.
      ("\u{0600}a ", "\u{0600}a"),
    ])
  func trimming(text: String, expected: String) {
    #expect(text.trimmingWhitespace() == expected)
    // A slice of a longer string trims the same.
    #expect(("[" + text + "]").dropFirst().dropLast().trimmingWhitespace() == expected)
  }

  @Test(
    "parseUInt64 reads a decimal or 0x number between whitespace",
    arguments: [
      ("", nil), (" ", nil), ("0", 0), ("12", 12), (" 12 ", 12), ("\t0x1F\n", 31), ("0X1f", 31), ("0x", nil),
      ("0x ", nil), ("0xg", nil), ("+5", 5), ("-0", 0), ("0x+5", 5), ("1 2", nil), ("1\u{301}", nil),
      ("18446744073709551615", .max), ("18446744073709551616", nil), ("0xffffffffffffffff", .max),
      ("0x1ffffffffffffffff", nil), ("0x0000000000000000000001", 1), ("\r\n12\r\n", nil), ("12\r", 12),
      ("é12", nil), ("0x8badf00d", 0x8bad_f00d), (" 0x8badf00d,", nil), ("00x1", nil), ("1e3", nil),
    ] as [(String, UInt64?)])
  func numbers(text: String, expected: UInt64?) {
    #expect(String.parseUInt64(text) == expected)
    #expect(String.parseUInt64(("[" + text + "]").dropFirst().dropLast()) == expected)
  }

  @Test(
    "leadingHexNumber reads the hexadecimal digits a text starts with",
    arguments: [
      ("8badf00d", 0x8bad_f00d), ("badf00d", 0xbad_f00d), ("0000000000000000001", 1),
      ("ffffffffffffffff", .max), ("fffffffffffffff", 0x0fff_ffff_ffff_ffff),
      // Seventeen digits do not fit; sixteen zeros do.
      ("10000000000000000", nil), ("0000000000000000", 0), ("", nil), ("g", nil), ("1f rest", 0x1f),
      ("f rest", 0xf),
      // "f\u{301}" is one Character and not a hexadecimal digit.
      ("1f\u{301}", 1), ("f\u{301}", nil),
      // A fullwidth digit is a hexadecimal-digit Character, but not a digit of a UInt64.
      ("abc\u{FF11}", nil), ("bc\u{FF11}", nil), ("\u{FF11}", nil),
      ("dead10cc, code", 0xdead_10cc), ("ead10cc, code", 0xead_10cc), ("DEADBEEF)", 0xdead_beef),
      ("EADBEEF)", 0xead_beef), ("12\r\n", 0x12), ("2\r\n", 2), ("7é", 7), ("é", nil),
    ] as [(String, UInt64?)])
  func leadingHexNumber(text: String, expected: UInt64?) {
    #expect(Substring(text).leadingHexNumber() == expected)
    #expect(("x" + text).dropFirst().leadingHexNumber() == expected)
  }

  @Test(
    "Exception codes are the numbers between commas, nil for a part that is not one",
    arguments: [
      ("0x0000000000000001, 0x0000000000000000", [1, 0]), ("KERN_INVALID_ADDRESS at 0x8", [nil]),
      (",,0x1,,2,", [1, 2]), ("", []), (" 12 , -3, +4", [12, nil, 4]), ("0x", [nil]),
      ("0xffffffffffffffff, 0x10000000000000000", [.max, nil]), ("\u{FF11}\u{FF12}, 0x1", [nil, 1]),
      ("0x1\r\n, 2", [nil, 2]), ("0x1,,0x2", [1, 2]), (",0x8badf00d,", [0x8bad_f00d]), (" 12 , 0x1F ", [12, 31]),
      // Every comma separates, also one a combining mark follows.
      ("0x1,\u{301}0x2", [1, nil]), ("0x1\r\n,0x2", [nil, 2]), ("0xé,0x3", [nil, 3]),
    ] as [(String, [UInt64?])])
  func codes(text: String, expected: [UInt64?]) {
    #expect(DiagnosisContext.parseCodes(text) == expected)
  }

  @Test(
    "A signature's reason masks addresses, numbers and UUIDs in its first 300 characters",
    arguments: [
      ("", ""),
      ("Fatal error: Index out of range at 0x1f40 (12 items)", "Fatal error: Index out of range at 0x… (# items)"),
      // Only a UUID that starts with a letter is one: a leading digit starts a number first.
      ("id D9139CF1-6D62-4386-8076-B7A3F2B4F116.", "id <uuid>."),
      ("uuid 0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9 end", "uuid #A#B#C#D-#E#F-#-#-A#B#C#D#E#F# end"),
      ("v1.2.3 and 0x", "v# and 0x…"), ("0xZZ", "0x…ZZ"), ("0X1F", "#X#F"), ("code \u{663}\u{660}", "code #"),
      (String(repeating: "x", count: 299) + "e\u{301}", String(repeating: "x", count: 299) + "e\u{301}"),
      // The 300th Character is "x\u{301}".
      (String(repeating: "x", count: 300) + "\u{301}", String(repeating: "x", count: 299) + "x\u{301}"),
      (String(repeating: "ab0x1f 42.5 ", count: 30), String(repeating: "ab0x… # ", count: 25)),
      (String(repeating: "ab0x1f 42.5 ", count: 30) + "é", String(repeating: "ab0x… # ", count: 25)),
      ("line\r\n12", "line\r\n#"), ("ünïcode 12", "ünïcode #"),
      // Full-width hexadecimal digits belong to an address; a mark after a number is kept.
      ("at 0x\u{FF11}\u{FF41}z", "at 0x…z"), ("n 7\u{301}", "n #\u{301}"), ("# \u{4E09}", "# #"),
    ])
  func normalise(text: String, expected: String) {
    #expect(CrashSignature.normalise(text) == expected)
  }

  @Test("withBorrowedUTF8 reads the bytes withUTF8 reads, and runs its body once")
  func borrowedUTF8IsWithUTF8() {
    let texts = [
      "", "\n", "a\nb", "line\r\nnext\nlast", "é\ncafe\u{301}\n", String(repeating: "symbol ", count: 20), "short",
      "caf\u{E9} \u{1F600}", String("prefix: the rest of a longer line".dropFirst(8)),
    ]
    for text in texts {
      var copy = text
      let expected = copy.withUTF8 { Array($0) }
      #expect(text.withBorrowedUTF8 { Array($0) } == expected, "\(text)")
      // A body whose own answer is `nil` runs once and answers `nil`: the fast path's `nil` (no
      // contiguous UTF-8) must not be confused with it.
      var calls = 0
      let answer: Int? = text.withBorrowedUTF8 { _ in
        calls += 1
        return nil
      }
      #expect(answer == nil && calls == 1, "\(text)")
    }
  }

  @Test(
    "concatenating joins up to four texts",
    arguments: [
      (["", "", "", ""], ""), (["a", "", "", ""], "a"),
      (["iPhone OS 26.6", " (", "23G80", ")"], "iPhone OS 26.6 (23G80)"),
      // A combining mark at the start of a part joins the end of the part before it.
      (["e", "\u{301}", "", ""], "e\u{301}"),
      (["ChatApp — “beta”", "é\u{301}", " (", ")"], "ChatApp — “beta”é\u{301} ()"),
      (
        [String(repeating: "x", count: 40), "é", String(repeating: "y", count: 17), ""],
        String(repeating: "x", count: 40) + "é" + String(repeating: "y", count: 17)
      ),
    ])
  func concatenating(parts: [String], expected: String) {
    let joined = String.concatenating(parts[0], parts[1], parts[2], parts[3])
    #expect(joined == expected)
    #expect(Array(joined.utf8) == Array(expected.utf8))
  }

  @Test("The hexadecimal digit bytes are 0-9, a-f and A-F, and no other of the 256")
  func hexDigitBytes() {
    let digits = (0...255).map(UInt8.init).filter(\.isASCIIHexDigit)
    #expect(String(decoding: digits, as: UTF8.self) == "0123456789ABCDEFabcdef")
  }

  @Test(
    "A range of bytes starts and ends with a literal's bytes",
    arguments: [
      // text, range in it, literal, has it as prefix, as suffix
      ("Thread 0 Crashed:", 0..<17, "Thread ", true, false), ("Thread 0 Crashed:", 8..<17, " Crashed:", true, true),
      ("Thread 0 Crashed:", 7..<17, " Crashed:", false, true), ("Thread 0 Crashed:", 0..<6, "Thread ", false, false),
      ("ab", 0..<2, "ab", true, true), ("ab", 1..<1, "", true, true), ("abc", 1..<2, "b", true, true),
      ("ab", 0..<1, "ab", false, false), ("é)", 0..<3, ")", false, true), ("é)", 0..<3, "é", true, false),
    ] as [(String, Range<Int>, StaticString, Bool, Bool)])
  func bytePrefixAndSuffix(text: String, range: Range<Int>, literal: StaticString, prefix: Bool, suffix: Bool) {
    Array(text.utf8).withUnsafeBufferPointer { bytes in
      #expect(bytes.hasPrefix(literal, in: range) == prefix)
      #expect(bytes.hasSuffix(literal, in: range) == suffix)
    }
  }
}
