import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// The packed 16-byte tape entry: its computed `start`, `end` and `payload` are checked against
/// the document text itself (what the grammar says each entry covers), so a packing mistake in any
/// kind of value shows, and the 32-bit limit is checked against parsing the cut input.
@Suite("JSON tape layout")
struct TapeLayoutTests {
  @Test("A tape entry is 16 bytes")
  func entrySize() {
    #expect(MemoryLayout<JSONTapeEntry>.size == 16)
    #expect(MemoryLayout<JSONTapeEntry>.stride == 16)
  }

  @Test("Each kind keeps its fields through the packing")
  func roundTrip() {
    let string = JSONTapeEntry(kind: .string, flags: JSONTapeEntry.stringHasEscapes, start: 7, end: 4_000_000_000)
    #expect(string.kind == .string && string.flags == JSONTapeEntry.stringHasEscapes)
    #expect(string.start == 7 && string.end == 4_000_000_000 && string.payload == 0)
    for (value, flags) in [
      (UInt64.max, JSONTapeEntry.numberUnsigned), (0, JSONTapeEntry.numberUnsigned),
      (UInt64(bitPattern: Int64.min), JSONTapeEntry.numberNegative),
    ] {
      let number = JSONTapeEntry(exactNumber: value, flags: flags, start: 4_294_967_000, end: 4_294_967_020)
      #expect(number.kind == .number && number.flags == flags)
      #expect(number.start == 4_294_967_000 && number.end == 4_294_967_020 && number.payload == value)
    }
    let other = JSONTapeEntry(kind: .number, flags: JSONTapeEntry.numberOther, start: 3, end: 100_003)
    #expect(other.start == 3 && other.end == 100_003 && other.payload == 0)
    let literal = JSONTapeEntry(kind: .true, start: 12)
    #expect(literal.start == 12 && literal.end == 0 && literal.payload == 0)
  }

