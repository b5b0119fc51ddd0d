import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `--app`, `--app-version`, `--since`, `--rule`, `--severity`: which diagnosed reports a run
/// keeps, decided before grouping. Inputs that could not be read are always kept: an error is
/// never filtered away.
package struct ReportFilter: Sendable, Equatable {
  /// An app's name, process name or bundle identifier (or a prefix of it that ends at a dot),
  /// compared without regard to case.
  package var app: String?
  /// "2.4" matches version 2.4 of any build; "118" matches build 118; "2.4 (118)" both.
  package var appVersion: String?
  /// Reports from this instant on (microseconds since 1970, UTC).
  package var since: Int64?
  /// `--since` as the user wrote it, for messages.
  package var sinceText: String?
  /// A rule id, or the start of one (`objc-` keeps every Objective-C exception rule);
  /// `inconclusive` keeps reports no rule recognises.
  package var rule: String?
  /// The lowest severity kept.
  package var severity: Severity?

  package init() {}

  package var isEmpty: Bool { self == ReportFilter() }

  /// "2026-09-01", "2026-09-01 12:30", "2026-09-01T12:30:00 -0700" as a `since` instant; a time
  /// without a zone is UTC. `nil` unless every field is a real one: a day the month has (February
  /// 29 only in a leap year), hours to 23, minutes and seconds to 59, a zone within ±23:59, and
  /// nothing after the zone.
  package static func instant(_ text: String) -> Int64? {
    var value = text.trimmingWhitespace()
    if value.count == 10 { value += " 00:00:00" }
    if value.count == 16 { value += ":00" }
    if value.count == 19 { value += " +0000" }
    guard isCalendarTime(Array(value.utf8)) else { return nil }
    return Timestamp.sortKey(value)
  }

  /// Whether `bytes` is `YYYY-MM-DD[ T]HH:MM:SS[.digits][ ]±HH[:]MM` with every field in range.
  static func isCalendarTime(_ bytes: [UInt8]) -> Bool {
    var index = 0
    func number(_ digits: Int) -> Int? {
      guard index + digits <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + digits] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      index += digits
      return value
    }
    func skip(_ allowed: String) -> Bool {
      guard index < bytes.count, allowed.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), skip(" T"),
      let hour = number(2), skip(":"), let minute = number(2), skip(":"), let second = number(2)
    else { return false }
    guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour <= 23, minute <= 59,
      second <= 59
    else { return false }
    if skip(".") {
      guard number(1) != nil else { return false }
      while number(1) != nil {}
    }
    while skip(" ") {}
    guard skip("+-"), let zoneHours = number(2) else { return false }
    _ = skip(":")
    guard let zoneMinutes = number(2), zoneHours <= 23, zoneMinutes <= 59 else { return false }
    return index == bytes.count
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Whether `--app filter` keeps a report of the app or process `name` with `bundleID`: the name
  /// or the bundle ID itself, or a prefix of the bundle ID that ends at a dot (`com.example` for
  /// every target of a team, not `com.exam`), ignoring case.
  package static func app(_ filter: String, matchesName name: String?, bundleID: String?) -> Bool {
    let wanted = filter.lowercased()
    if name?.lowercased() == wanted { return true }
    guard let id = bundleID?.lowercased(), !wanted.isEmpty else { return false }
    return id == wanted || id.hasPrefix(wanted.hasSuffix(".") ? wanted : wanted + ".")
  }

  package func keeps(_ outcome: ReportOutcome) -> Bool {
    guard !outcome.isUnreadable, let facts = outcome.facts else { return true }
    if let app {
      guard
        Self.app(app, matchesName: facts.appName, bundleID: facts.bundleID)
          || (facts.processName != nil && facts.processName?.lowercased() == app.lowercased())
      else { return false }
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
    if since != nil { parts.append("--since" + (sinceText.map { " " + $0 } ?? "")) }
    if let rule { parts.append("--rule \(rule)") }
    if let severity { parts.append("--severity \(severity.rawValue)") }
    return parts.joined(separator: " ")
  }
}
