import IPSDoctorBatch
import IPSDoctorSupport

/// `ips-doctor merge PART.jsonl...`: the output of one run over all the reports that shards
/// (parallel CI jobs, `xargs -P`, GNU parallel, a Spark or Dask map step) diagnosed, each writing
/// `--format jsonl`. Every format, `--top`, `--summary`, the filters, `--fail-on`, `--baseline`
/// and `--write-baseline` behave as in `diagnose`.
///
/// The records are read back as the outcomes they were written from and handed to the same
/// ``BatchSession`` as `diagnose`'s, in path order (``MergeParts``). So a merge writes, byte for
/// byte, what `ips-doctor FOLDER` writes for the folder the shards split, and a merge of merges
/// (with `--format jsonl`) is a merge of their parts.
///
/// Without `--baseline`, each record keeps the baseline state its shard gave it; with one, the
/// states are decided again. Exit status as `diagnose`'s; in addition, a part that cannot be read
/// or holds lines that are not report records makes it 65 (66 for a missing part), after every
/// other line has been merged.
struct MergeCommand<IO: CLIIO> {
  let invocation: Invocation
  let environment: [String: String]
  let io: IO

  var options: Options { invocation.options }

  /// How many bad lines of one part are shown on standard error; the rest are counted.
  static var shownProblemsPerPart: Int { 10 }

  func run() -> ExitCode {
    let baseline: Baseline?
    switch BatchSession.loadBaseline(options: options, io: io) {
    case .success(let loaded): baseline = loaded
    case .failure(let refusal): return refusal.status
    }

    // The parts' identities first: no output may overwrite a part.
    var partIdentities: [OutputTarget.Identity: String] = [:]
    for argument in invocation.arguments where argument != "-" {
      if case .success(let status) = POSIX.status(PathName(argument)) {
        partIdentities[.file(device: status.device, inode: status.inode)] = PathName(argument).display
      }
    }
    var session: BatchSession<IO>
    switch BatchSession.open(
      options: options, environment: environment, io: io, baseline: baseline,
      input: { identity in partIdentities[identity].map { "the part '\($0)'" } })
    {
    case .success(let opened): session = opened
    case .failure(let refusal): return refusal.status
    }

    var parts = MergeParts()
    var readStandardInput = false
    for argument in invocation.arguments {
      if argument == "-" {
        // Standard input is read once, as `diagnose` reads it once.
        guard !readStandardInput else { continue }
        readStandardInput = true
      }
      switch source(argument) {
      case .success(let part):
        if let error = parts.add(part: part.display, source: part.source) {
          session.add(InputNotice(kind: .unreadable, path: part.display, message: error.message))
        }
      case .failure(let unreadable): session.add(unreadable.notice)
      }
    }
    let records = parts.ordered()
    reportProblems(parts, into: &session)

    session.begin()
    let known = baseline?.known
    for (index, record) in records.enumerated() {
      switch parts.outcome(record, index: index) {
      case .success(var outcome):
        if let known, let result = outcome.result, !outcome.isUnreadable {
          outcome.baseline = known.knows(result.signature) ? .known : .new
        }
        session.add(outcome)
      case .failure(let problem):
        // Read once already; only a part that changed since could fail here.
        session.add(
          InputNotice(
            kind: .unreadable, path: parts.parts[record.part].display,
            message: "line \(record.line): \(TerminalText.escaped(problem.message))"))
      }
    }
    return session.finish(
      emptyRun: InputNotice(
        kind: .missing, path: invocation.arguments.joined(separator: " "),
        message: "no report records found in the parts (each line of a part is one report, as --format jsonl writes it)"
      ))
  }

  /// Why a part cannot be read.
  private struct Unreadable: Error {
    var notice: InputNotice
  }

