import IPSDoctorBatch
import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport
import IPSDoctorSymbolication

/// `ips-doctor symbolicate PATH... [--dsym PATH]... [-o FILE|FOLDER]`: the report, symbolicated from the
/// debug files whose UUIDs match its images. A JSON `.ips` stays JSON (the header line as it was,
/// the body with `symbol`, `symbolLocation`, `sourceFile`, `sourceLine` filled in as Xcode does);
/// a text report gets `atos`' form `symbol (in Image) (File.swift:42)`. Exit 0 when the report was
/// written (or had nothing to symbolicate), 1 when it was written but no frame of it could be
/// symbolicated, 65 when it cannot be read, 66 when missing.
struct SymbolicateCommand<IO: CLIIO> {
  let invocation: Invocation
  let io: IO

  func run() -> ExitCode {
    let arguments = invocation.arguments
    if arguments.count == 1, !Self.isFolder(arguments[0]) {
      return symbolicate(arguments[0], output: invocation.options.output)
    }
    return symbolicateEach(arguments)
  }

  static func isFolder(_ argument: String) -> Bool {
    guard argument != "-", case .success(let status) = POSIX.status(PathName(argument)) else { return false }
    return status.kind == .directory
  }

  /// Several reports, or the reports in folders (a device's pull): each written to the `-o`
  /// folder under its own file name. The exit status is the worst of theirs; a name seen twice, or
  /// an output that would be its own input, is an error for that report.
  func symbolicateEach(_ arguments: [String]) -> ExitCode {
    guard let folder = invocation.options.output, folder != "-", Self.isFolder(folder) else {
      CLI.writeError(
        "symbolicate: several reports, or a folder, are written to a folder: -o must name an existing folder", io: io)
      return .usage
    }
    let discovery = InputDiscovery(paths: arguments, followLinks: invocation.options.followLinks)
    var status = ExitCode.success
    for notice in discovery.notices {
      io.writeStandardError("ips-doctor: error: \(notice.path): \(notice.message)\n")
      status = max(status, notice.kind == .missing ? .noInput : .dataError)
    }
    var written = Set<[UInt8]>()
    var count = 0
    for item in discovery.items {
      guard case .file(let path) = item.source else {
        io.writeStandardError("ips-doctor: error: <stdin>: symbolicate writes standard input to one file only\n")
        status = max(status, .usage)
        continue
      }
      // A file in a folder that does not start like a report is passed over, as diagnose does.
      if item.mustSniff {
        guard case .success(let prefix) = POSIX.readFile(path, limit: 4096, prefixOnly: 4096),
          InputDiscovery.looksLikeReport(prefix)
        else { continue }
      }
      let name = Array(path.lastComponent)
      guard written.insert(name).inserted else {
        CLI.writeError(
          "\(path.display): another report named '\(PathName(bytes: name).display)' was already written to "
            + "'\(PathName(folder).display)'; skipped", io: io)
        status = max(status, .dataError)
        continue
      }
      count += 1
      let output = PathName(folder).appending(name)
      status = max(
        status,
        symbolicate(String(decoding: path.bytes, as: UTF8.self), output: String(decoding: output.bytes, as: UTF8.self)))
    }
    if count == 0 && discovery.notices.isEmpty {
      CLI.writeError(
        "no crash reports found in \(arguments.map { PathName($0).display }.joined(separator: " "))", io: io)
      status = max(status, .noInput)
    }
    return status
  }

