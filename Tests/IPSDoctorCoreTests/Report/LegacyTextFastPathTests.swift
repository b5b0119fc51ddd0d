import Foundation
import Testing

@testable import IPSDoctorCore

/// The byte-level paths of the text reader against the plain code they replaced: the line
/// splitting (ranges instead of `Substring`s) and the image-line number reader.
struct LegacyTextFastPathTests {
  /// The splitting the reader did before it kept lines as ranges: `Substring`s of the text split at
  /// "\n", each without a final "\r" and then without trailing spaces and tabs.
  static func referenceLines(_ text: String) -> [Substring] {
    text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      var line = Substring($0)
      if line.utf8.last == 0x0D { line = line[..<line.utf8.index(before: line.endIndex)] }
      return LegacyTextLine.droppingTrailingSpace(line)
    }
  }

  static func rangeLines(_ text: String) -> [Substring] {
    var text = text
    text.makeContiguousUTF8()
    let contiguous = text
    return contiguous.utf8.withContiguousStorageIfAvailable { bytes in
      LegacyTextReader.lineRanges(of: bytes).map { LegacyTextReader.substring(contiguous, $0) }
    } ?? []
  }

  static var samples: [String] {
    var texts = [
      "", "\n", "\n\n", "a", "a\n", "a\r\n", "a \t\r\nb", "  x  \n\t\n\r\n", "\r", "\r\r\n", " \r",
      "Thread 0:\n0   App  0x1 0x0 + 1\n\nBinary Images:\n   0x1 - 0x2 App arm64 <ab> /App\n",
      "é \n\u{301}x \r\nnaïve\t\n", "a\r \n", "\t\t", "last line without break  ",
    ]
    for name in Fixtures.files(in: "reports", extensions: ["crash"]) {
      if let data = FileManager.default.contents(atPath: Fixtures.url(name).path) {
        texts.append(String(decoding: data, as: UTF8.self))
      }
    }
    return texts
  }

  @Test("Line ranges give the lines the Substring splitting gave")
  func linesAgree() {
    for text in Self.samples {
      let expected = Self.referenceLines(text)
      let found = Self.rangeLines(text)
      #expect(found.count == expected.count)
      for (a, b) in zip(found, expected) {
        #expect(a == b)
        #expect(a.startIndex == b.startIndex && a.endIndex == b.endIndex)
      }
    }
  }

  /// The number reader the image lines used before: any radix, overflow checked.
  static func referenceNumber(_ bytes: [UInt8]) -> (UInt64, Int)? {
    var end = 0
    while end < bytes.count && !LegacyTextLine.isSpaceByte(bytes[end]) && bytes[end] != 0x2D { end += 1 }
    var position = 0
    var radix: UInt64 = 10
    if end > 2 && bytes[0] == 0x30 && (bytes[1] == 0x78 || bytes[1] == 0x58) {
      radix = 16
      position += 2
    }
    guard position < end, end - position <= 16 else { return nil }
    var value: UInt64 = 0
    while position < end {
      let byte = bytes[position]
      let digit: UInt64
      if radix == 16 && LegacyTextLine.isHexByte(byte) {
        digit = LegacyTextLine.hexValue(byte)
      } else if byte >= 0x30 && byte <= 0x39 {
        digit = UInt64(byte - 0x30)
      } else {
        return nil
      }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
      guard !overflow else { return nil }
      value = shifted + digit
      position += 1
    }
    return (value, end)
  }

  @Test("ByteScanner.number agrees with the plain reader")
  func numbersAgree() {
    let alphabet = Array("0123456789abcdefABCDEFxXgG- \t+?".utf8)
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var inputs: [[UInt8]] = [
      [], Array("0x".utf8), Array("0x1".utf8), Array("0X1f".utf8), Array("0x0000000100000000".utf8),
      Array("0xffffffffffffffff".utf8), Array("0x1ffffffffffffffff".utf8), Array("9999999999999999".utf8),
      Array("99999999999999999".utf8), Array("0x1045a0000 - 0x1046bffff".utf8), Array("12 ".utf8),
      Array("0xg".utf8), Array("00x1".utf8), Array("-1".utf8),
    ]
    for _ in 0..<20_000 {
      let prefix = next(3) == 0 ? Array("0x".utf8) : []
      inputs.append(prefix + (0..<next(20)).map { _ in alphabet[next(alphabet.count)] })
    }
    for input in inputs {
      let found = input.withUnsafeBufferPointer { bytes -> (UInt64, Int)? in
        var scanner = ByteScanner(bytes: bytes)
        guard let value = scanner.number() else {
          #expect(scanner.index == 0)
          return nil
        }
        return (value, scanner.index)
      }
      let expected = Self.referenceNumber(input)
      #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(String(decoding: input, as: UTF8.self))")
    }
  }

  @Test("isHexOrDash is isHexByte or a dash, for every byte")
  func hexOrDash() {
    for byte in 0...255 {
      let bytes = [UInt8(byte)]
      let found = bytes.withUnsafeBufferPointer { LegacyTextLine.isHexOrDash($0, 0..<1) }
      #expect(found == (LegacyTextLine.isHexByte(UInt8(byte)) || byte == 0x2D))
    }
  }
}
