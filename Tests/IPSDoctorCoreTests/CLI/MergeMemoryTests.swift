import Foundation
import Testing

@testable import IPSDoctorJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `merge` reads a record from a tape over the part's own bytes: no copy of the line, no tree
/// of it, no reader or path string per element. What a record costs beyond its part is its tape
/// (16 bytes a value) and its outcome, measured here as the peak memory of the executable.
@Suite("Merge: memory per record", .serialized)
struct MergeMemoryTests {
  /// Runs the executable with `arguments` and returns its peak resident memory in bytes.
  static func peakBytes(_ arguments: [String]) throws -> Int {
    let executable = try #require(ProcessTest.executable)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
    #else
      var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid = pid_t()
    try #require(posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0)
    var status: Int32 = 0
    var usage = rusage()
    var waited = wait4(pid, &status, 0, &usage)
    while waited < 0 && errno == EINTR { waited = wait4(pid, &status, 0, &usage) }
    try #require(waited == pid, "wait4: errno \(errno)")
    #if os(Linux)
      return usage.ru_maxrss * 1024
    #else
      return usage.ru_maxrss
    #endif
  }

  /// Writes to `path` the record of `CLITest.diagnosed` with `count` copies of `element` (JSON
  /// text) at the start of the array `key` (of its first diagnosis, or of the record), written
  /// in pieces so that the test process stays small (a child's peak memory on Linux starts at its
  /// parent's). Returns the line's size.
  static func writeRecord(_ key: String, _ element: String, count: Int, to path: String) throws -> Int {
    let line = String(CLITest.run([CLITest.diagnosed, "--format", "jsonl"]).stdout.dropLast())
    let opening = try #require(line.range(of: "\"\(key)\":["))
    let head = Data(line[..<opening.upperBound].utf8)
    let tail = line[opening.upperBound...]
    let separated = tail.hasPrefix("]") ? String(tail) : "," + tail
    try #require(FileManager.default.createFile(atPath: path, contents: head))
    let file = try #require(FileHandle(forWritingAtPath: path))
    defer { try? file.close() }
    try file.seekToEnd()
    let chunk = 65_536
    let piece = Data(String(repeating: element + ",", count: chunk).utf8)
    for _ in 0..<(count - 1) / chunk { try file.write(contentsOf: piece) }
    try file.write(contentsOf: Data(String(repeating: element + ",", count: (count - 1) % chunk).utf8))
    try file.write(contentsOf: Data((element + separated + "\n").utf8))
    return head.count + (element.utf8.count + 1) * count - 1 + separated.utf8.count + 1
  }

  @Test(
    "A record of 8 M four-byte strings or a million small objects costs a bounded multiple of its line",
    arguments: [
      // (key, element, count, the most its peak may be, in lines)
      ("references", #""r""#, 8_000_000, 2),
      ("warnings", #"{"location":"l","message":"m"}"#, 1_000_000, 2),
    ])
  func peakPerLine(_ key: String, _ element: String, _ count: Int, _ bound: Int) throws {
    guard ProcessTest.available else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let small = directory.appendingPathComponent("small.jsonl").path
    _ = try Self.writeRecord(key, element, count: 1, to: small)
    let large = directory.appendingPathComponent("large.jsonl").path
    let size = try Self.writeRecord(key, element, count: count, to: large)
    // A child's peak is at least its parent's, this test process's: where that is above what a
    // record may cost, the measure says nothing (run the suite alone: about 110 MB, debug).
    let baseline = try Self.peakBytes(["merge", small, "--summary"])
    let peak = try Self.peakBytes(["merge", large, "--summary"])
    guard peak > baseline else { return }
    // Before records were read from the tape: 45 lines for the strings, 11 for the objects; before
    // lists were cut to 65,536 elements, 12 and 9.
    #expect(peak < bound * size, "peak \(peak) bytes, baseline \(baseline), line \(size)")
  }

  /// Writes to `path` the record of `CLITest.diagnosed` with a summary of `count` bytes (`x`) in its
  /// first diagnosis, `copies` times under paths of their own, in pieces. Returns the size of a line.
  static func writeLongText(count: Int, copies: Int, to path: String) throws -> Int {
    let line = String(CLITest.run([CLITest.diagnosed, "--format", "jsonl"]).stdout.dropLast())
    let summary = try #require(line.range(of: "\"summary\":\""))
    let pathKey = try #require(line.range(of: "\"path\":\""))
    #expect(pathKey.upperBound < summary.lowerBound)
    let beforePath = Data(line[..<pathKey.upperBound].utf8)
    let afterPath = line[pathKey.upperBound...]
    let pathEnd = try #require(afterPath.firstIndex(of: "\""))
    let middle = Data(line[pathEnd..<summary.upperBound].utf8)
    let tail = Data(line[summary.upperBound...].utf8) + Data("\n".utf8)
    try #require(FileManager.default.createFile(atPath: path, contents: nil))
    let file = try #require(FileHandle(forWritingAtPath: path))
    defer { try? file.close() }
    let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
    var size = 0
    for copy in 0..<copies {
      let name = Data(String(format: "crashes/%06d.ips", copy).utf8)
      try file.write(contentsOf: beforePath + name + middle)
      for _ in 0..<count / chunk.count { try file.write(contentsOf: chunk) }
      try file.write(contentsOf: chunk.prefix(count % chunk.count))
      try file.write(contentsOf: tail)
      size = beforePath.count + name.count + middle.count + count + tail.count
    }
    return size
  }

  @Test("A record with a 32 MB text is merged within twice its line, in jsonl and in json")
  func longTextWithinTwiceTheLine() throws {
    guard ProcessTest.available else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let small = directory.appendingPathComponent("small.jsonl").path
    _ = try Self.writeLongText(count: 1, copies: 1, to: small)
    let large = directory.appendingPathComponent("large.jsonl").path
    let size = try Self.writeLongText(count: 32 << 20, copies: 1, to: large)
    for format in ["jsonl", "json"] {
      let baseline = try Self.peakBytes(["merge", small, "--format", format])
      let peak = try Self.peakBytes(["merge", large, "--format", format])
      guard peak > baseline else { continue }
      // Before: the part, the line's text and the writer's buffer grown by doubling, 3 to 4 lines.
      #expect(peak - baseline < 2 * size, "\(format): peak \(peak) bytes, baseline \(baseline), line \(size)")
    }
  }

  @Test("A part's size does not count: 400 lines of 100 KB merge in the memory of one")
  func manyLinesInTheMemoryOfOne() throws {
    guard ProcessTest.available else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let one = directory.appendingPathComponent("one.jsonl").path
    let line = try Self.writeLongText(count: 100_000, copies: 1, to: one)
    let many = directory.appendingPathComponent("many.jsonl").path
    _ = try Self.writeLongText(count: 100_000, copies: 400, to: many)
    let peakOne = try Self.peakBytes(["merge", one, "--format", "jsonl"])
    let peakMany = try Self.peakBytes(["merge", many, "--format", "jsonl"])
    guard peakOne > 0 else { return }
    // Before, the part was held whole: 40 MB more than one line.
    #expect(peakMany - peakOne < 40 * line, "one line \(peakOne) bytes, 400 lines \(peakMany), line \(line)")
  }
}
