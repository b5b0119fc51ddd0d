import Testing

@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

/// Each text transform of the output layer, input → expected output: ASCII, the non-ASCII that
/// rule texts use, and what must not be taken for a marker (combining marks, CR LF, emoji).
/// Outputs are compared as bytes: `String` equality would accept a canonically equivalent text.
@Suite("Text transforms")
struct TextTransformTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
  static func bytes(_ lines: [String]) -> [[UInt8]] { lines.map(bytes) }

  @Test(
    "escaped makes controls, bidi controls and workflow markers visible",
    arguments: [
      ("plain text", "plain text"),
      ("a\tb", "a\\tb"),
      ("line\nnext", "line\\nnext"),
      ("cr\r", "cr\\r"),
      ("\u{1B}[31mred", "\\u{1B}[31mred"),
      ("del\u{7F}", "del\\u{7F}"),
      ("c1\u{85}", "c1\\u{85}"),
      ("\u{202E}evil", "\\u{202E}evil"),
      ("sep\u{2028}", "sep\\u{2028}"),
      ("\u{061C}", "\\u{61C}"),
      // Both sides of each range of C1, bidi and separator scalars.
      ("\u{80}|\u{9F}|\u{A0}", "\\u{80}|\\u{9F}|\u{A0}"),
      ("\u{061B}\u{061C}\u{061D}", "\u{061B}\\u{61C}\u{061D}"),
      ("\u{200D}\u{200E}\u{200F}\u{2010}", "\u{200D}\\u{200E}\\u{200F}\u{2010}"),
      ("\u{2027}\u{2028}\u{2029}\u{202A}\u{202E}\u{202F}", "\u{2027}\\u{2028}\\u{2029}\\u{202A}\\u{202E}\u{202F}"),
      ("\u{2065}\u{2066}\u{2069}\u{206A}", "\u{2065}\\u{2066}\\u{2069}\u{206A}"),
      ("::error::x", "\\u{3A}:error::x"),
      ("  :x", "  \\u{3A}x"),
      ("a ::b", "a \\u{3A}:b"),
      ("a::b", "a::b"),
      ("##[group]", "\\u{23}#[group]"),
      ("ends ##", "ends \\u{23}#"),
      ("#[x", "\\u{23}[x"),
      ("# heading", "# heading"),
      ("é — “ok” → ≠", "é — “ok” → ≠"),
      ("cafe\u{301} 😀", "cafe\u{301} 😀"),
    ])
  func escaped(input: String, expected: String) {
    #expect(Self.bytes(TerminalText.escaped(input)) == Self.bytes(expected))
  }

  @Test(
    "isSimple: every character one scalar that joins no neighbour",
    arguments: [
      ("", true), ("ascii text", true), ("Fix it — don’t retain “self” → ≠ ×", true), ("Øre naïve ǅ", true),
      ("a\r\nb", false), ("a\rb", false), ("e\u{301}", false), ("👩\u{200D}💻", false), ("soft\u{AD}hyphen", false),
      ("한", false), ("\u{2000}", false), ("€", false),
    ])
  func isSimple(input: String, expected: Bool) {
    #expect(PlainText.isSimple(input) == expected)
  }

  @Test(
    "columns: one a character",
    arguments: [
      ("", 0), ("abc", 3), ("— “x”", 5), ("e\u{301}", 1), ("👩\u{200D}💻", 1), ("a\r\nb", 3), ("한국", 2),
      ("\u{1B}[1m", 4),
    ])
  func columns(input: String, expected: Int) {
    #expect(PlainText.columns(of: input) == expected)
  }

  @Test(
    "lines(of:) cuts at every line feed that is a character of its own",
    arguments: [
      ("", [""]), ("a", ["a"]), ("a\n", ["a", ""]), ("\na", ["", "a"]), ("a\nb\n\nc", ["a", "b", "", "c"]),
      ("a\r\nb\nc", ["a\r\nb", "c"]), ("a\rb", ["a\rb"]), ("\r\n\n", ["\r\n", ""]), ("é\n\u{301}x", ["é", "\u{301}x"]),
      ("👩\u{200D}\n💻", ["👩\u{200D}", "💻"]),
    ])
  func lines(input: String, expected: [String]) {
    #expect(Self.bytes(PlainText.lines(of: input).map(String.init)) == Self.bytes(expected))
  }

  struct Wrap: Sendable, CustomTestStringConvertible {
    let text: String
    let width: Int
    let indent: String
    var hanging: String? = nil
    let expected: [String]
    var testDescription: String { "\(text.debugDescription) in \(width)" }
  }

  @Test(
    "wrap fills lines up to the width, one column a character",
    arguments: [
      Wrap(text: "one two three four", width: 9, indent: "  ", expected: ["  one two", "  three", "  four"]),
      Wrap(
        text: "alpha beta gamma", width: 12, indent: "    ", hanging: "  - ",
        expected: ["  - alpha", "    beta", "    gamma"]),
      Wrap(text: "supercalifragilistic x", width: 5, indent: "", expected: ["supercalifragilistic", "x"]),
      Wrap(text: "", width: 10, indent: "  ", expected: ["  "]),
      Wrap(text: "  \n\t ", width: 10, indent: "  ", hanging: "- ", expected: ["- "]),
      Wrap(text: "a\tb\nc  d", width: 80, indent: ">", expected: [">a b c d"]),
      Wrap(text: "a b", width: 0, indent: "", expected: ["a", "b"]),
      Wrap(text: "a — b — c", width: 5, indent: "", expected: ["a — b", "— c"]),
      Wrap(text: "e\u{301}e\u{301}e\u{301} abc", width: 7, indent: "", expected: ["e\u{301}e\u{301}e\u{301} abc"]),
      Wrap(text: "e\u{301}e\u{301}e\u{301} abc", width: 6, indent: "", expected: ["e\u{301}e\u{301}e\u{301}", "abc"]),
      Wrap(text: "👩\u{200D}💻 ok", width: 4, indent: "", expected: ["👩\u{200D}💻 ok"]),
      // CR LF and a space carrying a combining mark are characters of their own, not separators.
      Wrap(text: "a\r\nb c", width: 80, indent: "", expected: ["a\r\nb c"]),
      Wrap(text: "a \u{301}b c", width: 80, indent: "", expected: ["a \u{301}b c"]),
      Wrap(text: "x y", width: 4, indent: "  ", hanging: "é\u{301} ", expected: ["é\u{301} x", "  y"]),
    ])
  func wrap(_ wrap: Wrap) {
    let lines = PlainText.wrap(wrap.text, width: wrap.width, indent: wrap.indent, hanging: wrap.hanging)
    #expect(Self.bytes(lines) == Self.bytes(wrap.expected))
  }

  @Test(
    "inline removes emphasis and link syntax outside code, and escapes",
    arguments: [
      ("plain", "plain"),
      ("**bold** and __under__", "bold and under"),
      ("see [the guide](https://x.y/z).", "see the guide (https://x.y/z)."),
      ("[https://a.b](https://a.b)", "https://a.b"),
      ("`**kept**` but **not**", "`**kept**` but not"),
      ("`[a](b)` [a](b)", "`[a](b)` a (b)"),
      ("threads[0].frames[3]", "threads[0].frames[3]"),
      ("[a] (b)", "[a] (b)"),
      ("[x](", "[x]("),
      ("a*b_c", "a*b_c"),
      ("é **café** — “x”", "é café — “x”"),
      ("e\u{301} **x** [l](u)", "e\u{301} x l (u)"),
      // A star carrying a combining mark is another character: no `**` here.
      ("**\u{301}", "**\u{301}"),
      ("tab\there **x**", "tab\\there x"),
    ])
  func inline(input: String, expected: String) {
    #expect(Self.bytes(PlainText.inline(input)) == Self.bytes(expected))
  }

  @Test(
    "GitHub data: lines made visible, joined by %0A, every % encoded",
    arguments: [
      ("50% done", "50%25 done"),
      ("a\nb", "a%0Ab"),
      ("a\n\nb\n", "a%0A%0Ab%0A"),
      ("a\r\nb", "a\\r\\nb"),
      ("x\ry", "x\\ry"),
      ("::set-output name=x::y", "\\u{3A}:set-output name=x::y"),
      ("keep: a, b", "keep: a, b"),
      ("%\u{301} and \u{600}%", "%25\u{301} and \u{600}%25"),
    ])
  func gitHubData(input: String, expected: String) {
    #expect(Self.bytes(GitHubReporter.data(input)) == Self.bytes(expected))
  }

  @Test(
    "GitHub property: as data, and every : and , encoded",
    arguments: [
      ("file: a,b", "file%3A a%2Cb"),
      ("100%", "100%25"),
      ("a\nb:c", "a%0Ab%3Ac"),
      // The runner splits properties at the byte, whatever follows it.
      (",\u{20DD}title=x", "%2C\u{20DD}title=x"),
    ])
  func gitHubProperty(input: String, expected: String) {
    #expect(Self.bytes(GitHubReporter.property(input)) == Self.bytes(expected))
  }

  @Test(
    "GitHub first paragraph: its lines joined by spaces",
    arguments: [
      ("First line\nsame paragraph\n\nSecond", "First line same paragraph"),
      ("\n\nLeading blank\n\nnext", "Leading blank"),
      ("\nOne\n\n\nTwo", "One"),
      ("only", "only"),
      ("", ""),
      ("\n\n\n", ""),
      ("a\r\n\nb", "a\r\n b"),
      ("  indented\n  more\n", "  indented   more"),
    ])
  func firstParagraph(input: String, expected: String) {
    #expect(Self.bytes(GitHubReporter.firstParagraph(input)) == Self.bytes(expected))
  }

  @Test(
    "XML text and attributes: entities, visible controls, no noncharacters",
    arguments: [
      ("a<b & c>\nd", false, "a&lt;b &amp; c&gt;\nd"),
      ("a<b & c>\nd", true, "a&lt;b &amp; c&gt;\\nd"),
      ("say \"hi\" 'x'", true, "say &quot;hi&quot; &apos;x&apos;"),
      ("say \"hi\" 'x'", false, "say \"hi\" 'x'"),
      ("\u{FFFE}\u{FFFF}\u{FFFD}", false, "\\u{FFFE}\\u{FFFF}\u{FFFD}"),
      ("a\u{1B}b", false, "a\\u{1B}b"),
      ("a\r\nb", false, "a\\r\\nb"),
      ("<\u{338}", false, "&lt;\u{338}"),
    ])
  func xml(input: String, attribute: Bool, expected: String) {
    let escaped = attribute ? XML.attribute(input) : XML.text(input)
    #expect(Self.bytes(escaped) == Self.bytes(expected))
  }

  @Test(
    "Markdown escape: punctuation backslashed, entities, visible controls",
    arguments: [
      ("plain words", "plain words"),
      ("a*b_c [x](y)", "a\\*b\\_c \\[x\\](y)"),
      ("<t> & `c`", "&lt;t&gt; &amp; \\`c\\`"),
      ("#|~!\\", "\\#\\|\\~\\!\\\\"),
      // CommonMark reads code points: a backtick carrying a combining mark is still a backtick.
      ("`\u{301}", "\\`\u{301}"),
      ("new\nline", "new\\\\nline"),
    ])
  func markdownEscape(input: String, expected: String) {
    #expect(Self.bytes(MarkdownText.escape(input)) == Self.bytes(expected))
  }

  @Test(
    "Markdown code spans: a fence longer than any backtick run, padded where needed",
    arguments: [
      ("code", false, "`code`"),
      ("a`b", false, "``a`b``"),
      ("`x", false, "`` `x ``"),
      (" x ", false, "`  x  `"),
      ("a|b", true, "`a\\|b`"),
      ("a|b", false, "`a|b`"),
      ("", false, "``"),
      ("\u{1B}", false, "`\\u{1B}`"),
    ])
  func markdownCode(input: String, inTable: Bool, expected: String) {
    #expect(Self.bytes(MarkdownText.code(input, inTable: inTable)) == Self.bytes(expected))
  }
}
