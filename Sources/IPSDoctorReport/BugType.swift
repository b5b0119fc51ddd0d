/// The `bug_type` of a report: which kind of diagnostic file it is.
package struct BugType: Sendable, Hashable, CustomStringConvertible {
  /// As written in the header ("309"); a number in the header is kept as its decimal text.
  package var rawValue: String

  package init(_ rawValue: String) {
    self.rawValue = rawValue
  }

  /// The name and kind of a common bug_type number. Sources: Apple's JSON crash report
  /// documentation and reports seen in the wild (see docs/report-kinds.md).
  static func known(_ code: Int) -> (name: String, kind: ReportKind)? {
    switch code {
    case 109: ("crash report (legacy text)", .crash)
    case 309: ("crash report", .crash)
    case 210: ("kernel panic", .panic)
    case 151: ("kernel panic (full log)", .panic)
    case 298: ("jetsam event", .jetsam)
    case 288: ("stackshot", .stackshot)
    case 188: ("stackshot (legacy)", .stackshot)
    case 202: ("CPU resource report", .resource)
    case 145: ("disk writes resource report", .resource)
    case 385: ("resource or user fault report", .resource)
    case 327: ("resource report", .resource)
    case 185: ("resource exception report", .resource)
    case 206: ("wakeups resource report", .resource)
    case 409: ("system watchdog report", .watchdog)
    case 226: ("networking analytics", .unknown)
    default: nil
    }
  }

  /// ``known(_:)`` of `rawValue` when it is three decimal digits.
  private var known: (name: String, kind: ReportKind)? {
    guard rawValue.utf8.count == 3, rawValue.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let code = Int(rawValue)
    else { return nil }
    return Self.known(code)
  }

  /// A human name: "crash report", or "unknown (N)".
  package var name: String {
    known?.name ?? "unknown (\(rawValue))"
  }

  package var kind: ReportKind {
    known?.kind ?? .unknown
  }

  /// Whether a report of this type always has a JSON object as its body: a JSON crash report,
  /// stackshot, jetsam event, system watchdog or resource report. Their bodies are never legacy
  /// text (a kernel panic's may be, and 109, 145, 202 and 327 have text bodies), so anything after
  /// their header that is neither a JSON object nor a text report is a damaged body.
  package var promisesJSONBody: Bool {
    switch rawValue {
    case "309", "288", "298", "409", "385": true
    default: false
    }
  }

  package var description: String { rawValue }
}

/// What a report is about, which decides how it is diagnosed.
package enum ReportKind: String, Sendable, Equatable, CaseIterable {
  /// A process crashed or was terminated (bug_type 309/109 and legacy text).
  case crash
  /// The kernel panicked (210).
  case panic
  /// The system killed processes for memory (298).
  case jetsam
  /// A snapshot of all stacks, usually for a hang (288/188).
  case stackshot
  /// A resource-use report (CPU, disk writes, wakeups, user faults); usually not a crash.
  case resource
  /// A system watchdog report (409).
  case watchdog
  /// A bug_type we do not know.
  case unknown
}
