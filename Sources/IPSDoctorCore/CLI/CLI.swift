#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The whole command line, as library code: tests call ``run(_:environment:io:)`` in process and
/// read what it printed; `main.swift` only passes the real streams and exits with the result.
public enum CLI {
  /// Runs `ips-doctor` with `arguments` (without the program name).
  public static func run(_ arguments: [String], environment: [String: String], io: some CLIIO)
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
    #if os(macOS)
      if case .run(.diagnose) = invocation.action, invocation.arguments.count == 1,
        let folder = invocation.arguments.first, folder != "-", !arguments.contains(folder),
        folder == defaultInput(environment: environment, io: io)
      {
        io.writeStandardError("ips-doctor: no path given: reading \(PathName(folder).display)\n")
      }
    #endif
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
      switch command {
      case .diagnose:
        return DiagnoseCommand(invocation: invocation, environment: environment, io: io).run()
      case .rules, .explain:
        return CatalogCommand(invocation: invocation, environment: environment, io: io).run(command)
      case .show:
        return ShowCommand(invocation: invocation, io: io).run()
      case .check:
        return CheckCommand(invocation: invocation, environment: environment, io: io).run()
      case .symbolicate:
        return SymbolicateCommand(invocation: invocation, io: io).run()
      case .help:
        return writeOutput(Help.text(for: nil), io: io)
      }
    }
  }

  /// What `ips-doctor` with no path reads: standard input when it is a pipe or a file; on macOS,
  /// the folder where the system keeps this user's crash reports.
  static func defaultInput(environment: [String: String], io: some CLIIO) -> String? {
    if io.standardInputIsData { return "-" }
    #if os(macOS)
      if let home = environment["HOME"], !home.isEmpty {
        return home + "/Library/Logs/DiagnosticReports"
      }
    #endif
    return nil
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

    /// The destination for `--output` (standard output when `nil` or `-`), refused when it is the
    /// file `input` (see ``CLI/resolveOutputs(_:inputs:io:)``).
    static func open(path: String?, input: PathName? = nil, io: some CLIIO) -> Result<Destination, OutputRefused> {
      guard let path, path != "-" else { return .success(Destination(file: nil, io: io)) }
      let inputStatus = input.flatMap { input -> FileStatus? in
        guard case .success(let status) = POSIX.status(input) else { return nil }
        return status
      }
      let resolved = CLI.resolveOutputs([NamedOutput(option: "--output", path: path)], inputs: { _, identity in
        guard let input, let inputStatus,
          identity == .file(device: inputStatus.device, inode: inputStatus.inode)
        else { return nil }
        return "the input '\(input.display)'"
      }, io: io)
      switch resolved {
      case .failure(let refusal): return .failure(refusal)
      case .success(let targets):
        guard let destination = open(targets.first, io: io) else { return .failure(OutputRefused(status: .cannotCreate)) }
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
    var baseline: Baseline?
    if let path = options.baseline {
      switch POSIX.readFile(PathName(path), limit: 64 << 20, expectedToExist: false) {
      case .success(let bytes):
        do throws(ReportError) {
          baseline = try Baseline.parse(bytes)
        } catch {
          CLI.writeError("cannot read the baseline: \(error.diagnostic(file: PathName(path).display))", io: io)
          return .dataError
        }
      case .failure(let error):
        if error.reason == .notFound {
          // A first run in CI has no baseline yet: every crash group is new.
          baseline = Baseline()
          if options.writeBaseline != path {
            io.writeStandardError(
              "ips-doctor: note: the baseline '\(PathName(path).display)' does not exist yet: every crash group counts as new (--write-baseline writes one)\n")
          }
        } else {
          CLI.writeError("cannot read the baseline '\(PathName(path).display)': \(error.message)", io: io)
          return error.reason == .notFound ? .noInput : .dataError
        }
      }
    }

    let discovery = InputDiscovery(paths: invocation.arguments, followLinks: options.followLinks)

    var outputs: [CLI.NamedOutput] = []
    let files = options.outputs.filter { $0 != "-" }
    for path in files { outputs.append(.init(option: "--output", path: path)) }
    if let path = options.writeBaseline { outputs.append(.init(option: "--write-baseline", path: path)) }
    if let path = stepSummaryPath {
      outputs.append(.init(option: "GITHUB_STEP_SUMMARY", path: path))
    }
    let baselineIdentity = options.baseline.flatMap { path -> OutputTarget.Identity? in
      guard case .success(let status) = POSIX.status(PathName(path)) else { return nil }
      return .file(device: status.device, inode: status.inode)
    }
    let resolved = CLI.resolveOutputs(outputs, inputs: { output, identity in
      // Updating the baseline it read is what --write-baseline is for.
      if identity == baselineIdentity, output.option != "--write-baseline", let path = options.baseline {
        return "the --baseline '\(PathName(path).display)'"
      }
      guard case .file(let device, let inode) = identity,
        let input = discovery.input(device: device, inode: inode)
      else { return nil }
      return "the input '\(input)'"
    }, io: io)
    guard case .success(let targets) = resolved else {
      if case .failure(let refusal) = resolved { return refusal.status }
      return .software
    }
    // One sink per --output file, in the format its name says, and standard output (see
    // `sinkFormats`); every sink sees every report, and the exit status is decided once.
    var sinks: [(destination: CLI.Destination, reporter: any Reporter)] = []
    for (index, format) in sinkFormats(files: files).enumerated() {
      let target = index < files.count ? targets[index] : nil
      guard let destination = CLI.Destination.open(target, io: io) else { return .cannotCreate }
      let toTerminal = destination.file == nil && io.standardOutputIsTerminal
      let color = format == .text
        && CLI.useColor(options.color, isTerminal: toTerminal, environment: environment)
      let width = toTerminal ? min(max(io.terminalColumns ?? 80, 40), 100) : 80
      let context = ReporterContext(
        options: options, color: color, width: width, environment: environment,
        diagnostics: { io.writeStandardError($0) }, baseline: baseline)
      sinks.append((destination, format.reporter.init(context: context)))
    }

    var run = RunSummary()
    run.failOn = options.failOn
    run.filter = options.filter.description
    run.notices = discovery.notices
    for notice in discovery.notices { report(notice) }

    let standardInput: Result<[UInt8], FileError>? =
      discovery.inputs.containsStandardInput
      ? io.readStandardInput(limit: options.maxSize).flatMap { bytes in
        bytes.count > options.maxSize
          ? .failure(POSIX.tooLarge(size: nil, limit: options.maxSize)) : .success(bytes)
      } : nil

    let jobs = options.jobs ?? Self.coreCount()
    var runOptions = options
    runOptions.debugFiles = DebugFileIndex.forRun(options: options, inputs: discovery.inputs)
    let runner = BatchRunner(
      items: discovery.inputs, options: runOptions, baseline: baseline?.ids,
      standardInput: standardInput, jobs: jobs)
    let progress = Progress(
      enabled: options.progress && !options.quiet && io.standardErrorIsTerminal
        && environment["CI"] == nil && discovery.inputs.count > runner.windowSize,
      total: discovery.inputs.count, io: io)

    var groups = CrashGroups()
    var notReports: [String] = []  // what each file found in a folder that is no Apple report is
    for index in sinks.indices { sinks[index].reporter.begin(sinks[index].destination.out) }
    runner.run { outcomes, skipped, done in
      progress.clear()
      for outcome in outcomes {
        guard options.filter.keeps(outcome) else {
          run.filteredOut += 1
          continue
        }
        reportProblem(outcome)
        run.add(outcome, failOn: options.failOn)
        groups.add(outcome)
        for index in sinks.indices { sinks[index].reporter.report(outcome, sinks[index].destination.out) }
      }
      for notice in skipped {
        report(notice)
        if notice.kind == .notAReport {
          notReports.append(notice.message)
        } else {
          run.notices.append(notice)
        }
      }
      progress.show(done, reports: run.reports)
    }
    progress.finish(reports: run.reports)

    run.groups = groups.sorted
    if !notReports.isEmpty && !options.quiet {
      io.writeStandardError(Self.notReportsLine(notReports, verbose: options.verbose))
    }
    if run.reports == 0 && !run.notices.contains(where: { $0.kind == .missing }) {
      let notice = InputNotice(
        kind: .missing, path: invocation.arguments.joined(separator: " "),
        message: "no crash reports found (looked for .ips and .crash files, and other files that start like a crash report)")
      run.notices.append(notice)
      report(notice)
    }
    run.exitCode = exitCode(run)
    var status = run.exitCode
    var written: [String] = []
    for index in sinks.indices {
      sinks[index].reporter.finish(run, sinks[index].destination.out)
      if let message = sinks[index].destination.commit() {
        CLI.writeError(message, io: io)
        status = max(status, .cannotCreate)
      } else if let file = sinks[index].destination.file {
        written.append(file.destination.display)
      }
    }
    if !written.isEmpty && !options.quiet && sinks.allSatisfy({ $0.destination.file != nil }) {
      // The output went to files only: say what happened where the user looks.
      io.writeStandardError("ips-doctor: \(run.sentence) (written to \(written.joined(separator: ", ")))\n")
    }

    if let path = stepSummaryPath {
      let summary = MarkdownReporter.summarySection(run, title: "ips-doctor") + "\n"
      if !GitHubReporter.append(summary, to: path) {
        io.writeStandardError("ips-doctor: warning: cannot append to GITHUB_STEP_SUMMARY '\(PathName(path).display)'\n")
      }
    }

    // The targets are in the order of `outputs`: the files, then the baseline.
    if let path = options.writeBaseline, files.count < targets.count {
      let baselineTarget = targets[files.count]
      var updated = baseline ?? Baseline()
      updated.merge(run.groups)
      do throws(FileError) {
        let file = try OutputFile(baselineTarget)
        _ = file.write(JSONWriter.string(updated.json) + "\n")
        try file.commit()
      } catch {
        CLI.writeError("cannot write the baseline '\(PathName(path).display)': \(error.message)", io: io)
        status = max(status, .cannotCreate)
      }
    }
    return status
  }

  /// The format of each `--output` file, then, when anything goes to standard output, its format
  /// last. A file's name says its format (`.sarif`, `.json`, `.md`, …); a name that says none, or
  /// says `.txt`, takes `--format` (or text). Standard output is written when no file is named (or
  /// `-` is), or when `--format` names a format no file took (`--format github -o x.sarif`:
  /// annotations on standard output, SARIF in the file).
  func sinkFormats(files: [String]) -> [OutputFormat] {
    let given = options.formatGiven ? options.format : nil
    var formats: [OutputFormat] = []
    for path in files {
      let named = OutputFormat(forOutput: path)
      formats.append(named == nil || named == .text ? (given ?? named ?? .text) : named!)
    }
    if files.isEmpty || options.outputs.contains("-") {
      formats.append(options.format ?? .text)
    } else if let given, !formats.contains(given) {
      formats.append(given)
    }
    return formats
  }

  /// Where the Markdown summary (counts and the crash-group table) is appended in a GitHub
  /// Actions step: with `--format github`, or any format when `GITHUB_ACTIONS` is `true`, so the
  /// table is there also when `--output` writes SARIF.
  var stepSummaryPath: String? {
    guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty,
      options.format == .github || environment["GITHUB_ACTIONS"] == "true"
    else { return nil }
    return path
  }

  func exitCode(_ run: RunSummary) -> ExitCode {
    var code = ExitCode.success
    if run.failing > 0 { code = max(code, .findings) }
    if run.failOn != .never,
      run.unreadable > 0 || run.notices.contains(where: { $0.kind == .unreadable })
    {
      code = max(code, .dataError)
    }
    if run.notices.contains(where: { $0.kind == .missing }) { code = max(code, .noInput) }
    return code
  }

  /// A report that could not be read is an error on standard error, at once, whatever the format;
  /// a damaged one that was diagnosed is a warning there (not with `--quiet`).
  func reportProblem(_ outcome: ReportOutcome) {
    guard let error = outcome.error else { return }
    if outcome.isUnreadable {
      io.writeStandardError("ips-doctor: " + TerminalText.escaped(error.diagnostic(file: outcome.path)) + "\n")
    } else if !options.quiet {
      io.writeStandardError(
        "ips-doctor: " + TerminalText.escaped(error.diagnostic(file: outcome.path))
          .replacing(" error: ", with: " warning: ", maxReplacements: 1)
          + " (diagnosed from what could be read)\n")
    }
  }

  /// "ips-doctor: skipped 3 files that are not Apple crash reports: 2 outputs of leaks, …".
  static func notReportsLine(_ kinds: [String], verbose: Bool) -> String {
    var counts: [String: Int] = [:]
    for kind in kinds { counts[kind, default: 0] += 1 }
    let parts = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .map { "\($0.value) × \($0.key)" }
    let files = kinds.count == 1 ? "1 file that is not an Apple crash report" : "\(kinds.count) files that are not Apple crash reports"
    return "ips-doctor: skipped \(files) (\(parts.joined(separator: "; ")))"
      + (verbose ? "\n" : "; --verbose lists them\n")
  }

  /// Input problems go to standard error at once (skipped files only when not `--quiet`).
  func report(_ notice: InputNotice) {
    switch notice.kind {
    case .notAReport:
      if options.verbose {
        io.writeStandardError("ips-doctor: note: \(notice.path): skipped: not an Apple crash report: \(notice.message)\n")
      }
    case .skipped:
      if !options.quiet { io.writeStandardError("ips-doctor: warning: \(notice.path): \(notice.message)\n") }
    case .missing where notice.message.hasPrefix("no crash reports"):
      io.writeStandardError("ips-doctor: error: \(notice.message)\n")
    case .missing, .unreadable:
      io.writeStandardError("ips-doctor: error: \(notice.path): \(notice.message)\n")
    }
  }

  static func coreCount() -> Int {
    let count = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return count > 0 ? Int(count) : 1
  }
}

/// The progress line on standard error, redrawn in place; only on a terminal. It counts reports
/// (files that turn out not to be reports are not counted) against the files to read, and ends
/// with the totals.
struct Progress<IO: CLIIO> {
  let enabled: Bool
  let total: Int
  let io: IO

  func show(_ done: Int, reports: Int) {
    guard enabled, done < total else { return }
    io.writeStandardError("\rips-doctor: \(reports) report\(reports == 1 ? "" : "s") diagnosed, \(done)/\(total) files read…")
  }

  func clear() {
    guard enabled else { return }
    io.writeStandardError("\r\u{1B}[K")
  }

  func finish(reports: Int) {
    guard enabled else { return }
    io.writeStandardError("\r\u{1B}[Kips-doctor: \(reports) report\(reports == 1 ? "" : "s") diagnosed, \(total)/\(total) files read\n")
  }
}
