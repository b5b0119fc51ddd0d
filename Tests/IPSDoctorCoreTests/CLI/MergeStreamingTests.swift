import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorJSON
@testable import IPSDoctorSupport

/// `merge` reads a part a line at a time and holds only the line it decodes; a record keeps at
/// most the first 65,536 elements of a list (with a warning); records of an older ips-doctor
/// without `source` and `missing` read with the values that version meant.
@Suite("Merge: parts read a line at a time")
struct MergeStreamingTests {
  /// Every line `source` hands out: number, offset and bytes, and whether the array handed out
  /// held exactly the line (nothing more of the part than the carriage return that ends it).
  static func lines(_ source: MergePartSource) -> (lines: [(Int, Int, [UInt8])], exact: Bool, error: FileError?) {
    var lines: [(Int, Int, [UInt8])] = []
    var exact = true
    let error = source.forEachLine { number, offset, line in
      if line.bytes.count - line.range.count > 1 || line.range.lowerBound != 0 { exact = false }
      lines.append((number, offset, Array(line.bytes[line.range])))
    }
    return (lines, exact, error)
  }

  @Test("A file's lines are handed out one at a time, each in an array of its own size, and read again by offset")
  func fileLines() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: 3 * MergePartSource.chunkSize + 17)
    let short = Array("{\"a\":1}".utf8)
    // short, a long line ending in CR LF, an empty line, 2,000 short lines, a last line without a
    // line feed.
    var bytes = short + [0x0A] + long + [0x0D, 0x0A, 0x0A]
    for _ in 0..<2_000 { bytes += short + [0x0A] }
    bytes += short
    let path = directory.appendingPathComponent("part.jsonl").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let status = try POSIX.status(PathName(path)).get()
    let source = MergePartSource(file: PathName(path), status: status, limit: 1 << 30)

    let read = Self.lines(source)
    let exact = read.exact
    let numbers = read.lines.map(\.0)
    let longRead = read.lines[1].2 == long
    let shortRead = read.lines.dropFirst(3).allSatisfy { $0.2 == short }
    #expect(read.error == nil)
    #expect(exact)
    #expect(numbers == Array(1...2_004))
    #expect(longRead)
    #expect(read.lines[1].1 == short.count + 1)
    #expect(read.lines[2].2.isEmpty)
    #expect(shortRead)
    #expect(read.lines.last!.1 == bytes.count - short.count)
    for (_, offset, line) in [read.lines[0], read.lines[1], read.lines[2_003]] {
      let again = try source.line(offset..<(offset + line.count)).get()
      let same = Array(again.bytes[again.range]) == line
      #expect(same)
      #expect(again.bytes.count == line.count)
    }

    // The same lines from bytes in memory (standard input), where they are not copied.
    let inMemory = Self.lines(MergePartSource(bytes: bytes, limit: 1 << 30))
    let sameLines = inMemory.lines.map(\.2) == read.lines.map(\.2)
    let sameOffsets = inMemory.lines.map(\.1) == read.lines.map(\.1)
    #expect(sameLines)
    #expect(sameOffsets)

    // A part replaced after it was scanned is not read as the one scanned.
    try Data(bytes + [0x0A]).write(to: URL(fileURLWithPath: path))
    guard case .failure(let error) = source.line(0..<short.count) else {
      Issue.record("a changed part was read")
      return
    }
    #expect(error.message.contains("changed"))
  }

  /// A pipe whose writing end a thread fills with `bytes` and closes; its reading end.
  static func filledPipe(_ bytes: [UInt8]) throws -> Int32 {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let writer = ends[1]
    Thread.detachNewThread {
      bytes.withUnsafeBytes { _ = POSIX.writeAll(writer, $0) }
      close(writer)
    }
    return ends[0]
  }

  @Test("A pipe is copied to a temporary file as it arrives, then read like a file; past --max-size it is refused")
  func pipeLines() throws {
    let long = [UInt8](repeating: UInt8(ascii: "z"), count: 2 * MergePartSource.chunkSize + 5)
    var bytes: [UInt8] = []
    for index in 0..<3_000 { bytes += Array("{\"n\":\(index)}\n".utf8) }
    bytes += long + [0x0A] + Array("last".utf8)
    let input = try Self.filledPipe(bytes)
    defer { close(input) }
    let source = try #require(MergePartSource.copying(input, limit: 1 << 30)).get()
    let read = Self.lines(source)
    let exact = read.exact
    let expected = Self.lines(MergePartSource(bytes: bytes, limit: 1 << 30))
    let sameLines = read.lines.map(\.2) == expected.lines.map(\.2)
    let sameOffsets = read.lines.map(\.1) == expected.lines.map(\.1)
    #expect(read.error == nil)
    #expect(exact)
    #expect(read.lines.count == 3_002)
    #expect(sameLines)
    #expect(sameOffsets)
    let again = try source.line(read.lines[3_000].1..<(read.lines[3_000].1 + long.count)).get()
    let sameLong = Array(again.bytes[again.range]) == long
    #expect(sameLong)

    // Small enough for the pipe's buffer: its writer is done before the reader gives up.
    let tooLong = try Self.filledPipe(Array(bytes.prefix(20_000)))
    defer { close(tooLong) }
    guard case .failure(let error)? = MergePartSource.copying(tooLong, limit: 10_000) else {
      Issue.record("a pipe past the limit was read")
      return
    }
    #expect(error.reason == .tooLarge)
  }

  @Test("A part longer than --max-size is refused while it is read")
  func partOverLimit() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let path = directory.appendingPathComponent("part.jsonl").path
    let bytes = [UInt8](repeating: UInt8(ascii: "y"), count: 3 * MergePartSource.chunkSize)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let status = try POSIX.status(PathName(path)).get()
    let read = Self.lines(MergePartSource(file: PathName(path), status: status, limit: MergePartSource.chunkSize))
    #expect(read.error?.reason == .tooLarge)
    #expect(read.lines.isEmpty)
  }

  /// The record of `CLITest.diagnosed` with `count` more references in its first diagnosis.
  static func record(references count: Int) throws -> (line: String, references: Int) {
    let genuine = String(CLITest.run([CLITest.diagnosed, "--format", "jsonl"]).stdout.dropLast())
    var value = try JSONParser.parse(genuine)
    guard case .object(var record) = value,
      let diagnoses = record.members.firstIndex(where: { $0.key == "diagnoses" }),
      case .array(var list) = record.members[diagnoses].value, case .object(var first)? = list.first,
      let references = first.members.firstIndex(where: { $0.key == "references" }),
      case .array(let existing) = first.members[references].value
    else { throw CocoaError(.coderReadCorrupt) }
    first.members[references].value = .array(
      existing + (0..<count).map { .string("https://example.com/\($0)") })
    list[0] = .object(first)
    record.members[diagnoses].value = .array(list)
    value = .object(record)
    return (JSONWriter.string(value, style: .compact), existing.count + count)
  }

  @Test("A list past 65,536 elements is merged cut to them, with a warning; merging the result again cuts nothing")
  func listsAreCapped() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let (line, total) = try Self.record(references: 70_000)
    let part = directory.appendingPathComponent("part.jsonl").path
    try (line + "\n").write(toFile: part, atomically: true, encoding: .utf8)

    let run = CLITest.run(["merge", part, "--format", "jsonl", "--fail-on", "never"])
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stderr.contains("part.jsonl:1: the record was cut"))
    #expect(run.stderr.contains("diagnoses[0].references lost \(total - MergeParts.maxListElements)"))
    let merged = try JSONParser.parse(String(run.stdout.dropLast()))
    #expect(merged["diagnoses"]?[0]?["references"]?.arrayValue?.count == MergeParts.maxListElements)

    let again = directory.appendingPathComponent("again.jsonl").path
    try run.stdout.write(toFile: again, atomically: true, encoding: .utf8)
    let second = CLITest.run(["merge", again, "--format", "jsonl", "--fail-on", "never"])
    #expect(second.stdout == run.stdout)
    #expect(second.stderr.isEmpty, "\(second.stderr)")
  }

  @Test(
    "A record without source and missing (an older ips-doctor) reads as Apple's report of its format",
    arguments: [
      (CLITest.diagnosed, "apple-ips"),
      ("Fixtures/reports/async-bridge-didreceive-legacy.crash", "apple-text"),
    ])
  func olderRecords(_ report: String, _ source: String) throws {
    let genuine = String(CLITest.run([report, "--format", "jsonl"]).stdout.dropLast())
    let value = try JSONParser.parse(genuine)
    #expect(value["source"]?.stringValue == source)
    #expect(value["missing"]?.arrayValue?.isEmpty == true)
    guard case .object(var record) = value else { throw CocoaError(.coderReadCorrupt) }
    record.members.removeAll { $0.key == "source" || $0.key == "missing" }
    let older = JSONWriter.string(.object(record), style: .compact)
    #expect(!older.contains("\"source\""))

    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let part = directory.appendingPathComponent("older.jsonl").path
    try (older + "\n").write(toFile: part, atomically: true, encoding: .utf8)
    let run = CLITest.run(["merge", part, "--format", "jsonl", "--fail-on", "never"])
    #expect(run.status == .success, "\(run.stderr)")
    #expect(run.stdout == genuine + "\n")
  }
}
