import IPSDoctorSupport

/// The manual page, `ips-doctor.1` in man(7) macros, generated from the option table and the
/// commands as `--help` is: `ips-doctor --generate-manual > ips-doctor.1`.
enum Manual {
  static func page() -> String {
    var lines: [String] = []
    lines.append(".TH IPS-DOCTOR 1 \"\" \"ips-doctor \(IPSDoctor.version)\" \"User Commands\"")
    lines.append(".SH NAME")
    lines.append("ips-doctor \\- diagnose Apple crash reports: why the app crashed and how to fix it")
    lines.append(".SH SYNOPSIS")
    for command in Command.allCases {
      lines.append(".PP")
      lines.append(text(command.usage))
    }
    lines.append(".SH DESCRIPTION")
    lines.append(
      text(
        "ips-doctor reads Apple crash reports (.ips JSON and the older .crash text), alone or by the folder, "
          + "names the cause of each crash with the evidence from the report, and says how to fix it. "
          + "Reports of one crash are grouped by crash signature."))
    lines.append(".SH COMMANDS")
    for command in Command.allCases {
      lines.append(".TP")
      lines.append(".B \(command.rawValue)")
      lines.append(text(command.abstract))
    }
    lines.append(".SH OPTIONS")
    for spec in OptionSpec.all {
      lines.append(".TP")
      var names = spec.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
      names += "\\fB\\-\\-" + escaped(spec.long) + "\\fR"
      if let placeholder = spec.placeholder { names += " \\fI" + escaped(placeholder) + "\\fR" }
      lines.append(names)
      lines.append(text(spec.help + " Commands: " + spec.commands.map(\.rawValue).joined(separator: ", ") + "."))
    }
    lines.append(".SH EXIT STATUS")
    for (code, meaning) in [
      ("0", "No finding at or above --fail-on (default: error)."),
      ("1", "Findings at or above --fail-on that are not in the --baseline."),
      ("64", "Usage error, or an output that would overwrite an input or another output."),
      ("65", "Some input yielded no report to diagnose (a finding, exit 1, wins over it)."),
      ("66", "A named path does not exist, or no crash report was found."),
      ("70", "Internal error."),
      ("73", "An output, or standard output, could not be written."),
    ] {
      lines.append(".TP")
      lines.append(".B \(code)")
      lines.append(text(meaning))
    }
    lines.append(".SH ENVIRONMENT")
    for (name, meaning) in [
      ("NO_COLOR", "No colour unless --color always."),
      ("CI", "No progress line."),
      (
        "GITHUB_STEP_SUMMARY",
        "A Markdown summary with the crash-group table is appended to this file with --format github, and in any format when GITHUB_ACTIONS is true."
      ),
    ] {
      lines.append(".TP")
      lines.append(".B \(name)")
      lines.append(text(meaning))
    }
    lines.append(".SH EXAMPLES")
    for example in [
      "ips-doctor crash.ips", "ips-doctor ./crashes --top 10", "ips-doctor show crash.ips",
      "ips-doctor explain async-bridge-completion-off-main",
      "ips-doctor ./crashes --format github --output ips-doctor.sarif --baseline .ips-doctor-baseline.json",
    ] {
      lines.append(".PP")
      lines.append(text(example))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text for troff: backslashes and hyphens escaped; a line never starts with a control
  /// character (`.` or `'`).
  static func escaped(_ value: String) -> String {
    value.replacing("\\", with: "\\e").replacing("-", with: "\\-")
  }

  static func text(_ value: String) -> String {
    let escaped = escaped(value)
    return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
  }
}
