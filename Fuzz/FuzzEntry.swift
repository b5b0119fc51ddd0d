// libFuzzer entry point for the reader, the rule engine and the output. Built by Fuzz/fuzz.sh
// together with the sources of every library target and
// Tests/IPSDoctorCoreTests/Support/OutputInvariants.swift into one module, with `-sanitize=fuzzer,address`.

@_cdecl("LLVMFuzzerTestOneInput")
public func ipsDoctorFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  #if FUZZ_MACHO
    // The symbolication readers on their own: Mach-O, symbol table, DWARF (Fuzz/fuzz.sh --macho).
    FuzzSink.checksum &+= FuzzMachO.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
  #elseif FUZZ_SWIFT
    // `check`'s Swift lexer and scanner, and `merge` of the input as a part (Fuzz/fuzz.sh --swift).
    FuzzSwift.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  #else
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The JSON parser on its own, at a small depth limit too.
    _ = try? JSONParser.parse(bytes)
    _ = try? JSONParser.parse(bytes, maxDepth: 8)
    FuzzTape.checkBudget(bytes)
    // The reader, the engine, and everything that renders a result.
    if let report = try? ReportReader.read(bytes) {
      #if FUZZ_READER_ONLY
        FuzzSink.checksum &+= report.threads.count &+ report.warnings.count
      #else
        let result = Doctor.diagnose(report)
        FuzzSink.consume(result, report)
        FuzzOutput.checkCommands(result)
      #endif
    }
    #if !FUZZ_READER_ONLY
      FuzzOutput.checkEveryFormat(bytes)
      FuzzMCP.run(bytes)
    #endif
    return 0
  #endif
}

/// `check` and `merge` on the input: the lexer and scanner never trap and keep their
/// invariants (every function's line is a line of the file, every enclosing type exists), and
/// `merge` of the input as a part writes only escaped lines.
enum FuzzSwift {
  static func run(_ bytes: [UInt8]) {
    let scanned = SwiftDeclarationScanner.scan(bytes)
    let lines = bytes.count + 1
    for function in scanned.functions {
      if function.line < 1 || function.line > lines { fail("func '\(function.name)' at line \(function.line)") }
      if let type = function.enclosingType, !scanned.types.indices.contains(type) {
        fail("func '\(function.name)' in type \(type) of \(scanned.types.count)")
      }
    }
    let result = SourceChecker().check([.init(display: "fuzz.swift", bytes: bytes)])
    FuzzSink.checksum &+= scanned.types.count &+ result.findings.count &+ result.notes.count
    for format in ["jsonl", "text"] {
      let io = FuzzIO(input: bytes)
      _ = CLI.run(["merge", "-", "--format", format], environment: [:], io: io)
      for problem in OutputInvariants.lineViolations(io.output) { fail("merge \(format) stdout: \(problem)") }
      for problem in OutputInvariants.lineViolations(io.errors) { fail("merge \(format) stderr: \(problem)") }
    }
  }

  static func fail(_ message: String) -> Never {
    fatalError("check or merge invariant broken: " + message)
  }
}

/// The input as messages to `ips-doctor mcp`, after a handshake whose client confines the server
/// to a root that does not exist (so no tool reads a file): every line the server writes must be
/// one JSON value, and the server must end when its input does.
enum FuzzMCP {
  static let handshake =
    #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}}}}"#
    + "\n" + #"{"jsonrpc":"2.0","method":"notifications/initialized"}"# + "\n"
    + #"{"jsonrpc":"2.0","id":"ips-doctor-roots-1","result":{"roots":[{"uri":"file:///nonexistent-ips-doctor-fuzz-root"}]}}"#
    + "\n"

  static func run(_ bytes: [UInt8]) {
    final class Lines: @unchecked Sendable {
      var lines: [String] = []
    }
    let written = Lines()
    let server = MCPServer(
      workingDirectory: PathName("/nonexistent-ips-doctor-fuzz-root"), jobs: 1, messageLimit: 1 << 20,
      write: { line in
        written.lines.append(line)
        return true
      }, log: { _ in })
    _ = server.serve(MemorySource(Array(handshake.utf8) + bytes))
    for line in written.lines {
      guard line.hasSuffix("\n"), !line.dropLast().contains("\n"),
        (try? JSONParser.parse(String(line.dropLast()))) != nil
      else { FuzzOutput.fail("mcp wrote a line that is not one JSON value: \(line.prefix(200))") }
    }
  }
}

/// Reads every slice of a Mach-O input and looks up its symbols' addresses and a few others.
enum FuzzMachO {
  static func run(_ bytes: UnsafeRawBufferPointer) -> Int {
    var checksum = 0
    for slice in MachOReader.slices(bytes) {
      let table = SymbolTable(slice)
      let symbolizer = DWARFSymbolizer(DWARFSections(slice))
      let addresses =
        [0, slice.textAddress, slice.textAddress &+ 0x60c4, .max] + table.symbols.prefix(32).map(\.address)
      for address in addresses {
        checksum &+= symbolizer.frames(at: address)?.frames.count ?? 0
        if let symbol = table.symbol(containing: address) { checksum &+= table.name(of: symbol)?.utf8.count ?? 0 }
      }
      // What the reader keeps stays within its budget, and the budget within a multiple of the
      // input (libFuzzer's -rss_limit_mb and -timeout bound the process as a whole).
      if symbolizer.budget.used > symbolizer.budget.limit { fail("DWARF budget overrun") }
      if symbolizer.budget.limit > DWARFBudget.floor + DWARFBudget.perInputByte * bytes.count {
        fail("DWARF budget larger than the input allows")
      }
      // A segment's sections are read within its command: 80 bytes each at least (68 in 32-bit).
      if slice.sections.count > bytes.count / 68 { fail("more sections than the file holds") }
    }
    return checksum
  }

