import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

/// The text renderer's joined lines and its render cache, on generated text.
@Suite("Render fast paths")
struct RenderFastPathTests {
  typealias Generator = ModelStringReuseTests.Generator

  /// Printable ASCII and everything a shortcut must not answer for: controls, DEL, CR and CR LF,
  /// C1 controls, bidi overrides, separators, combining marks, emoji, and the non-ASCII blocks that
  /// ``PlainText/isSimple(_:)`` accepts.
  static let pieces: [String] = [
    "a", "Z", "0", " ", "~", "`", "*", "[", "]", "(", ")", "#", "-", "\\", "\n", "\r", "\r\n", "\t", "\u{1B}",
    "\u{7F}", "\u{00}", "\u{85}", "\u{9F}", "\u{A0}", "\u{AD}", "é", "e\u{301}", "\u{301}", "—", "“", "→", "∑",
    "\u{202E}", "\u{2028}", "\u{200F}", "😀", "한", "\u{FEFF}", "word", "two words", "\n\n",
    // Both sides of every multi-byte range the byte test of `escaped` checks.
    "\u{80}", "\u{9C}", "\u{A9}", "\u{061B}", "\u{061C}", "\u{061D}", "\u{0600}", "\u{200D}", "\u{200E}",
    "\u{2010}", "\u{2027}", "\u{2029}", "\u{202A}", "\u{202F}", "\u{2065}", "\u{2066}", "\u{2069}",
    "\u{206A}", "\u{20AC}",
  ]

  static func texts() -> [String] {
    var generator = Generator(state: 97)
    var result = pieces + ["", String(repeating: "long line of text ", count: 20)]
    for round in 0..<3_000 {
      let length = round < 300 ? round % 30 : generator.next(120)
      // Mostly ASCII, as real text is, so the ASCII shortcut and its edges are both exercised.
      result.append(
        (0..<length).map { _ in
          generator.next(4) == 0 ? pieces[generator.next(pieces.count)] : pieces[generator.next(4)]
        }.joined())
    }
    return result
  }

  @Test("joinedLines joins as joined(separator:) and a final line feed")
  func joinedLinesMatchJoined() {
    var generator = Generator(state: 5)
    let texts = Self.texts()
    for count in 0..<200 {
      let lines = (0..<(count % 40)).map { _ in texts[generator.next(texts.count)] }
      #expect(Array(PlainText.joinedLines(lines).utf8) == Array((lines.joined(separator: "\n") + "\n").utf8))
    }
  }

  @Test("The render cache renders each text once, and texts with other bytes apart")
  func renderCacheKeysOnBytes() {
    let cache = RenderCache()
    var renders = 0
    func lines(_ text: String, _ kind: RenderCache.Kind = .remedy) -> [String] {
      cache.lines(for: text, kind: kind) {
        renders += 1
        return [text]
      }
    }
    let long = String(repeating: "Call the completion handler exactly once, on the main queue. ", count: 30)
    #expect(lines(long) == [long])
    #expect(lines(String(long)) == [long])
    #expect(renders == 1)
    // Same length, same first and last 32 bytes, one byte apart in the middle.
    var changed = Array(long.utf8)
    changed[changed.count / 2] = UInt8(ascii: "#")
    let other = String(decoding: changed, as: UTF8.self)
    #expect(lines(other) == [other])
    #expect(renders == 2)
    // Canonically equivalent (equal as `String`s), other bytes: rendered on its own.
    let composed = "Café " + long
    let decomposed = "Cafe\u{301} " + long
    #expect(composed == decomposed)
    #expect(lines(composed) == [composed])
    #expect(Array(lines(decomposed)[0].utf8) == Array(decomposed.utf8))
    #expect(renders == 4)
    #expect(lines(long, .verification) == [long])
    #expect(renders == 5)
  }
}
