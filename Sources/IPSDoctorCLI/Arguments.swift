import IPSDoctorBatch
import IPSDoctorSupport

/// One command-line argument, classified without knowing which options exist (stage 1 of 2).
package enum Token: Sendable, Equatable {
  /// `--name` or `--name=value`.
  case long(String, value: String?)
  /// `-abc`: one or more short options; a short option that takes a value takes the rest of the
  /// cluster (`-j4`) or the next argument.
  case shorts([Character])
  /// A path, a command or a value; `-` (standard input) is positional.
  case positional(String)
  /// `--`: everything after it is positional.
  case terminator

  /// Splits arguments into tokens. Pure; never fails.
  package static func tokenize(_ arguments: [String]) -> [Token] {
    var tokens: [Token] = []
    var afterTerminator = false
    for argument in arguments {
      if afterTerminator {
        tokens.append(.positional(argument))
      } else if argument == "--" {
        tokens.append(.terminator)
        afterTerminator = true
      } else if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
          tokens.append(.long(String(body[..<equals]), value: String(body[body.index(after: equals)...])))
        } else {
          tokens.append(.long(String(body), value: nil))
        }
      } else if argument.hasPrefix("-") && argument.count > 1 {
        tokens.append(.shorts(Array(argument.dropFirst())))
      } else {
        tokens.append(.positional(argument))
      }
    }
    return tokens
  }
}

/// The subcommands. `diagnose` is the default when the first positional argument is not a command.
package enum Command: String, Sendable, CaseIterable, Equatable {
  case diagnose, merge, show, check, symbolicate, rules, explain, mcp, help

  var abstract: String {
    switch self {
    case .diagnose: "Diagnose crash reports: why the app crashed and how to fix it (the default)."
    case .merge:
      "Combine the --format jsonl outputs of several runs (shards) into the output of one run over all their reports."
    case .show: "Print a report the way Xcode shows a crash (Apple's legacy text layout)."
    case .check: "Find async completion-handler delegate methods in Swift source that complete off the main thread."
    case .symbolicate: "Write a report with its app's frames symbolicated from dSYMs, as Xcode does."
    case .rules: "List the diagnosis rules."
    case .explain: "Explain one rule: what it detects, why it happens and how to fix it."
    case .mcp: "Serve the diagnosis tools to AI agents: a Model Context Protocol server on standard input and output."
    case .help: "Show help for ips-doctor or one of its commands."
    }
  }

  var usage: String {
    switch self {
    case .diagnose:
      "ips-doctor [diagnose] <path>... [--format <format>] [--output <file>] [--fail-on <severity>] [--baseline <file>] [<options>]"
    case .merge:
      "ips-doctor merge <part.jsonl>... [--format <format>] [--output <file>] [--fail-on <severity>] [--baseline <file>] [<options>]"
    case .show: "ips-doctor show <path> [--output <file>]"
    case .check:
      "ips-doctor check <path>... [--format <format>] [--fail-on <severity>] [--exclude <glob>] [--default-isolation <isolation>] [--report <crash.ips>] [--fix | --diff] [--fix-warnings]"
    case .symbolicate: "ips-doctor symbolicate <path>... [--dsym <path>]... [--output <file-or-folder>]"
    case .rules: "ips-doctor rules [--format text|json|markdown]"
    case .explain: "ips-doctor explain <rule-id> [--format text|json|markdown]"
    case .mcp: "ips-doctor mcp"
    case .help: "ips-doctor help [<command>]"
    }
  }
}

/// The result of binding: what to run, with what.
package struct Invocation: Sendable, Equatable {
  package enum Action: Sendable, Equatable {
    case run(Command)
    case help(Command?)
    case version
    /// `--generate-completion-script SHELL`.
    case completionScript(Shell)
    /// `--generate-manual`.
    case manual
  }

  package var action: Action
  package var options: Options
  /// Paths for `diagnose`/`show`, the rule id for `explain`.
  package var arguments: [String]
}

