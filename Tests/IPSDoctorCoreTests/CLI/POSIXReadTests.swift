import Foundation
import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``POSIX/readAll(fd:sizeHint:limit:truncate:)`` reads into memory it has not filled first, so
/// every byte it returns must be one that `read` wrote: whatever size the caller expected, however
/// the input grows past it, and at every edge of the limit.
@Suite struct POSIXReadTests {
  /// Bytes that no zero-filled or shifted buffer could pass for: every position's own value.
  static func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ 1) }
  }

  /// Writes `bytes` to a new file and reads it back through `readAll` with the given hint.
  static func readBack(
    _ bytes: [UInt8], sizeHint: Int, limit: Int, truncate: Bool = false
  ) throws -> Result<[UInt8], FileError> {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let file = directory.appendingPathComponent("input.ips")
    try Data(bytes).write(to: file)
    let fd = open(file.path, O_RDONLY)
    try #require(fd >= 0)
    defer { close(fd) }
    return POSIX.readAll(fd: fd, sizeHint: sizeHint, limit: limit, truncate: truncate)
  }

  @Test(
    "Every byte comes back whether the hint is right, short, long or zero",
    arguments: [0, 1, 4095, 4096, 4097, 70_000, 300_000])
  func readsEveryByte(count: Int) throws {
    let bytes = Self.pattern(count)
    for hint in [count, 0, count / 3, count + 5000] {
      let read = try Self.readBack(bytes, sizeHint: hint, limit: 1 << 30)
      #expect(try read.get() == bytes, "\(count) bytes with a hint of \(hint)")
    }
  }

  @Test("A file of exactly the limit is read; one byte more is too large, or cut under truncate")
  func limitEdges() throws {
    let limit = 10_000
    let exact = Self.pattern(limit)
    #expect(try Self.readBack(exact, sizeHint: limit, limit: limit).get() == exact)
    #expect(try Self.readBack(exact, sizeHint: 0, limit: limit).get() == exact)

    let over = Self.pattern(limit + 1)
    for hint in [0, limit, limit + 1] {
      let refused = try Self.readBack(over, sizeHint: hint, limit: limit)
      guard case .failure(let error) = refused else {
        Issue.record("\(limit + 1) bytes, hint \(hint), were read under a limit of \(limit)")
        continue
      }
      #expect(error.reason == .tooLarge)
      let cut = try Self.readBack(over, sizeHint: hint, limit: limit, truncate: true)
      #expect(try cut.get() == Array(over.prefix(limit)))
    }
  }

  @Test("Input of unknown size past the largest piece is joined whole, and cut at the limit")
  func joinsManyPieces() throws {
    // 4 KiB, 64 KiB, then pieces that double up to 4 MiB: past 9 MB, several of the largest.
    let bytes = Self.pattern(9_000_001)
    #expect(try Self.readBack(bytes, sizeHint: 0, limit: 1 << 30).get() == bytes)
    let limit = 8_500_000
    #expect(try Self.readBack(bytes, sizeHint: 0, limit: limit, truncate: true).get() == Array(bytes.prefix(limit)))
    guard case .failure(let error) = try Self.readBack(bytes, sizeHint: 0, limit: limit) else {
      Issue.record("9,000,001 bytes were read under a limit of \(limit)")
      return
    }
    #expect(error.reason == .tooLarge)
  }

  @Test("A pipe, whose size nobody knows, is read whole across many reads")
  func readsAPipe() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    let bytes = Self.pattern(200_000)
    // The writer runs beside the reader: the pipe holds far less than this.
    let writer = Thread {
      bytes.withUnsafeBytes { raw in _ = POSIX.writeAll(writeEnd, raw) }
      close(writeEnd)
    }
    writer.start()
    let read = POSIX.readAll(fd: readEnd, sizeHint: 0, limit: 1 << 30)
    close(readEnd)
    #expect(try read.get() == bytes)
  }
}
