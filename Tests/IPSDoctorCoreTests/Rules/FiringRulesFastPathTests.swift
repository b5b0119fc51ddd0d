import Testing

@testable import IPSDoctorCore

/// The shortcuts the firing rules of the System, Launch and Resources groups take (dyld's lines,
/// the watchdog's details, the abort frames) must answer exactly as the code they stand in for.
struct FiringRulesFastPathTests {
  static let dyldTexts = [
    "", " ", "\n", "|", "a|b", " a \n b ", "\r\n", "x\r\ny", "Library not loaded: @rpath/A.framework/A",
    "dyld: Library not loaded: /usr/lib/libz.dylib | Referenced from: /a | Reason: image not found",
    "Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/App.app/App",
    "<UUID> /a > b", "<no close", "<>", "< >  ", "<\u{301}x> /a", "<é> /p", "<x>\u{301}/p", "<x> /p\r\n",
    " <x> /p", "no uuid", "Symbol not found: _X\nExpected in: <U> /System/Library/Frameworks/UIKit.framework/UIKit",
    "dependent dylib '@rpath/A.framework/A' not found for '/a/App', tried but didn't find: '/b'",
    "Libra", "Library not loaded:", "bbbb", "b", "Symbol not found: ", "dependent dylib '",
    "café | Library not loaded: /é", "ab\u{0}Symbol not found: _Y", String(repeating: "b", count: 200) + "Symbol not found: _Z",
  ]

  @Test func dyldPiecesAgreeWithSplitting() {
    for text in Self.dyldTexts {
      #expect(DyldError.pieces(text) == DyldError.splitPieces(text), "\(text.debugDescription)")
    }
  }

  @Test func dyldUUIDDropAgreesWithCharacterSearch() {
    for text in Self.dyldTexts {
      #expect(DyldLines.droppingUUID(text) == DyldLines.characterDroppingUUID(text), "\(text.debugDescription)")
    }
  }

  @Test func dyldFirstTestMarkersAgreeWithByteSearches() {
    for text in Self.dyldTexts {
      var expected: UInt8 = 0
      for (index, marker) in DyldError.firstTestMarkers.enumerated() where text.utf8Contains(marker) {
        expected |= 1 << index
      }
      #expect(DyldError.firstTestMarkerBits(in: text) == expected, "\(text.debugDescription)")
    }
  }

  /// The flags rule out a missing library or symbol only where the accessors find none, and the
  /// reports hold both kinds.
  @Test func dyldFlagsAgreeWithAccessors() {
    var found = (library: 0, symbol: 0)
    for (path, context) in RulesSpeedTests.dyldContexts {
      let dyld = DyldError(context)
      if dyld.missingLibrary != nil {
        found.library += 1
        #expect(dyld.mayNameMissingLibrary, "\(path)")
      }
      if dyld.missingSymbol != nil {
        found.symbol += 1
        #expect(dyld.mayNameMissingSymbol, "\(path)")
      }
    }
    #expect(found.library > 1 && found.symbol > 1)
  }
}