  /// Walks a document's tape and checks every entry against the bytes: strings sit between quotes,
  /// numbers' text parses to their value, containers start with their bracket, count their
  /// children and end where the walk of their children ends.
  private func checkTape(_ bytes: [UInt8], name: String) {
    let (document, _, error) = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0) }
    guard error == nil, let document else { return }
    let entries = document.copiedEntries()
    let text = document.copiedBytes()
    // Returns the index after the value at `index`.
    func walk(_ index: Int) -> Int {
      let entry = entries[index]
      switch entry.kind {
      case .string:
        #expect(text[entry.start - 1] == ASCII.quote && text[entry.end] == ASCII.quote, "\(name) \(index)")
        #expect(entry.payload == 0)
        return index + 1
      case .number:
        let literal = String(decoding: text[entry.start..<entry.end], as: UTF8.self)
        #expect(entry.end > entry.start, "\(name) \(index)")
        if entry.end < text.count {
          #expect(!(text[entry.end] >= ASCII.zero && text[entry.end] <= ASCII.nine), "\(name) \(index)")
        }
        switch entry.flags {
        case JSONTapeEntry.numberUnsigned: #expect(UInt64(literal) == entry.payload, "\(name) \(literal)")
        case JSONTapeEntry.numberNegative:
          #expect(Int64(literal) == Int64(bitPattern: entry.payload), "\(name) \(literal)")
        default: #expect(entry.payload == 0 && UInt64(literal) == nil && Int64(literal) == nil, "\(name) \(literal)")
        }
        return index + 1
      case .array, .object:
        let open = entry.kind == .array ? ASCII.openBracket : ASCII.openBrace
        #expect(text[entry.start] == open, "\(name) \(index)")
        var next = index + 1
        var children = 0
        while next < Int(entry.payload) {
          if entry.kind == .object {
            #expect(entries[next].kind == .string)
            next += 1
          }
          next = walk(next)
          children += 1
        }
        #expect(next == Int(entry.payload) && children == entry.end, "\(name) \(index)")
        return next
      case .null, .true, .false:
        let literal: StaticString = entry.kind == .null ? "null" : entry.kind == .true ? "true" : "false"
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        #expect(text[entry.start..<entry.start + expected.count].elementsEqual(expected), "\(name) \(index)")
        #expect(entry.end == 0 && entry.payload == 0)
        return index + 1
      }
    }
    #expect(walk(0) == entries.count, "\(name)")
  }

  @Test("Every entry of the accepted JSONTestSuite cases and fixtures matches its text")
  func tapeMatchesText() throws {
    for url in Fixtures.sharedFiles(in: "json-test-suite/test_parsing") where url.pathExtension == "json" {
      checkTape([UInt8](try Data(contentsOf: url)), name: url.lastPathComponent)
    }
    for path in Fixtures.files(in: "json", extensions: ["json"]) + Fixtures.files(in: "reports") {
      let bytes = try Fixtures.bytes(path)
      checkTape(bytes, name: path)
      // The body of a two-document report.
      if let newline = bytes.firstIndex(of: 0x0A) { checkTape(Array(bytes[(newline + 1)...]), name: path + " body") }
    }
    checkTape(
      Array("[0,-0,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,1.5]".utf8),
      name: "numbers")
  }

  /// The tape's 32-bit offsets cap a document at `maxTapeBytes`: with a lower cap, the parser must
  /// read exactly what it reads of the input cut at the cap, and where that input ends too soon,
  /// say that the document is too large instead.
  @Test("A document longer than the cap reads as the input cut at the cap")
  func byteCap() throws {
    let text = Array(#"{"a": [1, 2, {"b": "c\/d"}], "e": true, "f": null}   "#.utf8)
    var tooLarge = 0
    for cap in 1...text.count {
      let cut = Array(text[..<cap])
      let capped = text.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0, maxBytes: cap) }
      let plain = cut.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0) }
      #expect(capped.end == plain.end, "cap \(cap)")
      var expected = plain.error
      if case .unexpectedEnd = expected?.reason, cap < text.count, expected?.location.offset == cap {
        expected?.reason = .tooLarge(limit: cap)
      }
      #expect(capped.error == expected, "cap \(cap)")
      if case .tooLarge = capped.error?.reason { tooLarge += 1 }
      #expect(capped.document?.copiedBytes() == plain.document?.copiedBytes(), "cap \(cap)")
      #expect(capped.document?.copiedEntries() == plain.document?.copiedEntries(), "cap \(cap)")
    }
    // Cut inside a string, a literal or between tokens, the document is too large to read.
    #expect(tooLarge > 20)
  }

  /// A document read from an array keeps that array instead of a copy of its bytes; read from a
  /// buffer alone it keeps a copy. Either way it holds the same tape and bytes, and equals the
  /// document built from the two parts.
  @Test("A document keeps the array it was read from, or a copy of its bytes")
  func sourceKept() throws {
    for path in Fixtures.files(in: "reports", extensions: ["ips"]).prefix(20) {
      let bytes = try Fixtures.bytes(path)
      for start in [0, (bytes.firstIndex(of: 0x0A) ?? 0) + 1] {
        let (copy, end, _) = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: start) }
        let (kept, keptEnd, _) = bytes.withUnsafeBufferPointer {
          JSONParser.documentPrefix($0, from: start, source: bytes)
        }
        guard let copy, let kept else {
          #expect(copy == nil && kept == nil, "\(path)")
          continue
        }
        #expect(keptEnd == end)
        #expect(copy.copiedBytes() == Array(bytes[start..<end]), "\(path)")
        #expect(kept.copiedBytes() == copy.copiedBytes() && kept.copiedEntries() == copy.copiedEntries(), "\(path)")
        #expect(kept.source.count == bytes.count && kept.byteOffset == start, "\(path)")
        #expect(copy.source.count == end - start && copy.byteOffset == 0, "\(path)")
        let rebuilt = JSONDocument(bytes: copy.copiedBytes(), entries: copy.copiedEntries())
        #expect(rebuilt == copy && rebuilt == kept, "\(path)")
        // A header line followed by a long body keeps little room it does not use.
        if start == 0 { #expect(copy.tape.capacity <= max(2 * copy.tape.count, copy.tape.count + 256), "\(path)") }
      }
    }
  }

  /// A header line read with its length in hand gets room for that line only, and a wrong guess
  /// still reads the whole document.
  @Test("The expected length sizes the tape; a short guess still reads everything")
  func expectedLength() throws {
    for path in Fixtures.files(in: "reports", extensions: ["ips"]).prefix(20) {
      let bytes = try Fixtures.bytes(path)
      let plain = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0) }
      for guess in [1, 2, 64, (bytes.firstIndex(of: 0x0A) ?? bytes.count), bytes.count] {
        let guessed = bytes.withUnsafeBufferPointer {
          JSONParser.documentPrefix($0, from: 0, source: bytes, expectedBytes: guess)
        }
        #expect(guessed.end == plain.end && guessed.error == plain.error, "\(path) \(guess)")
        #expect(guessed.document?.copiedEntries() == plain.document?.copiedEntries(), "\(path) \(guess)")
      }
    }
  }
}
