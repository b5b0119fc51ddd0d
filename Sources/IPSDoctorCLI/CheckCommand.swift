import IPSDoctorBatch
import IPSDoctorCheck
import IPSDoctorSupport

/// `ips-doctor check PATH...`: finds `async` implementations of completion-handler delegate
/// methods that the compiler's bridge completes off the main thread (see ``SourceChecker``).
///
/// Exit status: 0 when no finding is at or above `--fail-on`, 1 when one is, 66 when a named
/// path does not exist or no Swift file was found, 73 when the output cannot be written.
/// With `--fix` or `--diff`, the findings that count are the ones the rewrite leaves, and 73 also
/// means a fixed file could not be written (see ``CheckFix``).
struct CheckCommand<IO: CLIIO> {
  let invocation: Invocation
  let environment: [String: String]
  let io: IO

  func run() -> ExitCode {
    let options = invocation.options
    var discovery = SwiftSourceDiscovery(excludes: options.excludes)
    for argument in invocation.arguments { discovery.add(argument) }
    var status = ExitCode.success
    for problem in discovery.problems {
      CLI.writeError("\(problem.path.display): \(problem.error.message)", io: io)
      status = max(status, .noInput)
    }
    if options.verbose {
      for skipped in discovery.skipped { io.writeStandardError("ips-doctor: " + TerminalText.escaped(skipped) + "\n") }
    }

    var checker = SourceChecker(defaultMainActor: options.defaultIsolation == .mainActor)
    if options.defaultIsolation == nil, let setting = discovery.mainActorDefaultIsolation {
      // Not stated, but some target is built with MainActor: plain types are not certain.
      checker.mainActorDefaultSeenIn = setting.display
    }
    // Each file is scanned as it is read; its bytes are not kept.
    for path in discovery.files {
      switch POSIX.readFile(path, limit: options.maxSize, expectedToExist: false) {
      case .success(let bytes): checker.add(.init(display: path.display, bytes: bytes))
      case .failure(let error):
        CLI.writeError("\(path.display): \(error.message)", io: io)
        status = max(status, .noInput)
      }
    }
    if checker.filesScanned == 0 && discovery.problems.isEmpty {
      CLI.writeError("no Swift file found", io: io)
      return .noInput
    }

    var result = checker.result()
    if options.verbose {
      for note in result.notes { io.writeStandardError("ips-doctor: " + TerminalText.escaped(note) + "\n") }
    }
    // Sorted in place: the findings are held once.
    result.findings.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
    let findings = result.findings

    let destination: CLI.Destination
    var inputs = InputFiles()
    for path in discovery.files { inputs.add(path, as: "the input '\(path.display)'") }
    if let report = options.report { inputs.add(PathName(report), as: "the --report '\(PathName(report).display)'") }
    inputs.addOutputs(options.outputs, namedLike: ["swift"], as: "a Swift source")
    switch CLI.Destination.open(path: options.output, inputs: inputs, io: io) {
    case .success(let opened): destination = opened
    case .failure(let refusal): return refusal.status
    }
    if options.fix || options.diff {
      let fix = CheckFix(invocation: invocation, io: io, checker: checker, discovery: discovery)
      return max(status, fix.run(findings, destination: destination))
    }
    CheckOutput.write(
      findings, format: options.format ?? .text, filesScanned: checker.filesScanned, verbose: options.verbose,
      to: destination.out)
    if let report = options.report { status = max(status, linkReport(report, checker: checker)) }
    if let message = destination.commit() {
      CLI.writeError(message, io: io)
      return .cannotCreate
    }
    if let threshold = options.failOn.threshold, findings.contains(where: { $0.severity >= threshold }) {
      status = max(status, .findings)
    }
    return status
  }

  /// `--report`: tells on standard error which declaration the report's bridge frame names.
  private func linkReport(_ path: String, checker: SourceChecker) -> ExitCode {
    linkedDeclarations(path, checker: checker, invocation: invocation, io: io).status
  }
}

/// `check --report`: the declarations the report's bridge frame names, told on standard error, and
/// the exit status of reading the report.
func linkedDeclarations(
  _ path: String, checker: SourceChecker, invocation: Invocation, io: some CLIIO
) -> (links: [CrashDeclarationLink], status: ExitCode) {
  let name = PathName(path)
  let bytes: [UInt8]
  switch POSIX.readFile(name, limit: invocation.options.maxSize, expectedToExist: false) {
  case .success(let read): bytes = read
  case .failure(let error):
    CLI.writeError("\(name.display): \(error.message)", io: io)
    return ([], error.reason == .notFound ? .noInput : .dataError)
  }
  guard let found = CrashDeclarationLink.links(reportBytes: bytes, in: checker) else {
    CLI.writeError("\(name.display): not a crash report", io: io)
    return ([], .dataError)
  }
  guard let frame = found.frame else {
    io.writeStandardError("ips-doctor: \(name.display): no '@objc closure #N in T.m' bridge frame in the report\n")
    return ([], .success)
  }
  if found.links.isEmpty {
    io.writeStandardError(
      "ips-doctor: "
        + TerminalText.escaped(
          "\(name.display): the bridge frame names \(frame), declared in none of the scanned files") + "\n")
  }
  for link in found.links {
    io.writeStandardError(
      TerminalText.escaped(
        "\(link.file):\(link.line):\(link.column): note: the crash in \(name.display) was called by the bridge of this declaration (@objc closure in \(frame))"
      )
        + "\n")
  }
  return (found.links, .success)
}
