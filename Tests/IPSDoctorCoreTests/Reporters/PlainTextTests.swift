import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorOutput

/// `PlainText.inline` and `wrap` take a byte path for ASCII text; it must give what the
/// grapheme-cluster path gives. Replacing every "x" with "é" (one character, two bytes) sends the
/// same text down the other path, so mapping "é" back must give the ASCII result.
@Suite struct PlainTextTests {
  static let samples = [
    "Use **bold**, __strong__ and [a](a) or [the docs](https://example.com/x) with `**kept** [x](y)`.",
    "[unclosed and ](late) text ] ( ) [x](",
    "a*b_c **x __y `z` ** end",
    "xxxx xxxxxxx xx xxxxxxxxxxxxxxxxxxxxxxxx x xxx\nxx\txxx   xxxxx",
    "",
    "   ",
    "\u{1B}[31mred\u{1B}[0m and a tab\there",
  ]

  @Test(arguments: samples)
  func inlineMatchesTheCharacterPath(text: String) {
    let ascii = PlainText.inline(text)
    let general = PlainText.inline(text.replacing("x", with: "é"))
    #expect(general.replacing("é", with: "x") == ascii)
  }

  @Test(arguments: samples)
  func wrapMatchesTheCharacterPath(text: String) {
    for width in [1, 8, 20, 80] {
      for hanging in [nil, "  - "] as [String?] {
        let ascii = PlainText.wrap(text, width: width, indent: "    ", hanging: hanging)
        let general = PlainText.wrap(
          text.replacing("x", with: "é"), width: width, indent: "    ", hanging: hanging)
        #expect(general.map { $0.replacing("é", with: "x") } == ascii)
      }
    }
  }

  @Test func inlineRendersLinksAndEmphasis() {
    #expect(
      PlainText.inline("See **this** and [the guide](https://a.b/c), [https://a.b](https://a.b) `__x__`")
        == "See this and the guide (https://a.b/c), https://a.b `__x__`")
  }

  @Test func wrapKeepsWordsWhole() {
    #expect(PlainText.wrap("aaa bbb ccc", width: 7, indent: "  ") == ["  aaa", "  bbb", "  ccc"])
    #expect(PlainText.wrap("", width: 7, indent: "  ", hanging: "- ") == ["- "])
  }
}
