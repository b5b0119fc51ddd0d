import Testing

@testable import IPSDoctorCore

/// ``WellKnownText``: its lookup finds exactly its entries, and each entry's raw JSON text decodes to
/// the literal it stands for.
@Suite("Well-known text")
struct WellKnownTextTests {
  func lookUp(_ raw: String) -> String? {
    var raw = raw
    return raw.withUTF8 { WellKnownText.literal(raw: UnsafeRawBufferPointer($0)) }
  }

  /// The text the reader makes of `raw` as the body of a JSON string, by the plain decoder.
  func decoded(_ raw: String) throws -> String? {
    let bytes = Array("\"\(raw)\"".utf8)
    let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
    return document.withRoot { $0.kind == .string ? JSONTapeEntry.decodedString($0.entry, in: $0.view.bytes) : nil }
  }

  @Test("Every entry is found, decodes to its text, and is longer than a small string")
  func entries() throws {
    for (raw, text) in WellKnownText.entries {
      var bytes = raw
      let key = bytes.withUTF8 { buffer -> UInt64 in
        let base = UnsafeRawPointer(buffer.baseAddress!)
        return WellKnownText.key(
          count: buffer.count, head: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self)),
          tail: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: buffer.count - 8, as: UInt64.self)))
      }
      let hex = "0x" + String(key, radix: 16)
      #expect(lookUp(raw) == text, "missing: case \(hex): return equals(#\"\(raw)\"#) ? #\"\(text)\"# : nil")
      #expect(try decoded(raw) == text, "\(raw)")
      #expect(raw.utf8.count >= 16 && raw.utf8.count >= WellKnownText.minimumLength)
      #expect(raw.utf8.count <= WellKnownText.maximumLength)
    }
    #expect(Set(WellKnownText.entries.map(\.raw)).count == WellKnownText.entries.count)
  }

  @Test("Text that is not an entry is not found, and reading it gives the plain decoder's text")
  func nonEntries() throws {
    let raws = Set(WellKnownText.entries.map(\.raw))
    var probes: [String] = ["", "short", "com.apple.main-threaD", "com.apple.main-thread ", " com.apple.main-thread"]
    for (raw, _) in WellKnownText.entries {
      probes.append(String(raw.dropLast()))
      probes.append(raw + "x")
      var middle = Array(raw.utf8)
      middle[middle.count / 2] ^= 0x01
      probes.append(String(decoding: middle, as: UTF8.self))
      probes.append(String(raw.reversed()))
    }
    for probe in probes where !raws.contains(probe) {
      #expect(lookUp(probe) == nil, "\(probe)")
    }
    // FieldDecoder.text (literal or not) against the plain decoder, entries and probes alike.
    for raw in probes + Array(raws) where !raw.contains("\"") && !raw.hasSuffix("\\") {
      let bytes = Array("\"\(raw)\"".utf8)
      guard let document = try? bytes.withUnsafeBufferPointer({ try JSONParser.parseDocument($0) }) else { continue }
      document.withRoot { node in
        guard node.kind == .string else { return }
        #expect(FieldDecoder.text(node) == JSONTapeEntry.decodedString(node.entry, in: node.view.bytes), "\(raw)")
      }
    }
  }
}
