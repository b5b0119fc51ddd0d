import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// `JSONWriter.quoted`: text → the exact JSON string literal, and back through our parser.
@Suite("JSON writer: quoting")
struct JSONWriterQuotingTests {

  @Test(
    "Quotes, backslashes, and controls take their short escape or \\u and four lowercase hex digits",
    arguments: [
      ("", #""""#), ("a", #""a""#), ("\"", #""\"""#), ("\\", #""\\""#), ("/", #""/""#),
      ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#), ("\r\n", #""\r\n""#),
      ("\u{0}", #""\u0000""#), ("\u{8}", #""\u0008""#), ("\u{C}", #""\u000c""#), ("\u{1B}", #""\u001b""#),
      ("\u{1F}", #""\u001f""#), (" ", #"" ""#), ("~", #""~""#), ("\u{7F}", #""\u007f""#),
      ("\u{80}", #""\u0080""#), ("\u{85}", #""\u0085""#), ("\u{9F}", #""\u009f""#),
      ("quote \" backslash \\ tab \t end", #""quote \" backslash \\ tab \t end""#),
    ] as [(String, String)])
  func asciiAndControls(text: String, expected: String) {
    #expect(JSONWriter.quoted(text) == expected)
  }

  @Test(
    "Bidirectional controls and the line and paragraph separators are escaped; their neighbours are not",
    arguments: [
      ("\u{061C}", #""\u061c""#), ("\u{200E}", #""\u200e""#), ("\u{200F}", #""\u200f""#),
      ("\u{2028}", #""\u2028""#), ("\u{2029}", #""\u2029""#), ("\u{202A}", #""\u202a""#),
      ("\u{202E}", #""\u202e""#), ("\u{2066}", #""\u2066""#), ("\u{2069}", #""\u2069""#),
      ("bidi \u{202E}reversed\u{202C}", #""bidi \u202ereversed\u202c""#),
      (
        "\u{061B}\u{061D}\u{200D}\u{2010}\u{2027}\u{202F}\u{2065}\u{206A}",
        "\"\u{061B}\u{061D}\u{200D}\u{2010}\u{2027}\u{202F}\u{2065}\u{206A}\""
      ),
    ] as [(String, String)])
  func bidiAndSeparators(text: String, expected: String) {
    #expect(Array(JSONWriter.quoted(text).utf8) == Array(expected.utf8))
  }

  @Test(
    "Other non-ASCII text is written as it is, in the same UTF-8",
    arguments: [
      "\u{A0}", "\u{AD}", "é", "e\u{301}\u{302}", "Å", "ﬁ", "日本語", "한", "—“”‘’…✓", "\u{FEFF}", "\u{FFFD}",
      "😀", "🇺🇸", "👩‍👩‍👧", "\u{10FFFF}",
    ])
  func nonASCII(text: String) {
    #expect(Array(JSONWriter.quoted(text).utf8) == [0x22] + Array(text.utf8) + [0x22])
  }

  @Test(
    "The first # of every ##[ is written \\u0023, so no JSON line holds a workflow command",
    arguments: [
      ("##[", #""\u0023#[""#), ("a ##[error]b", #""a \u0023#[error]b""#), ("###[", "\"#\\u0023#[\""),
      ("##[x ##[", #""\u0023#[x \u0023#[""#), ("##[\n", #""\u0023#[\n""#), ("é##[", "\"é\\u0023#[\""),
      ("##", "\"##\""), ("#[", "\"#[\""), ("# #[", "\"# #[\""),
    ] as [(String, String)])
  func workflowCommandMarker(text: String, expected: String) {
    #expect(Array(JSONWriter.quoted(text).utf8) == Array(expected.utf8))
  }

  /// An escaped scalar at every position around the eight-byte runs the writer copies whole.
  @Test("An escape is placed where its scalar was, at any offset in a long text")
  func escapeAtEveryOffset() {
    for (scalar, escape) in [("\"", #"\""#), ("\u{1}", #"\u0001"#), ("\u{2028}", #"\u2028"#), ("é", "é")] {
      for offset in 0..<20 {
        let before = String(repeating: "a", count: offset)
        let after = String(repeating: "b", count: 19 - offset)
        let quoted = JSONWriter.quoted(before + scalar + after)
        #expect(Array(quoted.utf8) == Array(("\"" + before + escape + after + "\"").utf8), "\(offset)")
      }
    }
  }

  /// Reads `quoted` back with the project's JSON parser.
  static func parsed(_ quoted: String) -> String? {
    (try? JSONParser.parse(quoted))?.stringValue
  }

  /// Whether `quoted` holds a scalar the writer must escape, or `##[`, as it is.
  static func holdsUnescaped(_ quoted: String) -> Bool {
    quoted.contains("##[")
      || quoted.unicodeScalars.contains { scalar in
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80..<0xA0).contains(value)
          || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(value) || (0x202A...0x202E).contains(value)
          || (0x2066...0x2069).contains(value)
      }
  }

  @Test("Generated texts read back as the same UTF-8 and hold nothing unescaped")
  func generatedRoundTrip() {
    let pieces: [String] = [
      "a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "é", "e\u{301}",
      "—", "\u{2028}", "\u{202A}", "\u{2066}", "\u{061C}", "😀", "日", "0x1f", "-[NSNull length]", "#", "[", "##[",
      "plain ASCII, longer than a word",
    ]
    var generator = SeededGenerator(seed: 0x5EED)
    for _ in 0..<2_000 {
      var text = ""
      for _ in 0..<Int(generator.next() % 24) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
      let quoted = JSONWriter.quoted(text)
      #expect(Self.parsed(quoted).map { Array($0.utf8) } == Array(text.utf8), "\(text.debugDescription)")
      #expect(!Self.holdsUnescaped(quoted), "\(text.debugDescription)")
    }
  }

  @Test("Every rule's title, summary, remedy and rationale read back as written")
  func ruleTexts() {
    for rule in RuleCatalog.all {
      let description = rule.description
      for text in [description.remedy, description.rationale, description.summary, description.title] {
        let quoted = JSONWriter.quoted(text)
        #expect(Self.parsed(quoted).map { Array($0.utf8) } == Array(text.utf8), "\(description.id)")
        #expect(!Self.holdsUnescaped(quoted), "\(description.id)")
      }
    }
  }

  @Test("JSONWordBytes.unplain marks first the first byte that is not plain printable ASCII")
  func unplainBytesLowestMark() {
    // Bytes near every edge of the test, and random ones.
    let edges: [UInt8] = [
      0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x81, 0xA0, 0xFF,
    ]
    var generator = SeededGenerator(seed: 0x7F)
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<8 {
        let pick = generator.next()
        bytes.append(
          pick % 3 == 0
            ? UInt8(truncatingIfNeeded: pick >> 8) : (pick % 3 == 1 ? 0x61 : edges[Int(pick >> 8) % edges.count]))
      }
      let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
      let plain = { (byte: UInt8) in byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C }
      let expected = bytes.firstIndex(where: { !plain($0) })
      let marked = JSONWordBytes.unplain(word)
      #expect((marked == 0 ? nil : marked.trailingZeroBitCount >> 3) == expected, "\(bytes)")
    }
  }
}
