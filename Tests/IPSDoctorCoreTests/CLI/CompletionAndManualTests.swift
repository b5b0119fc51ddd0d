import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorReport

/// The completion scripts and the manual page come from the option table: every option and command
/// is in each, and each parses in its shell or renders in `man`.
@Suite struct CompletionAndManualTests {
  static func everyName(in text: String) -> [String] {
    var missing: [String] = []
    for spec in OptionSpec.all where !text.contains(spec.long) { missing.append("--" + spec.long) }
    for command in Command.allCases where !text.contains(command.rawValue) { missing.append(command.rawValue) }
    return missing
  }

  @Test(arguments: Shell.allCases)
  func everyOptionAndCommandCompletes(shell: Shell) {
    let run = CLITest.run(["--generate-completion-script", shell.rawValue])
    #expect(run.status == .success)
    #expect(Self.everyName(in: run.stdout).isEmpty, "\(Self.everyName(in: run.stdout))")
    #expect(run.stdout.contains("ips-doctor"))
  }

  @Test func theManualNamesEveryOptionAndCommand() {
    let run = CLITest.run(["--generate-manual"])
    #expect(run.status == .success)
    #expect(run.stdout.hasPrefix(".TH IPS-DOCTOR 1"))
    // troff writes hyphens as \-.
    let plain = run.stdout.replacingOccurrences(of: "\\-", with: "-")
    #expect(Self.everyName(in: plain).isEmpty, "\(Self.everyName(in: plain))")
    #expect(CLITest.run(["--generate-completion-script", "tcsh"]).status == .usage)
  }

