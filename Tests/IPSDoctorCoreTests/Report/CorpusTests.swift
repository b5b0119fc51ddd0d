import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSymbolication

/// Reads every real report of the shared corpus (`../shared/corpus`, listed in `MANIFEST.tsv`) and
/// checks what the manifest records about it. Skips when the corpus is not beside the checkout.
@Suite("Real-report corpus", .enabled(if: Fixtures.shared != nil))
struct CorpusTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var file: String
    var bugType: String
    var exceptionType: String
    var signal: String
    var notes: String

    var testDescription: String { file }

    /// Whether the manifest says the file is damaged.
    var isDamaged: Bool {
      notes.contains("FAIL") || notes.contains("TRUNCATED") || notes.contains("MALFORMED")
    }
  }

  static var corpus: URL? { Fixtures.shared?.appendingPathComponent("corpus") }

  static func manifest() -> [Row] {
    guard let corpus,
      let text = try? String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
    else { return [] }
    var rows: [Row] = []
    for line in text.split(separator: "\n").dropFirst() {
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count >= 10 else { continue }
      rows.append(
        Row(
          file: columns[0], bugType: columns[4], exceptionType: columns[6], signal: columns[7],
          notes: columns[9]))
    }
    return rows
  }

  static func read(_ row: Row) throws -> CrashReport {
    let url = corpus!.appendingPathComponent(row.file)
    return try ReportReader.read([UInt8](try Data(contentsOf: url)))
  }

  /// The report kind a manifest "exception_type" word stands for, when it names a kind.
  static func kind(forManifestType type: String) -> ReportKind? {
    switch type {
    case "panic": .panic
    case "jetsam": .jetsam
    case "stackshot": .stackshot
    default: type.hasPrefix("EXC_RESOURCE (") ? .resource : nil
    }
  }

  @Test("The manifest lists files")
  func manifestIsNotEmpty() {
    #expect(Self.manifest().count > 10)
  }

  @Test("Every corpus report reads as the manifest describes it", arguments: manifest())
  func readsAsDescribed(_ row: Row) throws {
    let report = try Self.read(row)
    if !row.bugType.isEmpty {
      #expect(report.bugType?.rawValue == row.bugType)
    }
    if report.bodyError != nil {
      // The exception lives in the body that could not be read; only damaged files may do that.
      #expect(row.isDamaged, "\(report.bodyError!)")
    } else if let kind = Self.kind(forManifestType: row.exceptionType) {
      #expect(report.kind == kind)
    } else if row.exceptionType.hasPrefix("SIG") && row.signal.isEmpty {
      // Third-party reporters write only the signal as the exception type.
      #expect(report.exception?.signal == row.exceptionType)
    } else if !row.exceptionType.isEmpty {
      #expect(report.exception?.type == row.exceptionType)
      if !row.signal.isEmpty {
        #expect(report.exception?.signal == row.signal)
      }
    }
    if row.isDamaged {
      let located = report.bodyError?.line != nil
      #expect(!report.warnings.isEmpty || located)
      #expect(report.bugType != nil || report.processName != nil || report.incidentID != nil)
    }
  }

  @Test("Legacy text reports resolve their frames to binary images")
  func textFramesResolve() throws {
    for row in Self.manifest() where row.file.hasPrefix("legacy-text/") {
      let report = try Self.read(row)
      guard !report.images.isEmpty, let crashed = report.crashedThread else { continue }
      let resolved = crashed.frames.filter { $0.imageIndex != nil }.count
      #expect(resolved * 2 >= crashed.frames.count, "\(row.file): \(resolved)/\(crashed.frames.count)")
    }
  }

  @Test("Every corpus report renders as text; text reports read back the same", arguments: manifest())
  func rendersAndReadsBack(_ row: Row) throws {
    let report = try Self.read(row)
    let text = LegacyTextRenderer.render(report)
    #expect(!text.isEmpty)
    guard report.kind == .crash, report.format != .json, report.bodyError == nil else { return }
    var again = CrashReport(format: .legacyText)
    LegacyTextParser.parse(text, firstLine: 1, into: &again)
    #expect(again.exception == report.exception)
    #expect(again.faultingThread == report.faultingThread)
    #expect(again.threads == report.threads)
    #expect(again.images == report.images)
    #expect(again.lastExceptionBacktrace == report.lastExceptionBacktrace)
  }

  /// One row per manifest entry (format, kind, bug type, exception, counts, where the body broke),
  /// printed when `IPS_DOCTOR_PRINT_TABLE` is set. Every file reads, damaged ones included.
  @Test("Every corpus report reads, and the summary table has a row for each")
  func summaryTable() {
    var lines: [String] = []
    var unreadable: [String] = []
    let rows = Self.manifest()
    for row in rows {
      let columns: [String]
      do {
        let report = try Self.read(row)
        let exception = [report.exception?.type, report.exception?.signal]
          .compactMap { $0 }.joined(separator: " ")
        columns = [
          row.file, report.format.rawValue, report.kind.rawValue, report.bugType?.rawValue ?? "-",
          exception.isEmpty ? "-" : exception, "threads=\(report.threads.count)",
          "frames=\(report.threads.reduce(0) { $0 + $1.frames.count })",
          "images=\(report.images.count)", "warnings=\(report.warnings.count)",
          report.bodyError.map { "bodyError@\($0.line ?? 0)" } ?? "",
        ]
      } catch {
        unreadable.append(row.file)
        columns = [row.file, "unreadable: \(error)"]
      }
      lines.append(columns.joined(separator: "  "))
    }
    #expect(lines.count == rows.count)
    #expect(Set(rows.map(\.file)).count == rows.count, "a file is listed twice in the manifest")
    #expect(unreadable.isEmpty, "unreadable: \(unreadable)")
    if ProcessInfo.processInfo.environment["IPS_DOCTOR_PRINT_TABLE"] != nil {
      print(lines.joined(separator: "\n"))
    }
  }
}
