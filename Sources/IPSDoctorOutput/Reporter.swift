import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorSupport

/// Each format maps to exactly one reporter, so adding a case without a reporter does not compile.
extension OutputFormat {
  package var reporter: any Reporter.Type {
    switch self {
    case .text: TextReporter.self
    case .json: JSONReporter.self
    case .jsonl: JSONLinesReporter.self
    case .sarif: SARIFReporter.self
    case .junit: JUnitReporter.self
    case .github: GitHubReporter.self
    case .markdown: MarkdownReporter.self
    }
  }
}

/// Everything a reporter may consult besides the outcomes.
package struct ReporterContext {
  var options: Options
  var color: Bool
  /// Columns to wrap text at.
  var width: Int
  var environment: [String: String]
  /// Messages for standard error (the GitHub reporter's step summary problems, say).
  var diagnostics: (String) -> Void
  /// The `--baseline` as read (empty when its file did not exist yet); `nil` without `--baseline`.
  var baseline: Baseline? = nil

  package init(
    options: Options, color: Bool, width: Int, environment: [String: String], diagnostics: @escaping (String) -> Void,
    baseline: Baseline? = nil
  ) {
    self.options = options
    self.color = color
    self.width = width
    self.environment = environment
    self.diagnostics = diagnostics
    self.baseline = baseline
  }
}

/// Renders a batch. Outcomes arrive in input order, one at a time, as their window finishes; a
/// reporter writes what it can at once and keeps only what its ending needs.
package protocol Reporter {
  init(context: ReporterContext)
  mutating func begin(_ out: TextOutput)
  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput)
  mutating func finish(_ run: RunSummary, _ out: TextOutput)
}

/// The whole batch, for the end of a report: counts, groups, skipped inputs and the exit status.
package struct RunSummary: Sendable {
  package var reports = 0
  package var diagnosed = 0
  package var inconclusive = 0
  /// Inputs that yielded no report to diagnose (``ReportOutcome/isUnreadable``). Every report is
  /// counted once: `diagnosed + inconclusive + unreadable == reports`.
  package var unreadable = 0
  /// Diagnosed reports whose body was damaged (counted among `diagnosed` or `inconclusive`).
  package var damaged = 0
  /// Reports left out by `--app`, `--since` and the other filters (not counted in `reports`),
  /// and the filters, as given.
  package var filteredOut = 0
  package var filter = ""
  package var withWarnings = 0
  package var known = 0
  /// Reports that fail at the `--fail-on` threshold.
  package var failing = 0
  package var errors = 0
  package var warnings = 0
  package var notes = 0
  package var groups: [CrashGroup] = []
  package var notices: [InputNotice] = []
  package var failOn: FailOn = .error
  package var exitCode: ExitCode = .success

  package init(
    groups: [CrashGroup] = [], notices: [InputNotice] = [], failOn: FailOn = .error, exitCode: ExitCode = .success
  ) {
    self.groups = groups
    self.notices = notices
    self.failOn = failOn
    self.exitCode = exitCode
  }

  package mutating func add(_ outcome: ReportOutcome, failOn: FailOn) {
    reports += 1
    if outcome.isUnreadable {
      unreadable += 1
    } else if let result = outcome.result {
      if result.isInconclusive { inconclusive += 1 } else { diagnosed += 1 }
    }
    if outcome.isDamaged { damaged += 1 }
    if !outcome.warnings.isEmpty { withWarnings += 1 }
    if outcome.baseline == .known { known += 1 }
    switch outcome.severity {
    case .error?: errors += 1
    case .warning?: warnings += 1
    case .note?: notes += 1
    case nil: break
    }
    if outcome.fails(at: failOn.threshold) { failing += 1 }
  }

  /// "3 reports: 1 diagnosed, 1 inconclusive, 1 could not be read".
  package var sentence: String {
    var parts: [String] = []
    if diagnosed > 0 {
      parts.append("\(diagnosed) diagnosed" + (damaged > 0 ? " (\(damaged) from damaged reports)" : ""))
    }
    if inconclusive > 0 { parts.append("\(inconclusive) inconclusive") }
    if unreadable > 0 { parts.append("\(unreadable) could not be read") }
    var text = "\(reports) report\(reports == 1 ? "" : "s")"
    if !parts.isEmpty { text += ": " + parts.joined(separator: ", ") }
    text += "; \(groups.count) crash group\(groups.count == 1 ? "" : "s")"
    if known > 0 { text += "; \(known) known from the baseline" }
    if !filter.isEmpty { text += "; \(filteredOut) left out by \(filter)" }
    if failOn != .never {
      text += "; \(failing) at or above --fail-on \(failOn.rawValue)"
    }
    return text
  }
}

