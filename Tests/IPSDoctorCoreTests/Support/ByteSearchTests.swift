import Testing

@testable import IPSDoctorCLI

/// `prefilteredContains`/`prefilteredFirstRange(of:)` must answer exactly as the standard library's
/// `contains`/`firstRange(of:)`. (Compared with `firstRange(of:) != nil`: in this test target,
/// Foundation's `StringProtocol.contains` would win overload resolution, and it finds "\n" inside a
/// "\r\n" grapheme where the standard library does not.)
struct ByteSearchPrefilterTests {
  static let texts = [
    "", "Fatal error: Index out of range", "Fatal errór", "Fatal error\u{301}: x", "café: file a.swift, line 3",
    "\u{212A}elvin", "a\u{037E} b", "grave \u{1FEF}", "line\r\nnext", "Ünïcödé Fatal error",
    "KERN_INVALID_ADDRESS at 0x0000000000000010", "a\rb\r\nc\nd", "x\r", "\nx", "EXC_BAD_ACCESS (SIGSEGV); K`",
    "K\u{301}ERN", "\u{212A}ERN_MEMORY_ERROR",
  ]
  static let needles = [
    "Fatal error", "error", "e", ": file ", ", line ", "Kelvin", "K", "a; b", ";", "`", "\n", "\r\n", "caf", "é",
    "x", "KERN_", "0x", "\r", "b\r", "\nc", "c\nd", "SIGSEGV); K`", "ERN", "at 0x0000000000000010",
  ]

  @Test func agreesWithStringSearch() {
    for text in Self.texts {
      for needle in Self.needles {
        #expect(text.prefilteredContains(needle) == (text.firstRange(of: needle) != nil), "\(text) / \(needle)")
        #expect(text.prefilteredFirstRange(of: needle) == text.firstRange(of: needle), "\(text) / \(needle)")
        let sub = text.dropFirst()
        #expect(sub.prefilteredContains(needle) == (sub.firstRange(of: needle) != nil), "\(text) / \(needle)")
      }
    }
  }
}
