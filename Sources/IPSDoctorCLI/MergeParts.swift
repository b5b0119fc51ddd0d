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
///
/// Memory: a part is read a line at a time (``MergePartSource``); between reading a record and
/// writing it, only its place and key are kept, and it is read again from its part to be
/// written. A record keeps at most ``budget(lineBytes:)`` of its line: a record past it is
/// merged cut, with a warning, and a record is cut alike however often it is merged.
struct MergeParts {
  /// A line that was kept: where its bytes are, and the path it records.
  struct Record {
    var part: Int
    /// Where the line's bytes are in the part (without its line feed).
    var range: Range<Int>
    var line: Int
    /// The record's `path` as ``key(_:)`` writes it.
    var key: [UInt8]
  }

  /// A line that is not a report record, a second record of a path, or a record cut to
  /// ``budget(lineBytes:)``.
  struct Problem: Equatable {
    enum Kind: Equatable {
      case notARecord
      /// Counted once: a warning.
      case duplicate
      /// Merged without what the caps left out: a warning.
      case cut
    }

    var part: Int
    var line: Int
    var message: String
    var kind = Kind.notARecord
  }

  /// Each part's display name and where its bytes are, in the order given.
  private(set) var parts: [(display: String, source: MergePartSource)] = []
  /// What the merge keeps of each record between reading it and writing it: its place and its key,
  /// never its bytes or its outcome.
  private var records: [Record] = []
  private(set) var problems: [Problem] = []

  /// The most elements a list of a record keeps.
  static var maxListElements: Int { 1 << 16 }

  /// What a record keeps of a line of `lineBytes` bytes: the first ``maxListElements`` elements
  /// of each list, and at most one value per 32 bytes of the line (and at least 131,072), so that
  /// a record's tape (16 bytes a value) stays within half its line. A record ips-doctor writes
  /// has far fewer values than either limit (its lists are diagnoses, evidence, frames, warnings
  /// and addresses, and its strings are words and sentences), so it is kept whole.
  static func budget(lineBytes: Int) -> JSONTapeBudget {
    let entries = max(1 << 17, lineBytes / 32)
    return JSONTapeBudget(
      maxArrayElements: maxListElements, outlineEntries: entries, outlineDepth: Int.max, maxEntries: entries)
  }

  /// Reads `source` line by line and keeps the place and key of every line that reads as a report
  /// record; the part's bytes are not kept. Returns why the part could not be read to its end (the
  /// lines before that point are kept).
  mutating func add(part display: String, source: MergePartSource) -> FileError? {
    let part = parts.count
    parts.append((display, source))
    return source.forEachLine { lineNumber, offset, line in
      guard line.bytes[line.range].contains(where: { !Self.isWhitespace($0) }) else { return }
      let read = Self.read(line, index: 0)
      switch read.outcome {
      case .success(let outcome):
        records.append(
          Record(
            part: part, range: offset..<(offset + line.range.count), line: lineNumber, key: Self.key(outcome.path)))
        if let cut = read.cut {
          problems.append(Problem(part: part, line: lineNumber, message: cut, kind: .cut))
        }
      case .failure(let problem):
        var message = problem.message
        if lineNumber == 1 && line.bytes[line.range].elementsEqual("{".utf8) {
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
    records = []
    var kept: [Record] = []
    kept.reserveCapacity(sorted.count)
    var start = 0
    while start < sorted.count {
      var end = start + 1
      while end < sorted.count && sorted[end].key == sorted[start].key { end += 1 }
      let samePath = sorted[start..<end]
      start = end
      // Of several, the least canonical line; only the least so far is held.
      var chosen = samePath[samePath.startIndex]
      if samePath.count > 1 {
        var least = canonicalLine(chosen)
        for record in samePath.dropFirst() {
          let line = canonicalLine(record)
          if line.lexicographicallyPrecedes(least) {
            chosen = record
            least = line
          }
        }
      }
      kept.append(chosen)
      for record in samePath where (record.part, record.line) != (chosen.part, chosen.line) {
        problems.append(
          Problem(
            part: record.part, line: record.line,
            message: "the report '\(Self.path(fromKey: record.key))' is also at "
              + "\(parts[chosen.part].display):\(chosen.line); counted once",
            kind: .duplicate))
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

  /// The outcome a kept record holds, at position `index` of the merged batch, read again from
  /// its part (only its line is read, and dropped once the outcome is made).
  func outcome(_ record: Record, index: Int) -> Result<ReportOutcome, ReportRecord.Problem> {
    switch parts[record.part].source.line(record.range) {
    case .failure(let error): return .failure(ReportRecord.Problem(message: error.message))
    case .success(let line): return Self.read(line, index: index).outcome
    }
  }

  /// The outcome of the record `line` holds, read from a tape over the line's own bytes within
  /// ``budget(lineBytes:)``, and what the budget left out (`nil` when nothing).
  private static func read(_ line: MergePartSource.Line, index: Int) -> (
    outcome: Result<ReportOutcome, ReportRecord.Problem>, cut: String?
  ) {
    let range = line.range
    let parsed = line.bytes.withUnsafeBufferPointer { buffer in
      let (document, end, error) = JSONParser.documentPrefix(
        buffer, from: range.lowerBound, maxBytes: range.count, source: line.bytes, expectedBytes: range.count,
        budget: budget(lineBytes: range.count))
      let trailing = buffer[min(end, range.upperBound)..<range.upperBound].contains { !isWhitespace($0) }
      guard let document, error == nil, !trailing else {
        // Read again as one document, for the error a line alone gives (a value cut by the end of
        // the line, something after the value).
        do throws(JSONError) {
          _ = try JSONParser.parse(UnsafeBufferPointer(rebasing: buffer[range]))
        } catch {
          return Result<JSONDocument, JSONError>.failure(error)
        }
        return .failure(JSONError(reason: .empty, location: SourceLocation(offset: 0, line: 1, column: 1)))
      }
      return .success(document)
    }
    switch parsed {
    case .failure(let error):
      return (.failure(ReportRecord.Problem(message: "not JSON: \(error.description)")), nil)
    case .success(let document):
      let cut = cutDescription(document, lineBytes: range.count)
      do throws(ReportRecord.Problem) {
        return (.success(try ReportRecord.outcome(document, index: index)), cut)
      } catch {
        guard let cut else { return (.failure(error), nil) }
        return (.failure(ReportRecord.Problem(message: error.message + " (\(cut))")), nil)
      }
    }
  }

  /// What ``budget(lineBytes:)`` left out of `document`, e.g. "cut to the first 65536 elements
  /// of each list: diagnoses[0].references lost 24934465"; `nil` when nothing.
  private static func cutDescription(_ document: JSONDocument, lineBytes: Int) -> String? {
    guard !document.omissions.isEmpty || document.isAbridged else { return nil }
    let shown = document.omissions.prefix(3).map { omission in
      "\(document.path(to: omission.index).description) lost \(omission.count)"
    }
    let more = document.omissions.count > 3 ? ", and \(document.omissions.count - 3) more lists" : ""
    return "the record was cut to what merge keeps of one (the first \(maxListElements) elements of each list, "
      + "at most \(budget(lineBytes: lineBytes).maxEntries) values): "
      + (shown.isEmpty ? "values after the limit were not read" : shown.joined(separator: ", ")) + more
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