  static func fail(_ message: String) -> Never {
    fatalError("fuzz invariant: \(message)")
  }
}

/// The output side: the input rendered by the CLI in every format (and by `show`), with what
/// ips-doctor promises about printed text asserted; a broken promise traps, so libFuzzer keeps
/// the input as a crash.
enum FuzzOutput {
  static func checkCommands(_ result: DiagnosisResult) {
    for image in result.symbolication?.images ?? [] {
      for command in [image.findDSYM, image.atos].compactMap({ $0 }) {
        if let problem = OutputInvariants.commandViolation(command) { fail("suggested command: \(problem)") }
      }
    }
  }

  static func checkEveryFormat(_ bytes: [UInt8]) {
    var runs: [(arguments: [String], format: OutputFormat?)] = OutputFormat.allCases.map {
      (["-", "--format", $0.rawValue, "--verbose"], $0)
    }
    runs.append((["show", "-"], nil))
    for run in runs {
      let io = FuzzIO(input: bytes)
      _ = CLI.run(run.arguments, environment: [:], io: io)
      let annotations = run.format == .github
      for problem in OutputInvariants.lineViolations(io.output, annotations: annotations) {
        fail("\(run.arguments.joined(separator: " ")) stdout: \(problem)")
      }
      for problem in OutputInvariants.lineViolations(io.errors) {
        fail("\(run.arguments.joined(separator: " ")) stderr: \(problem)")
      }
      if run.format == .markdown {
        for problem in OutputInvariants.markdownViolations(io.output) { fail("markdown: \(problem)") }
      }
      if run.format == .text || run.format == .markdown {
        for line in io.output.split(separator: "\n") {
          let command = line.drop(while: { $0 == " " })
          guard command.hasPrefix("atos ") || command.hasPrefix("mdfind ") else { continue }
          if let problem = OutputInvariants.commandViolation(String(command)) { fail("printed command: \(problem)") }
        }
      }
    }
  }

  static func fail(_ message: String) -> Never {
    fatalError("output invariant broken: " + message)
  }
}

/// The capped tape pass (`JSONTapeBudget`) at a budget small enough for every input to meet it:
/// it breaks where the whole pass breaks, keeps no more than its total, records omissions of
/// containers only, and what it keeps is a tape that a tree can be built from.
enum FuzzTape {
  static let budget = JSONTapeBudget(
    maxArrayElements: 2, outlineEntries: 12, outlineDepth: 3, maxEntries: 24, marker: "t", maxMarked: 1)

  static func checkBudget(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
      let capped = JSONParser.documentPrefix(buffer, from: 0, maxDepth: 64, budget: budget)
      let whole = JSONParser.documentPrefix(buffer, from: 0, maxDepth: 64)
      if capped.error?.location.offset != whole.error?.location.offset || capped.end != whole.end {
        fail("the capped pass stopped at \(capped.end), the whole pass at \(whole.end)")
      }
      guard let document = capped.document else { return }
      let entries = document.copiedEntries()
      // The total, plus the open containers and their keys at the break.
      if entries.count > budget.maxEntries + 2 * 64 + 2 { fail("\(entries.count) entries kept") }
      for omission in document.omissions {
        guard omission.index < entries.count, omission.count > 0,
          entries[omission.index].kind == .array || entries[omission.index].kind == .object
        else { fail("an omission at \(omission.index) of \(entries.count) entries") }
      }
      FuzzSink.checksum &+= document.value == .null ? 0 : 1
    }
  }

  static func fail(_ message: String) -> Never {
    fatalError("tape budget invariant broken: " + message)
  }
}

/// Standard streams in memory: the input on standard input, what is printed kept.
final class FuzzIO: CLIIO {
  let input: [UInt8]
  var output = ""
  var errors = ""

  init(input: [UInt8]) { self.input = input }

  func writeStandardOutput(_ text: String) { output += text }
  func writeStandardError(_ text: String) { errors += text }
  var standardOutputIsTerminal: Bool { false }
  var standardErrorIsTerminal: Bool { false }
  var terminalColumns: Int? { nil }
  func readStandardInput(limit: Int) -> Result<[UInt8], FileError> { .success(Array(input.prefix(limit + 1))) }
}

enum FuzzSink {
  static func consume(_ result: DiagnosisResult, _ report: CrashReport) {
    var total = result.signature.id.utf8.count
    for diagnosis in result.diagnoses {
      total &+= TerminalText.escaped(diagnosis.summary).utf8.count
      total &+= JSONWriter.quoted(diagnosis.remedy).utf8.count
    }
    if let header = report.headerJSON { total &+= JSONWriter.string(header, style: .compact).utf8.count }
    // The tree built from the (possibly partial) body tape.
    if case .object(let body)? = report.bodyJSON { total &+= body.count }
    FuzzSink.checksum &+= total
  }

  nonisolated(unsafe) static var checksum = 0
}
