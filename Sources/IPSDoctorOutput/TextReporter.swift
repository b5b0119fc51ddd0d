import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorReport
import IPSDoctorSupport

/// The default, human-readable output. One report: its section (the top diagnosis, its fix, other
/// candidate causes, and for an inconclusive report the crash's facts and symbolication
/// commands). Several: the verdict in one line (reports, groups, new and known, the worst
/// severity), one line per crash group, largest first; then the section of one
/// report of each of the `--top` largest groups (5 by default; `--summary` shows none); then a
/// one-line summary. A batch of any size prints a few screens; the machine formats list every
/// report.
///
/// `--quiet` prints one compiler-style line per crash (its top-ranked finding) instead; `--verbose` adds evidence, the
/// signature and parse warnings.
struct TextReporter: Reporter {
  let context: ReporterContext
  let style: Style
  /// The section of the first report of each crash group, by signature.
  private let sections = SectionStore()
  /// The first report's signature: the section shown when the batch is one report.
  private var firstSignature: String?
  /// Rendered remedies and verification steps: rule text, the same for every report a rule
  /// explains, and mostly non-ASCII (so rendered on `Character`s, about half of a batch's time).
  private let cache = RenderCache()
  private var count = 0

  init(context: ReporterContext) {
    self.context = context
    self.style = Style(enabled: context.color)
  }

  var width: Int { context.width }
  var verbose: Bool { context.options.verbose }

