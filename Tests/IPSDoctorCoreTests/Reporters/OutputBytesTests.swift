import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

/// The writers' byte buffers: ``ByteBuffer`` (the JSON writer's) keeps every byte as it grows, and
/// ``TextOutput`` hands its sinks every byte once, in order, in chunks of whole text.
@Suite struct OutputBytesTests {
  @Test("A byte buffer holds every byte appended, across growth")
  func byteBufferHoldsEveryByte() {
    var buffer = ByteBuffer(capacity: 1)
    var expected: [UInt8] = []
    for round in 0..<600 {
      let word = Array("w\(round)·".utf8)
      word.withUnsafeBufferPointer { buffer.append($0) }
      expected += word
      buffer.append(UInt8(ascii: ","))
      buffer.append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
      buffer.append("“x”" as StaticString)
      expected += Array(",\\n“x”".utf8)
    }
    #expect(buffer.count == expected.count)
    #expect(buffer.withUnsafeBytes { Array($0) } == expected)
    // One append larger than twice the capacity.
    let large = [UInt8](repeating: 0x41, count: 3 * buffer.count + 5)
    large.withUnsafeBytes { buffer.append($0) }
    #expect(buffer.withUnsafeBytes { Array($0) } == expected + large)
  }

  /// What a sink saw: each chunk, and whether it came as bytes.
  final class Recorder {
    var chunks: [(bytes: [UInt8], asBytes: Bool)] = []
    var joined: [UInt8] { chunks.flatMap(\.bytes) }
  }

  static func output(_ recorder: Recorder, bytesSink: Bool, failAfter: Int = .max) -> TextOutput {
    TextOutput(
      sink: { text in
        recorder.chunks.append((Array(text.utf8), false))
        return recorder.chunks.count < failAfter
      },
      bytesSink: bytesSink
        ? { bytes in
          recorder.chunks.append((Array(bytes), true))
          return recorder.chunks.count < failAfter
        } : nil)
  }

  @Test("Text and bytes come out in the order written, in chunks of whole UTF-8", arguments: [true, false])
  func textOutputKeepsOrderAndWholeText(bytesSink: Bool) {
    let recorder = Recorder()
    let out = Self.output(recorder, bytesSink: bytesSink)
    var expected: [UInt8] = []
    let large = String(repeating: "é—", count: TextOutput.capacity / 3)
    for index in 0..<3_000 {
      let text = index % 1_000 == 999 ? large : "report \(index) — “ok”\n"
      if index % 2 == 0 {
        out.write(text)
      } else {
        Array(text.utf8).withUnsafeBytes { out.write(utf8: $0) }
      }
      expected += text.utf8
    }
    out.flush()
    // Compared as a flag, with the first difference named: a failed comparison of the arrays
    // themselves prints both, hundreds of kilobytes each.
    let written = recorder.joined
    let firstDifference =
      zip(written, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(written.count, expected.count)
    let same = written == expected
    #expect(same, "\(written.count) bytes written, \(expected.count) expected, first difference at \(firstDifference)")
    #expect(recorder.chunks.count > 1)
    for chunk in recorder.chunks {
      #expect(chunk.asBytes == bytesSink)
      #expect(String(validating: chunk.bytes, as: UTF8.self) != nil)
      #expect(chunk.bytes.count <= TextOutput.capacity || chunk.bytes.count == large.utf8.count)
    }
  }

  @Test("After a sink fails, nothing more is written and the failure is kept")
  func textOutputStopsAfterAFailure() {
    let recorder = Recorder()
    let out = Self.output(recorder, bytesSink: true, failAfter: 1)
    let text = String(repeating: "x", count: TextOutput.capacity - 1)
    out.write(text)
    out.write(text)  // the first is delivered, and fails
    #expect(out.failed)
    out.write(text)
    out.flush()
    #expect(recorder.chunks.count == 1)
  }
}
