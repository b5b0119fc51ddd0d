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
      invocation = try ArgumentBinder.bind(arguments, pathExists: { path in
        if case .success = POSIX.lstatus(PathName(path)) { return true }
        return false
      })
    } catch {
      let named = arguments.prefix(while: { $0 != "--" }).first { Command(rawValue: $0) != nil }
      io.writeStandardError(error.rendered(for: named.flatMap(Command.init(rawValue:))))
      return .usage
    }
    switch invocation.action {
    case .version:
      io.writeStandardOutput("ips-doctor \(IPSDoctor.version)\n")
      return .success
    case .help(let command):
      io.writeStandardOutput(Help.text(for: command))
      return .success
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
      case .help:
        io.writeStandardOutput(Help.text(for: nil))
        return .success
      }
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

  /// Where output goes: standard output, or an atomically written file.
  struct Destination {
    let file: AtomicFile?
    let out: TextOutput

    init(path: String?, io: some CLIIO) throws(FileError) {
      if let path, path != "-" {
        let file = try AtomicFile(path)
        self.file = file
        out = TextOutput(sink: { file.write($0) }, bytesSink: { file.write(utf8: $0) })
      } else {
        file = nil
        out = TextOutput(
          sink: { text in
            io.writeStandardOutput(text)
            return true
          },
          bytesSink: { bytes in
            io.writeStandardOutput(utf8: bytes)
            return true
          })
      }
    }

    /// The destination for `path`, or `nil` after telling the user why it cannot be written.
    static func open(_ path: String?, io: some CLIIO) -> Destination? {
      do throws(FileError) {
        return try Destination(path: path, io: io)
      } catch {
        CLI.writeError("cannot write '\(PathName(path ?? "").display)': \(error.message)", io: io)
        return nil
      }
    }

    /// Flushes and, for a file, renames it into place. Returns an error message on failure.
    func commit() -> String? {
      out.flush()
      guard let file else { return nil }
      do throws(FileError) {
        try file.commit()
        return nil
      } catch {
        return "cannot write '\(file.destination.display)': \(error.message)"
      }
    }
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
        if error.reason == .notFound && options.writeBaseline == path {
          baseline = Baseline()  // first run: the baseline is about to be written
        } else {
          CLI.writeError("cannot read the baseline '\(PathName(path).display)': \(error.message)", io: io)
          return error.reason == .notFound ? .noInput : .dataError
        }
      }
    }

    guard let destination = CLI.Destination.open(options.output, io: io) else { return .cannotCreate }

    let discovery = InputDiscovery(paths: invocation.arguments)
    var run = RunSummary()
    run.failOn = options.failOn
    run.notices = discovery.notices
    for notice in discovery.notices { report(notice) }

    let format = options.format ?? .text
    let toTerminal = destination.file == nil && io.standardOutputIsTerminal
    let color = format == .text
      && CLI.useColor(options.color, isTerminal: toTerminal, environment: environment)
    let width = toTerminal ? min(max(io.terminalColumns ?? 80, 40), 100) : 80
    let context = ReporterContext(
      options: options, color: color, width: width, environment: environment,
      diagnostics: { io.writeStandardError($0) })
    var reporter = format.reporter.init(context: context)

    let standardInput: Result<[UInt8], FileError>? =
      discovery.inputs.containsStandardInput
      ? io.readStandardInput(limit: options.maxSize).flatMap { bytes in
        bytes.count > options.maxSize
          ? .failure(POSIX.tooLarge(size: nil, limit: options.maxSize)) : .success(bytes)
      } : nil

    let jobs = options.jobs ?? Self.coreCount()
    let runner = BatchRunner(
      items: discovery.inputs, options: options, baseline: baseline?.ids,
      standardInput: standardInput, jobs: jobs)
    let progress = Progress(
      enabled: options.progress && !options.quiet && io.standardErrorIsTerminal
        && environment["CI"] == nil && discovery.inputs.count > runner.windowSize,
      total: discovery.inputs.count, io: io)

    var groups = CrashGroups()
    reporter.begin(destination.out)
    runner.run { outcomes, skipped, done in
      progress.clear()
      for outcome in outcomes {
        run.add(outcome, failOn: options.failOn)
        groups.add(outcome)
        reporter.report(outcome, destination.out)
      }
      for notice in skipped {
        run.notices.append(notice)
        report(notice)
      }
      progress.show(done)
    }
    progress.clear()

    run.groups = groups.sorted
    if run.reports == 0 && !run.notices.contains(where: { $0.kind == .missing }) {
      let notice = InputNotice(
        kind: .missing, path: invocation.arguments.joined(separator: " "),
        message: "no crash reports found (looked for .ips and .crash files, and other files that start like a crash report)")
      run.notices.append(notice)
      report(notice)
    }
    run.exitCode = exitCode(run)
    reporter.finish(run, destination.out)
    var status = run.exitCode
    if let message = destination.commit() {
      CLI.writeError(message, io: io)
      status = max(status, .cannotCreate)
    }

    if let path = options.writeBaseline {
      var updated = baseline ?? Baseline()
      updated.merge(run.groups)
      do throws(FileError) {
        let file = try AtomicFile(path)
        _ = file.write(JSONWriter.string(updated.json) + "\n")
        try file.commit()
      } catch {
        CLI.writeError("cannot write the baseline '\(PathName(path).display)': \(error.message)", io: io)
        status = max(status, .cannotCreate)
      }
    }
    return status
  }

  func exitCode(_ run: RunSummary) -> ExitCode {
    var code = ExitCode.success
    if run.failing > 0 { code = max(code, .findings) }
    if run.unreadable > 0 || run.notices.contains(where: { $0.kind == .unreadable }) {
      code = max(code, .dataError)
    }
    if run.notices.contains(where: { $0.kind == .missing }) { code = max(code, .noInput) }
    return code
  }

  /// Input problems go to standard error at once (skipped files only when not `--quiet`).
  func report(_ notice: InputNotice) {
    switch notice.kind {
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

/// The "12/340 reports" line on standard error, redrawn in place; only on a terminal.
struct Progress<IO: CLIIO> {
  let enabled: Bool
  let total: Int
  let io: IO

  func show(_ done: Int) {
    guard enabled, done < total else { return }
    io.writeStandardError("\rips-doctor: diagnosing \(done)/\(total) reports…")
  }

  func clear() {
    guard enabled else { return }
    io.writeStandardError("\r\u{1B}[K")
  }
}