  mutating func begin(_ out: TextOutput) {}

  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
    // An input that yielded nothing is an error on standard error (the command writes it); the
    // text output holds reports.
    if outcome.result == nil { return }
    if context.options.quiet {
      out.write(quietLines(outcome))
      return
    }
    count += 1
    // The group table leads, and each group is shown once: keep the first report's section of
    // each group until the end.
    guard let signature = outcome.result?.signature.id, !sections.contains(signature) else { return }
    sections.keep(PlainText.joinedLines(renderLines(outcome)), for: signature)
    if firstSignature == nil { firstSignature = signature }
  }

  mutating func finish(_ run: RunSummary, _ out: TextOutput) {
    if context.options.quiet { return }
    if run.reports <= 1 {
      if let firstSignature, let section = sections.text(for: firstSignature) { out.write(section) }
      if (run.reports == 1 && !run.notices.isEmpty) || !run.filter.isEmpty {
        out.write("\n" + style.bold(run.sentence) + "\n")
      }
      return
    }
    // The verdict leads, then one line per group: a folder run answers on its first screen.
    out.write(verdictLine(run) + "\n")
    if !run.groups.isEmpty { out.write("\n" + groupTable(run)) }
    if !context.options.summaryOnly {
      let shown = context.options.top.map { Array(run.groups.prefix($0)) } ?? run.groups
      for (index, group) in shown.enumerated() {
        guard let section = sections.text(for: group.signature.id) else { continue }
        let reports = group.count == 1 ? "1 report" : "\(group.count) reports"
        out.write("\n" + style.bold("Group \(index + 1) of \(run.groups.count)") + " (\(reports)), for example:\n\n")
        out.write(section)
      }
      let hidden = run.groups.count - shown.count
      if hidden > 0 {
        out.write(
          "\n"
            + style.dim(
              "\(hidden) more group\(hidden == 1 ? " is" : "s are") in the table only: --top all shows each, "
                + "--format json lists every report.") + "\n")
      }
    }
    out.write("\n" + style.bold(run.sentence) + "\n")
  }

  // MARK: Quiet

  func quietLines(_ outcome: ReportOutcome) -> String {
    let path = outcome.path
    var text = ""
    // One crash, one line: the finding ranked first.
    for diagnosis in outcome.diagnoses.prefix(1) {
      text +=
        "\(path): \(style.severity(diagnosis.severity, diagnosis.severity.rawValue)): "
        + "\(TerminalText.escaped(diagnosis.title)) [\(diagnosis.ruleID)] (\(diagnosis.confidence.rawValue))"
        + (outcome.baseline == .known ? " (known)" : "") + "\n"
    }
    if let result = outcome.result, result.isInconclusive, let severity = outcome.severity,
      outcome.facts != nil, outcome.warnings.isEmpty || severity > .note
    {
      text +=
        "\(path): \(style.severity(severity, severity.rawValue)): inconclusive"
        + (result.summary.exception.map { ": " + TerminalText.escaped($0) } ?? "")
        + (outcome.baseline == .known ? " (known)" : "") + "\n"
    }
    return text
  }

  // MARK: One report

  /// The report's section, line by line (each line ends with a line feed when written).
  func renderLines(_ outcome: ReportOutcome) -> [String] {
    var lines: [String] = [headerLine(outcome)]
    if let error = outcome.error {
      // A damaged report that was still diagnosed carries a note; one that explains nothing, an
      // error.
      let label = outcome.isDamaged ? style.severity(.note, "note:") + "  " : style.severity(.error, "error:") + " "
      lines += PlainText.wrap(
        TerminalText.escaped(errorText(error)), width: width, indent: "         ", hanging: "  " + label)
    }
    if let result = outcome.result {
      lines.append("")
      if let top = result.diagnoses.first {
        lines += diagnosisLines(top, outcome: outcome)
        let others = RuleCatalog.alternatives(result.diagnoses)
        if !others.isEmpty {
          lines.append("")
          lines.append("  " + style.bold("Also consistent with:"))
          for other in others {
            let line =
              "- \(TerminalText.escaped(other.title)) [\(other.ruleID)] (\(other.severity.rawValue), \(other.confidence.rawValue))"
            lines += PlainText.wrap(line, width: width, indent: "      ", hanging: "    ")
            if verbose {
              lines += evidenceLines(other.evidence, indent: "      ")
            }
          }
        }
        if let hint = result.symbolication { lines += symbolicationLines(hint, path: outcome.filePath) }
      } else {
        lines += inconclusiveLines(result, outcome: outcome)
      }
      if verbose {
        lines.append("")
        lines.append("  " + style.bold("Signature:") + " " + result.signature.id)
        for component in result.signature.components {
          lines.append("    " + style.dim(TerminalText.escaped(component)))
        }
      }
    }
    if !outcome.warnings.isEmpty {
      lines.append("")
      if verbose {
        lines.append("  " + style.bold("Parse warnings:"))
        for warning in outcome.warnings {
          lines += PlainText.wrap(
            "- " + TerminalText.escaped(warning.location) + ": " + TerminalText.escaped(warning.message),
            width: width, indent: "      ", hanging: "    ")
        }
      } else {
        let count = outcome.warnings.count
        lines.append("  " + style.dim("\(count) parse warning\(count == 1 ? "" : "s") (see --verbose)."))
      }
    }
    return lines
  }

  /// The path, then "app · OS · device · time" and, for other than a crash, the kind of report.
  /// Built as bytes, each part escaped on its own (escaping goes scalar by scalar, so that is the
  /// escaped join).
  func headerLine(_ outcome: ReportOutcome) -> String {
    var line = UTF8TextBuilder(capacity: 256)
    line.append(style.bold(outcome.path))
    if let facts = outcome.facts {
      var separator = " — "
      func part(_ text: String?) {
        guard let text else { return }
        line.append(separator)
        line.append(TerminalText.escaped(text))
        separator = " · "
      }
      part(facts.appDescription)
      part(facts.osDescription)
      part(facts.device)
      part(facts.time)
      if facts.kind != .crash { part(facts.bugTypeName ?? facts.kind.rawValue) }
      part(facts.sourceDescription)
    }
    if outcome.baseline == .known {
      line.append(" ")
      line.append(style.dim("(known: in the baseline)"))
    }
    return line.string
  }

  /// "Crashed thread 7 (queue):", "Exception backtrace (thread 7, queue):" or "Thread 7 (queue):"
  /// for a process that did not crash, and its first frames, the app's own marked with an arrow.
  func topFrameLines(_ summary: CrashSummary) -> [String] {
    guard let thread = summary.crashedThread, !summary.topFrames.isEmpty else { return [] }
    let label = [summary.crashedThreadName, summary.crashedQueue].compactMap { $0 }.map(TerminalText.escaped)
    let heading =
      switch summary.topFramesSource {
      case .crashedThread:
        "Crashed thread \(thread)" + (label.isEmpty ? "" : " (" + label.joined(separator: ", ") + ")")
      case .lastExceptionBacktrace:
        "Exception backtrace (" + (["thread \(thread)"] + label).joined(separator: ", ") + ")"
      case .sampledThread: "Thread \(thread)" + (label.isEmpty ? "" : " (" + label.joined(separator: ", ") + ")")
      }
    var lines = ["", "  " + style.bold(heading) + ":"]
    for frame in summary.topFrames {
      let marker = frame.isApp ? "  → " : "    "
      lines += PlainText.wrap(
        marker + "\(frame.index)  " + TerminalText.escaped(frame.text), width: width, indent: "         ")
    }
    return lines
  }

  func errorText(_ error: ReportError) -> String {
    var text = ""
    if let line = error.line {
      text += "line \(line)"
      if let column = error.column { text += ", column \(column)" }
      text += ": "
    }
    text += error.message
    if let path = error.path { text += " (at \(path))" }
    return text
  }

  func diagnosisLines(_ diagnosis: Diagnosis, outcome: ReportOutcome) -> [String] {
    var lines: [String] = []
    let severity = style.severity(diagnosis.severity, diagnosis.severity.rawValue + ":")
    lines.append(
      "  \(severity) \(style.bold(TerminalText.escaped(diagnosis.title))) [\(diagnosis.ruleID)]")
    lines.append("  " + style.dim("Confidence: \(diagnosis.confidence.rawValue)"))
    lines.append("")
    lines += PlainText.renderMarkdown(diagnosis.summary, width: width, indent: "    ", style: style)
    if let summary = outcome.result?.summary { lines += topFrameLines(summary) }
    if verbose && !diagnosis.evidence.isEmpty {
      lines.append("")
      lines.append("  " + style.bold("Evidence:"))
      lines += evidenceLines(diagnosis.evidence, indent: "    ")
    }
    if !diagnosis.remedy.isEmpty {
      lines.append("")
      lines.append("  " + style.bold("How to fix it:"))
      lines += cache.lines(for: diagnosis.remedy, kind: .remedy) {
        PlainText.renderMarkdown(diagnosis.remedy, width: width, indent: "    ", style: style)
      }
    }
    if !diagnosis.verification.isEmpty {
      lines.append("")
      lines.append("  " + style.bold("To confirm:"))
      for step in diagnosis.verification {
        lines += cache.lines(for: step, kind: .verification) {
          PlainText.wrap(PlainText.inline(step), width: width, indent: "      ", hanging: "    - ")
        }
      }
    }
    if verbose && !diagnosis.references.isEmpty {
      lines.append("")
      lines.append("  " + style.bold("References:"))
      for reference in diagnosis.references { lines.append("    - " + TerminalText.escaped(reference)) }
    }
    return lines
  }

  func evidenceLines(_ evidence: [Evidence], indent: String) -> [String] {
    evidence.flatMap { item in
      PlainText.wrap(
        "- " + style.code(TerminalText.escaped(item.path)) + ": " + TerminalText.escaped(item.detail),
        width: width + (style.enabled ? 9 : 0), indent: indent + "  ", hanging: indent)
    }
  }

  func inconclusiveLines(_ result: DiagnosisResult, outcome: ReportOutcome) -> [String] {
    var lines: [String] = []
    let severity = outcome.severity
    let label = severity.map { style.severity($0, $0.rawValue + ":") + " " } ?? ""
    let what = outcome.facts?.kind == .crash || outcome.facts == nil ? "crash" : "report"
    lines.append("  \(label)\(style.bold("Inconclusive:")) no rule recognises this \(what).")
    let summary = result.summary
    var facts: [(String, String)] = []
    if let exception = summary.exception { facts.append(("Exception", exception)) }
    if let reason = summary.reason { facts.append(("Reason", reason)) }
    if let termination = summary.termination { facts.append(("Termination", termination)) }
    if let headline = summary.headline { facts.append(("Summary", headline)) }
    if let thread = summary.crashedThread {
      var text = String(thread)
      let label = [summary.crashedThreadName, summary.crashedQueue].compactMap { $0 }
      if !label.isEmpty { text += " (" + label.joined(separator: ", ") + ")" }
      facts.append(("Crashed thread", text))
    }
    if let frame = summary.firstAppFrame {
      facts.append(("First app frame", frame + (summary.firstAppFramePath.map { " (\($0))" } ?? "")))
    }
    if !facts.isEmpty {
      lines.append("")
      let labelWidth = facts.map(\.0.count).max()! + 2
      for (name, value) in facts {
        let head = "    " + name + ":" + String(repeating: " ", count: labelWidth - name.count - 1)
        lines += PlainText.wrap(
          TerminalText.escaped(value), width: width,
          indent: String(repeating: " ", count: head.count), hanging: head)
      }
    }
    if let hint = result.symbolication { lines += symbolicationLines(hint, path: outcome.filePath) }
    return lines
  }

  /// ips-doctor's own command first (any system), then Spotlight and `atos` on a Mac.
  func symbolicationLines(_ hint: SymbolicationHint, path: String) -> [String] {
    var lines = [
      "", "  " + style.bold("Symbolicate the app's frames") + " with the build's dSYM:",
      "    " + style.code(TerminalText.escaped(hint.ipsDoctorCommand(reportPath: path))),
      "  or on a Mac:",
    ]
    for image in hint.images {
      if let find = image.findDSYM { lines.append("    " + style.code(TerminalText.escaped(find))) }
      lines.append("    " + style.code(TerminalText.escaped(image.atos)))
    }
    return lines
  }

  // MARK: Groups

  /// "2026-08-20 10:31:05.1552 -0700" → "2026-08-20".
  static func day(_ time: String) -> String {
    let date = time.prefix(while: { $0 != " " && $0 != "T" })
    return date.count == 10 ? String(date) : time
  }

  /// "iPhone OS 26.6 (23G80)" → "iPhone OS 26.6".
  static func withoutBuild(_ os: String) -> String {
    guard os.hasSuffix(")"), let open = os.lastIndex(of: "(") else { return os }
    return String(os[..<open]).trimmingWhitespace()
  }

  /// At most three values, then how many more.
  static func few(_ values: [String]) -> String {
    var seen: [String] = []
    for value in values where !seen.contains(value) { seen.append(value) }
    return seen.prefix(3).joined(separator: ", ") + (seen.count > 3 ? " +\(seen.count - 3) more" : "")
  }

  /// "4 crash groups in 5 reports (1 new, 3 known) · worst: error · …", the run in one line.
  func verdictLine(_ run: RunSummary) -> String {
    var parts: [String] = []
    var groups = "\(run.groups.count) crash group\(run.groups.count == 1 ? "" : "s") in \(run.reports) report"
    groups += run.reports == 1 ? "" : "s"
    let new = run.groups.count(where: { $0.baseline == .new })
    let known = run.groups.count(where: { $0.baseline == .known })
    if new + known > 0 { groups += " (\(new) new, \(known) known)" }
    parts.append(style.bold(groups))
    if let worst = run.groups.compactMap(\.severity).max() {
      parts.append("worst: " + style.severity(worst, worst.rawValue))
    }
    if run.unreadable > 0 { parts.append("\(run.unreadable) could not be read") }
    if !run.filter.isEmpty { parts.append("\(run.filteredOut) left out by \(run.filter)") }
    if run.failOn != .never { parts.append("\(run.failing) at or above --fail-on \(run.failOn.rawValue)") }
    return parts.joined(separator: " · ")
  }

  /// `text` cut to `columns` characters, the cut marked with an ellipsis.
  static func fitted(_ text: String, columns: Int) -> String {
    guard columns > 1, text.count > columns else { return text }
    return String(text.prefix(columns - 1)).trimmingWhitespace() + "…"
  }

  /// "Title — in Place" in `columns`: whole when it fits, else each part cut, the place keeping at
  /// least two fifths of the room (it tells apart the groups of one rule).
  static func titleAndPlace(_ title: String, _ place: String?, columns: Int) -> String {
    guard let place else { return fitted(title, columns: columns) }
    let separator = " — "
    if title.count + separator.count + place.count <= columns { return title + separator + place }
    let placeRoom = min(place.count, max(columns - title.count - separator.count, columns * 2 / 5))
    return fitted(title, columns: columns - separator.count - placeRoom) + separator + fitted(place, columns: placeRoom)
  }

  /// `place` without the wrappers a Swift frame's name starts with (`@objc closure #1 in `,
  /// `partial apply for `, …): what is left names the function the crash is in.
  static func shortPlace(_ place: String) -> String {
    guard place.hasPrefix("in ") else { return place }
    var name = Substring(place.dropFirst(3))
    var changed = true
    while changed {
      changed = false
      for prefix in ["@objc ", "partial apply for ", "thunk for ", "specialized ", "merged ", "implicit "] {
        if name.hasPrefix(prefix) {
          name = name.dropFirst(prefix.count)
          changed = true
        }
      }
      if name.hasPrefix("closure #"), let range = name.firstRange(of: " in ") {
        let number = name[name.index(name.startIndex, offsetBy: "closure #".count)..<range.lowerBound]
        if !number.isEmpty && number.allSatisfy({ $0.isNumber }) {
          name = name[range.upperBound...]
          changed = true
        }
      }
    }
    return name.isEmpty ? place : "in " + name
  }

  /// Where a group's crash is: its first app frame (`App+0x3e628` without the image's UUID when
  /// unsymbolicated), else the fact that tells its instances apart (a library, a reason), else
  /// for a jetsam event the process killed, else the process; `nil` when the signature holds none.
  static func place(_ signature: CrashSignature) -> String? {
    let components = signature.symbolComponents ?? signature.components
    if let frame = components.first(where: { $0.hasPrefix("frame:") }) {
      var text = frame.dropFirst("frame:".count)
      if let at = text.lastIndex(of: "@"), text.distance(from: at, to: text.endIndex) == 37 { text = text[..<at] }
      return "in " + text
    }
    if let instance = components.first(where: { $0.hasPrefix("instance:") }) {
      return String(instance.dropFirst("instance:".count))
    }
    // A jetsam event: the process the system killed (`jetsam:reason:name`), or the largest one.
    if let jetsam = components.first(where: { $0.hasPrefix("jetsam:") })?.dropFirst("jetsam:".count),
      let colon = jetsam.firstIndex(of: ":")
    {
      let (first, name) = (jetsam[..<colon], jetsam[jetsam.index(after: colon)...])
      return first == "largest" ? "largest: " + name : "killed: " + name + (first.isEmpty ? "" : " (" + first + ")")
    }
    if let process = components.first(where: { $0.hasPrefix("process:") }) {
      return String(process.dropFirst("process:".count))
    }
    return nil
  }

  /// One line per group, largest first: count, severity, title, where, and (with a baseline)
  /// whether it is new or known, cut to the width. `--verbose` adds under each its rule, where in
  /// full, dates, versions, devices and example paths, each path on a line of its own.
  func groupTable(_ run: RunSummary) -> String {
    var lines = [style.bold("Crash groups:"), ""]
    let countWidth = String(run.groups.first?.count ?? 1).count
    let detailIndent = String(repeating: " ", count: countWidth + 14)
    for group in run.groups {
      let count = String(repeating: " ", count: countWidth - String(group.count).count) + "\(group.count)×"
      let severityWord = (group.severity?.rawValue ?? "-")
      let severity =
        style.severity(group.severity, severityWord) + String(repeating: " ", count: 8 - severityWord.count)
      let title: String
      if group.rule != nil {
        title = group.title ?? group.rule ?? ""
      } else {
        title =
          "Inconclusive " + (group.kind.map { $0 == .crash ? "crash" : $0.rawValue } ?? "report")
          + (group.exception.map { ": " + $0 } ?? "")
      }
      let place = Self.place(group.signature)
      let marker =
        switch group.baseline {
        case .known?: "(known)"
        case .new?: "(new)"
        case nil: ""
        }
      let room = width - (countWidth + 14) - (marker.isEmpty ? 0 : marker.count + 1)
      let name = Self.titleAndPlace(
        TerminalText.escaped(title), place.map { TerminalText.escaped(Self.shortPlace($0)) }, columns: room)
      let styledMarker =
        marker.isEmpty ? "" : " " + (group.baseline == .known ? style.dim(marker) : style.bold(marker))
      lines.append("  \(count)  \(severity) " + name + styledMarker)
      guard verbose else { continue }
      var details: [String] = []
      if let rule = group.rule { details.append("[" + rule + "]") }
      if let first = group.firstSeen.map(Self.day), let last = group.lastSeen.map(Self.day) {
        details.append(first == last ? first : "\(first) to \(last)")
      }
      if !group.appVersions.isEmpty { details.append("app " + Self.few(group.appVersions)) }
      if !group.osVersions.isEmpty { details.append(Self.few(group.osVersions.map(Self.withoutBuild))) }
      if !group.devices.isEmpty { details.append(Self.few(group.devices)) }
      if let place {
        lines += PlainText.wrap(
          TerminalText.escaped(place), width: width, indent: detailIndent + "  ", hanging: detailIndent)
      }
      if !details.isEmpty {
        lines += PlainText.wrap(
          style.dim(TerminalText.escaped(details.joined(separator: " · "))), width: width, indent: detailIndent)
      }
      // A path is never wrapped: a terminal folds it, a copy and paste keeps it whole.
      for example in group.examples { lines.append(detailIndent + TerminalText.escaped(example)) }
    }
    return PlainText.joinedLines(lines)
  }
}

