import Testing

@testable import IPSDoctorOutput

/// The text renderer's joined lines and its render cache.
@Suite("Text render: joined lines and the render cache")
struct RenderJoinAndCacheTests {

  @Test(
    "joinedLines ends every line with a line feed, and writes one for no lines",
    arguments: [
      ([], "\n"), ([""], "\n"), (["", ""], "\n\n"), (["a"], "a\n"), (["a", "b"], "a\nb\n"),
      (["a\n", "b"], "a\n\nb\n"), (["line\r\n"], "line\r\n\n"), (["é", "e\u{301}", "😀"], "é\ne\u{301}\n😀\n"),
      (["\u{0}\u{1B}[2J", "\u{202E}x"], "\u{0}\u{1B}[2J\n\u{202E}x\n"),
    ] as [([String], String)])
  func joinedLines(lines: [String], expected: String) {
    #expect(Array(PlainText.joinedLines(lines).utf8) == Array(expected.utf8))
  }

  @Test("joinedLines keeps every byte of long lines, each followed by one line feed")
  func joinedLongLines() {
    let long = String(repeating: "long line of text ", count: 40)
    let lines = (0..<30).map { "\($0) " + long }
    let joined = Array(PlainText.joinedLines(lines).utf8)
    #expect(joined.count == lines.reduce(0) { $0 + $1.utf8.count + 1 })
    #expect(
      joined.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { Array($0) }
        == lines.map { Array($0.utf8) })
    #expect(joined.last == 0x0A)
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
