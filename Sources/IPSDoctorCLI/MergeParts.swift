import IPSDoctorBatch
import IPSDoctorJSON
import IPSDoctorOutput
import IPSDoctorSupport

/// The report records of `merge`'s parts, in the one order a merge renders them.
///
/// A part is JSON Lines as `ips-doctor --format jsonl` (or `merge --format jsonl`) writes it: one
/// report record per line; blank lines are ignored; a line that is not a record is a ``Problem``
/// and the other lines still count.
///
/// Invariants, which make merging associative and independent of how the reports were split:
/// - the records are ordered by their `path`, compared name by name (``precedes(_:_:)``), which is
///   the order `ips-doctor FOLDER` reads a folder in;
/// - a path is counted once: of several records with one path (overlapping shards, a part merged
///   twice) the one kept is the one whose ``ReportRecord/line(_:)`` (the record as `--format jsonl`
///   writes it, from the values read) is least in byte order, whichever part it came from and
///   however it was spelt (spacing, key order, escapes). A merge writes that same line for it.
/// So the result depends only on the set of records given, never on the parts' order or size,
/// nor on whether a part is itself a merge.
struct MergeParts {
  /// A line that was kept: where its bytes are, and the path it records.
  struct Record {
    var part: Int
    var range: Range<Int>
    var line: Int
    /// The record's `path` as ``key(_:)`` writes it.
    var key: [UInt8]
  }

  /// A line that is not a report record (or a second record of a path, when `duplicate`).
  struct Problem: Equatable {
    var part: Int
    var line: Int
    var message: String
    var duplicate = false
  }

  /// Each part's display name and bytes, in the order given.
  private(set) var parts: [(display: String, bytes: [UInt8])] = []
  private var records: [Record] = []
  private(set) var problems: [Problem] = []

  /// Splits `bytes` into lines and keeps every line that reads as a report record.
  mutating func add(part display: String, bytes: [UInt8]) {
    let part = parts.count
    parts.append((display, bytes))
    var start = 0
    var lineNumber = 0
    while start < bytes.count {
      lineNumber += 1
      var end = start
      while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
      let next = end + 1
      if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      defer { start = next }
      guard bytes[start..<end].contains(where: { !Self.isWhitespace($0) }) else { continue }
      switch Self.read(bytes, start..<end, index: 0) {
      case .success(let outcome):
        records.append(Record(part: part, range: start..<end, line: lineNumber, key: Self.key(outcome.path)))
      case .failure(let problem):
        var message = problem.message
        if lineNumber == 1 && bytes[start..<end].elementsEqual("{".utf8) {
          message += " (a --format json document? merge reads --format jsonl)"
        }
        problems.append(Problem(part: part, line: lineNumber, message: message))
      }
    }
  }

  /// The kept records in merge order, one per path; the other records of a path are added to
  /// ``problems`` as duplicates.
  mutating func ordered() -> [Record] {
    let sorted = records.sorted { lhs, rhs in
      if lhs.key != rhs.key { return Self.precedes(lhs.key, rhs.key) }
      return (lhs.part, lhs.line) < (rhs.part, rhs.line)
    }
    var kept: [Record] = []
    kept.reserveCapacity(sorted.count)
    var start = 0
    while start < sorted.count {
      var end = start + 1
      while end < sorted.count && sorted[end].key == sorted[start].key { end += 1 }
      let samePath = sorted[start..<end]
      start = end
      guard samePath.count > 1 else {
        kept.append(samePath[samePath.startIndex])
        continue
      }
      let spelt = samePath.map { record in (record: record, line: canonicalLine(record)) }
      let chosen = spelt.min { lhs, rhs in
        if lhs.line != rhs.line { return lhs.line.lexicographicallyPrecedes(rhs.line) }
        return (lhs.record.part, lhs.record.line) < (rhs.record.part, rhs.record.line)
      }!.record
      kept.append(chosen)
      for record in samePath where (record.part, record.line) != (chosen.part, chosen.line) {
        problems.append(
          Problem(
            part: record.part, line: record.line,
            message: "the report '\(Self.path(fromKey: record.key))' is also at "
              + "\(parts[chosen.part].display):\(chosen.line); counted once",
            duplicate: true))
      }
    }
    return kept
  }

  /// The record as `--format jsonl` writes it (``ReportRecord/line(_:)``); empty when it no longer
  /// reads (it read when it was added).
  private func canonicalLine(_ record: Record) -> [UInt8] {
    guard case .success(let outcome) = outcome(record, index: 0) else { return [] }
    return Array(ReportRecord.line(outcome).utf8)
  }

  /// The outcome a kept record holds, at position `index` of the merged batch.
  func outcome(_ record: Record, index: Int) -> Result<ReportOutcome, ReportRecord.Problem> {
    Self.read(parts[record.part].bytes, record.range, index: index)
  }

  /// The outcome of the record on `line` of `part`, read from a tape over the part's own bytes.
  private static func read(_ part: [UInt8], _ line: Range<Int>, index: Int) -> Result<
    ReportOutcome, ReportRecord.Problem
  > {
    let parsed = part.withUnsafeBufferPointer { buffer in
      let (document, end, error) = JSONParser.documentPrefix(
        buffer, from: line.lowerBound, maxBytes: line.count, source: part, expectedBytes: line.count)
      let trailing = buffer[min(end, line.upperBound)..<line.upperBound].contains { !isWhitespace($0) }
      guard let document, error == nil, !trailing else {
        // Read again as one document, for the error a line alone gives (a value cut by the end of
        // the line, something after the value).
        do throws(JSONError) {
          _ = try JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[line]))
        } catch {
          return Result<JSONDocument, JSONError>.failure(error)
        }
        return .failure(JSONError(reason: .empty, location: SourceLocation(offset: 0, line: 1, column: 1)))
      }
      return .success(document)
    }
    switch parsed {
    case .failure(let error):
      return .failure(ReportRecord.Problem(message: "not JSON: \(error.description)"))
    case .success(let document):
      do throws(ReportRecord.Problem) {
        return .success(try ReportRecord.outcome(document, index: index))
      } catch {
        return .failure(error)
      }
    }
  }

  /// Whether path `lhs` comes before `rhs` (both as ``key(_:)`` makes them): name by name, each
  /// name by its bytes, a folder's own path before what is in it.
  static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.lexicographicallyPrecedes(rhs)
  }

  /// `path` as bytes whose order is the order of ``precedes(_:_:)`` and which differ for
  /// different paths: a `/` is 0, bytes 0 and 1 are 1 followed by the byte, every other byte is
  /// itself. No code is a prefix of another and codes are ordered as the bytes they stand for,
  /// with `/` first, so byte order of the keys is path order, and a path holding a NUL (possible
  /// in a record, never in a file name) keeps a key of its own.
  static func key(_ path: String) -> [UInt8] {
    var key: [UInt8] = []
    key.reserveCapacity(path.utf8.count)
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "/"): key.append(0)
      case 0, 1: key.append(contentsOf: [1, byte])
      default: key.append(byte)
      }
    }
    return key
  }

  /// The path whose ``key(_:)`` is `key`.
  static func path(fromKey key: [UInt8]) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(key.count)
    var escaped = false
    for byte in key {
      if escaped {
        bytes.append(byte)
        escaped = false
      } else if byte == 1 {
        escaped = true
      } else {
        bytes.append(byte == 0 ? UInt8(ascii: "/") : byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
  }
}
