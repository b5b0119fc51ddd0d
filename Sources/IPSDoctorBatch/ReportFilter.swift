import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `--app`, `--app-version`, `--since`, `--rule`, `--severity`: which diagnosed reports a run
/// keeps, decided before grouping. Inputs that could not be read are always kept: an error is
/// never filtered away.
package struct ReportFilter: Sendable, Equatable {
  /// An app's name or bundle identifier, compared without regard to case.
  package var app: String?
  /// "2.4" matches version 2.4 of any build; "118" matches build 118; "2.4 (118)" both.
  package var appVersion: String?
  /// Reports from this instant on (microseconds since 1970, UTC).
  package var since: Int64?
  /// A rule id, or the start of one (`objc-` keeps every Objective-C exception rule);
  /// `inconclusive` keeps reports no rule recognises.
  package var rule: String?
  /// The lowest severity kept.
  package var severity: Severity?

  package init() {}

  package var isEmpty: Bool { self == ReportFilter() }

  /// "2026-09-01", "2026-09-01 12:30", "2026-09-01T12:30:00 -0700" as a `since` instant; a time
  /// without a zone is UTC.
  package static func instant(_ text: String) -> Int64? {
    var value = text.trimmingWhitespace()
    if value.count == 10 { value += " 00:00:00" }
    if value.count == 16 { value += ":00" }
    if value.count == 19 { value += " +0000" }
    return Timestamp.sortKey(value)
  }

  package func keeps(_ outcome: ReportOutcome) -> Bool {
    guard !outcome.isUnreadable, let facts = outcome.facts else { return true }
    if let app {
      let names = [facts.appName, facts.bundleID].compactMap { $0?.lowercased() }
      guard names.contains(app.lowercased()) else { return false }
    }
    if let appVersion {
      let forms = [facts.appVersion, facts.buildVersion, facts.versionDescription].compactMap { $0 }
      guard forms.contains(appVersion) else { return false }
    }
    if let since {
      guard let time = facts.time, let key = Timestamp.sortKey(time), key >= since else { return false }
    }
    if let rule {
      let id = outcome.diagnoses.first?.ruleID ?? "inconclusive"
      guard id == rule || id.hasPrefix(rule.hasSuffix("-") ? rule : rule + "-") else { return false }
    }
    if let severity {
      guard let level = outcome.severity, level >= severity else { return false }
    }
    return true
  }

  /// "--app ChatApp --since 2026-09-01", for the summary.
  package var description: String {
    var parts: [String] = []
    if let app { parts.append("--app \(app)") }
    if let appVersion { parts.append("--app-version \(appVersion)") }
    if since != nil { parts.append("--since") }
    if let rule { parts.append("--rule \(rule)") }
    if let severity { parts.append("--severity \(severity.rawValue)") }
    return parts.joined(separator: " ")
  }
}
