import IPSDoctorBatch
import IPSDoctorCheck
import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `check --fix` and `check --diff`: rewrites the findings' methods (``SourceFix``) and writes each
/// changed file in place, or prints the changes as one unified diff.
///
/// Which findings: errors, or every finding with `--fix-warnings`; with `--report`, only the
/// methods the report's bridge frame names. The others are told on the output with why they were
/// left. A file is written atomically (a temporary file beside it, renamed over it; it keeps its
/// mode), never through a symbolic link, never when it is another input of the run, and once
/// however many paths name it.
struct CheckFix<IO: CLIIO> {
  let invocation: Invocation
  let io: IO
  let checker: SourceChecker
  let discovery: SwiftSourceDiscovery

  func run(_ findings: [CheckFinding], destination: CLI.Destination) -> ExitCode {
    let options = invocation.options
    var status = ExitCode.success
    var candidates = findings
    if let report = options.report {
      let linked = linkedDeclarations(report, checker: checker, invocation: invocation, io: io)
      status = max(status, linked.status)
      candidates = findings.filter { finding in
        linked.links.contains { $0.file == finding.file && $0.line == finding.line && $0.column == finding.column }
      }
      if !linked.links.isEmpty && candidates.isEmpty {
        io.writeStandardError("ips-doctor: the declaration the report names has no finding to rewrite\n")
      }
    }
    // Messages go with the output for --fix; beside the patch, on standard error, for --diff.
    var messages: [String] = []
    var chosen: [CheckFinding] = []
    for finding in candidates {
      if finding.severity == .error || options.fixWarnings {
        chosen.append(finding)
      } else {
        messages.append(
          "\(finding.file):\(finding.line):\(finding.column): note: not rewritten: a \(finding.severity.rawValue), "
            + "not an error (\(finding.isolation)); --fix-warnings rewrites it")
      }
    }

    var protected = InputFiles()
    if let report = options.report { protected.add(PathName(report), as: "the --report") }
    if let output = options.output, output != "-" { protected.add(PathName(output), as: "the --output") }
    if let settings = discovery.mainActorDefaultIsolation {
      protected.add(settings, as: "the build settings '\(settings.display)'")
    }
    // Each file once, however many paths name it: what was rewritten in it, by line and column.
    var seen: [OutputTarget.Identity: Set<String>] = [:]
    var fixed: Set<String> = []
    var rewritten = 0
    var filesChanged = 0
    var refused = 0
    var patch: [UInt8] = []
    let workingDirectory = Self.currentDirectory()
    for path in discovery.files {
      let display = path.display
      let inFile = chosen.filter { $0.file == display }
      guard !inFile.isEmpty else { continue }
      func refuseAll(_ reason: String) {
        for finding in inFile {
          messages.append("\(display):\(finding.line):\(finding.column): warning: not rewritten: \(reason)")
          refused += 1
        }
      }
      guard case .success(let link) = POSIX.lstatus(path) else {
        refuseAll("the file cannot be read again")
        continue
      }
      if link.kind == .symbolicLink {
        refuseAll("the file is a symbolic link; rewrite the file it points to")
        continue
      }
      let identity = OutputTarget.Identity.file(device: link.device, inode: link.inode)
      if let phrase = protected.phrase(for: identity) {
        refuseAll("the file is also \(phrase)")
        continue
      }
      if let done = seen[identity] {
        for finding in inFile where done.contains("\(finding.line):\(finding.column)") {
          fixed.insert("\(display):\(finding.line):\(finding.column)")
        }
        continue
      }
      seen[identity] = []
      let bytes: [UInt8]
      switch POSIX.readFile(path, limit: options.maxSize, expectedToExist: true) {
      case .success(let read): bytes = read
      case .failure(let error):
        refuseAll(error.message)
        continue
      }
      let fix = SourceFix.fix(bytes, findings: inFile, checker: checker)
      for refusal in fix.refusals {
        messages.append("\(display):\(refusal.line):\(refusal.column): warning: not rewritten: \(refusal.reason)")
        refused += 1
      }
      guard !fix.changes.isEmpty else { continue }
      if options.diff {
        patch += fix.diff(path: UnifiedDiff.relativePath(display, to: workingDirectory))
      } else if let failure = Self.write(fix.fixed, to: path) {
        CLI.writeError("cannot write '\(display)': \(failure.message)", io: io)
        status = max(status, .cannotCreate)
        continue
      }
      filesChanged += 1
      for change in fix.changes {
        seen[identity, default: []].insert("\(change.line):\(change.column)")
        rewritten += 1
        fixed.insert("\(display):\(change.line):\(change.column)")
        messages.append(
          "\(display):\(change.line):\(change.column): note: \(options.diff ? "the diff rewrites" : "rewrote") "
            + "'\(change.method)' as '\(change.completion)'; the body is now in '\(change.helper)'")
      }
    }
    let left = candidates.filter { !fixed.contains("\($0.file):\($0.line):\($0.column)") }
    let verb = options.diff ? "in the diff" : "rewritten"
    messages.append(
      "ips-doctor check \(options.diff ? "--diff" : "--fix"): \(rewritten) method\(rewritten == 1 ? "" : "s") \(verb) "
        + "in \(filesChanged) file\(filesChanged == 1 ? "" : "s"); \(refused) refused; \(left.count) left.")

    let text = messages.map { TerminalText.escaped($0) + "\n" }.joined()
    if options.diff {
      io.writeStandardError(text)
      if io.standardOutputIsTerminal && destination.file == nil {
        // A patch on a terminal is read, not applied: its bytes are shown escaped.
        destination.out.write(
          String(decoding: patch, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.escaped(String($0)) }.joined(separator: "\n"))
      } else {
        destination.out.write(String(decoding: patch, as: UTF8.self))
      }
    } else {
      destination.out.write(text)
    }
    if let message = destination.commit() {
      CLI.writeError(message, io: io)
      return .cannotCreate
    }
    if let threshold = options.failOn.threshold, left.contains(where: { $0.severity >= threshold }) {
      status = max(status, .findings)
    }
    return status
  }

  /// Replaces the file at `path` with `bytes` atomically, keeping its mode.
  static func write(_ bytes: [UInt8], to path: PathName) -> FileError? {
    do throws(FileError) {
      let file = try OutputFile(try OutputTarget(path))
      let written = bytes.withUnsafeBytes { file.write(utf8: $0) }
      if !written, let failure = file.failure {
        file.abandon()
        return failure
      }
      try file.commit()
      return nil
    } catch {
      return error
    }
  }

  /// The working directory, or `nil` when it cannot be named.
  static func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(validating: bytes, as: UTF8.self)
  }
}
