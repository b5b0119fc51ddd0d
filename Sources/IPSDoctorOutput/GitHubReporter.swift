import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `--format github`: GitHub Actions workflow commands (`::error file=…,title=…::message`), one
/// annotation per crash group (its count and example files), errors first, so each crash shows
/// once on the run and the pull request. Known crashes (in the baseline) are downgraded to
/// notices. GitHub shows at most ``perLevelLimit`` annotations of each level in a step: past that
/// a plain line says how many groups were not annotated. Inputs that could not be read make one
/// annotation. The step summary (`GITHUB_STEP_SUMMARY`) is written by the command, whatever the
/// format.
package struct GitHubReporter: Reporter {
  let context: ReporterContext
  /// The annotation of each crash group, from its first report, by signature.
  private var annotations: [String: Annotation] = [:]
  private var unreadable: [String] = []

  /// GitHub's limit of annotations of one level (error, warning, notice) shown for a step.
  static let perLevelLimit = 10

  struct Annotation {
    var command: String
    var title: String
    var message: String
  }

  package init(context: ReporterContext) { self.context = context }

  package mutating func begin(_ out: TextOutput) {}

  package mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
    if outcome.isUnreadable {
      unreadable.append(outcome.path + (outcome.error.map { ": " + $0.message } ?? ""))
      return
    }
    guard let signature = outcome.result?.signature.id, annotations[signature] == nil,
      let finding = Finding.primary(for: outcome)
    else { return }
    var command: String
    switch finding.severity {
    case .error: command = "error"
    case .warning: command = "warning"
    case .note: command = "notice"
    }
    var title = "\(finding.title) [\(finding.ruleID)]"
    if outcome.baseline == .known {
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
    annotations[signature] = Annotation(command: command, title: title, message: message)
  }

  package mutating func finish(_ run: RunSummary, _ out: TextOutput) {
    var written: [String: Int] = [:]
    var left: [String: Int] = [:]
    func emit(_ command: String, _ line: String) {
      if written[command, default: 0] < Self.perLevelLimit {
        written[command, default: 0] += 1
        out.write(line)
      } else {
        left[command, default: 0] += 1
      }
    }
    if !unreadable.isEmpty {
      let count = unreadable.count
      let listed = unreadable.prefix(3).joined(separator: "\n") + (count > 3 ? "\n…" : "")
      emit(
        "error",
        "::error title=\(Self.property("\(count) input\(count == 1 ? "" : "s") could not be read [unreadable-report]"))::\(Self.data(listed))\n"
      )
    }
    // Groups are sorted by count; errors go first, then warnings, then notices.
    let order = ["error": 0, "warning": 1, "notice": 2]
    let groups = run.groups.compactMap { group in annotations[group.signature.id].map { (group, $0) } }
      .enumerated().sorted {
        (order[$0.element.1.command] ?? 3, $0.offset) < (order[$1.element.1.command] ?? 3, $1.offset)
      }
      .map(\.element)
    for (group, annotation) in groups {
      let reports = group.count == 1 ? "1 report" : "\(group.count) reports"
      let examples = group.examples.joined(separator: ", ") + (group.count > group.examples.count ? ", …" : "")
      let message = annotation.message + "\n\n\(reports), e.g. \(examples)"
      emit(
        annotation.command,
        "::\(annotation.command) file=\(Self.property(group.examples.first ?? "")),line=1,title=\(Self.property(annotation.title + " — " + reports))::\(Self.data(message))\n"
      )
    }
    for notice in run.notices {
      let command = notice.kind.level == .note ? "notice" : notice.kind.level.rawValue
      emit(command, "::\(command) title=ips-doctor::\(Self.data(notice.path + ": " + notice.message))\n")
    }
    for (command, count) in left.sorted(by: { (order[$0.key] ?? 3) < (order[$1.key] ?? 3) }) {
      out.write(
        "ips-doctor: \(count) more \(command) annotation\(count == 1 ? " was" : "s were") not written: GitHub shows \(Self.perLevelLimit) per level in a step; the step summary and the other formats list every group\n"
      )
    }
    out.write("ips-doctor: " + run.sentence + "\n")
  }

  /// The remedy's first paragraph: annotations stay short; the code lives in `explain`. Its lines
  /// (``PlainText/lines(of:)``) from the first that is not empty to the next that is, joined by
  /// spaces: the first non-empty piece of the text split at `"\n\n"`, its lines joined.
  static func firstParagraph(_ markdown: String) -> String {
    var paragraph: [Substring] = []
    for line in PlainText.lines(of: markdown) {
      if !line.isEmpty {
        paragraph.append(line)
      } else if !paragraph.isEmpty {
        break
      }
    }
    return paragraph.joined(separator: " ")
  }

  /// Escapes a workflow-command message: each line made visible by ``TerminalText/escaped(_:)``
  /// (so no control character is left in it), the lines joined by `%0A`, and every `%` byte
  /// written `%25`, as the runner decodes them; so a report cannot start a workflow command of
  /// its own.
  package static func data(_ text: String) -> String {
    escaped(text, property: false)
  }

  /// Escapes a workflow-command property value: as ``data(_:)`` plus every `:` and `,` byte.
  package static func property(_ text: String) -> String {
    escaped(text, property: true)
  }

  /// ``data(_:)`` or ``property(_:)``: the runner reads bytes, so every marked byte is encoded,
  /// whatever scalars surround it.
  private static func escaped(_ text: String, property: Bool) -> String {
    var result = ByteBuffer(capacity: text.utf8.count + 16)
    for (number, line) in PlainText.visibleLines(of: text).enumerated() {
      if number > 0 { result.append("%0A" as StaticString) }
      line.withBorrowedUTF8 { escaped in
        var runStart = 0
        for index in escaped.indices {
          let code: StaticString? =
            switch escaped[index] {
            case UInt8(ascii: "%"): "%25"
            case UInt8(ascii: ":") where property: "%3A"
            case UInt8(ascii: ",") where property: "%2C"
            default: nil
            }
          guard let code else { continue }
          result.append(UnsafeBufferPointer(rebasing: escaped[runStart..<index]))
          result.append(code)
          runStart = index + 1
        }
        result.append(UnsafeBufferPointer(rebasing: escaped[runStart...]))
      }
    }
    return result.string
  }
}
