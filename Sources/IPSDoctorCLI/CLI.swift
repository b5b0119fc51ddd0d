import IPSDoctorBatch
import IPSDoctorOutput
import IPSDoctorReport
import IPSDoctorSupport
import IPSDoctorSymbolication

/// The whole command line, as library code: tests call ``run(_:environment:io:)`` in process and
/// read what it printed; `main.swift` only passes the real streams and exits with the result.
package enum CLI {
  /// Runs `ips-doctor` with `arguments` (without the program name).
  package static func run(_ arguments: [String], environment: [String: String], io: some CLIIO)
    -> ExitCode
  {
    let invocation: Invocation
    do throws(UsageError) {
      invocation = try ArgumentBinder.bind(
        arguments,
        pathExists: { path in
          if case .success = POSIX.lstatus(PathName(path)) { return true }
          return false
        }, defaultInput: defaultInput(environment: environment, io: io))
    } catch {
      let named = arguments.prefix(while: { $0 != "--" }).first { Command(rawValue: $0) != nil }
      io.writeStandardError(error.rendered(for: named.flatMap(Command.init(rawValue:))))
      return .usage
    }
    if case .run(.diagnose) = invocation.action, invocation.arguments.count == 1,
      let folder = invocation.arguments.first, folder != "-", !arguments.contains(folder),
      folder == defaultInput(environment: environment, io: io)
    {
      io.writeStandardError("ips-doctor: no path given: reading \(PathName(folder).display)\n")
    }
    switch invocation.action {
    case .version:
      return writeOutput("ips-doctor \(IPSDoctor.version)\n", io: io)
    case .help(let command):
      return writeOutput(Help.text(for: command), io: io)
    case .completionScript(let shell):
      return writeOutput(ShellCompletion.script(for: shell), io: io)
    case .manual:
      return writeOutput(Manual.page(), io: io)
    case .run(let command):
      // A hook for the exit-status tests: there is no other way to reach an internal error on
      // purpose.
      if environment["IPS_DOCTOR_SIMULATE_INTERNAL_ERROR"] == "1" {
        writeError("internal error: simulated (IPS_DOCTOR_SIMULATE_INTERNAL_ERROR=1)", io: io)
        return .software
      }
      // A debug file that was named but is not there is a mistake to say, not a silent run
      // without symbols.
      for path in invocation.options.dsyms {
        if case .failure(let failure) = POSIX.lstatus(PathName(path)) {
          writeError("--dsym '\(PathName(path).display)': \(failure.message)", io: io)
          return .noInput
        }
      }
      switch command {
      case .diagnose:
        return DiagnoseCommand(invocation: invocation, environment: environment, io: io).run()
      case .merge:
        return MergeCommand(invocation: invocation, environment: environment, io: io).run()
      case .rules, .explain:
        return CatalogCommand(invocation: invocation, environment: environment, io: io).run(command)
      case .show:
        return ShowCommand(invocation: invocation, io: io).run()
      case .check:
        return CheckCommand(invocation: invocation, environment: environment, io: io).run()
      case .symbolicate:
        return SymbolicateCommand(invocation: invocation, io: io).run()
      case .mcp:
        return MCPCommand(io: io).run()
      case .help:
        return writeOutput(Help.text(for: nil), io: io)
      }
    }
  }

  /// What `ips-doctor` with no path reads: standard input when it is a pipe or a file; when a
  /// person runs it at a terminal, `reportFolder` (on macOS, the folder where the system keeps
  /// this user's crash reports); otherwise nothing. A standard input that is `/dev/null` or was
  /// closed (launchd, cron, CI) is no input, not a reason to read the user's reports.
  static func defaultInput(
    environment: [String: String], io: some CLIIO, reportFolder: (String?) -> String? = Platform.crashReportFolder
  ) -> String? {
    if io.standardInputIsData { return "-" }
    guard io.standardInputIsTerminal else { return nil }
    return reportFolder(environment["HOME"])
  }

  /// Writes `text` to standard output: exit 0, or 73 when it could not be written.
  static func writeOutput(_ text: String, io: some CLIIO) -> ExitCode {
    do throws(FileError) {
      try io.writeStandardOutput(text)
      return .success
    } catch {
      writeError("cannot write standard output: \(error.message)", io: io)
      return .cannotCreate
    }
  }

  /// Whether to colour text: `--color always`/`never`, or for `auto` a terminal with `NO_COLOR`
  /// unset or empty and `TERM` not `dumb` (https://no-color.org).
  static func useColor(_ choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> Bool {
    switch choice {
    case .always: true
    case .never: false
    case .auto:
      isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
  }

  /// Where output goes: standard output, or an ``OutputFile``.
  struct Destination {
    let file: OutputFile?
    let out: TextOutput
    /// Why standard output could not be written, once it could not.
    private let standardOutputFailure: FailureBox

    final class FailureBox {
      var failure: FileError?
    }

    init(file: OutputFile?, io: some CLIIO) {
      self.file = file
      let box = FailureBox()
      standardOutputFailure = box
      if let file {
        out = TextOutput(sink: { file.write($0) }, bytesSink: { file.write(utf8: $0) })
      } else {
        func attempt(_ write: () throws(FileError) -> Void) -> Bool {
          do throws(FileError) {
            try write()
            return true
          } catch {
            box.failure = error
            return false
          }
        }
        out = TextOutput(
          sink: { text in attempt { () throws(FileError) in try io.writeStandardOutput(text) } },
          bytesSink: { bytes in attempt { () throws(FileError) in try io.writeStandardOutput(utf8: bytes) } })
      }
    }

    /// The destination for `target` (standard output when `nil`), or `nil` after telling the user
    /// why it cannot be written.
    static func open(_ target: OutputTarget?, io: some CLIIO) -> Destination? {
      guard let target else { return Destination(file: nil, io: io) }
      do throws(FileError) {
        return Destination(file: try OutputFile(target), io: io)
      } catch {
        CLI.writeError("cannot write '\(target.named.display)': \(error.message)", io: io)
        return nil
      }
    }

    /// The destination for `--output` (standard output when `nil` or `-`), refused when it is one
    /// of the `inputs` (see ``CLI/resolveOutputs(_:inputs:io:)``).
    static func open(path: String?, inputs: InputFiles = InputFiles(), io: some CLIIO) -> Result<
      Destination, OutputRefused
    > {
      guard let path, path != "-" else { return .success(Destination(file: nil, io: io)) }
      let resolved = CLI.resolveOutputs(
        [NamedOutput(option: "--output", path: path)], inputs: { _, identity in inputs.phrase(for: identity) },
        io: io)
      switch resolved {
      case .failure(let refusal): return .failure(refusal)
      case .success(let targets):
        guard let destination = open(targets.first, io: io) else {
          return .failure(OutputRefused(status: .cannotCreate))
        }
        return .success(destination)
      }
    }

    /// Flushes and closes the output (renaming a file into place). Returns an error message when
    /// any of it could not be written.
    func commit() -> String? {
      out.flush()
      if let failure = out.failure {
        file?.abandon()
        return "cannot write \(file.map { "'\($0.destination.display)'" } ?? "standard output"): \(failure)"
      }
      guard let file else {
        guard out.failed else { return nil }
        let reason = standardOutputFailure.failure?.message ?? "write error"
        return "cannot write standard output: \(reason)"
      }
      do throws(FileError) {
        try file.commit()
        return nil
      } catch {
        return "cannot write '\(file.destination.display)': \(error.message)"
      }
    }
  }

  /// Why the outputs of a run were refused; the message was already written.
  struct OutputRefused: Error {
    var status: ExitCode
  }

  /// An output option and the path it names.
  struct NamedOutput {
    var option: String
    var path: String
  }

  /// Resolves the outputs of a run before anything is written, and refuses the run (exit 64,
  /// naming both) when an output is one of the inputs or two outputs are one file: writing would
  /// destroy the input, or one output would silently replace the other. `inputs` are the files
  /// that will be read, by identity, with the option or argument that named each.
  static func resolveOutputs(
    _ outputs: [NamedOutput], inputs: (NamedOutput, OutputTarget.Identity) -> String?, io: some CLIIO
  ) -> Result<[OutputTarget], OutputRefused> {
    var resolved: [OutputTarget] = []
    var claimed: [OutputTarget.Identity: NamedOutput] = [:]
    for output in outputs {
      let target: OutputTarget
      do throws(FileError) {
        target = try OutputTarget(PathName(output.path))
      } catch {
        writeError("cannot write '\(PathName(output.path).display)' (\(output.option)): \(error.message)", io: io)
        return .failure(OutputRefused(status: .cannotCreate))
      }
      let display = PathName(output.path).display
      if let input = inputs(output, target.identity) {
        writeError(
          "\(output.option) '\(display)' is \(input); refusing to overwrite an input", io: io)
        return .failure(OutputRefused(status: .usage))
      }
      if target.isFile, let other = claimed[target.identity] {
        writeError(
          "\(other.option) '\(PathName(other.path).display)' and \(output.option) '\(display)' are the same file",
          io: io)
        return .failure(OutputRefused(status: .usage))
      }
      if target.isFile { claimed[target.identity] = output }
      resolved.append(target)
    }
    return .success(resolved)
  }

  static func writeError(_ message: String, io: some CLIIO) {
    io.writeStandardError("ips-doctor: error: \(message)\n")
  }
}

/// `ips-doctor [diagnose] PATH...`.
struct DiagnoseCommand<IO: CLIIO> {
  let invocation: Invocation
  let environment: [String: String]
  let io: IO

  var options: Options { invocation.options }

  func run() -> ExitCode {
    // The baseline first: a bad one stops the run before any work.
    let baseline: Baseline?
    switch BatchSession.loadBaseline(options: options, io: io) {
    case .success(let loaded): baseline = loaded
    case .failure(let refusal): return refusal.status
    }

    let discovery = InputDiscovery(paths: invocation.arguments, followLinks: options.followLinks)
    let debugPaths = DebugFileIndex.debugPaths(options: options, inputs: discovery.inputs)
    var debugFiles = InputFiles()
    debugFiles.addDebugFiles(in: debugPaths)
    var session: BatchSession<IO>
    switch BatchSession.open(
      options: options, environment: environment, io: io, baseline: baseline,
      input: { identity in
        if let phrase = debugFiles.phrase(for: identity) { return phrase }
        guard case .file(let device, let inode) = identity,
          let input = discovery.input(device: device, inode: inode)
        else { return nil }
        return "the input '\(input)'"
      })
    {
    case .success(let opened): session = opened
    case .failure(let refusal): return refusal.status
    }
    for notice in discovery.notices { session.add(notice) }

    let standardInput: Result<[UInt8], FileError>? =
      discovery.inputs.containsStandardInput
      ? io.readStandardInput(limit: options.maxSize).flatMap { bytes in
        bytes.count > options.maxSize
          ? .failure(POSIX.tooLarge(size: nil, limit: options.maxSize)) : .success(bytes)
      } : nil

    let jobs = options.jobs ?? Self.coreCount()
    var runOptions = options
    runOptions.debugFiles = DebugFileIndex.forRun(options: options, paths: debugPaths, environment: environment)
    // A shard reads its part of what the whole run would read.
    let inputs =
      options.shard.map { discovery.inputs.selecting($0.range(of: discovery.inputs.count)) } ?? discovery.inputs
    let runner = BatchRunner(
      items: inputs, options: runOptions, baseline: baseline?.known,
      standardInput: standardInput, jobs: jobs)
    let progress = Progress(
      enabled: options.progress && !options.quiet && io.standardErrorIsTerminal
        && environment["CI"] == nil && inputs.count > runner.windowSize,
      total: inputs.count, io: io)

    var notReports: [String] = []  // what each file found in a folder that is no Apple report is
    var sources: [ReportSource: Int] = [:]  // how many reports were read from each source
    session.begin()
    runner.run { outcomes, skipped, done in
      progress.clear()
      for outcome in outcomes {
        if let source = outcome.facts?.source { sources[source, default: 0] += 1 }
        session.add(outcome)
      }
      for notice in skipped {
        if notice.kind == .notAReport {
          session.report(notice)
          notReports.append(notice.message)
        } else {
          session.add(notice)
        }
      }
      progress.show(done, reports: session.run.reports)
    }
    progress.finish()

    if !notReports.isEmpty && !options.quiet {
      io.writeStandardError(Self.notReportsLine(notReports, verbose: options.verbose))
    }
    if !options.quiet, let line = Self.sourcesLine(sources) { io.writeStandardError(line) }
    // A shard may be empty where the whole run is not.
    if options.shard != nil && !discovery.inputs.isEmpty { return session.finish(emptyRun: nil) }
    return session.finish(
      emptyRun: InputNotice(
        kind: .missing, path: invocation.arguments.joined(separator: " "),
        message:
          "no crash reports found (looked for .ips and .crash files, and other files that start like a crash report)"))
  }

  /// "ips-doctor: read 3 reports: 2 apple-ips, 1 crashlytics-text", when there were several and any
  /// was not Apple's own report; `nil` otherwise (a single report's header names its source).
  static func sourcesLine(_ sources: [ReportSource: Int]) -> String? {
    let total = sources.values.reduce(0, +)
    guard total > 1, sources.keys.contains(where: { $0 != .appleIPS && $0 != .appleText }) else { return nil }
    let parts = ReportSource.allCases.compactMap { source in sources[source].map { "\($0) \(source.rawValue)" } }
    return "ips-doctor: read \(total) report\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ") + "\n"
  }

  /// "ips-doctor: skipped 3 files that are not Apple crash reports: 2 outputs of leaks, …".
  static func notReportsLine(_ kinds: [String], verbose: Bool) -> String {
    var counts: [String: Int] = [:]
    for kind in kinds { counts[kind, default: 0] += 1 }
    let parts = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .map { "\($0.value) × \($0.key)" }
    let files =
      kinds.count == 1
      ? "1 file that is not an Apple crash report" : "\(kinds.count) files that are not Apple crash reports"
    return "ips-doctor: skipped \(files) (\(parts.joined(separator: "; ")))"
      + (verbose ? "\n" : "; --verbose lists them\n")
  }

  static func coreCount() -> Int {
    let count = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return count > 0 ? Int(count) : 1
  }
}

/// The progress line on standard error, redrawn in place; only on a terminal. It counts reports
/// (files that turn out not to be reports are not counted) against the files to read, and is
/// erased at the end.
struct Progress<IO: CLIIO> {
  let enabled: Bool
  let total: Int
  let io: IO

  func show(_ done: Int, reports: Int) {
    guard enabled, done < total else { return }
    io.writeStandardError(
      "\rips-doctor: \(reports) report\(reports == 1 ? "" : "s") diagnosed, \(done)/\(total) files read…")
  }

  func clear() {
    guard enabled else { return }
    io.writeStandardError("\r\u{1B}[K")
  }

  /// Erases the line: the output that follows says how many reports were read.
  func finish() {
    clear()
  }
}
