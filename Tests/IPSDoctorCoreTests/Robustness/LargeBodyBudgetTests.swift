import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// A report too large to keep whole (over `BodyBudget.wholeBodyLimit`) keeps the top of each long
/// list and says what it did not keep; its diagnosis stands when what it rests on was kept, and is
/// no longer `definite` when the budget cut more than long lists' tails. `Benchmarks/tools/peak-memory.sh`
/// measures the memory this keeps within twice a report's size.
@Suite("Hostile input: reports too large to keep whole")
struct LargeBodyBudgetTests {
  static let asyncBridge = "reports/async-bridge-didreceive-simplified-symbols.ips"
  static let legacy = "reports/legacy-ios-triggered-by-thread-dispatch-queue.crash"

  /// `text` with `insert` put in just before the first `marker` after the last `after`.
  static func inserting(_ insert: String, into text: String, before marker: String, after: String) throws -> String {
    let anchor = try #require(text.ranges(of: after).last)
    let at = try #require(text[anchor.upperBound...].range(of: marker))
    return String(text[..<at.lowerBound]) + insert + String(text[at.lowerBound...])
  }

  /// Copies of `item` until they fill more than `bytes`.
  static func filling(_ bytes: Int, with item: (Int) -> String) -> (text: String, count: Int) {
    var text = ""
    var count = 0
    while text.utf8.count <= bytes {
      text += item(count)
      count += 1
    }
    return (text, count)
  }

  static func expectSameDiagnosis(_ original: CrashReport, _ large: CrashReport, confidence: Confidence? = nil) {
    let before = Doctor.diagnose(original)
    let after = Doctor.diagnose(large)
    #expect(!before.diagnoses.isEmpty)
    #expect(after.diagnoses.first?.ruleID == before.diagnoses.first?.ruleID)
    #expect(after.diagnoses.first?.confidence == (confidence ?? before.diagnoses.first?.confidence))
  }

