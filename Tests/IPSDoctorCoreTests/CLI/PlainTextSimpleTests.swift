import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorOutput

/// `PlainText` works on UTF-8 bytes for text whose characters are single scalars (`isSimple`):
/// what that rests on, checked on rule texts and generated text. Input → output tables for each
/// transform are in `TextTransformTests`.
@Suite struct PlainTextSimpleTests {
  /// Words mixing ASCII, the scalars `isSimple` accepts, and ones it does not (combining marks,
  /// emoji with joiners and selectors, CR LF, Hangul, bidi controls, soft hyphen, U+2000/U+2001).
  static let pieces = [
    "crash", "`atos`", "**bold**", "__under__", "[guide](https://x.y/z)", "[a](a)", "[é](é)",
    "—", "’s", "“quoted”", "…", "→", "≠", "×", "café", "Øre", "ǅ", "naïve", "\u{00A0}", "·",
    "‼", "a\u{0301}", "e\u{0301}", "👩\u{200D}💻", "❤\u{FE0F}", "\r\n", "\r", "한", "\u{202E}x",
    "\u{00AD}", "\u{2000}", "\u{2001}", "[x](", "]", "(", ")", "*", "_", "**", "`", "\t", "\n",
    "averyveryverylongwordthatdoesnotfit", "\u{1B}[1m", "€", "ﬁ", "threads[0].frames[3]", "[a] (b)",
    "](", "*_", "_*",
  ]

  static func samples() -> [String] {
    var generator = SeededGenerator(seed: 0x5EED)
    var texts = pieces
    for rule in RuleCatalog.all {
      texts.append(rule.description.remedy)
      texts.append(rule.description.rationale)
    }
    for _ in 0..<3000 {
      let count = Int(generator.next() % 14)
      var text = ""
      for _ in 0..<count {
        text += pieces[Int(generator.next() % UInt64(pieces.count))]
        if generator.next() % 3 != 0 { text += " " }
      }
      texts.append(text)
    }
    return texts
  }

  /// The byte path returns text as it is unless it may hold markup; a lone `[`, as in the frame
  /// paths that summaries cite, is none.
  @Test func markupNeedsALinkMiddleOrADoubledMarker() {
    func markup(_ text: String) -> Bool {
      text.withBorrowedUTF8 { PlainText.hasInlineMarkup($0) }
    }
    for text in ["threads[0].frames[3]", "[a] (b)", "a*b_c", "*_*", "[x", "]", ""] {
      #expect(!markup(text), "\(text.debugDescription)")
    }
    for text in ["[a](b)", "x](", "**", "a __b", "end**"] {
      #expect(markup(text), "\(text.debugDescription)")
    }
  }

  @Test func linesMatchCharacterSplit() {
    var texts = Self.samples()
    texts += ["", "\n", "\n\n", "a\n", "\na", "a\r\nb\nc", "a\rb", "é\n\u{0301}x", "👩\u{200D}\n💻"]
    for text in texts {
      let plain = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(PlainText.lines(of: text).map(String.init) == plain, "\(text.debugDescription)")
    }
  }

  @Test func simpleTextIsOneScalarPerCharacter() {
    for text in Self.samples() where PlainText.isSimple(text) {
      #expect(text.count == text.unicodeScalars.count, "\(text.debugDescription)")
    }
    #expect(PlainText.isSimple("Fix it — don’t retain “self” → ≠ ×"))
    #expect(!PlainText.isSimple("e\u{0301}"))
    #expect(!PlainText.isSimple("a\r\nb"))
    #expect(!PlainText.isSimple("👩\u{200D}💻"))
  }
}