  /// One report, written to `output` (standard output when `nil` or `-`).
  func symbolicate(_ argument: String, output: String?) -> ExitCode {
    let options = invocation.options
    let input: (display: String, bytes: [UInt8])
    switch ReportInput.read(argument, options: options, io: io, command: "symbolicate") {
    case .success(let read): input = read
    case .failure(let failure): return failure.status
    }
    let report: CrashReport
    do throws(ReportError) {
      report = try ReportReader.read(input.bytes)
    } catch {
      io.writeStandardError("ips-doctor: " + TerminalText.escaped(error.diagnostic(file: input.display)) + "\n")
      return .dataError
    }

    let paths = ReportInput.debugPaths(options: options, report: argument == "-" ? nil : PathName(argument))
    let index = DebugFileIndex(paths: paths)
    let symbolicator = index.symbolicator(for: report)
    let summary = symbolicator.summary(of: report)
    // The body is written as it is rewritten, so that a large report is not held twice.
    let rewrite: SymbolicatedOutput
    if report.format == .json, let document = report.bodyDocument,
      let spliced = JSONSymbolicationSplice.insertions(document, report: report, symbolicator: symbolicator)
    {
      rewrite = .spliced(document, spliced.insertions, frames: spliced.frames)
    } else if report.format == .json && report.cutLists > 0 {
      // The tree holds only what was kept: written out, it would lose the rest.
      CLI.writeError(
        "\(input.display): the report is too large to keep whole and its body could not be symbolicated in place",
        io: io)
      return .dataError
    } else if report.format == .json, let body = report.bodyJSON {
      var header: [UInt8] = []
      input.bytes.withUnsafeBytes { file in
        JSONSymbolicationSplice.writeEscaped(UnsafeRawBufferPointer(rebasing: file.prefix { $0 != UInt8(ascii: "\n") }))
        {
          header += $0
        }
      }
      let rewritten = JSONSymbolication.rewrite(body, report: report, symbolicator: symbolicator)
      let text = String(decoding: header, as: UTF8.self) + "\n" + JSONWriter.string(rewritten.body) + "\n"
      rewrite = .tree(text, frames: rewritten.frames)
    } else {
      rewrite = .lines
    }

    let destination: CLI.Destination
    var inputs = InputFiles()
    if argument != "-" { inputs.add(PathName(argument), as: "the input '\(PathName(argument).display)'") }
    inputs.addDebugFiles(in: paths)
    switch CLI.Destination.open(path: output, inputs: inputs, io: io) {
    case .success(let opened): destination = opened
    case .failure(let refusal): return refusal.status
    }
    let out = destination.out
    let frames: Int
    switch rewrite {
    case .spliced(let document, let insertions, let count):
      // The report's own JSON bytes go out with their bidi controls and `##[` as JSON escapes
      // (``JSONSymbolicationSplice/writeEscaped(_:into:)``); the insertions are the JSON writer's.
      let writeJSON = { (bytes: UnsafeRawBufferPointer) in
        JSONSymbolicationSplice.writeEscaped(bytes) { out.write(utf8: $0) }
      }
      input.bytes.withUnsafeBytes { file in
        writeJSON(UnsafeRawBufferPointer(rebasing: file.prefix { $0 != UInt8(ascii: "\n") }))
      }
      out.write("\n")
      document.withView { view in
        let body = UnsafeRawBufferPointer(view.bytes)
        var position = 0
        for insertion in insertions {
          writeJSON(UnsafeRawBufferPointer(rebasing: body[position..<insertion.offset]))
          out.write(insertion.text)
          position = insertion.offset
        }
        writeJSON(UnsafeRawBufferPointer(rebasing: body[position...]))
        if input.bytes.last == UInt8(ascii: "\n") && body.last != UInt8(ascii: "\n") { out.write("\n") }
      }
      frames = count
    case .tree(let text, let count):
      out.write(text)
      frames = count
    case .lines:
      frames = input.bytes.withUnsafeBufferPointer { bytes in
        LegacyTextSymbolication.rewrite(bytes: bytes, report: report, symbolicator: symbolicator) {
          out.write(utf8: $0)
        }
      }
    }
    if let message = destination.commit() {
      CLI.writeError(message, io: io)
      return .cannotCreate
    }
    if report.format == .json && report.cutLists > 0 {
      // Text reports are symbolicated line by line, every line; a JSON body only where kept.
      io.writeStandardError(
        "ips-doctor: warning: \(input.display): the report is too large to keep whole: frames past the first "
          + "\(BodyBudget.maxArrayElements) of a list were left as they were\n")
    }
    for mismatch in summary.mismatches {
      io.writeStandardError("ips-doctor: warning: \(input.display): " + TerminalText.escaped(mismatch) + "\n")
    }
    for (image, limit) in symbolicator.imagesOverBudget {
      io.writeStandardError(
        "ips-doctor: warning: \(input.display): "
          + TerminalText.escaped(
            "\(image): its debug information needs more than \(limit >> 20) MiB to read; given up, later frames "
              + "of it keep at most their symbol-table names") + "\n")
    }
    if frames == 0 && DebugFileIndex.imagesWithUnsymbolicatedFrames(report).isEmpty {
      io.writeStandardError("ips-doctor: \(input.display): every frame already has a symbol: nothing to symbolicate\n")
    } else if frames == 0 {
      let matched = symbolicator.matchedImageNames(of: report)
      let looked: String
      if paths.isEmpty {
        looked = "no --dsym given and no .dSYM beside the report"
      } else if matched.isEmpty {
        looked =
          "\(index.count) debug image\(index.count == 1 ? "" : "s") found, none with a UUID of the report's images"
      } else {
        // The UUIDs matched: what is missing is a frame to symbolicate, not a debug file.
        looked =
          TerminalText.escaped(matched.joined(separator: ", "))
          + " matched by UUID, but no unsymbolicated frame of the report has an address in "
          + (matched.count == 1 ? "its" : "their") + " debug information"
      }
      io.writeStandardError("ips-doctor: error: \(input.display): no frame symbolicated (\(looked))\n")
      // Written as it was, but a script must not take it for a symbolicated report.
      return .findings
    } else {
      let images = summary.matchedImages.map(TerminalText.escaped).joined(separator: ", ")
      io.writeStandardError(
        "ips-doctor: \(input.display): symbolicated \(frames) frame\(frames == 1 ? "" : "s") of \(images)\n")
    }
    return .success
  }
}