/// One option: the single source for parsing, validation and `--help`.
struct OptionSpec: Sendable {
  enum Key: Sendable {
    case format, output, color, verbose, quiet, strict, failOn, baseline, writeBaseline, jobs
    case maxSize, noProgress, follow, top, summary, app, appVersion, since, rule, severity, dsym, requireSymbols, shard
    case help, version
    case generateCompletion, generateManual
    case exclude, defaultIsolation, report, fix, diff, fixWarnings
  }

  var key: Key
  var long: String
  var short: Character?
  /// The value's placeholder, or `nil` for a flag.
  var placeholder: String?
  var help: String
  var commands: [Command]

  var takesValue: Bool { placeholder != nil }

  var spelling: String {
    placeholder.map { "--\(long) <\($0)>" } ?? "--\(long)"
  }

  static let all: [OptionSpec] = [
    OptionSpec(
      key: .format, long: "format", short: "f", placeholder: "format",
      help:
        "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")). Default: text, or the --output file's extension. For rules and explain: text, json, markdown.",
      commands: [.diagnose, .merge, .check, .rules, .explain]),
    OptionSpec(
      key: .output, long: "output", short: "o", placeholder: "file",
      help:
        "Write the output to a file (atomically: a temporary file, then a rename). FORMAT:FILE (sarif:results.json) names the file's format; otherwise its extension does.",
      commands: [.diagnose, .merge, .show, .check, .symbolicate, .rules, .explain]),
    OptionSpec(
      key: .failOn, long: "fail-on", short: nil, placeholder: "severity",
      help: "Exit 1 when a finding is at or above this severity: error, warning, note, never. Default: error.",
      commands: [.diagnose, .merge, .check]),
    OptionSpec(
      key: .baseline, long: "baseline", short: nil, placeholder: "file",
      help: "Known crash signatures (from --write-baseline): their findings are shown but do not fail the run.",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .writeBaseline, long: "write-baseline", short: nil, placeholder: "file",
      help: "Write the signatures of this run (plus those of --baseline) to a baseline file.",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .dsym, long: "dsym", short: nil, placeholder: "path",
      help:
        "Symbolicate with this dSYM, DWARF or Mach-O file, or the ones in this folder (.xcarchive); repeatable. Default: the .dSYM bundles beside each report and in its dSYMs folder.",
      commands: [.diagnose, .show, .symbolicate]),
    OptionSpec(
      key: .requireSymbols, long: "require-symbols", short: nil, placeholder: nil,
      help:
        "Fail the run (exit 65) when a report's app frames are not symbolicated, after the dSYMs at hand were used.",
      commands: [.diagnose]),
    OptionSpec(
      key: .strict, long: "strict", short: nil, placeholder: nil,
      help: "Treat report warnings (wrong-typed or missing fields) as errors: exit 65 for that file.",
      commands: [.diagnose, .show]),
    OptionSpec(
      key: .verbose, long: "verbose", short: "v", placeholder: nil,
      help: "Also show the evidence for each finding, the signature and parse warnings.",
      commands: [.diagnose, .merge, .check]),
    OptionSpec(
      key: .quiet, long: "quiet", short: "q", placeholder: nil,
      help: "Print only findings, one line each.", commands: [.diagnose, .merge]),
    OptionSpec(
      key: .color, long: "color", short: nil, placeholder: "when",
      help: "Colour the text output: auto, always, never. Default: auto (a terminal, and NO_COLOR unset).",
      commands: [.diagnose, .merge, .rules, .explain]),
    OptionSpec(
      key: .jobs, long: "jobs", short: "j", placeholder: "n",
      help: "Read and diagnose up to n reports at a time. Default: the number of cores.",
      commands: [.diagnose]),
    OptionSpec(
      key: .maxSize, long: "max-size", short: nil, placeholder: "size",
      help: "Refuse files larger than this (e.g. 512K, 64M, 1G). Default: 64M.",
      commands: [.diagnose, .merge, .show, .symbolicate]),
    OptionSpec(
      key: .top, long: "top", short: nil, placeholder: "n",
      help: "With several reports, show the n largest crash groups in full (or 'all'). Default: 5.",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .summary, long: "summary", short: nil, placeholder: nil,
      help: "With several reports, show only the crash-group table and the summary.",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .app, long: "app", short: nil, placeholder: "name",
      help: "Keep only reports of this app: its name, its bundle identifier or a prefix of it (com.example).",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .appVersion, long: "app-version", short: nil, placeholder: "version",
      help: "Keep only reports of this app version or build (\"2.4\", \"118\" or \"2.4 (118)\").",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .since, long: "since", short: nil, placeholder: "date",
      help: "Keep only reports from this date on (2026-09-01, or 2026-09-01 12:30; UTC unless a zone is given).",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .rule, long: "rule", short: nil, placeholder: "id",
      help: "Keep only reports whose top diagnosis is this rule, or starts with it (objc-); 'inconclusive' for none.",
      commands: [.diagnose, .merge]),
    OptionSpec(
      key: .severity, long: "severity", short: nil, placeholder: "severity",
      help: "Keep only reports at or above this severity: error, warning, note.", commands: [.diagnose, .merge]),
    OptionSpec(
      key: .shard, long: "shard", short: nil, placeholder: "k/n",
      help:
        "Read only the k-th of n parts of the inputs (1/4 to 4/4), in the order a whole run reads them: for runs in parallel whose --format jsonl outputs 'ips-doctor merge' combines.",
      commands: [.diagnose]),
    OptionSpec(
      key: .follow, long: "follow", short: "L", placeholder: nil,
      help:
        "Follow symbolic links to folders inside the scanned folders (links named on the command line are always followed).",
      commands: [.diagnose]),
    OptionSpec(
      key: .noProgress, long: "no-progress", short: nil, placeholder: nil,
      help: "Never show the progress line (shown only on a terminal, outside CI, for long batches).",
      commands: [.diagnose]),
    OptionSpec(
      key: .exclude, long: "exclude", short: nil, placeholder: "glob",
      help: "check: skip files and folders whose path or name matches the glob (* and ?; repeatable).",
      commands: [.check]),
    OptionSpec(
      key: .defaultIsolation, long: "default-isolation", short: nil, placeholder: "isolation",
      help:
        "check: the module's default isolation: nonisolated (the default) or main-actor (-default-isolation MainActor).",
      commands: [.check]),
    OptionSpec(
      key: .report, long: "report", short: nil, placeholder: "crash.ips",
      help:
        "check: point from the report's bridge frame (@objc closure #1 in T.m) to the declaration of T.m; with --fix or --diff, rewrite only that method.",
      commands: [.check]),
    OptionSpec(
      key: .fix, long: "fix", short: nil, placeholder: nil,
      help:
        "check: rewrite each error into the completion-handler form of its requirement, in place (atomically; the file keeps its mode). Refusals are explained.",
      commands: [.check]),
    OptionSpec(
      key: .diff, long: "diff", short: nil, placeholder: nil,
      help:
        "check: print the rewrite of --fix as a unified diff (git apply-able, paths relative to the working directory) instead of writing.",
      commands: [.check]),
    OptionSpec(
      key: .fixWarnings, long: "fix-warnings", short: nil, placeholder: nil,
      help: "check: with --fix or --diff, rewrite warnings and notes too (by default only errors are rewritten).",
      commands: [.check]),
    OptionSpec(
      key: .help, long: "help", short: "h", placeholder: nil, help: "Show help information.",
      commands: Command.allCases),
    OptionSpec(
      key: .version, long: "version", short: "V", placeholder: nil, help: "Show the version.",
      commands: Command.allCases),
    OptionSpec(
      key: .generateCompletion, long: "generate-completion-script", short: nil, placeholder: "shell",
      help: "Print a completion script for bash, zsh or fish.", commands: [.diagnose]),
    OptionSpec(
      key: .generateManual, long: "generate-manual", short: nil, placeholder: nil,
      help: "Print the manual page (ips-doctor.1).", commands: [.diagnose]),
  ]

  static func named(_ long: String) -> OptionSpec? { all.first { $0.long == long } }
  static func named(short: Character) -> OptionSpec? { all.first { $0.short == short } }
}

