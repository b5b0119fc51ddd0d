import Testing

@testable import IPSDoctorJSON

/// `JSONWriter(sink:)`: the same text as a writer that keeps it, handed on in chunks of whole
/// values, a long string on its own.
@Suite("JSON writer: writing to a sink")
struct JSONWriterSinkTests {
  /// The chunks a sink-writer hands on for `value`, flushed at the end.
  private func chunks(_ value: JSONValue, style: JSONWriter.Style = .pretty) -> [String] {
    var received: [String] = []
    var writer = JSONWriter(style: style, sink: { received.append(String(decoding: $0, as: UTF8.self)) })
    writer.write(value, indent: 0)
    writer.flush()
    return received
  }

  @Test("A small value arrives in one chunk, exactly as a kept writer writes it")
  func smallValue() {
    let value: JSONValue = .object(["a": .int(1), "b": .array([.string("x"), .null, .bool(true)])])
    for style in [JSONWriter.Style.pretty, .compact] {
      #expect(chunks(value, style: style) == [JSONWriter.string(value, style: style)])
    }
  }

  @Test("Nothing written, nothing handed on")
  func nothing() {
    var count = 0
    var writer = JSONWriter(sink: { _ in count += 1 })
    writer.flush()
    #expect(count == 0)
  }

  @Test("A long string is a chunk of its own, between what comes before and after it")
  func longString() {
    let long = String(repeating: "ab\"", count: JSONWriter.flushSize / 3 + 1)
    let value: JSONValue = .object(["before": .int(1), "text": .string(long), "after": .int(2)])
    #expect(
      chunks(value, style: .compact) == [
        #"{"before":1,"text":"#, JSONWriter.quoted(long), #","after":2}"#,
      ])
  }

  @Test("Many small values arrive in chunks of about the flush size, joined as a kept writer writes them")
  func manySmallValues() {
    let value: JSONValue = .array((0..<20_000).map { .string("element \($0)") })
    let received = chunks(value)
    #expect(received.joined() == JSONWriter.string(value))
    #expect(received.count > 3)
    #expect(received.dropLast().allSatisfy { $0.utf8.count >= JSONWriter.flushSize })
    #expect(received.allSatisfy { $0.utf8.count < JSONWriter.flushSize + 64 })
  }
}