/// What `symbolicate` writes.
enum SymbolicatedOutput {
  /// The header line and the body with the insertions: every byte of the report kept.
  case spliced(JSONDocument, [(offset: Int, text: String)], frames: Int)
  /// The header line and the body re-serialised from its tree.
  case tree(String, frames: Int)
  /// A text report, rewritten line by line.
  case lines
}

/// Reading the one report of `show` and `symbolicate`, and where their debug files are.
enum ReportInput {
  struct Failure: Error {
    var status: ExitCode
  }

  /// The report's display name and bytes, or the exit status after saying why not.
  static func read(_ argument: String, options: Options, io: some CLIIO, command: String)
    -> Result<(display: String, bytes: [UInt8]), Failure>
  {
    func fail(_ display: String, _ message: String, _ status: ExitCode) -> Result<
      (display: String, bytes: [UInt8]), Failure
    > {
      io.writeStandardError("ips-doctor: error: \(display): \(message)\n")
      return .failure(Failure(status: status))
    }
    if argument == "-" {
      switch io.readStandardInput(limit: options.maxSize) {
      case .success(let read) where read.count > options.maxSize:
        return fail("<stdin>", POSIX.tooLarge(size: nil, limit: options.maxSize).message, .dataError)
      case .success(let read): return .success(("<stdin>", read))
      case .failure(let error): return fail("<stdin>", error.message, .dataError)
      }
    }
    let path = PathName(argument)
    switch POSIX.status(path) {
    case .failure(let error):
      return fail(path.display, error.message, error.reason == .notFound ? .noInput : .dataError)
    case .success(let status) where status.kind == .directory:
      return fail(path.display, "is a folder: \(command) takes one report", .dataError)
    case .success(let status) where status.kind != .regular:
      return fail(path.display, "skipped: \(status.kind.phrase), not a regular file", .noInput)
    case .success:
      break
    }
    switch POSIX.readFile(path, limit: options.maxSize, expectedToExist: false) {
    case .success(let read): return .success((path.display, read))
    case .failure(let error): return fail(path.display, error.message, .dataError)
    }
  }

  /// `--dsym` paths, or the `.dSYM` bundles beside the report (none for standard input).
  static func debugPaths(options: Options, report: PathName?) -> [PathName] {
    if !options.dsyms.isEmpty { return options.dsyms.map(PathName.init) }
    return report.map(DebugImageLocator.defaultPaths(forReport:)) ?? []
  }
}