/// Stage 2: binds tokens to the option table. Pure apart from `pathExists`, which tells a
/// misspelt command (`ips-doctor explian`) from a file that happens to have a short name.
package enum ArgumentBinder {
  ///
  /// `defaultInput` is what `diagnose` reads when no path is given (`-` for a pipe on standard
  /// input); without one, a path is required.
  package static func bind(
    _ arguments: [String], pathExists: (String) -> Bool = { _ in false }, defaultInput: String? = nil
  ) throws(UsageError) -> Invocation {
    let tokens = Token.tokenize(arguments)
    var given: [(spec: OptionSpec, value: String?, spelling: String)] = []
    var positionals: [String] = []
    var afterTerminator = false
    var firstPositionalIsCommandCandidate = true

    var index = 0
    func takeValue(for spec: OptionSpec, spelling: String) throws(UsageError) -> String {
      guard index + 1 < tokens.count, case .positional(let value) = tokens[index + 1] else {
        throw .missingValue(option: "--\(spec.long) <\(spec.placeholder ?? "value")>")
      }
      index += 1
      return value
    }

    while index < tokens.count {
      switch tokens[index] {
      case .terminator:
        afterTerminator = true
        if positionals.isEmpty { firstPositionalIsCommandCandidate = false }
      case .positional(let text):
        if afterTerminator && positionals.isEmpty { firstPositionalIsCommandCandidate = false }
        positionals.append(text)
      case .long(let name, let inline):
        guard let spec = OptionSpec.named(name) else {
          throw .unknownOption(
            "--" + name,
            suggestion: Suggest.best(name, among: OptionSpec.all.map(\.long)).map { "--" + $0 })
        }
        if spec.takesValue {
          if let inline {
            given.append((spec, inline, "--" + name))
          } else {
            given.append((spec, try takeValue(for: spec, spelling: "--" + name), "--" + name))
          }
        } else {
          if inline != nil { throw .unexpectedValue(option: "--" + name) }
          given.append((spec, nil, "--" + name))
        }
      case .shorts(let characters):
        var position = 0
        while position < characters.count {
          let character = characters[position]
          guard let spec = OptionSpec.named(short: character) else {
            let longMatch = OptionSpec.named(String(characters))
            throw .unknownOption(
              "-" + String(character),
              suggestion: longMatch.map { "--" + $0.long }
                ?? (characters.count > 1
                  ? Suggest.best(String(characters), among: OptionSpec.all.map(\.long)).map { "--" + $0 } : nil))
          }
          if spec.takesValue {
            let rest = String(characters[(position + 1)...])
            if rest.isEmpty {
              given.append((spec, try takeValue(for: spec, spelling: "-\(character)"), "-\(character)"))
            } else {
              given.append((spec, rest, "-\(character)"))
            }
            position = characters.count
          } else {
            given.append((spec, nil, "-\(character)"))
            position += 1
          }
        }
      }
      index += 1
    }

    // The command.
    var command = Command.diagnose
    var commandNamed = false
    if firstPositionalIsCommandCandidate, let first = positionals.first {
      if let named = Command(rawValue: first) {
        command = named
        commandNamed = true
        positionals.removeFirst()
      } else if looksLikeCommand(first), !pathExists(first),
        let suggestion = Suggest.best(first, among: Command.allCases.map(\.rawValue))
      {
        throw .unknownCommand(first, suggestion: suggestion)
      }
    }

    if given.contains(where: { $0.spec.key == .version }) {
      return Invocation(action: .version, options: Options(), arguments: [])
    }
    if let request = given.first(where: { $0.spec.key == .generateCompletion }) {
      let shell: Shell = try choice(request.value ?? "", option: request.spec)
      return Invocation(action: .completionScript(shell), options: Options(), arguments: [])
    }
    if given.contains(where: { $0.spec.key == .generateManual }) {
      return Invocation(action: .manual, options: Options(), arguments: [])
    }
    if given.contains(where: { $0.spec.key == .help }) {
      return Invocation(
        action: .help(command == .help ? nil : (commandNamed ? command : nil)),
        options: Options(), arguments: [])
    }
    if command == .help {
      guard let topic = positionals.first else {
        return Invocation(action: .help(nil), options: Options(), arguments: [])
      }
      guard let helpCommand = Command(rawValue: topic) else {
        throw .unknownCommand(topic, suggestion: Suggest.best(topic, among: Command.allCases.map(\.rawValue)))
      }
      if positionals.count > 1 { throw .unexpectedArgument(positionals[1], command: .help) }
      return Invocation(action: .help(helpCommand), options: Options(), arguments: [])
    }

    var options = Options()
    if command == .merge { options.maxSize = Options.defaultMergeMaxSize }
    var formatText: (value: String, spelling: String)?
    for (spec, value, spelling) in given {
      guard spec.commands.contains(command) else {
        throw .optionNotApplicable(option: spelling, command: command)
      }
      let value = value ?? ""
      switch spec.key {
      case .format: formatText = (value, spelling)
      case .output:
        // `FORMAT:FILE` names the file's format, for the commands whose output has one.
        if [.diagnose, .merge, .check].contains(command), let explicit = OutputFormat.explicit(value) {
          options.outputs.append(explicit.path)
          options.outputFormats[explicit.path] = explicit.format
        } else {
          options.outputs.append(value)
        }
      case .color: options.color = try choice(value, option: spec)
      case .verbose: options.verbose = true
      case .quiet: options.quiet = true
      case .strict: options.strict = true
      case .requireSymbols: options.requireSymbols = true
      case .failOn: options.failOn = try choice(value, option: spec)
      case .baseline: options.baseline = value
      case .writeBaseline: options.writeBaseline = value
      case .jobs:
        guard let jobs = Int(value), jobs > 0, jobs <= 1024 else {
          throw .invalidValue(
            option: spec.spelling, value: value, expected: "a whole number from 1 to 1024", suggestion: nil)
        }
        options.jobs = jobs
      case .maxSize:
        guard let size = ByteCount.parse(value) else {
          throw .invalidValue(
            option: spec.spelling, value: value, expected: "a size such as 512K, 64M or 1G",
            suggestion: nil)
        }
        options.maxSize = size
      case .noProgress: options.progress = false
      case .follow: options.followLinks = true
      case .summary: options.summaryOnly = true
      case .app: options.filter.app = value
      case .appVersion: options.filter.appVersion = value
      case .rule: options.filter.rule = value
      case .severity: options.filter.severity = try choice(value, option: spec)
      case .since:
        guard let instant = ReportFilter.instant(value) else {
          throw .invalidValue(
            option: spec.spelling, value: value,
            expected: "a calendar date and time such as 2026-09-01 or 2026-09-01 12:30 (hours 00–23, minutes 00–59)",
            suggestion: nil)
        }
        options.filter.since = instant
        options.filter.sinceText = value
      case .dsym:
        guard !value.isEmpty else {
          throw .invalidValue(option: spec.spelling, value: value, expected: "a path", suggestion: nil)
        }
        options.dsyms.append(value)
      case .top:
        if value.lowercased() == "all" {
          options.top = nil
        } else {
          guard let top = Int(value), top >= 0 else {
            throw .invalidValue(
              option: spec.spelling, value: value, expected: "a whole number, or all", suggestion: nil)
          }
          options.top = top
        }
      case .shard:
        guard let shard = Shard(value) else {
          throw .invalidValue(
            option: spec.spelling, value: value, expected: "k/n with 1 ≤ k ≤ n ≤ 100000 (e.g. 1/4)", suggestion: nil)
        }
        options.shard = shard
      case .exclude: options.excludes.append(value)
      case .defaultIsolation: options.defaultIsolation = try choice(value, option: spec)
      case .report: options.report = value
      case .fix: options.fix = true
      case .diff: options.diff = true
      case .fixWarnings: options.fixWarnings = true
      case .help, .version, .generateCompletion, .generateManual: break
      }
    }
    if options.verbose && options.quiet {
      throw .conflictingOptions("--verbose", "--quiet")
    }
    if command != .diagnose, options.outputs.count > 1 {
      throw .invalidValue(
        option: "--output <file>", value: options.outputs[1],
        expected: "one --output (only diagnose writes several)", suggestion: nil)
    }
    if options.outputs.contains(where: \.isEmpty) {
      throw .invalidValue(option: "--output <file>", value: "", expected: "a file name", suggestion: nil)
    }

    // Formats depend on the command.
    let formatSpec = OptionSpec.named("format")!
    switch command {
    case .diagnose, .merge, .check:
      if let formatText {
        options.format = try choice(formatText.value, option: formatSpec)
        options.formatGiven = true
      } else if let output = options.output {
        options.format = options.outputFormats[output] ?? (output == "-" ? nil : OutputFormat(forOutput: output))
      }
      if command == .check, let output = options.output, let named = options.outputFormats[output],
        let formatText, options.format != named
      {
        // `check` writes one output in one format.
        throw .conflictingOptions("\(formatText.spelling) \(formatText.value)", "--output \(named.rawValue):\(output)")
      }
    case .rules, .explain:
      if let formatText { options.catalogFormat = try choice(formatText.value, option: formatSpec) }
    case .show, .symbolicate, .mcp, .help:
      break
    }

    // Arguments.
    switch command {
    case .diagnose:
      if positionals.isEmpty {
        guard let defaultInput else { throw .missingArgument("<path>...", command: .diagnose) }
        positionals = [defaultInput]
      }
    case .merge:
      if positionals.isEmpty { throw .missingArgument("<part.jsonl>...", command: .merge) }
    case .check:
      if positionals.isEmpty { throw .missingArgument("<path>...", command: .check) }
      if options.fixWarnings && !options.fix && !options.diff {
        throw .optionRequires("--fix-warnings", "'--fix' or '--diff'")
      }
      if options.fix || options.diff, let format = options.format, format != .text {
        throw .conflictingOptions(options.diff ? "--diff" : "--fix", "--format \(format.rawValue)")
      }
    case .show:
      if positionals.isEmpty { throw .missingArgument("<path>", command: command) }
      if positionals.count > 1 { throw .unexpectedArgument(positionals[1], command: command) }
    case .symbolicate:
      if positionals.isEmpty { throw .missingArgument("<path>...", command: command) }
    case .rules:
      if let extra = positionals.first { throw .unexpectedArgument(extra, command: .rules) }
    case .explain:
      if positionals.isEmpty { throw .missingArgument("<rule-id>", command: .explain) }
      if positionals.count > 1 { throw .unexpectedArgument(positionals[1], command: .explain) }
    case .mcp:
      if let extra = positionals.first { throw .unexpectedArgument(extra, command: .mcp) }
    case .help:
      break
    }
    return Invocation(action: .run(command), options: options, arguments: positionals)
  }

  /// A word that could be a command: letters and dashes only, no path separator or extension.
  static func looksLikeCommand(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 20 && text.allSatisfy { $0.isLetter || $0 == "-" }
  }

  static func choice<T: RawRepresentable & CaseIterable>(_ value: String, option spec: OptionSpec)
    throws(UsageError) -> T where T.RawValue == String
  {
    if let choice = T(rawValue: value) { return choice }
    let allowed = T.allCases.map(\.rawValue)
    if let choice = T(rawValue: value.lowercased()) { return choice }
    throw .invalidValue(
      option: spec.spelling, value: value,
      expected: "one of " + allowed.joined(separator: ", "),
      suggestion: Suggest.best(value, among: allowed))
  }
}
