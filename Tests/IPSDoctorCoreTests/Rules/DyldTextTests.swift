import Testing

@testable import IPSDoctorDiagnosis

/// How the dyld rules cut a dyld message: its pieces, the UUID before a path, the quoted paths.
@Suite("dyld message text")
struct DyldTextTests {
  @Test(
    "A message splits at newlines and | into trimmed pieces",
    arguments: [
      ("", []), (" ", []), ("\n", []), ("|", []), ("a|b", ["a", "b"]), (" a \n b ", ["a", "b"]),
      // A CR LF pair is one Character, neither "\n" nor whitespace.
      ("\r\n", ["\r\n"]), ("x\r\ny", ["x\r\ny"]),
      ("Library not loaded: @rpath/A.framework/A", ["Library not loaded: @rpath/A.framework/A"]),
      (
        "dyld: Library not loaded: /usr/lib/libz.dylib | Referenced from: /a | Reason: image not found",
        ["dyld: Library not loaded: /usr/lib/libz.dylib", "Referenced from: /a", "Reason: image not found"]
      ),
      (
        "Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/App.app/App",
        ["Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/App.app/App"]
      ),
      ("<UUID> /a > b", ["<UUID> /a > b"]), ("<no close", ["<no close"]), ("<>", ["<>"]), ("< >  ", ["< >"]),
      ("<\u{301}x> /a", ["<\u{301}x> /a"]), ("<é> /p", ["<é> /p"]), ("<x>\u{301}/p", ["<x>\u{301}/p"]),
      ("<x> /p\r\n", ["<x> /p\r\n"]), (" <x> /p", ["<x> /p"]), ("no uuid", ["no uuid"]),
      (
        "Symbol not found: _X\nExpected in: <U> /System/Library/Frameworks/UIKit.framework/UIKit",
        ["Symbol not found: _X", "Expected in: <U> /System/Library/Frameworks/UIKit.framework/UIKit"]
      ),
      (
        "dependent dylib '@rpath/A.framework/A' not found for '/a/App', tried but didn't find: '/b'",
        ["dependent dylib '@rpath/A.framework/A' not found for '/a/App', tried but didn't find: '/b'"]
      ),
      ("Libra", ["Libra"]), ("Library not loaded:", ["Library not loaded:"]), ("bbbb", ["bbbb"]), ("b", ["b"]),
      ("Symbol not found: ", ["Symbol not found:"]), ("dependent dylib '", ["dependent dylib '"]),
      ("café | Library not loaded: /é", ["café", "Library not loaded: /é"]),
      ("ab\0Symbol not found: _Y", ["ab\0Symbol not found: _Y"]),
      (
        String(repeating: "b", count: 200) + "Symbol not found: _Z",
        [String(repeating: "b", count: 200) + "Symbol not found: _Z"]
      ),
    ] as [(String, [String])])
  func pieces(text: String, expected: [String]) {
    #expect(DyldError.pieces(text) == expected)
  }

  @Test(
    "\"<UUID> /path\" is the path; other text is itself",
    arguments: [
      ("", ""), (" ", " "), ("\n", "\n"), ("a|b", "a|b"), (" a \n b ", " a \n b "), ("\r\n", "\r\n"),
      (
        "Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/App.app/App",
        "Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/App.app/App"
      ),
      ("<UUID> /a > b", "/a > b"), ("<no close", "<no close"), ("<>", ""), ("< >  ", ""),
      // "<\u{301}" is one Character, not "<"; a mark after ">" joins it, so there is no ">".
      ("<\u{301}x> /a", "<\u{301}x> /a"), ("<é> /p", "/p"), ("<x>\u{301}/p", "<x>\u{301}/p"),
      ("<x> /p\r\n", "/p\r\n"), (" <x> /p", " <x> /p"), ("no uuid", "no uuid"),
      (
        "Symbol not found: _X\nExpected in: <U> /System/Library/Frameworks/UIKit.framework/UIKit",
        "Symbol not found: _X\nExpected in: <U> /System/Library/Frameworks/UIKit.framework/UIKit"
      ),
      ("Symbol not found: ", "Symbol not found: "), ("café | Library not loaded: /é", "café | Library not loaded: /é"),
      ("ab\0Symbol not found: _Y", "ab\0Symbol not found: _Y"), ("|", "|"), ("x\r\ny", "x\r\ny"),
      ("Library not loaded: @rpath/A.framework/A", "Library not loaded: @rpath/A.framework/A"),
      (
        "dyld: Library not loaded: /usr/lib/libz.dylib | Referenced from: /a | Reason: image not found",
        "dyld: Library not loaded: /usr/lib/libz.dylib | Referenced from: /a | Reason: image not found"
      ),
      (
        "dependent dylib '@rpath/A.framework/A' not found for '/a/App', tried but didn't find: '/b'",
        "dependent dylib '@rpath/A.framework/A' not found for '/a/App', tried but didn't find: '/b'"
      ),
      ("Libra", "Libra"), ("Library not loaded:", "Library not loaded:"), ("bbbb", "bbbb"), ("b", "b"),
      ("dependent dylib '", "dependent dylib '"),
    ])
  func droppingUUID(text: String, expected: String) {
    #expect(DyldLines.droppingUUID(text) == expected)
  }

  @Test(
    "The texts between successive pairs of quotes, cut at the quote bytes",
    arguments: [
      ("", []), ("'", []), ("''", [""]), ("a'b", []),
      ("tried: '/a/b' (no such file), '/c/d' (no such file, not in dyld cache)", ["/a/b", "/c/d"]),
      ("'/x' '/y", ["/x"]), ("line\r\n'/a'\r\n'/b'", ["/a", "/b"]), ("'unterminated", []),
      (String(repeating: "a", count: 300), []), (String(repeating: "a", count: 301), []),
      ("'\u{301}/a' (no such file), '/b'", ["\u{301}/a", "/b"]), ("'a\u{301}'", ["a\u{301}"]),
      ("café '/é/p' (x)", ["/é/p"]),
      (String(repeating: "é", count: 150), []), (String(repeating: "é", count: 300), []),
      ("e\u{301}" + String(repeating: "b", count: 299), []),
    ] as [(String, [String])])
  func quotedParts(text: String, expected: [String]) {
    #expect(DyldLines.quotedParts(text) == expected)
  }
}
