import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

/// The CI formats' byte shortcuts (GitHub workflow commands, JUnit XML, Markdown) against the
/// `Character` and scalar code they stand in for, on generated text.
@Suite("CI format fast paths")
struct CIFormatFastPathTests {
  typealias Generator = ModelStringReuseTests.Generator

  /// The generated texts of the render tests, plus what these formats treat specially.
  static func texts() -> [String] {
    var generator = Generator(state: 2_026)
    let special: [String] = [
      "%", ":", ",", "&", "<", ">", "\"", "'", "\\", "`", "```", "*", "_", "|", "~", "!", "#", "\u{FFFE}", "\u{FFFF}",
      "\u{FFFD}", "\n", "\n\n", "\r\n", " ", "\t", "<\u{338}", "a", "\u{1FEF}", "`\u{301}", "\u{600}%", "%\u{301}",
      ",\u{20DD}", "\u{A0}", "\u{3000}", "—", "é",
    ]
    var result = RenderFastPathTests.texts()
    for round in 0..<3_000 {
      let length = round < 300 ? round % 20 : generator.next(80)
      result.append(
        (0..<length).map { _ in
          let pick = generator.next(10)
          if pick < 5 { return special[generator.next(special.count)] }
          if pick < 9 { return ["word", "a", " ", "\n"][generator.next(4)] }
          return RenderFastPathTests.pieces[generator.next(RenderFastPathTests.pieces.count)]
        }.joined())
    }
    return result
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test("GitHub data, property and first paragraph answer as the Character code")
  func gitHub() {
    for text in Self.texts() {
      let shown = TerminalText.escaped(text)
      #expect(Self.bytes(GitHubReporter.data(text)) == Self.bytes(GitHubReporter.dataByCharacters(text)), "\(shown)")
      #expect(
        Self.bytes(GitHubReporter.property(text)) == Self.bytes(GitHubReporter.propertyByCharacters(text)), "\(shown)")
      #expect(
        Self.bytes(GitHubReporter.firstParagraph(text))
          == Self.bytes(GitHubReporter.firstParagraphByCharacters(text)), "\(shown)")
    }
  }

  @Test("XML text and attributes answer as the scalar code")
  func xml() {
    for text in Self.texts() {
      let shown = TerminalText.escaped(text)
      for attribute in [false, true] {
        #expect(
          Self.bytes(XML.escape(text, attribute: attribute))
            == Self.bytes(XML.escapeScalars(text, attribute: attribute)), "\(shown)")
      }
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
      #expect(
        Self.bytes(XML.text(text)) == Self.bytes(XML.escapeScalars(lines.joined(separator: "\n"), attribute: false)),
        "\(shown)")
      #expect(
        Self.bytes(XML.attribute(text))
          == Self.bytes(XML.escapeScalars(TerminalText.escaped(text), attribute: true)), "\(shown)")
    }
  }

  @Test("Markdown escape answers as the scalar code")
  func markdown() {
    for text in Self.texts() {
      let shown = TerminalText.escaped(text)
      #expect(
        Self.bytes(MarkdownText.escape(text))
          == Self.bytes(MarkdownText.escapeScalars(TerminalText.escaped(text))), "\(shown)")
    }
  }
}
