import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// A report with many more threads, frames and images than usual (a thread explosion, a deep
/// recursion, a process with thousands of libraries) is the same report to read and diagnose:
/// every list comes through whole and the diagnosis does not change. `Benchmarks/run.sh` times the
/// same kind of report at 1 to 3,000 times the size (`make_scaled.py`); this is what keeps those
/// figures honest.
@Suite("Hostile input: reports grown many times over")
struct GrownReportTests {
  static let factor = 40

  @Test("A JSON report with every list grown keeps every element and its diagnosis")
  func grownJSON() throws {
    let bytes = try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips")
    let original = try ReportReader.read(bytes)
    let grown = try ReportReader.read(try Self.grownJSON(bytes, factor: Self.factor))
    let crashed = try #require(original.faultingThread)
    let k = Self.factor

    #expect(grown.threads.count == original.threads.count + (k - 1) * (original.threads.count - 1))
    #expect(grown.threads[crashed].frames.count == k * original.threads[crashed].frames.count)
    #expect(grown.images.count == k * original.images.count)
    #expect(grown.applicationSpecificLines.count == k * original.applicationSpecificLines.count)
    #expect(grown.warnings.isEmpty, "\(grown.warnings)")
    // The copies are what they were made from, thread by thread and image by image.
    let others = original.threads.indices.filter { $0 != crashed }
    for (offset, index) in grown.threads.indices.dropFirst(original.threads.count).enumerated() {
      #expect(grown.threads[index].frames == original.threads[others[offset % others.count]].frames)
    }
    #expect(Set(grown.images.map(\.base)).count == grown.images.count)

    Self.expectSameDiagnosis(original, grown)
  }

  @Test("A legacy text report with every list grown keeps every element and its diagnosis")
  func grownText() throws {
    let fixture = try Fixtures.bytes("reports/legacy-ios-triggered-by-thread-dispatch-queue.crash")
    let text = String(decoding: fixture, as: UTF8.self)
    let original = try ReportReader.read(Array(text.utf8))
    let grown = try ReportReader.read(Array(try Self.grownText(text, factor: Self.factor).utf8))
    let crashed = try #require(original.threads.firstIndex { $0.triggered })
    let k = Self.factor

    #expect(grown.threads.count == original.threads.count + (k - 1) * (original.threads.count - 1))
    #expect(grown.threads[crashed].frames.count == k * original.threads[crashed].frames.count)
    #expect(grown.images.count == k * original.images.count)
    #expect(grown.warnings.isEmpty, "\(grown.warnings)")
    // A frame far down the grown thread still finds its image by address.
    let last = try #require(grown.threads[crashed].frames.last)
    let lastOriginal = try #require(original.threads[crashed].frames.last)
    #expect(last.imageName == lastOriginal.imageName && last.address == lastOriginal.address)

    Self.expectSameDiagnosis(original, grown)
  }

  private static func expectSameDiagnosis(_ original: CrashReport, _ grown: CrashReport) {
    let before = Doctor.diagnose(original)
    let after = Doctor.diagnose(grown)
    #expect(!before.diagnoses.isEmpty)
    #expect(after.diagnoses.map(\.ruleID) == before.diagnoses.map(\.ruleID))
    #expect(after.diagnoses.map(\.confidence) == before.diagnoses.map(\.confidence))
  }

