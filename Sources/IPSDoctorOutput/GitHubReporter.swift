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

  /// The remedy's first paragraph: annotations stay short; the code lives in `explain`.
  static func firstParagraph(_ markdown: String) -> String {
    // Without carriage returns a line feed is a `Character` of its own, so the paragraph ends at
    // the first two line-feed bytes; text that starts with a line feed takes the general path.
    let fast = markdown.utf8.withContiguousStorageIfAvailable { bytes -> String? in
      guard let base = bytes.baseAddress, !bytes.isEmpty, bytes[0] != 0x0A, memchr(base, 0x0D, bytes.count) == nil
      else { return nil }
      var end = 0
      while end < bytes.count, !(bytes[end] == 0x0A && end + 1 < bytes.count && bytes[end + 1] == 0x0A) { end += 1 }
      // The paragraph holds no two line feeds in a row: each one between lines becomes a space,
      // a final one goes.
      var paragraph = Array(UnsafeBufferPointer(rebasing: bytes[..<end]))
      if paragraph.last == 0x0A { paragraph.removeLast() }
      for index in paragraph.indices where paragraph[index] == 0x0A { paragraph[index] = 0x20 }
      return String(decoding: paragraph, as: UTF8.self)
    }
    if let fast = fast ?? nil { return fast }
    return firstParagraphByCharacters(markdown)
  }

  /// ``firstParagraph(_:)`` by `Character`s (the reference for the bytes).
  static func firstParagraphByCharacters(_ markdown: String) -> String {
    let paragraph = markdown.split(separator: "\n\n", maxSplits: 1).first.map(String.init) ?? markdown
    return paragraph.split(separator: "\n").joined(separator: " ")
  }

  /// Escapes a workflow-command message: `%`, CR and LF; each line's control characters made
  /// visible first, so a report cannot start a workflow command of its own.
  package static func data(_ text: String) -> String {
    escapedBytes(text, property: false) ?? dataByCharacters(text)
  }

  /// ``data(_:)`` by `Character`s (the reference for the bytes).
  static func dataByCharacters(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped(String($0)).replacing("%", with: "%25").replacing("\r", with: "%0D") }
      .joined(separator: "%0A")
  }

  /// Escapes a workflow-command property value: as ``data(_:)`` plus `:` and `,`.
  package static func property(_ text: String) -> String {
    escapedBytes(text, property: true) ?? propertyByCharacters(text)
  }

  /// ``property(_:)`` by `Character`s (the reference for the bytes).
  static func propertyByCharacters(_ text: String) -> String {
    dataByCharacters(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
  }

  /// ``data(_:)`` (or ``property(_:)``) on bytes, for text without carriage returns: a line feed is
  /// then a `Character` of its own, so the lines are split at its bytes; each is made visible by
  /// ``TerminalText/escaped(_:)``, and `%` (and `:` and `,`) are encoded byte by byte where a
  /// byte is the whole `Character`, which it is between two ASCII bytes (only CR LF joins two; no
  /// other scalar equals these three). `nil` when a marked byte touches a non-ASCII one (a
  /// combining mark could make it part of a larger `Character`), or the text has a carriage return.
  static func escapedBytes(_ text: String, property: Bool) -> String? {
    guard let lines = PlainText.visibleLines(of: text) else { return nil }
    var result = ByteBuffer(capacity: text.utf8.count + 16)
    for (number, line) in lines.enumerated() {
      if number > 0 { result.append("%0A" as StaticString) }
      let encoded: Bool = line.withBorrowedUTF8 { escaped in
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
          guard ByteSearch.standsAlone(escaped, index) else { return false }
          result.append(UnsafeBufferPointer(rebasing: escaped[runStart..<index]))
          result.append(code)
          runStart = index + 1
        }
        result.append(UnsafeBufferPointer(rebasing: escaped[runStart...]))
        return true
      }
      if !encoded { return nil }
    }
    return result.string
  }
}
