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
///   twice) the one whose line is least in byte order is kept, whichever part it came from.
/// So the result depends only on the set of lines given, never on the parts' order or size.
struct MergeParts {
  /// A line that was kept: where its bytes are, and the path it records.
  struct Record {
    var part: Int
    var range: Range<Int>
    var line: Int
    /// The record's `path`, as UTF-8 with each `/` as 0 (see ``precedes(_:_:)``).
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
      switch Self.read(bytes[start..<end], index: 0) {
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

  /// The kept records in merge order, one per path; the second and later records of a path are
  /// added to ``problems`` as duplicates.
  mutating func ordered() -> [Record] {
    let sorted = records.sorted { lhs, rhs in
      if lhs.key != rhs.key { return Self.precedes(lhs.key, rhs.key) }
      let left = parts[lhs.part].bytes[lhs.range]
      let right = parts[rhs.part].bytes[rhs.range]
      if !left.elementsEqual(right) { return left.lexicographicallyPrecedes(right) }
      return (lhs.part, lhs.line) < (rhs.part, rhs.line)
    }
    var kept: [Record] = []
    kept.reserveCapacity(sorted.count)
    for record in sorted {
      if let last = kept.last, last.key == record.key {
        let path = String(decoding: record.key.map { $0 == 0 ? UInt8(ascii: "/") : $0 }, as: UTF8.self)
        problems.append(
          Problem(
            part: record.part, line: record.line,
            message: "the report '\(path)' is also at \(parts[last.part].display):\(last.line); counted once",
            duplicate: true))
        continue
      }
      kept.append(record)
    }
    return kept
  }

  /// The outcome a kept record holds, at position `index` of the merged batch.
  func outcome(_ record: Record, index: Int) -> Result<ReportOutcome, ReportRecord.Problem> {
    Self.read(parts[record.part].bytes[record.range], index: index)
  }

  private static func read(_ line: ArraySlice<UInt8>, index: Int) -> Result<ReportOutcome, ReportRecord.Problem> {
    let value: JSONValue
    do throws(JSONError) {
      value = try line.withUnsafeBufferPointer { buffer throws(JSONError) in try JSONParser.parse(buffer) }
    } catch {
      return .failure(ReportRecord.Problem(message: "not JSON: \(error.description)"))
    }
    do throws(ReportRecord.Problem) {
      return .success(try ReportRecord.outcome(value, index: index))
    } catch {
      return .failure(error)
    }
  }

  /// Whether path `lhs` comes before `rhs` (both as ``key(_:)`` makes them): name by name, each
  /// name by its bytes, a folder's own path before what is in it. A `/` is 0 in a key and no name
  /// holds a 0, so byte order of the keys is exactly that order.
  static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    lhs.lexicographicallyPrecedes(rhs)
  }

  static func key(_ path: String) -> [UInt8] {
    path.utf8.map { $0 == UInt8(ascii: "/") ? 0 : $0 }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
  }
}
