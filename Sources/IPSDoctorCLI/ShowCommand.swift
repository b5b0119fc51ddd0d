import IPSDoctorBatch
import IPSDoctorReport
import IPSDoctorSupport
import IPSDoctorSymbolication

/// `ips-doctor show PATH`: the report in Apple's legacy text layout (``LegacyTextRenderer``), the
/// way Xcode shows a crash. It diagnoses nothing; the exit status says whether the file could be
/// read (0), could not be (65), or does not exist (66).
struct ShowCommand<IO: CLIIO> {
  let invocation: Invocation
  let io: IO

  func run() -> ExitCode {
    let options = invocation.options
    let argument = invocation.arguments[0]
    let display: String
    let bytes: [UInt8]
    if argument == "-" {
      display = "<stdin>"
      switch io.readStandardInput(limit: options.maxSize) {
      case .success(let read) where read.count > options.maxSize:
        return fail(display, POSIX.tooLarge(size: nil, limit: options.maxSize).message, .dataError)
      case .success(let read): bytes = read
      case .failure(let error): return fail(display, error.message, .dataError)
      }
    } else {
      let path = PathName(argument)
      display = path.display
      switch POSIX.status(path) {
      case .failure(let error):
        return fail(display, error.message, error.reason == .notFound ? .noInput : .dataError)
      case .success(let status) where status.kind == .directory:
        return fail(
          display, "is a folder: show prints one report (use 'ips-doctor \(argument)' to diagnose a folder)", .dataError
        )
      case .success(let status) where status.kind != .regular:
        return fail(display, "skipped: \(status.kind.phrase), not a regular file", .noInput)
      case .success:
        break
      }
      switch POSIX.readFile(path, limit: options.maxSize, expectedToExist: false) {
      case .success(let read): bytes = read
      case .failure(let error): return fail(display, error.message, .dataError)
      }
    }

    var report: CrashReport
    do throws(ReportError) {
      report = try ReportReader.read(bytes)
    } catch {
      io.writeStandardError("ips-doctor: " + TerminalText.escaped(error.diagnostic(file: display)) + "\n")
      return .dataError
    }

    let debugPaths = ReportInput.debugPaths(options: options, report: argument == "-" ? nil : PathName(argument))
    if !debugPaths.isEmpty {
      let symbolication: SymbolicationSummary
      (report, symbolication) = DebugFileIndex(paths: debugPaths).symbolicate(report)
      // A debug file of another build is said, as diagnose and symbolicate say it.
      for mismatch in symbolication.mismatches {
        io.writeStandardError("ips-doctor: warning: \(display): " + TerminalText.escaped(mismatch) + "\n")
      }
    }

    let destination: CLI.Destination
    var inputs = InputFiles()
    if argument != "-" { inputs.add(PathName(argument), as: "the input '\(PathName(argument).display)'") }
    inputs.addDebugFiles(in: debugPaths)
    inputs.addOutputs(options.outputs, namedLike: ["ips", "crash"], as: "a crash report")
    switch CLI.Destination.open(path: options.output, inputs: inputs, io: io) {
    case .success(let opened): destination = opened
    case .failure(let refusal): return refusal.status
    }
    destination.out.write(LegacyTextRenderer.render(report))
    if let message = destination.commit() {
      CLI.writeError(message, io: io)
      return .cannotCreate
    }

    var status = ExitCode.success
    if let error = report.bodyError {
      io.writeStandardError(
        "ips-doctor: " + TerminalText.escaped(error.diagnostic(file: display))
          + " (showing what could be read)\n")
      status = .dataError
    }
    if !report.warnings.isEmpty {
      let count = report.warnings.count
      let label = options.strict ? "error" : "warning"
      io.writeStandardError(
        "ips-doctor: \(label): \(display): \(count) parse warning\(count == 1 ? "" : "s"), the first: "
          + TerminalText.escaped(report.warnings[0].description) + "\n")
      if options.strict { status = max(status, .dataError) }
    }
    return status
  }

  private func fail(_ display: String, _ message: String, _ status: ExitCode) -> ExitCode {
    io.writeStandardError("ips-doctor: error: \(display): \(message)\n")
    return status
  }
}
