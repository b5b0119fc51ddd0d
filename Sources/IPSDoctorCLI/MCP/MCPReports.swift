import IPSDoctorBatch
import IPSDoctorJSON
import IPSDoctorOutput
import IPSDoctorSupport
import IPSDoctorSymbolication

/// Reading and diagnosing reports for the tools with the engine `diagnose` runs (``BatchRunner``),
/// and their JSON as `--format json` writes it: the reporters themselves write it and the server
/// reads their output back, so a tool's data is that of the command line, key for key.
enum MCPReports {
  /// A report's object, the element of `reports[]` in `--format json`.
  static func json(_ outcome: ReportOutcome) throws(MCPToolFailure) -> JSONValue {
    try capture(.jsonl) { reporter, out in reporter.report(outcome, out) }
  }

  /// The `groups`, `notices` and `summary` of `--format json` for a batch.
  static func json(_ run: RunSummary) throws(MCPToolFailure) -> (
    groups: JSONValue, notices: JSONValue, summary: JSONValue
  ) {
    let document = try capture(.json) { reporter, out in
      reporter.begin(out)
      reporter.finish(run, out)
    }
    return (document["groups"] ?? .array([]), document["notices"] ?? .array([]), document["summary"] ?? .null)
  }

  private static func capture(_ format: OutputFormat, _ write: (inout any Reporter, TextOutput) -> Void)
    throws(MCPToolFailure) -> JSONValue
  {
    final class Buffer {
      var bytes: [UInt8] = []
    }
    let buffer = Buffer()
    let out = TextOutput(
      sink: { text in
        buffer.bytes += text.utf8
        return true
      },
      bytesSink: { bytes in
        buffer.bytes += bytes
        return true
      })
    let context = ReporterContext(
      options: Options(), color: false, width: 80, environment: [:], diagnostics: { _ in })
    var reporter: any Reporter = format.reporter.init(context: context)
    write(&reporter, out)
    out.flush()
    do throws(JSONError) {
      return try JSONParser.parse(buffer.bytes)
    } catch {
      throw MCPToolFailure("internal error: the \(format.rawValue) output could not be read back: \(error)")
    }
  }

  /// Reads and diagnoses `items` a part at a time, handing each outcome (with its index in
  /// `items`) and each notice to the caller in input order. Between parts it reports progress and
  /// stops when the client cancelled: returns `false` then.
  static func run(
    _ items: InputList, options: Options, standardInput: Result<[UInt8], FileError>? = nil,
    context: MCPToolContext, outcome: (ReportOutcome) -> Void, notice: (InputNotice) -> Void
  ) -> Bool {
    let part = max(16, context.jobs * 8)
    var start = 0
    while start < items.count {
      if context.isCancelled() { return false }
      let end = min(items.count, start + part)
      let runner = BatchRunner(
        items: items.selecting(start..<end), options: options, standardInput: standardInput, jobs: context.jobs)
      runner.run { outcomes, skipped, _ in
        for var found in outcomes {
          found.index += start
          outcome(found)
        }
        for skip in skipped { notice(skip) }
      }
      start = end
      context.progress?(end, items.count, "\(end) of \(items.count) files read")
    }
    return !context.isCancelled()
  }

  /// The debug files to symbolicate with: the `dsym` arguments, each resolved and allowed; without
  /// any, the `.dSYM` bundles beside the reports that are inside the roots. Never Spotlight: it
  /// would find files anywhere on the machine.
  static func debugFiles(
    _ arguments: [String], besideReports reports: [PathName], files: MCPFileAccess
  ) -> Result<(index: DebugFileIndex, paths: [PathName]), MCPToolFailure> {
    var paths: [PathName] = []
    if arguments.isEmpty {
      var folders = Set<PathName>()
      for report in reports where folders.insert(report.directory).inserted {
        for candidate in DebugImageLocator.defaultPaths(forReport: report) {
          if let physical = POSIX.physicalPath(candidate), files.allows(physical) { paths.append(physical) }
        }
      }
    } else {
      for argument in arguments {
        switch files.resolve(argument) {
        case .success(let physical): paths.append(physical)
        case .failure(let failure): return .failure(MCPToolFailure("dsym " + failure.message))
        }
      }
    }
    return .success((paths.isEmpty ? DebugFileIndex() : DebugFileIndex(paths: paths), paths))
  }
}