/// Buffered text output to standard output or a file. Write failures are remembered, not thrown.
///
/// The buffer holds UTF-8 bytes, whole texts only, and goes to the bytes sink when there is one:
/// reporters that make bytes (the JSON writer's) hand them over without a `String`.
package final class TextOutput {
  static let capacity = 1 << 16
  private var buffer = ByteBuffer(capacity: TextOutput.capacity)
  private let sink: (String) -> Bool
  private let bytesSink: ((UnsafeRawBufferPointer) -> Bool)?
  package private(set) var failed = false
  /// Why output was lost before it reached the sink (a spool that could not be read back).
  package private(set) var failure: String?

  /// Marks the output as incomplete: what was lost cannot be written, so the run must fail.
  func fail(_ message: String) {
    failed = true
    if failure == nil { failure = message }
  }

  /// `bytesSink`, when given, takes UTF-8 text already in bytes as `sink` takes a string; every
  /// chunk it is given is whole UTF-8 text.
  package init(sink: @escaping (String) -> Bool, bytesSink: ((UnsafeRawBufferPointer) -> Bool)? = nil) {
    self.sink = sink
    self.bytesSink = bytesSink
  }

  package func write(_ text: String) {
    text.withBorrowedUTF8 { write(utf8: UnsafeRawBufferPointer($0)) }
  }

  /// Writes whole UTF-8 text held as bytes, after what is buffered (or, from `symbolicate`, a
  /// report's own bytes, written as they are).
  package func write(utf8 bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    if buffer.count + bytes.count > Self.capacity { flush() }
    if bytes.count >= Self.capacity {
      deliver(bytes)
      return
    }
    buffer.append(bytes)
  }

  package func flush() {
    guard buffer.count > 0 else { return }
    buffer.withUnsafeBytes(deliver)
    buffer.removeAll()
  }

  private func deliver(_ bytes: UnsafeRawBufferPointer) {
    guard !failed else { return }
    let written = bytesSink?(bytes) ?? sink(String(decoding: bytes, as: UTF8.self))
    if !written { failed = true }
  }
}

/// Text that must be printed after something computed later (a summary table before per-report
/// sections): held in memory up to ``memoryLimit`` bytes (128 KB), then in an unlinked temporary
/// file, so memory stays flat however long the batch.
final class Spool {
  /// What is held in memory: whole UTF-8 (every write is a whole text), at most ``memoryLimit``
  /// bytes while there is a file to spill to.
  private var memory = ByteBuffer(capacity: 0)
  private var fd: Int32 = -1
  /// How many bytes of the temporary file hold spilled text. A failed spill (a full disk, a file
  /// size limit) may leave part of a buffer behind them; that part is never read back, and the
  /// buffer stays in memory, so nothing is lost and nothing is written twice.
  private var fileCount = 0
  /// Set once a spill failed: everything after it stays in memory.
  private var spillFailed = false
  static let memoryLimit = 1 << 17
  /// Where to spill; `nil` for the system's temporary folder (tests point it elsewhere).
  private let directory: String?
  /// Opens the file to spill to (tests substitute one that fails); -1 when there is none.
  private let openFile: (String) -> Int32

