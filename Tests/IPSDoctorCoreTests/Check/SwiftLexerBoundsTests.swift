import Testing

@testable import IPSDoctorCheck

/// `check`'s lexer on hostile shapes: nesting depth costs no stack, runs of `#` and raw literals
/// opened again and again on one line cost time linear in the file, and every line end the
/// compiler accepts (`\n`, `\r\n`, a lone `\r`) ends comments, literals and lines.
///
/// The sizes make the difference plain without a clock: a linear lexer reads each of them in
/// well under a second in a debug build, while the quadratic one took 41 s for 200 KB of `#` in
/// a release build, so a return to it would keep the test run from finishing. Time itself is
/// measured in `Benchmarks/check-bench.sh` (`HOSTILE=1`), never here: a wall-clock limit fails
/// when other suites hold the cores.
struct SwiftLexerBoundsTests {
  static func tokens(_ text: String) -> [SwiftToken] {
    SwiftLexer(Array(text.utf8)).tokens
  }

  @Test("80,000 nested unterminated \"\\( are one literal and a note, not a stack overflow")
  func deepUnterminatedNesting() {
    let lexer = SwiftLexer(Array(String(repeating: "\"\\(", count: 80_000).utf8))
    #expect(lexer.tokens.map(\.kind) == [.literal])
    #expect(lexer.notes.map(\.message).contains { $0.hasPrefix("unterminated interpolation") })
    #expect(lexer.notes.count == 2)
  }

  @Test("200,000 nested literals that all close are one literal, and the code after it is read")
  func deepClosedNesting() {
    let depth = 200_000
    let text =
      String(repeating: "\"\\(", count: depth) + "x" + String(repeating: ")\"", count: depth)
      + "\nfunc after() {}\n"
    let tokens = Self.tokens(text)
    #expect(tokens.first?.kind == .literal)
    #expect(tokens.dropFirst().map(\.value) == ["func", "after", "(", ")", "{", "}"])
    let scanned = SwiftDeclarationScanner.scan(Array(text.utf8))
    #expect(scanned.functions.map(\.name) == ["after"])
    #expect(scanned.functions.first?.line == 2)
  }

  @Test("Raw literals and parentheses nested 50,000 deep inside interpolations close in order")
  func deepRawNesting() {
    let depth = 50_000
    let text =
      String(repeating: "#\"\\#((", count: depth) + String(repeating: "))\"#", count: depth) + " class C {}"
    let tokens = Self.tokens(text)
    #expect(tokens.map(\.value) == ["", "class", "C", "{", "}"])
  }

  @Test("A run of 4 MiB of # is one token, read in linear time")
  func longHashRun() {
    let count = 4 << 20
    let tokens = Self.tokens(String(repeating: "#", count: count) + "if")
    #expect(tokens == [SwiftToken(kind: .pound, value: "if", offset: count - 1)])
    #expect(Self.tokens("##\"a\"## ###/x/### #if").map(\.kind) == [.literal, .literal, .pound])
  }

  @Test("Runs of # inside interpolations and between quotes are read in linear time")
  func hashRunsInsideLiterals() {
    let run = String(repeating: "#", count: 1 << 20)
    // A raw literal whose body is quotes, each followed by one # too few to close it.
    let almost = "#" + run + "\"" + String(repeating: "\"" + run + " ", count: 4) + "\"#" + run + " x"
    #expect(Self.tokens(almost).map(\.value) == ["", "x"])
    // An interpolation holding a long run of # that starts no literal.
    #expect(Self.tokens("\"\\(" + run + ")\" y").map(\.value) == ["", "y"])
  }

  @Test("60,000 raw multi-line openings on one line are read in linear time")
  func rawOpeningsOnOneLine() {
    // Each `#"""` asks whether a `"#` closes it on its line.
    let text = String(repeating: "#\"\"\"\\#(", count: 60_000) + "\nz"
    let lexer = SwiftLexer(Array(text.utf8))
    #expect(lexer.tokens.map(\.kind) == [.literal])
    // `#""""#` is still the raw string `""` when the line closes it.
    #expect(Self.tokens("#\"\"\"\"# w").map(\.value) == ["", "w"])
  }

  @Test("A // comment or a single-line literal ends at \\r, \\r\\n or \\n", arguments: ["\n", "\r\n", "\r"])
  func lineEnds(_ end: String) {
    let text = ["// comment", "\"open", "func f() {}", "`name", "class C {}"].joined(separator: end)
    #expect(Self.tokens(text).map(\.value) == ["", "func", "f", "(", ")", "{", "}", "name", "class", "C", "{", "}"])
    let lines = SourceLines(Array(text.utf8))
    let classOffset = Array(text.utf8).count - "class C {}".utf8.count
    #expect(lines.location(of: classOffset) == (5, 1))
  }

  @Test("Every fixture has the same findings, on the same lines, with \\r\\n and \\r line ends")
  func fixturesWithOtherLineEnds() throws {
    var compared = 0
    for fixture in CheckFixtureTests.fixtures {
      let text = String(decoding: try Fixtures.bytes(fixture), as: UTF8.self)
      let expected = SourceChecker().check([.init(display: fixture, bytes: Array(text.utf8))]).findings
      for end in ["\r\n", "\r"] {
        let converted = Array(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: end).utf8)
        let found = SourceChecker().check([.init(display: fixture, bytes: converted)]).findings
        #expect(found == expected, "\(fixture) with \(end.utf8.map { $0 })")
        compared += expected.count
      }
    }
    #expect(compared > 0)
  }
}
