import IPSDoctorBatch
import IPSDoctorJSON
import IPSDoctorOutput
import IPSDoctorReport
import IPSDoctorSupport

/// What `diagnose` and `merge` share once they have outcomes: the baseline, the outputs (one sink
/// per `--output` file and standard output), the filters, the counts and crash groups, the exit
/// status, `--write-baseline` and the GitHub step summary.
///
/// Invariant: a session renders the outcomes it is given, in the order given, and nothing else
/// (no clock, no input order of its own); so two commands that hand it the same outcomes in the
/// same order write the same bytes in every format and exit with the same status.
struct BatchSession<IO: CLIIO> {
  let options: Options
  let environment: [String: String]
  let io: IO
  /// The `--baseline`, read (empty when the file does not exist yet), or `nil` without one.
  let baseline: Baseline?
  typealias Sink = (destination: CLI.Destination, reporter: any Reporter)
  private var sinks: [Sink] = []
  private var groups = CrashGroups()
  private(set) var run = RunSummary()
  /// The `--output` files (not `-`), in order.
  private let files: [String]
  private let baselineTarget: OutputTarget?
  /// How many damaged reports were diagnosed, and the warning about the first, for the one line
  /// that counts them (each is written at once with `--verbose`).
  private var damaged = 0
  private var firstDamaged: String?
  /// Warnings about debug files of other UUIDs, kept for one line as ``damaged`` is.
  private var mismatched = 0
  private var firstMismatch: String?
  /// Whether a `--dsym` file had the UUID of an image of any report of the run.
  private var debugFileMatched = false

  /// Reads `--baseline`; `nil` (after saying why) when it cannot be used, and the status to exit with.
  static func loadBaseline(options: Options, io: IO) -> Result<Baseline?, CLI.OutputRefused> {
    guard let path = options.baseline else { return .success(nil) }
    switch POSIX.readFile(PathName(path), limit: 64 << 20, expectedToExist: false) {
    case .success(let bytes):
      do throws(ReportError) {
        return .success(try Baseline.parse(bytes))
      } catch {
        CLI.writeError("cannot read the baseline: \(error.diagnostic(file: PathName(path).display))", io: io)
        return .failure(CLI.OutputRefused(status: .dataError))
      }
    case .failure(let error):
      guard error.reason == .notFound else {
        CLI.writeError("cannot read the baseline '\(PathName(path).display)': \(error.message)", io: io)
        return .failure(CLI.OutputRefused(status: .dataError))
      }
      // A first run in CI has no baseline yet: every crash group is new.
      if options.writeBaseline != path {
        io.writeStandardError(
          "ips-doctor: note: the baseline '\(PathName(path).display)' does not exist yet: every crash group counts as new (--write-baseline writes one)\n"
        )
      }
      return .success(Baseline())
    }
  }

  /// Resolves and opens every output before anything is read. `input` names the input a file
  /// identity belongs to (an output may not overwrite one), or returns `nil`.
  static func open(
    options: Options, environment: [String: String], io: IO, baseline: Baseline?,
    input: (OutputTarget.Identity) -> String?
  ) -> Result<BatchSession, CLI.OutputRefused> {
    var outputs: [CLI.NamedOutput] = []
    let files = options.outputs.filter { $0 != "-" }
    for path in files { outputs.append(.init(option: "--output", path: path)) }
    if let path = options.writeBaseline { outputs.append(.init(option: "--write-baseline", path: path)) }
    if let path = stepSummaryPath(options: options, environment: environment) {
      outputs.append(.init(option: "GITHUB_STEP_SUMMARY", path: path))
    }
    let baselineIdentity = options.baseline.flatMap { path -> OutputTarget.Identity? in
      guard case .success(let status) = POSIX.status(PathName(path)) else { return nil }
      return .file(device: status.device, inode: status.inode)
    }
    // No output of a batch is a crash report: one that exists is an input a glob moved into `-o`.
    var reportsNamed = InputFiles()
    reportsNamed.addOutputs(outputs.map(\.path), namedLike: ["ips", "crash"], as: "a crash report")
    let resolved = CLI.resolveOutputs(
      outputs,
      inputs: { output, identity in
        // Updating the baseline it read is what --write-baseline is for.
        if identity == baselineIdentity, output.option != "--write-baseline", let path = options.baseline {
          return "the --baseline '\(PathName(path).display)'"
        }
        return input(identity) ?? reportsNamed.phrase(for: identity)
      }, io: io)
    let targets: [OutputTarget]
    switch resolved {
    case .failure(let refusal): return .failure(refusal)
    case .success(let resolvedTargets): targets = resolvedTargets
    }
    // The targets are in the order of `outputs`: the files, then the baseline.
    var session = BatchSession(
      options: options, environment: environment, io: io, baseline: baseline, files: files,
      baselineTarget: options.writeBaseline != nil && files.count < targets.count ? targets[files.count] : nil)
    // One sink per --output file, in the format its name says, and standard output (see
    // `sinkFormats`); every sink sees every report, and the exit status is decided once.
    for (index, format) in sinkFormats(options: options, files: files).enumerated() {
      let target = index < files.count ? targets[index] : nil
      guard let destination = CLI.Destination.open(target, io: io) else {
        return .failure(CLI.OutputRefused(status: .cannotCreate))
      }
      let toTerminal = destination.file == nil && io.standardOutputIsTerminal
      let color =
        format == .text
        && CLI.useColor(options.color, isTerminal: toTerminal, environment: environment)
      let width = toTerminal ? min(max(io.terminalColumns ?? 80, 40), 100) : 80
      let context = ReporterContext(
        options: options, color: color, width: width, environment: environment,
        diagnostics: { io.writeStandardError($0) }, baseline: baseline)
      session.sinks.append((destination, format.reporter.init(context: context)))
    }
    return .success(session)
  }

