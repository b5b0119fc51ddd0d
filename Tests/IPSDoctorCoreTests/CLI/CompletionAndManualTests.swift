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
