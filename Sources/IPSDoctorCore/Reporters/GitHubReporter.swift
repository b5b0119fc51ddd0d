#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--format github`: GitHub Actions workflow commands (`::error file=…,title=…::message`), one
/// annotation per finding, so findings show on the run and the pull request. Known crashes (in the
/// baseline) are downgraded to notices. When `GITHUB_STEP_SUMMARY` is set, a Markdown summary
/// (counts and the crash-group table) is appended to that file.
struct GitHubReporter: Reporter {
  let context: ReporterContext

  init(context: ReporterContext) { self.context = context }

  mutating func begin(_ out: TextOutput) {}

  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
    for finding in Finding.all(for: outcome) {
      var command: String
      switch finding.severity {
      case .error: command = "error"
      case .warning: command = "warning"
      case .note: command = "notice"
      }
      var title = "\(finding.title) [\(finding.ruleID)]"
      if outcome.baseline == .known && finding.ruleID != Finding.Builtin.unreadable.rawValue {
        command = "notice"
        title += " (known)"
      }
      var message = finding.message
      if !finding.remedy.isEmpty, finding.ruleID != Finding.Builtin.parseWarnings.rawValue {
        message += "\n\nHow to fix it: " + Self.firstParagraph(finding.remedy)
        if RuleCatalog.rule(id: finding.ruleID) != nil {
          message += "\nDetails: ips-doctor explain \(finding.ruleID)"
        }
      }
      out.write(
        "::\(command) file=\(Self.property(outcome.path)),line=1,title=\(Self.property(title))::\(Self.data(message))\n")
    }
  }

  mutating func finish(_ run: RunSummary, _ out: TextOutput) {
    for notice in run.notices {
      let command = notice.kind == .skipped ? "warning" : "error"
      out.write("::\(command) title=ips-doctor::\(Self.data(notice.path + ": " + notice.message))\n")
    }
    out.write("ips-doctor: " + run.sentence + "\n")
    if let path = context.environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
      let summary = MarkdownReporter.summarySection(run, title: "ips-doctor") + "\n"
      if !Self.append(summary, to: path) {
        context.diagnostics("ips-doctor: warning: cannot append to GITHUB_STEP_SUMMARY '\(TerminalText.escaped(path))'\n")
      }
    }
  }

  /// The remedy's first paragraph: annotations stay short; the code lives in `explain`.
  static func firstParagraph(_ markdown: String) -> String {
    let paragraph = markdown.split(separator: "\n\n", maxSplits: 1).first.map(String.init) ?? markdown
    return paragraph.split(separator: "\n").joined(separator: " ")
  }

  static func append(_ text: String, to path: String) -> Bool {
    let fd = PathName(path).withCString { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return POSIX.writeAll(fd, text)
  }

  /// Escapes a workflow-command message: `%`, CR and LF; each line's control characters made
  /// visible first, so a report cannot start a workflow command of its own.
  static func data(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped(String($0)).replacing("%", with: "%25").replacing("\r", with: "%0D") }
      .joined(separator: "%0A")
  }

  /// Escapes a workflow-command property value: as ``data(_:)`` plus `:` and `,`.
  static func property(_ text: String) -> String {
    data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
  }
}