  /// A part's display name and where its bytes are, or the notice that says why it cannot be read.
  /// A regular file is read as the merge goes (``MergePartSource``); standard input and a named
  /// pipe are copied to a temporary file, or read whole when none can be made.
  private func source(_ argument: String) -> Result<(display: String, source: MergePartSource), Unreadable> {
    func fail(_ display: String, _ message: String, missing: Bool = false)
      -> Result<(display: String, source: MergePartSource), Unreadable>
    {
      .failure(Unreadable(notice: InputNotice(kind: missing ? .missing : .unreadable, path: display, message: message)))
    }
    let limit = options.maxSize
    if argument == "-" {
      if let input = io.standardInputDescriptor, let copied = MergePartSource.copying(input, limit: limit) {
        switch copied {
        case .success(let source): return .success(("<stdin>", source))
        case .failure(let error): return fail("<stdin>", error.message)
        }
      }
      switch io.readStandardInput(limit: limit) {
      case .success(let bytes) where bytes.count > limit:
        return fail("<stdin>", POSIX.tooLarge(size: nil, limit: limit).message)
      case .success(let bytes): return .success(("<stdin>", MergePartSource(bytes: bytes, limit: limit)))
      case .failure(let error): return fail("<stdin>", error.message)
      }
    }
    let path = PathName(argument)
    switch POSIX.status(path) {
    case .failure(let error):
      return fail(path.display, error.message, missing: error.reason == .notFound)
    case .success(let status) where status.kind == .directory:
      return fail(
        path.display, "is a folder: merge reads the --format jsonl files of runs (ips-doctor FOLDER diagnoses a folder)"
      )
    case .success(let status) where status.kind == .fifo:
      // `merge <(ssh host cat part.jsonl)`
      let input = POSIX.openFile(path, O_RDONLY | O_CLOEXEC)
      guard input >= 0 else { return fail(path.display, POSIX.error(errno).message) }
      defer { close(input) }
      if let copied = MergePartSource.copying(input, limit: limit) {
        switch copied {
        case .success(let source): return .success((path.display, source))
        case .failure(let error): return fail(path.display, error.message)
        }
      }
      switch POSIX.readAll(fd: input, sizeHint: 0, limit: limit, waitForData: true).flatMap({ bytes in
        bytes.count > limit ? .failure(POSIX.tooLarge(size: nil, limit: limit)) : .success(bytes)
      }) {
      case .success(let bytes): return .success((path.display, MergePartSource(bytes: bytes, limit: limit)))
      case .failure(let error): return fail(path.display, error.message)
      }
    case .success(let status) where status.kind != .regular:
      return fail(path.display, "\(status.kind.phrase), not a regular file")
    case .success(let status) where status.size > Int64(limit):
      return fail(path.display, POSIX.tooLarge(size: status.size, limit: limit).message)
    case .success(let status):
      return .success((path.display, MergePartSource(file: path, status: status, limit: limit)))
    }
  }

  /// Bad lines on standard error (the first few of each part), and one notice per part that had
  /// any, which makes the run exit 65. A path recorded twice is a warning and counts once.
  private func reportProblems(_ parts: MergeParts, into session: inout BatchSession<IO>) {
    var byPart: [Int: [MergeParts.Problem]] = [:]
    for problem in parts.problems { byPart[problem.part, default: []].append(problem) }
    for part in byPart.keys.sorted() {
      let display = parts.parts[part].display
      let problems = byPart[part]!.sorted { $0.line < $1.line }
      for duplicate in problems where duplicate.kind != .notARecord && !options.quiet {
        io.writeStandardError(
          "ips-doctor: warning: \(display):\(duplicate.line): \(TerminalText.escaped(duplicate.message))\n")
      }
      let bad = problems.filter { $0.kind == .notARecord }
      guard let first = bad.first else { continue }
      for problem in bad.prefix(Self.shownProblemsPerPart) {
        io.writeStandardError(
          "ips-doctor: error: \(display):\(problem.line): not a report record: \(TerminalText.escaped(problem.message))\n"
        )
      }
      if bad.count > Self.shownProblemsPerPart {
        io.writeStandardError(
          "ips-doctor: error: \(display): \(bad.count - Self.shownProblemsPerPart) more lines are not report records\n")
      }
      let lines = bad.count == 1 ? "1 line is" : "\(bad.count) lines are"
      session.keep(
        InputNotice(
          kind: .unreadable, path: display,
          message:
            "\(lines) not a report record (the first, line \(first.line): \(TerminalText.escaped(first.message)))"))
    }
  }
}