  /// The crashed thread's frames `factor` times over, the other threads copied `factor - 1` times
  /// (new ids), `factor - 1` new images per image (new base, UUID, name, path) and every
  /// Application Specific Information line `factor` times.
  static func grownJSON(_ bytes: [UInt8], factor: Int) throws -> [UInt8] {
    let newline = try #require(bytes.firstIndex(of: 0x0A))
    guard case .object(var body) = try JSONParser.parse(Array(bytes[(newline + 1)...])) else {
      Issue.record("the fixture's body is not an object")
      return bytes
    }
    let crashed = try #require(body["faultingThread"]?.numberValue?.int)
    var threads = try #require(body["threads"]?.arrayValue)
    let others = threads.indices.filter { $0 != crashed }.map { threads[$0] }
    if case .object(var thread) = threads[crashed], let frames = thread["frames"]?.arrayValue {
      thread.set("frames", .array(Array(repeating: frames, count: factor).flatMap { $0 }))
      threads[crashed] = .object(thread)
    }
    for _ in 1..<factor {
      for case .object(var thread) in others {
        thread.set("id", .int(900_000 + threads.count))
        threads.append(.object(thread))
      }
    }
    body.set("threads", .array(threads))

    var images = try #require(body["usedImages"]?.arrayValue)
    let originals = images
    for copy in 1..<factor {
      for case (let index, .object(var image)) in originals.enumerated() {
        let number = copy * originals.count + index
        image.set("base", .int(0x3_0000_0000 + number * 0x10_0000))
        image.set("uuid", .string("00000000-0000-4000-8000-\(String.hex(UInt64(number + 1), width: 12).dropFirst(2))"))
        image.set("name", .string("Grown\(number)"))
        image.set("path", .string("/usr/lib/grown/Grown\(number).dylib"))
        images.append(.object(image))
      }
    }
    body.set("usedImages", .array(images))

    if case .object(var asi) = body["asi"] {
      for index in asi.members.indices {
        if let lines = asi.members[index].value.arrayValue {
          asi.members[index].value = .array(Array(repeating: lines, count: factor).flatMap { $0 })
        }
      }
      body.set("asi", .object(asi))
    }
    return Array(bytes[...newline]) + Array(JSONWriter.string(.object(body)).utf8)
  }

  /// The crashed thread's frames `factor` times over (renumbered), the other threads copied
  /// `factor - 1` times (renumbered) and `factor - 1` new binary images per image.
  static func grownText(_ text: String, factor: Int) throws -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func isFrame(_ line: String) -> Bool { line.first?.isNumber == true }

    // Binary images: new ones after the last.
    let imagesStart = try #require(lines.firstIndex { $0.hasPrefix("Binary Images:") })
    let imageLines = lines[(imagesStart + 1)...].filter { $0.contains(" - ") && $0.contains("0x") }
    var newImages: [String] = []
    for copy in 1..<factor {
      for index in imageLines.indices {
        let number = copy * imageLines.count + index
        let base = 0x3_0000_0000 + number * 0x10_0000
        let range = "\(String.hex(UInt64(base))) -        \(String.hex(UInt64(base + 0xF_FFFF)))"
        let uuid = String.hex(UInt64(number + 1), width: 32).dropFirst(2)
        newImages.append("       \(range) Grown\(number) arm64  <\(uuid)> /usr/lib/grown/Grown\(number).dylib")
      }
    }
    lines.insert(contentsOf: newImages, at: imagesStart + 1 + imageLines.count)

    // Threads: blocks from "Thread N…" to the blank line; copies go after the last block.
    var blocks: [(range: Range<Int>, crashed: Bool)] = []
    var index = 0
    while index < imagesStart {
      if lines[index].hasPrefix("Thread "), !lines[index].contains("crashed with") {
        let start = index
        while index < lines.count && !lines[index].isEmpty { index += 1 }
        blocks.append((start..<index, lines[start..<index].contains { $0.hasSuffix("Crashed:") }))
      } else {
        index += 1
      }
    }
    var number = blocks.count
    var copies: [String] = []
    for _ in 1..<factor {
      for block in blocks where !block.crashed {
        copies.append("")
        for line in lines[block.range] {
          if line.hasPrefix("Thread ") {
            copies.append("Thread \(number)\(line.dropFirst("Thread ".count).drop { $0.isNumber })")
          } else {
            copies.append(line)
          }
        }
        number += 1
      }
    }
    let lastBlockEnd = try #require(blocks.last).range.upperBound
    lines.insert(contentsOf: copies, at: lastBlockEnd)

    // The crashed thread's frames, renumbered, after its last.
    let crashedBlock = try #require(blocks.first { $0.crashed }).range
    let frames = lines[crashedBlock].filter(isFrame)
    var extra: [String] = []
    for position in frames.count..<(factor * frames.count) {
      let frame = frames[position % frames.count].drop { $0.isNumber }.drop { $0 == " " }
      extra.append("\(String(position).padding(toLength: 3, withPad: " ", startingAt: 0)) \(frame)")
    }
    lines.insert(contentsOf: extra, at: crashedBlock.upperBound)
    return lines.joined(separator: "\n")
  }
}

extension JSONObject {
  /// Replaces the member named `key` (the last, as lookups read it), or adds one.
  fileprivate mutating func set(_ key: String, _ value: JSONValue) {
    if let index = members.lastIndex(where: { $0.key == key }) {
      members[index].value = value
    } else {
      append(key, value)
    }
  }
}