  init(directory: String? = nil, openFile: @escaping (String) -> Int32 = Spool.openTemporaryFile) {
    self.directory = directory
    self.openFile = openFile
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// Whether the spool has moved to a temporary file.
  var hasSpilled: Bool { fd >= 0 }

  func write(_ text: String) {
    text.withBorrowedUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// Writes `lines`, each ended by a line feed, after a line feed when `leadingLineFeed`: what
  /// writing `(leadingLineFeed ? "\n" : "") + PlainText.joinedLines(lines)` writes, without making
  /// that string (its making validated every byte of a report's section again).
  func write(lines: [String], leadingLineFeed: Bool) {
    withUnsafeBytes(of: UInt8(0x0A)) { newline in
      if leadingLineFeed { write(bytes: newline) }
      if lines.isEmpty { write(bytes: newline) }
      lines.withUnsafeBufferPointer { lines in
        for index in lines.indices {
          lines[index].withBorrowedUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
          write(bytes: newline)
        }
      }
    }
  }

  private func write(bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    if memory.count + bytes.count > Self.memoryLimit {
      spill()
      // Too big for the buffer even when empty: straight to the file. Without a file (none could
      // be opened, or a spill failed) the buffer keeps growing.
      if memory.count + bytes.count > Self.memoryLimit && fd >= 0 && !spillFailed && memory.count == 0 {
        if POSIX.writeAll(fd, bytes) {
          fileCount += bytes.count
          return
        }
        spillFailed = true
      }
    }
    memory.append(bytes)
  }

  private func spill() {
    guard !spillFailed else { return }
    if fd < 0 { fd = openFile(directory ?? Self.temporaryDirectory()) }
    guard fd >= 0, memory.count > 0 else { return }  // no temporary file: keep it in memory
    if memory.withUnsafeBytes({ POSIX.writeAll(fd, $0) }) {
      fileCount += memory.count
      memory.removeAll()
    } else {
      spillFailed = true
    }
  }

  /// An unlinked temporary file in `directory`, open for reading and writing; -1 on failure.
  static func openTemporaryFile(in directory: String) -> Int32 {
    var template = Array((directory + "/ips-doctor-spool.XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
    return fd
  }

  /// Writes everything spooled to `out`, in order. Chunks read back from the file end on a UTF-8
  /// character boundary: a character split across two reads is carried over, never repaired into
  /// U+FFFD.
  /// The text written before a failure to read the file back is kept; `out` is marked failed.
  func drain(into out: TextOutput) {
    if fd >= 0 && fileCount > 0 {
      _ = lseek(fd, 0, SEEK_SET)
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      var carried = 0  // bytes of an incomplete character kept at the start of `chunk`
      var remaining = fileCount
      while remaining > 0 {
        let count = chunk.withUnsafeMutableBytes {
          read(fd, $0.baseAddress! + carried, min($0.count - carried, remaining))
        }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 {
          out.fail("cannot read back the temporary file: \(count < 0 ? POSIX.message(errno) : "it ended early")")
          return
        }
        remaining -= count
        let filled = carried + count
        let end = Self.completeUTF8Prefix(chunk[..<filled])
        chunk.withUnsafeBytes { out.write(utf8: UnsafeRawBufferPointer(rebasing: $0[..<end])) }
        carried = filled - end
        for index in 0..<carried { chunk[index] = chunk[end + index] }
      }
      if carried > 0 { chunk.withUnsafeBytes { out.write(utf8: UnsafeRawBufferPointer(rebasing: $0[..<carried])) } }
    }
    memory.withUnsafeBytes { out.write(utf8: $0) }
    memory.removeAll()
    if fileCount > 0 {
      fileCount = 0
      _ = ftruncate(fd, 0)
      _ = lseek(fd, 0, SEEK_SET)
    }
  }

  /// The length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence.
  static func completeUTF8Prefix(_ bytes: ArraySlice<UInt8>) -> Int {
    let count = bytes.count
    let start = bytes.startIndex
    // Look back at most 3 bytes for the lead byte of the last sequence.
    var back = 1
    while back <= min(3, count) {
      let byte = bytes[start + count - back]
      if byte & 0xC0 != 0x80 {  // a lead byte or ASCII
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        return length > back ? count - back : count
      }
      back += 1
    }
    return count
  }

  static func temporaryDirectory() -> String {
    if let pointer = getenv("TMPDIR"), let value = String(validatingCString: pointer), !value.isEmpty {
      return value.hasSuffix("/") ? String(value.dropLast()) : value
    }
    return "/tmp"
  }
}

/// ANSI styles, or nothing when colour is off.
package struct Style {
  var enabled: Bool

  package init(
    enabled: Bool
  ) {
    self.enabled = enabled
  }

  func apply(_ code: String, _ text: String) -> String {
    enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  package func bold(_ text: String) -> String { apply("1", text) }
  package func dim(_ text: String) -> String { apply("2", text) }
  func code(_ text: String) -> String { apply("36", text) }

  package func severity(_ severity: Severity?, _ text: String) -> String {
    switch severity {
    case .error?: apply("1;31", text)
    case .warning?: apply("1;33", text)
    case .note?: apply("1;36", text)
    case nil: text
    }
  }
}