  private init(
    options: Options, environment: [String: String], io: IO, baseline: Baseline?, files: [String],
    baselineTarget: OutputTarget?
  ) {
    self.options = options
    self.environment = environment
    self.io = io
    self.baseline = baseline
    self.files = files
    self.baselineTarget = baselineTarget
    run.failOn = options.failOn
    run.filter = options.filter.description
  }

  mutating func begin() {
    for index in sinks.indices {
      let out = sinks[index].destination.out
      sinks[index].reporter.begin(out)
    }
  }

  /// Counts, groups and renders one outcome, unless the filters leave it out.
  mutating func add(_ outcome: ReportOutcome) {
    guard options.filter.keeps(outcome) else {
      run.filteredOut += 1
      return
    }
    reportProblem(outcome)
    if let warning = damagedWarning(outcome) {
      damaged += 1
      if firstDamaged == nil { firstDamaged = warning }
    }
    noteSymbols(outcome)
    run.add(outcome, failOn: options.failOn)
    groups.add(outcome)
    Self.render(outcome, to: &sinks)
  }

  /// Keeps the notices about `outcome`'s symbols: a debug file of another UUID named like one of
  /// its images (a warning), and under `--require-symbols` app frames without symbols (an error).
  private mutating func noteSymbols(_ outcome: ReportOutcome) {
    if let summary = outcome.symbolication {
      if summary.debugFileMatched { debugFileMatched = true }
      for mismatch in summary.mismatches {
        let notice = InputNotice(kind: .dsymMismatch, path: outcome.path, message: mismatch)
        mismatched += 1
        if firstMismatch == nil { firstMismatch = Self.warningLine(notice) }
        if options.verbose && !options.quiet { io.writeStandardError(Self.warningLine(notice)) }
        keep(notice)
      }
    }
    if options.requireSymbols, let hint = outcome.result?.symbolication, !hint.images.isEmpty {
      let images = hint.images.map(\.imageName).joined(separator: ", ")
      add(
        InputNotice(
          kind: .unsymbolicated, path: outcome.path,
          message: "the app's frames are not symbolicated (\(images)) and --require-symbols is set"))
    }
  }

  /// "ips-doctor: warning: PATH: MESSAGE", escaped.
  static func warningLine(_ notice: InputNotice) -> String {
    "ips-doctor: warning: " + TerminalText.escaped(notice.path) + ": " + TerminalText.escaped(notice.message) + "\n"
  }

  /// Renders `outcome` with each sink's reporter, changed in place in `sinks`.
  static func render(_ outcome: ReportOutcome, to sinks: inout [Sink]) {
    for index in sinks.indices {
      // Read before the call, so that `sinks` is not accessed during the reporter's mutation.
      let out = sinks[index].destination.out
      sinks[index].reporter.report(outcome, out)
    }
  }

  /// Tells the user about an input problem at once and keeps it for the outputs' notices.
  mutating func add(_ notice: InputNotice) {
    report(notice)
    keep(notice)
  }

  /// Keeps a notice for the outputs that the command already explained on standard error.
  mutating func keep(_ notice: InputNotice) {
    run.notices.append(notice)
  }

