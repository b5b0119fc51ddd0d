import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// A reader given a ``SharedTexts`` table answers texts it has seen with the strings it made then:
/// every answer must still be exactly what decoding would have made, whatever the table held.
@Suite("Shared texts")
struct SharedTextsTests {
  typealias Generator = ModelStringReuseTests.Generator

  /// Where a string's UTF-8 lives, to tell a shared string from an equal copy.
  static func storage(_ text: String) -> UInt? {
    var text = text
    return text.withUTF8 { $0.baseAddress.map { UInt(bitPattern: $0) } }
  }

  /// Every report input we have: the fixtures, and `../shared/corpus` when it is there.
  static func inputs() throws -> [(name: String, bytes: [UInt8])] {
    var result: [(String, [UInt8])] = []
    for folder in ["reports", "cli"] {
      for path in Fixtures.files(in: folder) { result.append((path, try Fixtures.bytes(path))) }
    }
    for folder in Fixtures.sharedFiles(in: "corpus") where folder.pathExtension.isEmpty {
      for url in Fixtures.sharedFiles(in: "corpus/" + folder.lastPathComponent) {
        result.append((url.lastPathComponent, [UInt8](try Data(contentsOf: url))))
      }
    }
    return result
  }

  @Test("A batch read through one table gives the reports each file gives alone, in any order")
  func batchEqualsAlone() throws {
    let inputs = try Self.inputs()
    #expect(inputs.count > 80)
    // The files cut short too: partial bodies and text sections take the salvage paths.
    var all = inputs
    for (name, bytes) in inputs where bytes.count > 400 {
      for fraction in [3, 2] {
        all.append(("\(name) cut at 1/\(fraction)", Array(bytes.prefix(bytes.count / fraction))))
      }
    }
    let alone = all.map { try? ReportReader.read($0.bytes) }
    // A small table too, so that texts keep pushing each other out of their slots.
    for table in [SharedTexts(), SharedTexts(slotCount: 16)] {
      for order in [Array(all.indices), all.indices.reversed()] {
        for index in order {
          let shared = try? ReportReader.read(all[index].bytes, sharing: table)
          #expect(shared == alone[index], "\(all[index].name)")
        }
      }
      #expect(table.hits > 1_000)
    }
  }

