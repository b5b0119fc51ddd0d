import Testing

@testable import IPSDoctorDiagnosis

/// `FrameSymbolText.anchor(of:)` decides in one pass what `allSatisfy({ $0 < 0x80 && $0 != 0 })`
/// decided before the search; the searches must answer as before.
struct FrameSymbolAnchorTests {
  @Test func anchorIsNilExactlyForNULOrNonASCII() {
    var needles: [[UInt8]] = (0...255).map { [UInt8($0)] }
    needles += (0...255).map { [UInt8(ascii: "a"), UInt8($0), UInt8(ascii: "_")] }
    needles += [Array("-[NSAssertionHandler handleFailureInMethod:".utf8), Array("café".utf8), Array("x\0y".utf8)]
    for needle in needles {
      let anchor = needle.withUnsafeBytes { FrameSymbolText.anchor(of: $0) }
      #expect((anchor != nil) == needle.allSatisfy({ $0 < 0x80 && $0 != 0 }), "\(needle)")
      if let anchor { #expect(needle.indices.contains(anchor)) }
    }
  }

  @Test func firstFrameAgreesWithUTF8Contains() throws {
    let texts: [String?] = [
      "a_b", nil, "xx_b_b", "", "q_", "bq", "café\u{301}", "-[NSAssertionHandler handleFailureInMethod:x]",
    ]
    let text = try #require(FrameSymbolText(texts: texts))
    for needle in [
      "_b", "b", "q", "_", "x", "zz", "-[NSAssertionHandler handleFailureInMethod:", "é", "e\u{301}", "b\0", "",
      "\u{7F}q",
    ] {
      let expected = texts.indices.first { texts[$0]?.utf8Contains(needle) ?? false }
      let outcome = text.firstFrame(containing: needle)
      if needle.utf8.allSatisfy({ $0 < 0x80 && $0 != 0 }) || needle.isEmpty {
        switch outcome {
        case .found(let index): #expect(index == expected, "\(needle.debugDescription)")
        case .absent: #expect(expected == nil, "\(needle.debugDescription)")
        case .undecided: Issue.record("undecided for \(needle.debugDescription)")
        }
      } else {
        guard case .undecided = outcome else {
          Issue.record("decided for \(needle.debugDescription)")
          continue
        }
      }
    }
  }
}
