import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorSupport

@Suite("Arguments")
struct ArgumentTests {
  @Test("Tokenizing classifies long, short, positional, stdin and terminator")
  func tokenize() {
    #expect(
      Token.tokenize(["--format", "json", "--output=x.json", "-vq", "-j4", "-", "--", "--literal"])
        == [
          .long("format", value: nil), .positional("json"), .long("output", value: "x.json"),
          .shorts(["v", "q"]), .shorts(["j", "4"]), .positional("-"), .terminator,
          .positional("--literal"),
        ])
  }

  @Test("Diagnose is the default command and options may follow paths")
  func defaultCommand() throws {
    let invocation = try ArgumentBinder.bind(["a.ips", "--format", "json", "b", "-j2"])
    #expect(invocation.action == .run(.diagnose))
    #expect(invocation.arguments == ["a.ips", "b"])
    #expect(invocation.options.format == .json)
    #expect(invocation.options.jobs == 2)
  }

  @Test("A value may be attached: --format=sarif, -fjson, -j8")
  func attachedValues() throws {
    let invocation = try ArgumentBinder.bind(["--format=sarif", "x", "-j8"])
    #expect(invocation.options.format == .sarif)
    #expect(invocation.options.jobs == 8)
    #expect(try ArgumentBinder.bind(["-fjson", "x"]).options.format == .json)
  }

  @Test("-- ends options: what follows is a path, even 'rules' or '--help'")
  func terminator() throws {
    let invocation = try ArgumentBinder.bind(["--", "rules", "--help"])
    #expect(invocation.action == .run(.diagnose))
    #expect(invocation.arguments == ["rules", "--help"])
  }

  @Test(
    "The format is inferred from --output's extension",
    arguments: [
      ("out.json", OutputFormat.json), ("out.sarif", .sarif), ("out.jsonl", .jsonl),
      ("out.xml", .junit), ("out.md", .markdown), ("out.txt", .text),
    ])
  func inferredFormat(file: String, format: OutputFormat) throws {
    #expect(try ArgumentBinder.bind(["x", "--output", file]).options.format == format)
  }

  @Test("An explicit --format wins over the extension")
  func explicitFormatWins() throws {
    #expect(try ArgumentBinder.bind(["x", "-o", "a.json", "--format", "sarif"]).options.format == .sarif)
  }

  @Test("Help and version in every position")
  func helpAndVersion() throws {
    #expect(try ArgumentBinder.bind(["--help"]).action == .help(nil))
    #expect(try ArgumentBinder.bind(["rules", "--help"]).action == .help(.rules))
    #expect(try ArgumentBinder.bind(["help", "explain"]).action == .help(.explain))
    #expect(try ArgumentBinder.bind(["help"]).action == .help(nil))
    #expect(try ArgumentBinder.bind(["-V"]).action == .version)
    #expect(try ArgumentBinder.bind(["x.ips", "--version"]).action == .version)
  }

  @Test("--max-size accepts sizes with binary suffixes")
  func maxSize() throws {
    #expect(try ArgumentBinder.bind(["x", "--max-size", "512K"]).options.maxSize == 512 << 10)
    #expect(try ArgumentBinder.bind(["x", "--max-size", "64MiB"]).options.maxSize == 64 << 20)
    #expect(try ArgumentBinder.bind(["x", "--max-size", "1000"]).options.maxSize == 1000)
    #expect(try ArgumentBinder.bind(["x"]).options.maxSize == 64 << 20)
  }

  struct UsageCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var message: String
    var usage: String = "ips-doctor [diagnose] <path>..."
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let usageCases: [UsageCase] = [
    UsageCase(arguments: ["--fromat", "json", "x"], message: "Unknown option '--fromat'. Did you mean '--format'?"),
    UsageCase(arguments: ["x", "--verbse"], message: "Unknown option '--verbse'. Did you mean '--verbose'?"),
    UsageCase(arguments: ["x", "--frobnicate"], message: "Unknown option '--frobnicate'."),
    UsageCase(arguments: ["x", "-z"], message: "Unknown option '-z'."),
    UsageCase(arguments: ["explian", "x"], message: "Unknown command 'explian'. Did you mean 'explain'?"),
    UsageCase(
      arguments: ["help", "rulez"], message: "Unknown command 'rulez'. Did you mean 'rules'?", usage: "ips-doctor help"),
    UsageCase(arguments: ["x", "--format"], message: "Missing value for '--format <format>'."),
    UsageCase(arguments: ["x", "--output", "--verbose"], message: "Missing value for '--output <file>'."),
    UsageCase(arguments: ["x", "--verbose=yes"], message: "The option '--verbose' does not take a value."),
    UsageCase(
      arguments: ["x", "--format", "xml"],
      message:
        "The value 'xml' is invalid for '--format <format>': expected one of text, json, jsonl, sarif, junit, github, markdown."
    ),
    UsageCase(
      arguments: ["x", "--format", "jsn"],
      message:
        "The value 'jsn' is invalid for '--format <format>': expected one of text, json, jsonl, sarif, junit, github, markdown. Did you mean 'json'?"
    ),
    UsageCase(
      arguments: ["x", "--fail-on", "warn"],
      message:
        "The value 'warn' is invalid for '--fail-on <severity>': expected one of error, warning, note, never. Did you mean 'warning'?"
    ),
    UsageCase(
      arguments: ["x", "--color", "sometimes"],
      message: "The value 'sometimes' is invalid for '--color <when>': expected one of auto, always, never."),
    UsageCase(
      arguments: ["x", "--jobs", "0"],
      message: "The value '0' is invalid for '--jobs <n>': expected a whole number from 1 to 1024."),
    UsageCase(
      arguments: ["x", "--max-size", "huge"],
      message: "The value 'huge' is invalid for '--max-size <size>': expected a size such as 512K, 64M or 1G."),
    UsageCase(
      arguments: ["x", "--output", ""],
      message: "The value '' is invalid for '--output <file>': expected a file name."),
    UsageCase(
      arguments: ["rules", "--fail-on", "note"], message: "The option '--fail-on' does not apply to 'rules'.",
      usage: "ips-doctor rules"),
    UsageCase(
      arguments: ["rules", "--format", "sarif"],
      message: "The value 'sarif' is invalid for '--format <format>': expected one of text, json, markdown.",
      usage: "ips-doctor rules"),
    UsageCase(
      arguments: [],
      message: "Missing expected argument '<path>...': name a crash report, a folder, or - for standard input."),
    UsageCase(arguments: ["explain"], message: "Missing expected argument '<rule-id>'.", usage: "ips-doctor explain"),
    UsageCase(arguments: ["show"], message: "Missing expected argument '<path>'.", usage: "ips-doctor show"),
    UsageCase(
      arguments: ["explain", "a", "b"], message: "Unexpected argument 'b' for 'explain'.", usage: "ips-doctor explain"),
    UsageCase(arguments: ["show", "a", "b"], message: "Unexpected argument 'b' for 'show'.", usage: "ips-doctor show"),
    UsageCase(
      arguments: ["rules", "extra"], message: "Unexpected argument 'extra' for 'rules'.", usage: "ips-doctor rules"),
    UsageCase(arguments: ["x", "-v", "-q"], message: "The options '--verbose' and '--quiet' cannot be used together."),
    UsageCase(
      arguments: ["explain", "async-bridge-completion-of"],
      message: "Unknown rule 'async-bridge-completion-of'. Did you mean 'async-bridge-completion-off-main'?",
      usage: "ips-doctor explain"),
    UsageCase(
      arguments: ["explain", "zzz"], message: "Unknown rule 'zzz'. Run 'ips-doctor rules' to list the rules.",
      usage: "ips-doctor explain"),
  ]

  @Test("Every usage error: message, usage line, pointer to help, exit 64", arguments: usageCases)
  func usageErrors(_ usageCase: UsageCase) {
    let run = CLITest.run(usageCase.arguments)
    #expect(run.status == .usage)
    #expect(run.status.rawValue == 64)
    #expect(run.stdout.isEmpty)
    let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4, "\(run.stderr)")
    #expect(lines.first.map(String.init) == "Error: " + usageCase.message)
    #expect(lines.dropFirst().first?.hasPrefix("Usage: " + usageCase.usage) == true)
    #expect(lines.dropFirst(2).first?.hasPrefix("  See 'ips-doctor ") == true)
    #expect(lines.dropFirst(2).first?.hasSuffix("' for more information.") == true)
  }

  @Test("Suggestions come from edit distance")
  func suggestions() {
    #expect(Suggest.editDistance("fromat", "format") == 1)
    #expect(Suggest.editDistance("kitten", "sitting") == 3)
    #expect(Suggest.best("jsn", among: ["text", "json"]) == "json")
    #expect(Suggest.best("banana", among: ["text", "json"]) == nil)
  }

  @Test("A file whose name looks like a misspelt command is read as a file when it exists")
  func existingFileIsNotACommand() throws {
    let invocation = try ArgumentBinder.bind(["rulez"], pathExists: { $0 == "rulez" })
    #expect(invocation.action == .run(.diagnose))
    #expect(invocation.arguments == ["rulez"])
  }

  @Test("--help and --version print to standard output and exit 0")
  func helpOutput() {
    let help = CLITest.run(["--help"])
    #expect(help.status == .success)
    #expect(help.stdout.hasPrefix("OVERVIEW: "))
    #expect(help.stderr.isEmpty)
    for spec in OptionSpec.all where spec.commands.contains(.diagnose) {
      #expect(help.stdout.contains("--" + spec.long), "--help does not list --\(spec.long)")
    }
    let version = CLITest.run(["--version"])
    #expect(version.stdout == "ips-doctor \(IPSDoctor.version)\n")
    #expect(CLITest.run(["explain", "--help"]).stdout.hasPrefix("OVERVIEW: Explain one rule"))
    #expect(CLITest.run(["help", "rules"]).stdout == CLITest.run(["rules", "--help"]).stdout)
  }
}
