import Foundation
import Testing

@testable import IPSDoctorCore

/// The string scan's stage 1 (64-byte block masks) against the plain eight-byte word scan: the
/// masks bit for bit against a byte-by-byte classification, and whole tape passes both ways on
/// real documents, strings that cross block boundaries with a special byte at every offset, and
/// inputs cut at every length, with identical tapes, ends and errors.
@Suite("JSON tape block scan")
struct TapeBlockScanTests {
  private static func isSpecial(_ byte: UInt8) -> Bool {
    byte == ASCII.quote || byte == ASCII.backslash || byte < 0x20 || byte >= 0x80
  }

  private static func expectedBits(_ block: [UInt8]) -> UInt64 {
    var bits: UInt64 = 0
    for (index, byte) in block.enumerated() where isSpecial(byte) { bits |= 1 << UInt64(index) }
    return bits
  }

  private static func bits(_ block: [UInt8]) -> UInt64 {
    block.withUnsafeBytes { JSONParser.specialBits(ofBlock: $0.baseAddress!) }
  }

  @Test("Every byte value at every position of a block, and random blocks")
  func blockMasks() {
    var block = [UInt8](repeating: UInt8(ascii: "a"), count: 64)
    for value in 0...255 {
      for position in 0..<64 {
        block[position] = UInt8(value)
        #expect(Self.bits(block) == Self.expectedBits(block), "byte \(value) at \(position)")
        block[position] = UInt8(ascii: "a")
      }
    }
    var generator = SeededGenerator(seed: 64)
    let alphabet: [UInt8] = [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xFF]
    for round in 0..<20_000 {
      for index in 0..<64 {
        block[index] = round % 3 == 0
          ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator)!
      }
      #expect(Self.bits(block) == Self.expectedBits(block), "round \(round)")
    }
  }

  /// Parses `bytes` from `start` with the block masks and with the word scan alone.
  private func bothWays(_ bytes: [UInt8], from start: Int = 0, maxBytes: Int = JSONParser.maxTapeBytes, _ name: String) {
    let (fast, plain) = bytes.withUnsafeBufferPointer { buffer in
      (JSONParser.documentPrefix(buffer, from: start, maxBytes: maxBytes),
       JSONParser.documentPrefix(buffer, from: start, maxBytes: maxBytes, scanStringsByBlocks: false))
    }
    #expect(fast.end == plain.end, "\(name)")
    #expect(fast.error == plain.error, "\(name)")
    #expect(fast.document?.copiedEntries() == plain.document?.copiedEntries(), "\(name)")
    #expect(fast.document?.copiedBytes() == plain.document?.copiedBytes(), "\(name)")
  }

  @Test("Fixtures, reports and JSONTestSuite cases read the same both ways")
  func documents() throws {
    for url in Fixtures.sharedFiles(in: "json-test-suite/test_parsing") where url.pathExtension == "json" {
      bothWays([UInt8](try Data(contentsOf: url)), url.lastPathComponent)
    }
    for path in Fixtures.files(in: "json", extensions: ["json"]) + Fixtures.files(in: "reports") {
      let bytes = try Fixtures.bytes(path)
      bothWays(bytes, path)
      if let newline = bytes.firstIndex(of: 0x0A) { bothWays(bytes, from: newline + 1, path + " body") }
    }
  }

  @Test("Strings across block boundaries with a special byte at every offset")
  func stringsAcrossBlocks() {
    // Escapes, UTF-8 (valid and not), control characters, DEL (plain), a lone quote that ends the
    // string early, and the end of the input.
    let specials: [[UInt8]] = [
      Array(#"\/"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8), Array(#"\q"#.utf8),
      [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC3], [0x01], [0x1F], [0x7F], [0x22],
    ]
    for lead in 0..<64 {
      for length in [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129] {
        let prefix = [UInt8](repeating: 0x20, count: lead) + [UInt8(ascii: "[")]
        let text = (0..<length).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
        let plain = prefix + [0x22] + text + Array("\",1]".utf8)
        bothWays(plain, "lead \(lead) length \(length)")
        bothWays(prefix + [0x22] + text, "lead \(lead) length \(length) unterminated")
        for offset in stride(from: lead % 3, through: length, by: 3) {
          for special in specials {
            var bytes = prefix + [0x22] + text[..<offset]
            bytes += special + text[offset...] + Array("\",1]".utf8)
            bothWays(bytes, "lead \(lead) length \(length) offset \(offset) \(special)")
          }
        }
      }
    }
  }

  @Test("A report cut at every length reads the same both ways")
  func truncations() throws {
    guard let path = Fixtures.files(in: "reports", extensions: ["ips"]).first else { return }
    let bytes = try Fixtures.bytes(path)
    let body = (bytes.firstIndex(of: 0x0A) ?? -1) + 1
    for cut in stride(from: 1, through: min(bytes.count - body, 4_000), by: 1) {
      bothWays(bytes, from: body, maxBytes: cut, "\(path) cut at \(cut)")
    }
  }
}
