import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// `LegacyTextLine.normalizedUUID` must give what the plain rule gives for every text of hex digits
/// and dashes (`ReportModelTests` then holds the word-at-a-time `normalizedImageUUID` to it).
struct LegacyTextUUIDTests {
  /// The rule, a byte at a time: drop dashes, upper-case, and dash 8-4-4-4-12 when 32 digits.
  static func reference(_ text: String) -> String {
    let digits = text.utf8.filter { $0 != 0x2D }.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
    guard digits.count == 32 else { return String(decoding: digits, as: UTF8.self) }
    var result: [UInt8] = []
    for (offset, digit) in digits.enumerated() {
      if offset == 8 || offset == 12 || offset == 16 || offset == 20 { result.append(0x2D) }
      result.append(digit)
    }
    return String(decoding: result, as: UTF8.self)
  }

  static func normalized(_ text: String) -> String {
    Array(text.utf8).withUnsafeBufferPointer { LegacyTextLine.normalizedUUID($0) }
  }

  @Test("UUIDs: the usual forms")
  func usualForms() {
    #expect(Self.normalized("6f1c3b2a9d8e4f00a1b2c3d4e5f60718") == "6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718")
    #expect(Self.normalized("6f1c3b2a-9d8e-4f00-a1b2-c3d4e5f60718") == "6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718")
    #expect(Self.normalized("6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718") == "6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718")
    #expect(Self.normalized("ABCDEFabcdef0123456789-") == "ABCDEFABCDEF0123456789")
    #expect(Self.normalized("") == "")
  }

  @Test("UUIDs: every text of hex digits and dashes agrees with the byte-at-a-time rule")
  func agreesWithReference() {
    let alphabet = Array("0123456789abcdefABCDEF-".utf8)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var texts: [String] = []
    // Near the fast forms: 32 and 36 bytes with dashes moved, added or missing.
    let canonical = Array("6f1c3b2a-9d8e-4f00-a1b2-c3d4e5f60718".utf8)
    for position in canonical.indices {
      var moved = canonical
      moved[position] = moved[position] == 0x2D ? 0x61 : 0x2D
      texts.append(String(decoding: moved, as: UTF8.self))
    }
    let digits = canonical.filter { $0 != 0x2D }
    for position in digits.indices {
      var dashed = digits
      dashed[position] = 0x2D
      texts.append(String(decoding: dashed, as: UTF8.self))
    }
    for _ in 0..<4000 {
      let count = [32, 36, 32, 36, next(41)][next(5)]
      let dashOdds = [2, 5, 9, 40, Int.max][next(5)]
      texts.append(
        String(
          decoding: (0..<count).map { _ in
            dashOdds != Int.max && next(dashOdds) == 0 ? 0x2D : alphabet[next(22)]
          }, as: UTF8.self))
      // The dashed form with random digits.
      var dashed = (0..<36).map { _ in alphabet[next(22)] }
      for position in [8, 13, 18, 23] { dashed[position] = 0x2D }
      texts.append(String(decoding: dashed, as: UTF8.self))
    }
    for text in texts {
      #expect(Self.normalized(text) == Self.reference(text), "\(text)")
    }
  }
}