  /// Ends the outputs and writes the baseline. `emptyRun` is the notice for a run that found no
  /// report (unless a missing input already explains it; `nil` for a shard, which may be empty).
  /// Returns the exit status.
  mutating func finish(emptyRun: InputNotice?) -> ExitCode {
    run.groups = groups.sorted
    if let emptyRun, run.reports == 0 && !run.notices.contains(where: { $0.kind == .missing }) {
      if run.filteredOut > 0 {
        let count = run.filteredOut
        add(
          InputNotice(
            kind: .filteredOut, path: emptyRun.path,
            message: "0 of \(count) report\(count == 1 ? "" : "s") matched \(options.filter.description)"))
      } else {
        add(emptyRun)
      }
    }
    if let firstDamaged, !options.quiet && !options.verbose {
      io.writeStandardError(Self.damagedLine(count: damaged, first: firstDamaged))
    }
    if let firstMismatch, !options.quiet && !options.verbose {
      io.writeStandardError(
        mismatched == 1
          ? firstMismatch
          : "ips-doctor: warning: \(mismatched) images of the reports have a debug file of another UUID, "
            + "not used (--verbose lists them)\n")
    }
    if !options.dsyms.isEmpty, run.reports > 0, !debugFileMatched, firstMismatch == nil {
      let given = options.dsyms.map { PathName($0).display }.joined(separator: ", ")
      add(
        InputNotice(
          kind: .dsymMismatch, path: given,
          message:
            "no debug file of --dsym has the UUID of an image of the \(run.reports) report\(run.reports == 1 ? "" : "s"): "
            + "they were diagnosed without its symbols (the dSYM of another build?)"))
    }
    run.exitCode = Self.exitCode(run)
    var status = run.exitCode
    var written: [String] = []
    for index in sinks.indices {
      let out = sinks[index].destination.out
      sinks[index].reporter.finish(run, out)
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

    if let path = Self.stepSummaryPath(options: options, environment: environment) {
      let summary = MarkdownReporter.summarySection(run, title: "ips-doctor") + "\n"
      if !POSIX.append(summary, toFile: path) {
        io.writeStandardError("ips-doctor: warning: cannot append to GITHUB_STEP_SUMMARY '\(PathName(path).display)'\n")
      }
    }

    if let path = options.writeBaseline, let baselineTarget, let failure = writeBaseline(to: baselineTarget) {
      CLI.writeError("cannot write the baseline '\(PathName(path).display)': \(failure)", io: io)
      status = max(status, .cannotCreate)
    }
    return status
  }

  /// Writes `--baseline`'s signatures and this run's to `target`; the reason when it could not.
  ///
  /// Runs that update one baseline at the same time (`--baseline b.json --write-baseline b.json`)
  /// take turns under a lock on its folder, and each reads the file again under it: a run adds its
  /// groups to what the others wrote since it started, never writes over them. A `--write-baseline`
  /// that is not the `--baseline` is replaced, as documented (the last run's file wins).
  private func writeBaseline(to target: OutputTarget) -> String? {
    let folder: PathName? =
      switch target.kind {
      case .file(let path, _): path.directory
      case .descriptor, .device: nil
      }
    func write() -> String? {
      do throws(FileError) {
        // Resolved again: another run may have created the file since this one started.
        let now = try OutputTarget(target.named)
        var updated = currentBaseline(writingTo: now) ?? baseline ?? Baseline()
        updated.merge(run.groups)
        let file = try OutputFile(now)
        _ = file.write(JSONWriter.string(updated.json) + "\n")
        try file.commit()
        return nil
      } catch {
        return error.message
      }
    }
    guard let folder else { return write() }
    return FolderLock.withExclusiveLock(on: folder, write)
  }

  /// The `--baseline` as it is now on disk, merged over what was read at the start, when `target`
  /// is that file; `nil` when it is another file (or cannot be read again).
  private func currentBaseline(writingTo target: OutputTarget) -> Baseline? {
    guard let path = options.baseline, let read = try? OutputTarget(PathName(path)), read.identity == target.identity,
      case .success(let bytes) = POSIX.readFile(PathName(path), limit: 64 << 20, expectedToExist: true),
      let current = try? Baseline.parse(bytes)
    else { return nil }
    var merged = baseline ?? Baseline()
    merged.entries.merge(current.entries) { _, onDisk in onDisk }
    return merged
  }

  /// The format of each `--output` file, then, when anything goes to standard output, its format
  /// last. A format named with the file (`sarif:results.json`) is that file's; else a file's name
  /// says its format (`.sarif`, `.json`, `.md`, …); a name that says none, or
  /// says `.txt`, takes `--format` (or text). Standard output is written when no file is named (or
  /// `-` is), or when `--format` names a format no file took (`--format github -o x.sarif`:
  /// annotations on standard output, SARIF in the file).
  static func sinkFormats(options: Options, files: [String]) -> [OutputFormat] {
    let given = options.formatGiven ? options.format : nil
    var formats: [OutputFormat] = []
    for path in files {
      if let explicit = options.outputFormats[path] {
        formats.append(explicit)
        continue
      }
      let named = OutputFormat(forOutput: path)
      formats.append(named == nil || named == .text ? (given ?? named ?? .text) : named!)
    }
    if files.isEmpty || options.outputs.contains("-") {
      formats.append(options.outputFormats["-"] ?? options.format ?? .text)
    } else if let given, !formats.contains(given) {
      formats.append(given)
    }
    return formats
  }

  /// Where the Markdown summary (counts and the crash-group table) is appended in a GitHub
  /// Actions step: with `--format github`, or any format when `GITHUB_ACTIONS` is `true`, so the
  /// table is there also when `--output` writes SARIF.
  static func stepSummaryPath(options: Options, environment: [String: String]) -> String? {
    guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty,
      options.format == .github || environment["GITHUB_ACTIONS"] == "true"
    else { return nil }
    return path
  }

  static func exitCode(_ run: RunSummary) -> ExitCode {
    var code = ExitCode.success
    if run.failing > 0 { code = max(code, .findings) }
    if run.failOn != .never,
      run.unreadable > 0 || run.notices.contains(where: { $0.kind == .unreadable })
    {
      code = max(code, .dataError)
    }
    // Asked for with --require-symbols, so whatever --fail-on says.
    if run.notices.contains(where: { $0.kind == .unsymbolicated }) { code = max(code, .dataError) }
    if run.notices.contains(where: { $0.kind == .missing }) { code = max(code, .noInput) }
    return code
  }

  /// "ips-doctor: warning: 12 damaged reports were diagnosed from what could be read (--verbose
  /// lists them)", or the one report's own warning when there is one.
  static func damagedLine(count: Int, first: String) -> String {
    guard count > 1 else { return first }
    return "ips-doctor: warning: \(count) damaged reports were diagnosed from what could be read "
      + "(--verbose lists them)\n"
  }

  /// The warning line about a damaged report that was diagnosed; `nil` for any other outcome.
  func damagedWarning(_ outcome: ReportOutcome) -> String? {
    guard let error = outcome.error, outcome.isDamaged else { return nil }
    return "ips-doctor: "
      + TerminalText.escaped(error.diagnostic(file: outcome.path))
      .replacing(" error: ", with: " warning: ", maxReplacements: 1)
      + " (diagnosed from what could be read)\n"
  }

  /// A report that could not be read is an error on standard error, at once, whatever the format.
  /// A damaged one that was diagnosed is a warning there: at once with `--verbose`, else counted
  /// in one line at the end (``damagedLine(count:first:)``); none with `--quiet`.
  func reportProblem(_ outcome: ReportOutcome) {
    guard let error = outcome.error else { return }
    if outcome.isUnreadable {
      io.writeStandardError("ips-doctor: " + TerminalText.escaped(error.diagnostic(file: outcome.path)) + "\n")
    } else if options.verbose && !options.quiet, let warning = damagedWarning(outcome) {
      io.writeStandardError(warning)
    }
  }

  /// Input problems go to standard error at once (skipped files only when not `--quiet`).
  func report(_ notice: InputNotice) {
    switch notice.kind {
    case .notAReport:
      if options.verbose {
        io.writeStandardError(
          "ips-doctor: note: \(notice.path): skipped: not an Apple crash report: \(notice.message)\n")
      }
    case .skipped:
      if !options.quiet { io.writeStandardError("ips-doctor: warning: \(notice.path): \(notice.message)\n") }
    case .filteredOut:
      if !options.quiet { io.writeStandardError("ips-doctor: note: \(notice.message)\n") }
    case .missing where notice.message.hasPrefix("no crash reports") || notice.message.hasPrefix("no report records"):
      io.writeStandardError("ips-doctor: error: \(notice.message)\n")
    case .dsymMismatch:
      if !options.quiet { io.writeStandardError(Self.warningLine(notice)) }
    case .missing, .unreadable, .unsymbolicated:
      io.writeStandardError("ips-doctor: error: \(notice.path): \(notice.message)\n")
    }
  }
}