  @Test("A JSON thread a million frames deep keeps the top of its stack and says how many it had")
  func deepJSONThread() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.asyncBridge), as: UTF8.self)
    let frames = Self.filling(BodyBudget.wholeBodyLimit) {
      #",{"imageOffset":\#(1_000 + $0),"symbol":"recurse(_:)","symbolLocation":12,"imageIndex":0}"#
    }
    let text = try Self.inserting(frames.text, into: fixture, before: "]}]", after: #""frames":["#)
    let original = try ReportReader.read(Array(fixture.utf8))
    let large = try ReportReader.read(Array(text.utf8))
    let crashed = try #require(large.faultingThread)
    let originalCount = original.threads[crashed].frames.count

    #expect(large.threads[crashed].frames.count == BodyBudget.maxArrayElements)
    #expect(large.threads[crashed].frames.prefix(originalCount).elementsEqual(original.threads[crashed].frames))
    #expect(large.threads.count == original.threads.count && large.images == original.images)
    #expect(!large.isAbridged)
    let warning = try #require(large.warnings.first)
    #expect(large.warnings.count == 1)
    #expect(warning.location == "threads[\(crashed)].frames")
    #expect(
      warning.message
        == "kept \(BodyBudget.maxArrayElements) of its \(originalCount + frames.count) elements: the report is too large to keep whole"
    )
    Self.expectSameDiagnosis(original, large)
  }

  @Test("A JSON body cut past its outline keeps its threads and images, and its diagnosis is not definite")
  func abridgedJSON() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.asyncBridge), as: UTF8.self)
    let frames = (0..<80).map { #"{"imageOffset":\#($0),"symbol":"work","symbolLocation":4,"imageIndex":7}"# }
    let threads = Self.filling(BodyBudget.wholeBodyLimit) {
      #",{"id":\#(9_000_000 + $0),"frames":[\#(frames.joined(separator: ","))]}"#
    }
    #expect(threads.count < BodyBudget.maxArrayElements)
    // After the last (crashed) thread, before the end of the thread list.
    let text = try Self.inserting(threads.text, into: fixture, before: "],\n", after: #""threads" :"#)
    let original = try ReportReader.read(Array(fixture.utf8))
    let large = try ReportReader.read(Array(text.utf8))
    let crashed = try #require(large.faultingThread)

    #expect(large.isAbridged)
    #expect(large.threads.count == original.threads.count + threads.count)
    #expect(large.threads[crashed].frames == original.threads[crashed].frames)
    #expect(large.images == original.images)
    #expect(large.threads.last?.frames.isEmpty == true)
    #expect(large.warnings.first?.location == "body")
    #expect(large.warnings.contains { $0.location.hasSuffix("].frames") && $0.message.hasPrefix("kept ") })
    #expect(large.warnings.last?.message.hasSuffix("values not kept)") == true)
    Self.expectSameDiagnosis(original, large, confidence: .likely)
    let summary = try #require(Doctor.diagnose(large).diagnoses.first?.summary)
    #expect(summary.hasSuffix("(The report was too large to keep whole; this was read from the part kept.)"))
  }

  @Test("In an abridged JSON body, the crashed thread is read again alone and keeps the top of its stack")
  func deepCrashedThreadInAnAbridgedBody() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.asyncBridge), as: UTF8.self)
    let deep = (0..<10_000).map { #",{"imageOffset":\#(1_000 + $0),"symbol":"recurse(_:)","imageIndex":0}"# }
    var text = try Self.inserting(deep.joined(), into: fixture, before: "]}]", after: #""frames":["#)
    let frames = (0..<80).map { #"{"imageOffset":\#($0),"symbol":"work","symbolLocation":4,"imageIndex":7}"# }
    let threads = Self.filling(BodyBudget.wholeBodyLimit) {
      #"{"id":\#(9_000_000 + $0),"frames":[\#(frames.joined(separator: ","))]},"#
    }
    #expect(threads.count < BodyBudget.maxArrayElements)
    // Before the crashed thread: the outline is spent by the time it is read.
    let original = try ReportReader.read(Array(fixture.utf8))
    let originalCrashed = try #require(original.faultingThread)
    text = try Self.inserting(threads.text, into: text, before: #"{"triggered":true"#, after: #""threads" :"#)
    text = text.replacingOccurrences(
      of: #""faultingThread" : \#(originalCrashed),"#, with: #""faultingThread" : \#(originalCrashed + threads.count),"#
    )
    let large = try ReportReader.read(Array(text.utf8))
    let crashed = try #require(large.faultingThread)
    #expect(crashed == originalCrashed + threads.count)
    let originalCount = original.threads[originalCrashed].frames.count

    #expect(large.isAbridged)
    #expect(large.threads[crashed].frames.count == BodyBudget.maxArrayElements)
    #expect(
      large.threads[crashed].frames.prefix(originalCount).elementsEqual(original.threads[originalCrashed].frames))
    #expect(large.threads[crashed - 1].frames.isEmpty)
    #expect(
      large.warnings.first?.description
        == "threads[\(crashed)].frames: kept \(BodyBudget.maxArrayElements) of its \(originalCount + deep.count) elements: the report is too large to keep whole"
    )
    Self.expectSameDiagnosis(original, large, confidence: .likely)
  }

  @Test("A JSON crashed thread past the thread list's limit is kept whole, under its own number")
  func crashedJSONThreadPastTheLimit() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.asyncBridge), as: UTF8.self)
    let original = try ReportReader.read(Array(fixture.utf8))
    let crashed = try #require(original.faultingThread)
    let frames = (0..<15).map { #"{"imageOffset":\#($0),"symbol":"wait","symbolLocation":4,"imageIndex":7}"# }
    let threads = Self.filling(BodyBudget.wholeBodyLimit) {
      #"{"id":\#(9_000_000 + $0),"frames":[\#(frames.joined(separator: ","))]},"#
    }
    #expect(threads.count > BodyBudget.maxArrayElements)
    // The new threads go just before the crashed one, which moves down the list by as many.
    var text = try Self.inserting(threads.text, into: fixture, before: #"{"triggered":true"#, after: #""threads" :"#)
    text = text.replacingOccurrences(
      of: #""faultingThread" : \#(crashed),"#, with: #""faultingThread" : \#(crashed + threads.count),"#)
    let large = try ReportReader.read(Array(text.utf8))

    #expect(large.threads.count == BodyBudget.maxArrayElements + 1)
    let kept = try #require(large.faultingThread)
    #expect(kept == BodyBudget.maxArrayElements)
    #expect(large.threads[kept].index == crashed + threads.count)
    // The other threads' frames were cut past the outline; the crashed thread was read again alone.
    #expect(large.isAbridged)
    #expect(large.threads[kept].frames == original.threads[crashed].frames)
    #expect(!large.warnings.contains { $0.location.hasPrefix("threads[\(crashed + threads.count)]") })
    #expect(!large.warnings.contains { $0.message.contains("out of range") })
    Self.expectSameDiagnosis(original, large, confidence: .likely)
  }

  @Test("A text thread a million frames deep keeps the top of its stack and says how many it had")
  func deepTextThread() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.legacy), as: UTF8.self)
    let frames = Self.filling(BodyBudget.wholeBodyLimit) {
      "\n\(14 + $0)  Acme                          \t       0x\(String(0x100e4_8150 + $0, radix: 16)) recurse(_:) + 12"
    }
    let text = try Self.inserting(frames.text, into: fixture, before: "\n\nThread 4:", after: "Thread 3 Crashed:")
    let original = try ReportReader.read(Array(fixture.utf8))
    let large = try ReportReader.read(Array(text.utf8))
    let crashed = try #require(large.threads.firstIndex { $0.triggered })
    let originalCount = original.threads[crashed].frames.count

    #expect(large.threads[crashed].frames.count == BodyBudget.maxArrayElements)
    #expect(large.threads[crashed].frames.prefix(originalCount).elementsEqual(original.threads[crashed].frames))
    #expect(large.threads.count == original.threads.count && large.images == original.images)
    #expect(!large.isAbridged)
    #expect(
      large.warnings.map(\.description)
        == [
          "Thread 3: kept \(BodyBudget.maxArrayElements) of its \(originalCount + frames.count) frames: the report is too large to keep whole"
        ])
    Self.expectSameDiagnosis(original, large)
  }

  @Test("A text report of a million threads keeps the first ones and the crashed one")
  func manyTextThreads() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.legacy), as: UTF8.self)
    let threads = Self.filling(BodyBudget.wholeBodyLimit) {
      "Thread \(100 + $0):\n0   libsystem_pthread.dylib       \t       0x2264e9ba0 start_wqthread + 0\n\n"
    }
    // The new threads come before the crashed one, which comes past the list's limit.
    let text = try Self.inserting(threads.text, into: fixture, before: "Thread 3 name:", after: "Thread 2:")
    let original = try ReportReader.read(Array(fixture.utf8))
    let large = try ReportReader.read(Array(text.utf8))

    // Threads 0 to 2, the new ones up to the limit, and thread 3, which the header names.
    #expect(large.threads.count == BodyBudget.maxArrayElements + 1)
    let crashed = try #require(large.threads.first { $0.triggered })
    let originalCrashed = try #require(original.threads.first { $0.triggered })
    #expect(crashed.index == 3 && crashed.frames == originalCrashed.frames)
    #expect(
      large.warnings.contains {
        $0.location == "threads" && $0.message.hasPrefix("kept \(BodyBudget.maxArrayElements) of its ")
      })
    Self.expectSameDiagnosis(original, large)
  }

  @Test("symbolicate writes every byte of a report too large to keep whole, and says so")
  func symbolicateKeepsEveryByte() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.asyncBridge), as: UTF8.self)
    let frames = Self.filling(BodyBudget.wholeBodyLimit) {
      #",{"imageOffset":\#(1_000 + $0),"imageIndex":0}"#
    }
    let text = try Self.inserting(frames.text, into: fixture, before: "]}]", after: #""frames":["#)
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let path = folder.appendingPathComponent("deep.ips").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let run = CLITest.run(["symbolicate", path])
    // No dSYM at hand: written whole, nothing symbolicated (exit 1).
    #expect(run.status == .findings)
    #expect(run.stdout == text)
    #expect(run.stderr.contains("the report is too large to keep whole: frames past the first 4096 of a list"))
  }

  @Test("A text body past its total keeps the crashed thread's frames, and its diagnosis is not definite")
  func abridgedText() throws {
    let fixture = String(decoding: try Fixtures.bytes(Self.legacy), as: UTF8.self)
    let frames = (0..<80).map {
      "\($0)   libsystem_kernel.dylib        \t       0x1e8d2\(String(1000 + $0, radix: 16)) mach_msg + 8"
    }
    let threads = Self.filling(BodyBudget.wholeBodyLimit) {
      "Thread \(100 + $0):\n" + frames.joined(separator: "\n") + "\n\n"
    }
    #expect(threads.count < BodyBudget.maxArrayElements)
    let text = try Self.inserting(threads.text, into: fixture, before: "Thread 3 name:", after: "Thread 2:")
    let original = try ReportReader.read(Array(fixture.utf8))
    let large = try ReportReader.read(Array(text.utf8))

    #expect(large.isAbridged)
    let crashed = try #require(large.threads.first { $0.triggered })
    let originalCrashed = try #require(original.threads.first { $0.triggered })
    #expect(crashed.frames == originalCrashed.frames)
    #expect(large.threads.last?.frames.isEmpty == true)
    #expect(large.warnings.first?.location == "body")
    Self.expectSameDiagnosis(original, large, confidence: .likely)
  }

  @Test("A report within the limit is read whole, as before")
  func withinTheLimit() throws {
    #expect(BodyBudget.forBody(bytes: BodyBudget.wholeBodyLimit) == nil)
    #expect(LegacyListBudget.forBody(bytes: BodyBudget.wholeBodyLimit) == nil)
    let budget = try #require(BodyBudget.forBody(bytes: 64 << 20))
    // One tape entry per 128 bytes at most: 16 bytes of tape for 128 of text.
    #expect(budget.maxEntries == (64 << 20) / 128 && budget.outlineEntries < budget.maxEntries)
  }
}
