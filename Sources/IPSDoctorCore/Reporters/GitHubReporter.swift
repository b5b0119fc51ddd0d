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
    for finding in Finding.reported(for: outcome) {
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

  static func append(_ text: String, to path: String) -> Bool {
    let fd = PathName(path).withCString { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return POSIX.writeAll(fd, text)
  }

  /// Escapes a workflow-command message: `%`, CR and LF; each line's control characters made
  /// visible first, so a report cannot start a workflow command of its own.
  static func data(_ text: String) -> String {
    escapedBytes(text, property: false) ?? dataByCharacters(text)
  }

  /// ``data(_:)`` by `Character`s (the reference for the bytes).
  static func dataByCharacters(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escaped(String($0)).replacing("%", with: "%25").replacing("\r", with: "%0D") }
      .joined(separator: "%0A")
  }

  /// Escapes a workflow-command property value: as ``data(_:)`` plus `:` and `,`.
  static func property(_ text: String) -> String {
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
  ///
  /// The bytes between marked ones are copied as runs into a ``ByteBuffer``: appending each byte
  /// to an array, with its uniqueness check, was about 70 k instructions a report.
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