  @Test("A second report shares the first one's symbols, image paths and names")
  func repeatedTextsShareStorage() throws {
    let bytes = try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips")
    let table = SharedTexts()
    let first = try ReportReader.read(bytes, sharing: table)
    let second = try ReportReader.read(bytes, sharing: table)
    let alone = try ReportReader.read(bytes)
    var compared = 0
    for (a, b) in zip(first.threads.flatMap(\.frames), second.threads.flatMap(\.frames)) {
      guard let symbol = a.symbol, symbol.utf8.count > 15 else { continue }
      #expect(Self.storage(symbol) == Self.storage(b.symbol!))
      compared += 1
    }
    for (a, b) in zip(first.images, second.images) {
      if let path = a.path { #expect(Self.storage(path) == Self.storage(b.path!)) }
      if let name = a.name, name.utf8.count > 15 { #expect(Self.storage(name) == Self.storage(b.name!)) }
    }
    #expect(compared > 5)
    #expect(!first.images.isEmpty)
    // Reports read alone make strings of their own.
    let symbol = alone.threads.flatMap(\.frames).compactMap(\.symbol).first { $0.utf8.count > 15 }!
    #expect(!first.threads.flatMap(\.frames).contains { Self.storage($0.symbol ?? "") == Self.storage(symbol) })
  }

  @Test("Looked-up JSON strings equal their decoding, with any escapes, through collisions")
  func jsonLookupsDecodeExactly() throws {
    var generator = Generator(state: 41)
    // A pool of texts, long enough to be kept, each written three ways (escapes chosen at random),
    // so that lookups repeat the same bytes, and the same text in other bytes.
    var pool: [(text: String, literals: [String])] = []
    for _ in 0..<40 {
      let length = 16 + generator.next(60)
      let text = (0..<length).map { _ in
        ModelStringReuseTests.alphabet[generator.next(ModelStringReuseTests.alphabet.count)]
      }.joined()
      pool.append((text, (0..<3).map { _ in ModelStringReuseTests.encoded(text, &generator) }))
    }
    for slotCount in [16, 8192] {
      let table = SharedTexts(slotCount: slotCount)
      for _ in 0..<2_000 {
        let (text, literals) = pool[generator.next(pool.count)]
        let literal = literals[generator.next(literals.count)]
        let document = try Array("[\(literal)]".utf8).withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
        document.withRoot { root in
          for node in root.elements {
            let answer = table.handle.text(node, decode: FieldDecoder.text)
            #expect(answer == text, "\(literal)")
            #expect(Array(answer.utf8) == Array(FieldDecoder.text(node).utf8))
          }
        }
      }
      #expect(table.hits > 100)
    }
  }

  @Test("Legacy bytes and JSON strings in one table: a backslash in text is not an escape")
  func bytesAndJSONDoNotMix() throws {
    let table = SharedTexts()
    let raw = #"\/usr\/lib\/system\/libsystem_kernel.dylib"#
    let document = try Array("[\"\(raw)\"]".utf8).withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
    func fromJSON() -> String {
      document.withRoot { root in root.elements.map { table.handle.text($0, decode: FieldDecoder.text) }.first! }
    }
    func fromBytes(_ text: String) -> String {
      Array(text.utf8).withUnsafeBufferPointer { table.handle.text($0) { String(decoding: $0, as: UTF8.self) } }
    }
    // The same raw bytes hash to the same slot: turn about, each read replaces the other's text.
    for _ in 0..<3 {
      #expect(fromBytes(raw) == raw)
      #expect(fromJSON() == "/usr/lib/system/libsystem_kernel.dylib")
    }
    #expect(table.hits == 0)
    // Each repeated is answered from the table (the JSON string was read last above).
    for _ in 0..<3 { #expect(fromJSON() == "/usr/lib/system/libsystem_kernel.dylib") }
    for _ in 0..<3 { #expect(fromBytes(raw) == raw) }
    #expect(table.hits == 5)
    // A text read as bytes shares a JSON string's slot when its bytes are the JSON string's.
    let plain = "/usr/lib/system/libsystem_pthread.dylib"
    let plainDocument = try Array("[\"\(plain)\"]".utf8).withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
    #expect(
      plainDocument.withRoot { $0.elements.map { table.handle.text($0, decode: FieldDecoder.text) }.first! } == plain)
    #expect(fromBytes(plain) == plain)
    #expect(table.hits == 6)
  }

  @Test("Invalid UTF-8 is repaired every time, never answered from the table")
  func invalidBytesRepair() {
    let table = SharedTexts()
    let bytes: [UInt8] = Array("/private/var/containers/".utf8) + [0xFF, 0xC3] + Array("Bundle/App".utf8)
    let expected = String(decoding: bytes, as: UTF8.self)
    for _ in 0..<3 {
      let answer = bytes.withUnsafeBufferPointer { table.handle.text($0) { String(decoding: $0, as: UTF8.self) } }
      #expect(answer == expected)
    }
    #expect(table.hits == 0)
    #expect(table.stores == 3)
  }

  @Test("Only texts of 16 to 512 bytes are kept")
  func keptLengths() {
    for (length, kept) in [(15, false), (16, true), (512, true), (513, false)] {
      let table = SharedTexts()
      let bytes = Array(repeating: UInt8(ascii: "a"), count: length)
      for _ in 0..<3 {
        let answer = bytes.withUnsafeBufferPointer { table.handle.text($0) { String(decoding: $0, as: UTF8.self) } }
        #expect(answer.utf8.count == length)
      }
      #expect(table.hits == (kept ? 2 : 0), "length \(length)")
    }
  }
}
