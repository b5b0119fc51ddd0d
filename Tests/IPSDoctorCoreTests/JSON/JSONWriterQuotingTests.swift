import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// `JSONWriter.appendQuoted` copies runs of plain ASCII as they are; these tests hold it to the
/// scalar-at-a-time writer it replaced.
@Suite("JSON writer: quoting runs against one scalar at a time")
struct JSONWriterQuotingTests {
  static func byScalars(_ text: String) -> String {
    var output = ""
    JSONWriter.appendQuotedByScalars(text, to: &output)
    return output
  }

  static func byRuns(_ text: String) -> String {
    var output = "prefix "
    JSONWriter.appendQuoted(text, to: &output)
    return String(output.dropFirst(7))
  }

  @Test("Every scalar that is escaped, and its neighbours, alone and inside text")
  func specialScalars() {
    var values: [UInt32] = Array(0...0xFF) + [0x061B, 0x061C, 0x061D, 0x200D, 0x200E, 0x200F, 0x2010]
    values += Array(0x2027...0x202F) + Array(0x2065...0x206A) + [0xFEFF, 0xFFFD, 0x1F600, 0x10FFFF]
    for value in values {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let alone = String(Character(scalar))
      for text in [alone, "a" + alone, alone + "z", "ab" + alone + alone + "cd", "\\" + alone + "\""] {
        #expect(Self.byRuns(text) == Self.byScalars(text), "U+\(String(value, radix: 16))")
      }
    }
  }

  @Test("Whole texts: report-like, non-ASCII, combining marks, CR LF, emoji")
  func texts() {
    let texts = [
      "", "a", "plain ASCII text of some length, longer than a small string",
      #"/private/var/containers/Bundle/Application/6F1C/My App.app/My App"#,
      "quote \" backslash \\ tab \t newline \n cr \r crlf \r\n end",
      "Call must be made on main thread — “curly” ‘quotes’ … ✓",
      "e\u{301}\u{302} combining, Å, ﬁ ligature, 日本語, 🇺🇸 flag, 👩‍👩‍👧 family",
      "bidi \u{202E}reversed\u{202C} and \u{2028} separators \u{2029}",
      "\u{7F}\u{80}\u{9F}\u{A0}\u{AD} around the C1 block",
    ]
    for text in texts {
      #expect(Self.byRuns(text) == Self.byScalars(text), "\(text.debugDescription)")
    }
  }

  @Test("Generated texts over a mix of scalars")
  func generated() {
    let pieces: [String] = [
      "a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "é", "e\u{301}",
      "—", "\u{2028}", "\u{202A}", "\u{2066}", "\u{061C}", "😀", "日", "0x1f", "-[NSNull length]",
    ]
    var generator = SeededGenerator(seed: 0x5EED)
    for _ in 0..<4_000 {
      var text = ""
      for _ in 0..<Int(generator.next() % 24) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
      #expect(Self.byRuns(text) == Self.byScalars(text), "\(text.debugDescription)")
    }
  }

  @Test("Every rule's remedy and rationale")
  func ruleTexts() {
    for rule in RuleCatalog.all {
      let description = rule.description
      for text in [description.remedy, description.rationale, description.summary, description.title] {
        #expect(Self.byRuns(text) == Self.byScalars(text), "\(description.id)")
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
