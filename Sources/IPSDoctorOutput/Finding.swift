import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorSupport

/// One line item of a report for the CI formats (SARIF, JUnit, GitHub): a diagnosis, or one of the
/// tool's own findings about the report (unreadable, inconclusive, parse warnings).
package struct Finding {
  /// The ids of the tool's own findings; they appear in SARIF's rule list next to the catalog.
  package enum Builtin: String, CaseIterable {
    case unreadable = "unreadable-report"
    case inconclusive = "inconclusive"
    case parseWarnings = "report-parse-warnings"

    package var title: String {
      switch self {
      case .unreadable: "Unreadable Crash Report"
      case .inconclusive: "Inconclusive Crash Report"
      case .parseWarnings: "Crash Report Parse Warnings"
      }
    }

    package var summary: String {
      switch self {
      case .unreadable: "The file could not be read as a crash report."
      case .inconclusive: "No rule recognises this report; its exception, reason and first app frame are shown instead."
      case .parseWarnings: "Fields of the report had unexpected types or values and were skipped."
      }
    }

    package var help: String {
      switch self {
      case .unreadable:
        "Check that the file is a complete .ips or .crash report (not truncated, not an HTML page or a screenshot of one). The message says where reading stopped."
      case .inconclusive:
        "Symbolicate the app's frames with the build's dSYM (`ips-doctor crash.ips --dsym MyApp.app.dSYM`, or on a Mac the `atos` commands the output lists) and read the crashed thread's first app frame. If the crash is common, consider contributing a rule."
      case .parseWarnings:
        "Usually harmless: the report was written by a newer or older OS. Run with --verbose to see each field; --strict makes them errors."
      }
    }

    /// The page a SARIF viewer links the finding to (Apple's documentation of crash reports).
    package var helpURI: String {
      switch self {
      case .unreadable: "https://developer.apple.com/documentation/xcode/acquiring-crash-reports-and-diagnostic-logs"
      case .inconclusive:
        "https://developer.apple.com/documentation/xcode/diagnosing-issues-using-crash-reports-and-device-logs"
      case .parseWarnings:
        "https://developer.apple.com/documentation/xcode/interpreting-the-json-format-of-a-crash-report"
      }
    }

    package var severity: Severity {
      switch self {
      case .unreadable: .error
      case .inconclusive: .warning
      case .parseWarnings: .note
      }
    }
  }

  var ruleID: String
  var title: String
  var severity: Severity
  var confidence: Confidence?
  /// One paragraph: what was found.
  var message: String
  /// What to do, Markdown.
  var remedy: String
  var evidence: [Evidence]

  /// Findings in output order: an input error, the diagnoses best first, the inconclusive marker,
  /// parse warnings.
  /// The one finding a report counts as in every format: why it could not be read, else its top
  /// diagnosis, else that it is inconclusive, else its parse warnings. The other candidate causes
  /// (``alternatives(for:)``) are shown where a person reads them, never as findings of their own.
  static func primary(for outcome: ReportOutcome) -> Finding? {
    let findings = all(for: outcome)
    if outcome.isUnreadable { return findings.first }
    return findings.first { $0.ruleID != Builtin.unreadable.rawValue }
  }

  /// ``primary(for:)`` as a list of at most one, for the reporters that loop over findings.
  static func reported(for outcome: ReportOutcome) -> [Finding] {
    primary(for: outcome).map { [$0] } ?? []
  }

  /// The diagnoses after the top one: "also consistent with".
  static func alternatives(for outcome: ReportOutcome) -> [Diagnosis] {
    Array(outcome.diagnoses.dropFirst())
  }

  /// Every finding of a report, the unreadable error first: for the views that list them all.
  static func all(for outcome: ReportOutcome) -> [Finding] {
    var findings: [Finding] = []
    if let error = outcome.error {
      var location = ""
      if let line = error.line {
        location = "line \(line)" + (error.column.map { ", column \($0)" } ?? "") + ": "
      }
      findings.append(
        Finding(
          ruleID: Builtin.unreadable.rawValue, title: Builtin.unreadable.title, severity: .error,
          confidence: nil, message: location + error.message + (error.path.map { " (at \($0))" } ?? ""),
          remedy: Builtin.unreadable.help, evidence: []))
    }
    for diagnosis in outcome.diagnoses {
      findings.append(
        Finding(
          ruleID: diagnosis.ruleID, title: diagnosis.title, severity: diagnosis.severity,
          confidence: diagnosis.confidence, message: diagnosis.summary, remedy: diagnosis.remedy,
          evidence: diagnosis.evidence))
    }
    if let result = outcome.result, result.isInconclusive {
      let summary = result.summary
      var parts: [String] = []
      if let exception = summary.exception { parts.append(exception) }
      if let reason = summary.reason ?? summary.headline { parts.append(reason) }
      if let frame = summary.firstAppFrame { parts.append("first app frame: " + frame) }
      let kind = outcome.facts?.kind ?? .crash
      findings.append(
        Finding(
          ruleID: Builtin.inconclusive.rawValue,
          title: kind == .crash
            ? Builtin.inconclusive.title : "Inconclusive \(outcome.facts?.bugTypeName ?? kind.rawValue)",
          severity: kind == .crash ? .warning : .note, confidence: nil,
          message: "No rule recognises this \(kind == .crash ? "crash" : "report")"
            + (parts.isEmpty ? "." : ": " + parts.joined(separator: "; ") + "."),
          remedy: Builtin.inconclusive.help, evidence: []))
    }
    if !outcome.warnings.isEmpty {
      let count = outcome.warnings.count
      findings.append(
        Finding(
          ruleID: Builtin.parseWarnings.rawValue, title: Builtin.parseWarnings.title, severity: .note,
          confidence: nil,
          message: "\(count) parse warning\(count == 1 ? "" : "s"): "
            + outcome.warnings.prefix(3).map(\.description).joined(separator: "; ")
            + (count > 3 ? "; …" : ""),
          remedy: Builtin.parseWarnings.help,
          evidence: outcome.warnings.map { Evidence($0.location, $0.message) }))
    }
    return findings
  }
}
