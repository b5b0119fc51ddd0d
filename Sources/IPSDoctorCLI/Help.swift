import IPSDoctorBatch
import IPSDoctorOutput
import IPSDoctorSupport

/// `--help` text, generated from ``OptionSpec/all`` and ``Command``.
enum Help {
  static let width = 80

  static func text(for command: Command?) -> String {
    var lines: [String] = []
    let command = command ?? .diagnose
    let general = command == .diagnose
    if general {
      lines.append("OVERVIEW: Diagnose Apple crash reports (.ips and .crash): why the app crashed and how to fix it.")
      lines.append("")
      lines.append("USAGE: " + Command.diagnose.usage)
      for other in Command.allCases where other != .diagnose {
        lines.append("       " + other.usage)
      }
      lines.append("")
      lines.append("ARGUMENTS:")
      lines += row(
        "<path>...",
        "Crash reports (.ips, .crash), folders (searched recursively; hidden files skipped), or - for standard input.")
      lines.append("")
      lines.append("COMMANDS:")
      for other in Command.allCases {
        lines += row(other.rawValue + (other == .diagnose ? " (default)" : ""), other.abstract)
      }
    } else {
      lines.append("OVERVIEW: " + command.abstract)
      lines.append("")
      lines.append("USAGE: " + command.usage)
      switch command {
      case .show:
        lines.append("")
        lines.append("ARGUMENTS:")
        lines += row("<path>", "One crash report, or - for standard input.")
      case .symbolicate:
        lines.append("")
        lines.append("ARGUMENTS:")
        lines += row(
          "<path>...",
          "One crash report (or - for standard input), written to standard output or the --output file; or several reports or folders, each report written under its own name to the --output folder."
        )
      case .merge:
        lines.append("")
        lines.append("ARGUMENTS:")
        lines += row(
          "<part.jsonl>...",
          "What 'ips-doctor --format jsonl' (or 'merge --format jsonl') wrote: one report record a line; - for standard input."
        )
        lines.append("")
        lines += PlainText.wrap(
          "Reports are merged in path order, each path once, so the output is that of one run over the folder the parts split, whatever their order or size. A line that is not a report record is an error naming the part and line; the others are merged, and the exit status is 65 (1 when a finding fails the run).",
          width: width, indent: "")
      case .check:
        lines.append("")
        lines.append("ARGUMENTS:")
        lines += row(
          "<path>...",
          "Swift files, or folders searched recursively (.build, DerivedData, Pods, Carthage and hidden folders skipped)."
        )
      case .explain:
        lines.append("")
        lines.append("ARGUMENTS:")
        lines += row("<rule-id>", "A rule id, as listed by 'ips-doctor rules'.")
      case .mcp:
        lines.append("")
        lines += PlainText.wrap(
          "Reads JSON-RPC 2.0 messages, one a line, on standard input and writes one a line on standard output (MCP revision 2025-06-18; 2025-03-26 is accepted); logs go to standard error. Tools: diagnose, triage, symbolicate, check_source, explain_rule, list_rules. Paths are relative to the working directory and, when the client declares roots, must be inside them. No file is written. Exit 0 when the client closes standard input. See docs/mcp.md.",
          width: width, indent: "")
      default:
        break
      }
    }
    lines.append("")
    lines.append("OPTIONS:")
    for spec in OptionSpec.all where spec.commands.contains(command) {
      var name = spec.short.map { "-\($0), " } ?? "    "
      name += "--" + spec.long
      if let placeholder = spec.placeholder { name += " <\(placeholder)>" }
      var help = spec.help
      if command == .rules || command == .explain, spec.key == .format {
        help = "Output format: text, json, markdown. Default: text."
      }
      if command == .merge, spec.key == .format {
        help =
          "Output format: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")). Default: text, or the --output file's extension."
      }
      if command == .merge, spec.key == .maxSize {
        help = "Refuse parts larger than this (e.g. 512M, 2G). Default: 1G."
      }
      if command == .check, spec.key == .verbose {
        help = "Also list what was skipped, and the methods not reported and why."
      }
      lines += row(name, help)
    }
    if general {
      lines.append("")
      lines.append("EXIT CODES:")
      lines += row("0", "No finding at or above --fail-on (default: error).")
      lines += row("1", "Findings at or above --fail-on that are not in the --baseline.")
      lines += row("64", "Usage error.")
      lines += row(
        "65", "Some input yielded no report to diagnose (or had warnings under --strict); a finding (1) wins over it.")
      lines += row("66", "A named path does not exist, or no crash report was found.")
      lines += row("70", "Internal error.")
      lines += row("73", "The --output or --write-baseline file could not be written.")
      lines.append("")
      lines.append("ENVIRONMENT:")
      lines += row("NO_COLOR", "When set and not empty, no colour (unless --color always).")
      lines += row("CI", "When set, no progress line.")
      lines += row("GITHUB_STEP_SUMMARY", "With --format github, a Markdown summary is appended to this file.")
      lines.append("")
      lines.append("See 'ips-doctor help <command>' for the options of rules, explain and show.")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The usage block of docs/cli.md: each command's usage line, as `--help` prints them.
  static func markdownUsage() -> String {
    "```\n" + Command.allCases.map(\.usage).joined(separator: "\n") + "\n```\n"
  }

  /// The options table of docs/cli.md: every option, the commands that take it and its help, as
  /// `--help` and `help <command>` print them (one source: ``OptionSpec/all``).
  static func markdownOptionsTable() -> String {
    var lines = ["| Option | Commands | Meaning |", "| --- | --- | --- |"]
    for spec in OptionSpec.all {
      let name = (spec.short.map { "`-\($0)`, " } ?? "") + "`" + spec.spelling + "`"
      let commands =
        spec.commands == Command.allCases ? "all" : spec.commands.map(\.rawValue).joined(separator: ", ")
      lines.append("| \(name) | \(commands) | \(spec.help.replacing("|", with: "\\|")) |")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// "  name        help…" with the help column at 26 and wrapped at 80.
  static func row(_ name: String, _ help: String) -> [String] {
    let column = 26
    let head = "  " + name
    if head.count + 2 <= column {
      let hanging = head + String(repeating: " ", count: column - head.count)
      return PlainText.wrap(help, width: width, indent: String(repeating: " ", count: column), hanging: hanging)
    }
    return [head] + PlainText.wrap(help, width: width, indent: String(repeating: " ", count: column))
  }
}
