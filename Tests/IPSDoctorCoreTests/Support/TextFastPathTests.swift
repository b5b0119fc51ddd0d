import Testing

@testable import IPSDoctorDiagnosis

/// The byte-level fast paths must answer exactly as the `Character`-level code they shortcut.
struct TextFastPathTests {
  static let texts = [
    "", "\n", "a\nb", "\n\nfirst\nsecond\n", "line\r\nnext\nlast", "é\ncafe\u{301}\n", "no newline",
    "  indented\n    more\n",
  ]

  @Test func replacingLineFeedsAgreesWithReplacing() {
    for text in Self.texts {
      for replacement in ["\n  ", "", "\\n"] {
        #expect(text.replacingLineFeeds(with: replacement) == text.replacing("\n", with: replacement), "\(text)")
      }
    }
  }

  @Test func normaliseASCIIAgreesWithCharacters() {
    let long = String(repeating: "ab0x1f 42.5 ", count: 30)
    let texts = [
      "", "Fatal error: Index out of range at 0x1f40 (12 items)", "uuid 0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9 end",
      "v1.2.3 and 0x", "0xZZ", String(repeating: "x", count: 299) + "e\u{301}",
      String(repeating: "x", count: 300) + "\u{301}",
      long, long + "é", "line\r\n12", "ünïcode 12",
    ]
    #expect(CrashSignature.normaliseASCII(long) != nil)
    for text in texts {
      #expect(CrashSignature.normalise(text) == CrashSignature.normaliseCharacters(text), "\(text)")
    }
  }

  @Test func borrowedUTF8IsWithUTF8() {
    let texts =
      Self.texts + [
        String(repeating: "symbol ", count: 20), "short", "caf\u{E9} \u{1F600}",
        String("prefix: the rest of a longer line".dropFirst(8)),
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

  @Test func concatenatingIsPlus() {
    let parts = [
      "", "a", "iPhone OS 26.6", " (", "23G80", ")", "é\u{301}", "ChatApp — “beta”", String(repeating: "x", count: 40),
    ]
    for a in parts {
      for b in parts {
        for (c, d) in [("", ""), (" (", ")"), ("é", String(repeating: "y", count: 17))] {
          let joined = String.concatenating(a, b, c, d)
          #expect(joined == a + b + c + d)
          #expect(Array(joined.utf8) == Array((a + b + c + d).utf8))
        }
      }
    }
  }
}