/// Lines already rendered for a text, for one reporter (so one width and one style). Bounded: it
/// starts again empty past ``limit`` entries, so memory stays flat whatever the rules write.
final class RenderCache {
  package enum Kind: Hashable { case remedy, verification }

  /// Keyed by the text's bytes: a remedy is a kilobyte or two. The hash takes the length and
  /// the first and last 32 bytes; equality compares every byte, so texts that differ only in their
  /// bytes (canonically equivalent ones) are rendered separately, as their bytes may render apart.
  private struct Key: Hashable {
    var text: String
    var kind: Kind

    static func == (lhs: Key, rhs: Key) -> Bool {
      guard lhs.kind == rhs.kind else { return false }
      let same = lhs.text.utf8.withContiguousStorageIfAvailable { left in
        rhs.text.utf8.withContiguousStorageIfAvailable { right in
          left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
        }
      }
      return (same ?? nil) ?? lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(kind)
      let utf8 = text.utf8
      hasher.combine(utf8.count)
      let hashed: Void? = utf8.withContiguousStorageIfAvailable { bytes in
        let raw = UnsafeRawBufferPointer(bytes)
        hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(32)))
        hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.suffix(32)))
      }
      if hashed == nil {
        // The same bytes fed the same way, so equal keys hash alike however they are stored.
        Array(utf8.prefix(32)).withUnsafeBytes { hasher.combine(bytes: $0) }
        Array(utf8.suffix(32)).withUnsafeBytes { hasher.combine(bytes: $0) }
      }
    }
  }

  private var entries: [Key: [String]] = [:]
  static let limit = 256

  /// The lines for `text`, rendered by `render` the first time (`render` must depend only on
  /// `text`, `kind` and what is fixed for the reporter).
  func lines(for text: String, kind: Kind, render: () -> [String]) -> [String] {
    let key = Key(text: text, kind: kind)
    if let lines = entries[key] { return lines }
    let lines = render()
    if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
    entries[key] = lines
    return lines
  }

  var count: Int { entries.count }
}
