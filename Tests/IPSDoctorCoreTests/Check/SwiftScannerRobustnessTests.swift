import Testing

@testable import IPSDoctorCheck

/// The lexer and scanner never fail: every prefix of every fixture, and arbitrary bytes, scan to
/// the end without a trap (an unterminated literal or comment is noted, not fatal).
@Suite struct SwiftScannerRobustnessTests {
  @Test func everyPrefixOfEveryFixtureScans() throws {
    for fixture in CheckFixtureTests.fixtures {
      let bytes = try Fixtures.bytes(fixture)
      for length in stride(from: 0, through: bytes.count, by: 5) {
        let scanned = SwiftDeclarationScanner.scan(Array(bytes.prefix(length)))
        for function in scanned.functions {
          #expect(function.line >= 1)
          if let type = function.enclosingType { #expect(scanned.types.indices.contains(type)) }
        }
      }
    }
  }

  @Test func arbitraryBytesScan() {
    // A fixed linear congruential generator: the same bytes on every run.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let alphabet = Array("\"#\\()[]{}<>/*@:,.-> \n\tfunc class async extension `'$0 é".utf8)
    for _ in 0..<300 {
      var bytes: [UInt8] = []
      for _ in 0..<200 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let pick = Int(state >> 33)
        bytes.append(pick % 7 == 0 ? UInt8(truncatingIfNeeded: pick >> 8) : alphabet[pick % alphabet.count])
      }
      _ = SwiftDeclarationScanner.scan(bytes)
      _ = SourceChecker().check([.init(display: "random.swift", bytes: bytes)])
    }
  }
}
