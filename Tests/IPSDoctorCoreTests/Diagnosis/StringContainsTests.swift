import Testing

@testable import IPSDoctorDiagnosis

/// The rules' `contains` and `firstRange(of:)` (String+Contains.swift) answer `Character` by
/// `Character`, as the standard library's do, whatever the bytes look like. (The table, not a
/// call to the standard library: with Foundation imported elsewhere in this target, a generic
/// `contains` here would be Foundation's, which matches "\r" inside "\r\n".)
struct StringContainsTests {
  /// Text → needle → whether the text contains it, as a person reading the characters says.
  static let table: [(text: String, needle: String, contains: Bool)] = [
    ("*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil", "object cannot be nil", true),
    ("*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil", "key cannot be nil", false),
    ("Fatal error: Index out of range", "Index out of range", true),
    ("Fatal error: index out of range", "Index out of range", false),
    ("", "anything", false),
    ("café crashed", "café", true),
    ("cafe\u{301} crashed", "café", true),  // the same characters, decomposed
    ("café crashed", "cafe", false),  // "é" is one character, not "e" and a mark
    ("cafe\u{301} crashed", "cafe", false),
    ("temperature 300 \u{212A}", "300 K", true),  // KELVIN SIGN is canonically "K"
    ("line one\r\nline two", "one\r\nline", true),
    ("line one\r\nline two", "one\r", false),  // "\r\n" is one character
    ("objc_exception_throw + 12", "objc_exception", true),
    ("objc_exception\u{301}_throw", "objc_exception", false),
  ]

  @Test("contains(_:) and firstRange(of:) answer as the table says", arguments: table)
  func contains(_ text: String, _ needle: String, _ expected: Bool) {
    #expect(text.contains(needle) == expected)
    let range = text.firstRange(of: needle)
    #expect((range != nil) == expected)
    if let range { #expect(text[range] == needle) }
  }

  @Test(
    "text(before:) is the text up to the first match, or all of it",
    arguments: [
      ("abort + 12", " ", "abort"), ("abort", " ", "abort"), ("pthread_kill$VARIANT$armv81", "$", "pthread_kill"),
      ("", " ", ""), (" x", " ", ""), ("abort \u{301}x", " ", "abort \u{301}x"),
    ])
  func textBefore(text: String, separator: String, expected: String) {
    #expect(text.text(before: separator) == expected)
  }
}
