import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Legacy text with a flood of thread headers (repeated, numbered one to ten thousand, or with
/// numbers far past any real thread) reads in time linear in its lines, and what it allocates is
/// sized by the lines there are, never by a thread number or by the lines left in the file.
@Suite("Hostile input: floods of legacy thread headers")
struct ThreadHeaderFloodTests {
  static let header = "Incident Identifier: 1\nException Type:  EXC_CRASH (SIGABRT)\n\n"

  static func read(_ lines: some Sequence<String>) throws -> CrashReport {
    try ReportReader.read(Array((header + lines.joined(separator: "\n") + "\n").utf8))
  }

  /// Frames reserved over all threads: what sizing the frame lists allocated.
  static func reservedFrames(_ report: CrashReport) -> Int {
    report.threads.reduce(0) { $0 + $1.frames.capacity }
  }

  @Test("80,000 repeated 'Thread 0 Crashed:' lines are one crashed thread, each header sized alone")
  func repeatedHeader() throws {
    let count = 80_000
    let report = try Self.read(repeatElement("Thread 0 Crashed:", count: count))
    #expect(report.threads.count == 1)
    #expect(report.threads.first?.triggered == true)
    #expect(Self.reservedFrames(report) == 0)
    // Sizing a header's frames looks only at the lines of its own block: none here.
    let text = Array(repeatElement("Thread 0 Crashed:\n", count: 1_000).joined().utf8)
    text.withUnsafeBufferPointer { bytes in
      #expect(LegacyTextReader.framesAhead(bytes, from: 18) == 0)
    }
  }

  @Test("'Thread N:' for N from 1 to 10,000 is 10,000 threads with no frames reserved")
  func numberedHeaders() throws {
    let report = try Self.read((1...10_000).lazy.map { "Thread \($0):" })
    #expect(report.threads.count == 10_000)
    #expect(report.threads.last?.index == 10_000)
    #expect(Self.reservedFrames(report) == 0)
  }

  @Test("Thread numbers past any real thread are read without allocating by number")
  func hugeNumbers() throws {
    let numbers = ["2147483647", "9223372036854775807", "18446744073709551615", String(repeating: "9", count: 400)]
    let lines = numbers.flatMap { ["Thread \($0) Crashed:", "Thread \($0):"] }
    let report = try Self.read(Array(repeating: lines, count: 100).flatMap { $0 })
    #expect(report.threads.count <= numbers.count)
    #expect(Self.reservedFrames(report) == 0)
  }

  @Test("Lines too short to be frames reserve nothing; real frame lines are sized exactly")
  func shortLines() throws {
    let short = try Self.read(["Thread 0 Crashed:"] + Array(repeating: "0", count: 100_000))
    #expect(Self.reservedFrames(short) == 0)
    let frame = "0   libsystem_kernel.dylib        \t0x00000001e87e6f5c __pthread_kill + 8"
    let real = try Self.read(["Thread 0 Crashed:"] + Array(repeating: frame, count: 500) + ["", "Thread 1:", frame])
    #expect(real.threads.map(\.frames.count) == [500, 1])
    #expect(real.threads[0].frames.capacity < 2 * 500)
  }
}
