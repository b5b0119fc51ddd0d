import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// The tape pass's fast paths, checked byte by byte against what the JSON grammar says.
@Suite("JSON tape pass")
struct TapeTests {
  /// Every byte value at every offset of a string's first three 8-byte words (and past them, where
  /// the scanner goes byte by byte): the word-at-a-time search for quotes, backslashes, control
  /// characters and non-ASCII bytes must stop exactly at the first one.
  @Test("Each byte value is classified correctly at every offset of a string")
  func everyByteAtEveryOffset() throws {
    let length = 27
    for offset in 0..<length {
      for value in 0...255 {
        let byte = UInt8(value)
        var input = Array("[\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: length) + Array("\"]".utf8)
        let at = 2 + offset
        input[at] = byte
        let result = input.withUnsafeBufferPointer { JSONParser.parsePrefixRecovering($0, from: 0) }
        switch byte {
        case 0x20...0x7F where byte != 0x22 && byte != 0x5C:
          #expect(result.error == nil, "byte \(byte) at \(offset)")
          #expect(result.end == input.count)
        case 0x22:
          // The string ends there; the next byte, 'a' or the real closing quote, cannot follow it.
          #expect(result.error?.location.offset == at + 1, "quote at \(offset)")
          #expect(result.error?.reason == .unexpectedByte(input[at + 1], expected: "',' or ']' after array element"))
        case 0x5C:
          // "\a" (or "\"" at the end, which then lacks its closing quote).
          #expect(result.error != nil, "backslash at \(offset)")
          if offset < length - 1 {
            #expect(result.error?.reason == .invalidEscape)
            #expect(result.error?.location.offset == at)
          }
        case 0x00..<0x20:
          #expect(result.error?.reason == .controlCharacterInString(byte), "byte \(byte) at \(offset)")
          #expect(result.error?.location.offset == at)
        default:
          // A lone non-ASCII byte followed by 'a' is never valid UTF-8.
          #expect(result.error?.reason == .invalidUTF8, "byte \(byte) at \(offset)")
          #expect(result.error?.location.offset == at)
        }
      }
    }
  }

  /// Keys go through the same scanner; a plain key and its value land on the tape as two strings.
  @Test("Keys and values of every length up to three words are placed with their offsets")
  func keyAndValueOffsets() throws {
    for keyLength in 0..<25 {
      for valueLength in [0, 1, 7, 8, 9, 16, 23] {
        let key = String(repeating: "k", count: keyLength)
        let value = String(repeating: "v", count: valueLength)
        for text in ["{\"\(key)\":\"\(value)\"}", "{\n  \"\(key)\" : \"\(value)\"\n}"] {
          let bytes = Array(text.utf8)
          let (document, end, error) = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0) }
          #expect(error == nil)
          #expect(end == bytes.count)
          let entries = try #require(document?.copiedEntries())
          #expect(entries.count == 3)
          let keyStart = try #require(bytes.firstIndex(of: UInt8(ascii: "\""))) + 1
          #expect(entries[1] == JSONTapeEntry(kind: .string, start: keyStart, end: keyStart + keyLength))
          let valueStart = try #require(bytes.lastIndex(of: UInt8(ascii: "\""))) - valueLength
          #expect(entries[2] == JSONTapeEntry(kind: .string, start: valueStart, end: valueStart + valueLength))
        }
      }
    }
  }
}