  /// Runs a tool, when it is installed, on `input` written to a file; `nil` when it is not there.
  static func run(_ tool: String, _ arguments: [String], input: String) throws -> (status: Int32, output: String)? {
    let candidates = ["/usr/bin/" + tool, "/bin/" + tool, "/usr/local/bin/" + tool, "/opt/homebrew/bin/" + tool]
    guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let file = root.appendingPathComponent("input")
    try input.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments + [file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test(arguments: [(Shell.bash, "bash"), (Shell.zsh, "zsh"), (Shell.fish, "fish")])
  func eachScriptParsesInItsShell(shell: Shell, tool: String) throws {
    let script = CLITest.run(["--generate-completion-script", shell.rawValue]).stdout
    guard let result = try Self.run(tool, ["-n"], input: script) else { return }  // shell not installed
    #expect(result.status == 0, "\(result.output)")
  }

  /// The bash function completes option values and commands as a user would see them.
  @Test func bashCompletesValuesAndCommands() throws {
    let script = CLITest.run(["--generate-completion-script", "bash"]).stdout
    let probe =
      script + """
        COMP_WORDS=(ips-doctor --format s); COMP_CWORD=2; _ips_doctor; echo "format: ${COMPREPLY[*]}"
        COMP_WORDS=(ips-doctor ex); COMP_CWORD=1; _ips_doctor; echo "command: ${COMPREPLY[*]}"
        COMP_WORDS=(ips-doctor --fail); COMP_CWORD=1; _ips_doctor; echo "option: ${COMPREPLY[*]}"
        """
    guard let result = try Self.run("bash", [], input: probe) else { return }
    #expect(result.output.contains("format: sarif"))
    #expect(result.output.contains("command: explain"))
    #expect(result.output.contains("option: --fail-on"))
  }

  /// bash completes file names after the options that take a path, rule ids after `explain` and
  /// `--rule`, and `--default-isolation`'s values.
  @Test func bashCompletesFilesRuleIDsAndIsolation() throws {
    let script = CLITest.run(["--generate-completion-script", "bash"]).stdout
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("App.app.dSYM"), withIntermediateDirectories: true)
    try Data().write(to: folder.appendingPathComponent("crash.ips"))
    var probe = script + "cd '\(folder.path)'\n"
    for option in ["--dsym", "--report", "--exclude", "-o"] {
      probe += "COMP_WORDS=(ips-doctor \(option) ''); COMP_CWORD=2; _ips_doctor; echo \"\(option): ${COMPREPLY[*]}\"\n"
    }
    probe += """
      COMP_WORDS=(ips-doctor explain async-b); COMP_CWORD=2; _ips_doctor; echo "explain: ${COMPREPLY[*]}"
      COMP_WORDS=(ips-doctor --rule objc-unrec); COMP_CWORD=2; _ips_doctor; echo "rule: ${COMPREPLY[*]}"
      COMP_WORDS=(ips-doctor check --default-isolation m); COMP_CWORD=3; _ips_doctor; echo "isolation: ${COMPREPLY[*]}"

      """
    guard let result = try Self.run("bash", [], input: probe) else { return }
    for option in ["--dsym", "--report", "--exclude", "-o"] {
      let line = result.output.split(separator: "\n").first { $0.hasPrefix(option + ": ") } ?? ""
      #expect(line.contains("App.app.dSYM") && line.contains("crash.ips"), "\(option): \(result.output)")
    }
    #expect(result.output.contains("explain: async-bridge-completion-off-main"), "\(result.output)")
    #expect(result.output.contains("rule: objc-unrecognized-selector"), "\(result.output)")
    #expect(result.output.contains("isolation: main-actor"), "\(result.output)")
  }

  /// zsh and fish: file names for path options, rule ids after `explain` and `--rule`, the
  /// isolation values, and each option's whole help as its description.
  @Test func zshAndFishScriptsCompleteFilesAndIdsWithWholeDescriptions() {
    let zsh = CLITest.run(["--generate-completion-script", "zsh"]).stdout
    let fish = CLITest.run(["--generate-completion-script", "fish"]).stdout
    for spec in OptionSpec.all {
      let description = ShellCompletion.summary(spec.help)
      #expect(zsh.contains("[" + description + "]"), "zsh --\(spec.long)")
      #expect(fish.contains("-d '" + description + "'"), "fish --\(spec.long)")
    }
    // Not cut at the first period ("e.g."), as before.
    #expect(ShellCompletion.summary(OptionSpec.named("max-size")!.help).hasSuffix("Default 64M."))
    let fishLines = fish.split(separator: "\n")
    for long in ["dsym", "report", "exclude", "output"] {
      let spec = OptionSpec.named(long)!
      #expect(zsh.contains("]:\(spec.placeholder!):_files'"), "zsh --\(long)")
      let line = fishLines.first { $0.contains("-l \(long) ") } ?? ""
      #expect(line.contains(" -r -F") && !line.contains(" -x"), "fish --\(long): \(line)")
    }
    #expect(zsh.contains(":isolation:(nonisolated main-actor)"))
    #expect(zsh.contains("compadd -- ") && zsh.contains(" async-bridge-completion-off-main "))
    #expect(zsh.contains(":id:(") && zsh.contains(" inconclusive)"))
    #expect(fish.contains("__fish_seen_subcommand_from explain' -x -a '"))
    #expect(fishLines.contains { $0.contains("-l default-isolation") && $0.contains("-a 'nonisolated main-actor'") })
    #expect(fishLines.contains { $0.contains("-l rule ") && $0.contains("async-bridge-completion-off-main") })
  }

  /// A renderer of man pages given as a file: man-db's and mandoc's `man -l`, else `mandoc`.
  static let manualRenderer: (tool: String, arguments: [String])? = {
    let probe = ".TH PROBE 1\n.SH NAME\nprobe \\- rendered\n"
    for (tool, arguments) in [("man", ["-l"]), ("mandoc", ["-T", "ascii"])] {
      if let result = try? run(tool, arguments, input: probe), result.status == 0, result.output.contains("rendered") {
        return (tool, arguments)
      }
    }
    return nil
  }()

  @Test(.enabled(if: manualRenderer != nil, "no man -l or mandoc here"))
  func theManualRendersInMan() throws {
    let page = CLITest.run(["--generate-manual"]).stdout
    let renderer = try #require(Self.manualRenderer)
    guard let result = try Self.run(renderer.tool, renderer.arguments, input: page) else { return }
    #expect(result.status == 0)
    #expect(result.output.contains("EXIT STATUS"))
    #expect(!result.output.contains("warning:"), "\(result.output.prefix(400))")
  }
}
