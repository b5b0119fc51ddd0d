import IPSDoctorDiagnosis
import IPSDoctorReport
import IPSDoctorSupport

/// Reports of one crash, grouped by ``CrashSignature``: two reports are one crash when they share
/// any id (``CrashSignature/ids``), so an unsymbolicated report, its symbolicated copy and the
/// symbolicated report of another build of the same code form one group.
package struct CrashGroup: Sendable, Equatable {
  /// The signature of the group's first report.
  package var signature: CrashSignature
  /// Every distinct signature of the group's reports, ``signature`` first (a baseline keeps them
  /// all, so that any of its spellings is known).
  package var signatures: [CrashSignature] = []
  /// The top diagnosis's rule, or `nil` for an inconclusive group.
  package var rule: String?
  package var title: String?
  package var kind: ReportKind?
  package var severity: Severity?
  /// What the crash is when no rule matched, e.g. "EXC_BAD_ACCESS (SIGSEGV)".
  package var exception: String?
  package var count: Int
  package var firstSeen: String?
  package var lastSeen: String?
  /// "2.4 (118)", in version order.
  package var appVersions: [String]
  /// "iPhone OS 26.6 (23G80)", in version order.
  package var osVersions: [String]
  /// Device models ("iPhone17,1"), in the order first seen.
  package var devices: [String] = []
  /// Up to ``CrashGroups/exampleLimit`` paths, in input order.
  package var examples: [String]
  package var baseline: BaselineState?
  /// Input position of the first report, the tie-break that keeps the order stable.
  package var firstIndex: Int

  fileprivate var firstKey: Int64?
  fileprivate var lastKey: Int64?
  /// The order groups were made in: the tie-break between the diagnostics of one file (a
  /// MetricKit payload's), which share its input position.
  fileprivate var arrival = 0
}

/// Accumulates groups as outcomes stream past; memory grows with the number of distinct crashes,
/// not with the number of reports.
package struct CrashGroups: Sendable {
  package static let exampleLimit = 3
  static let versionLimit = 50

  /// By the id of the group's first report.
  private var groups: [String: CrashGroup] = [:]
  /// Each signature id seen, to the group that holds it (or held it before it joined another:
  /// ``groupID(of:)`` follows ``joined``).
  private var owners: [String: String] = [:]
  /// A group that joined another, to that one.
  private var joined: [String: String] = [:]
  /// How many groups were made.
  private var made = 0

  package init() {}

  package mutating func add(_ outcome: ReportOutcome) {
    // A report that could not be read is counted as that alone, never as a group.
    guard !outcome.isUnreadable, let result = outcome.result, let facts = outcome.facts else { return }
    let signature = result.signature
    var found: [String] = []
    for id in signature.ids {
      if let owner = owners[id].map(groupID(of:)), !found.contains(owner) { found.append(owner) }
    }
    guard let target = found.min(by: { groups[$0]!.firstIndex < groups[$1]!.firstIndex }) else {
      let top = result.diagnoses.first
      var group = CrashGroup(
        signature: signature, signatures: [signature], rule: top?.ruleID, title: top?.title, kind: facts.kind,
        severity: outcome.severity, exception: result.summary.exception, count: 0, firstSeen: nil,
        lastSeen: nil, appVersions: [], osVersions: [], examples: [], baseline: outcome.baseline,
        firstIndex: outcome.index)
      Self.count(outcome, facts: facts, into: &group)
      group.arrival = made
      made += 1
      groups[signature.id] = group
      for id in signature.ids { owners[id] = signature.id }
      return
    }
    // A known group is updated where it is stored.
    let index = groups.index(forKey: target)!
    Self.count(outcome, facts: facts, into: &groups.values[index])
    if !groups.values[index].signatures.contains(signature) { groups.values[index].signatures.append(signature) }
    if outcome.baseline == .known { groups.values[index].baseline = .known }
    for id in signature.ids where owners[id] == nil { owners[id] = target }
    // The report names two groups as one crash: they become one.
    for other in found where other != target {
      guard let group = groups.removeValue(forKey: other) else { continue }
      joined[other] = target
      Self.merge(group, into: &groups[target]!)
    }
  }

  /// The group that holds the reports once filed under group `id`.
  private func groupID(of id: String) -> String {
    var current = id
    while let next = joined[current] { current = next }
    return current
  }

  /// Adds `other`'s reports to `group`, whose first report comes first.
  private static func merge(_ other: CrashGroup, into group: inout CrashGroup) {
    group.count += other.count
    group.arrival = min(group.arrival, other.arrival)
    if let severity = other.severity { group.severity = max(group.severity ?? severity, severity) }
    if let time = other.firstSeen,
      group.firstSeen == nil || Timestamp.isBefore(other.firstKey, time, group.firstKey, group.firstSeen!)
    {
      group.firstSeen = time
      group.firstKey = other.firstKey
    }
    if let time = other.lastSeen,
      group.lastSeen == nil || Timestamp.isBefore(group.lastKey, group.lastSeen!, other.lastKey, time)
    {
      group.lastSeen = time
      group.lastKey = other.lastKey
    }
    for version in other.appVersions { insert(version, into: &group.appVersions) }
    for os in other.osVersions { insert(os, into: &group.osVersions) }
    for device in other.devices where !group.devices.contains(device) && group.devices.count < versionLimit {
      group.devices.append(device)
    }
    for example in other.examples where group.examples.count < exampleLimit { group.examples.append(example) }
    for signature in other.signatures where !group.signatures.contains(signature) {
      group.signatures.append(signature)
    }
    if other.baseline == .known { group.baseline = .known }
  }

  private static func count(_ outcome: ReportOutcome, facts: ReportFacts, into group: inout CrashGroup) {
    group.count += 1
    if let severity = outcome.severity { group.severity = max(group.severity ?? severity, severity) }
    if let time = facts.time {
      let key = Timestamp.sortKey(time)
      if group.firstSeen == nil || Timestamp.isBefore(key, time, group.firstKey, group.firstSeen!) {
        group.firstSeen = time
        group.firstKey = key
      }
      if group.lastSeen == nil || Timestamp.isBefore(group.lastKey, group.lastSeen!, key, time) {
        group.lastSeen = time
        group.lastKey = key
      }
    }
    if let version = facts.versionDescription { insert(version, into: &group.appVersions) }
    if let os = facts.osDescription { insert(os, into: &group.osVersions) }
    if let device = facts.device, !group.devices.contains(device), group.devices.count < versionLimit {
      group.devices.append(device)
    }
    if group.examples.count < exampleLimit { group.examples.append(outcome.path) }
  }

  private static func insert(_ value: String, into list: inout [String]) {
    guard !list.contains(value), list.count < versionLimit else { return }
    list.append(value)
    list.sort(by: VersionOrder.less)
  }

  /// Groups by count (most first), then by first appearance in the input.
  package var sorted: [CrashGroup] {
    groups.values.sorted { lhs, rhs in
      if lhs.count != rhs.count { return lhs.count > rhs.count }
      if lhs.firstIndex != rhs.firstIndex { return lhs.firstIndex < rhs.firstIndex }
      return lhs.arrival < rhs.arrival
    }
  }

  package var count: Int { groups.count }
}

/// Orders "2.10" after "2.9": runs of digits compare as numbers.
enum VersionOrder {
  static func less(_ lhs: String, _ rhs: String) -> Bool {
    let a = chunks(lhs)
    let b = chunks(rhs)
    for (x, y) in zip(a, b) where x != y {
      switch (x, y) {
      case (.number(let m), .number(let n)): return m < n
      case (.number, .text): return true
      case (.text, .number): return false
      case (.text(let s), .text(let t)): return s < t
      }
    }
    return a.count != b.count ? a.count < b.count : lhs < rhs
  }

  private enum Chunk: Equatable {
    case number(UInt64)
    case text(String)
  }

  private static func chunks(_ text: String) -> [Chunk] {
    var result: [Chunk] = []
    var current = ""
    var inDigits = false
    func flush() {
      guard !current.isEmpty else { return }
      result.append(inDigits ? .number(UInt64(current.prefix(18)) ?? 0) : .text(current))
      current = ""
    }
    for character in text {
      let isDigit = character.isASCII && character.isNumber
      if isDigit != inDigits { flush() }
      inDigits = isDigit
      current.append(character)
    }
    flush()
    return result
  }
}

/// Report times ("2026-09-08 10:40:29.53 -0700") compared across time zones.
enum Timestamp {
  /// Microseconds since 1970 in UTC, or `nil` when the text is not in Apple's layout.
  static func sortKey(_ text: String) -> Int64? {
    text.withBorrowedUTF8(sortKey(bytes:))
  }

  private static func sortKey(bytes scalars: UnsafeBufferPointer<UInt8>) -> Int64? {
    var index = 0
    func number(_ digits: Int) -> Int64? {
      guard index + digits <= scalars.count else { return nil }
      var value: Int64 = 0
      for byte in scalars[index..<index + digits] {
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      index += digits
      return value
    }
    func expect(_ byte: UInt8) -> Bool {
      guard index < scalars.count, scalars[index] == byte else { return false }
      index += 1
      return true
    }
    let dash = UInt8(ascii: "-")
    let colon = UInt8(ascii: ":")
    guard let year = number(4), expect(dash), let month = number(2), expect(dash), let day = number(2),
      index < scalars.count, scalars[index] == 0x20 || scalars[index] == 0x54
    else { return nil }
    index += 1
    guard let hour = number(2), expect(colon), let minute = number(2), expect(colon), let second = number(2)
    else { return nil }
    var micros: Int64 = 0
    if index < scalars.count, scalars[index] == UInt8(ascii: ".") {
      index += 1
      var scale: Int64 = 100_000
      while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57 {
        micros += Int64(scalars[index] - 48) * scale
        scale /= 10
        index += 1
      }
    }
    var offsetSeconds: Int64 = 0
    while index < scalars.count, scalars[index] == 0x20 { index += 1 }
    if index < scalars.count, scalars[index] == UInt8(ascii: "+") || scalars[index] == UInt8(ascii: "-") {
      let sign: Int64 = scalars[index] == UInt8(ascii: "-") ? -1 : 1
      index += 1
      guard let hours = number(2) else { return nil }
      _ = expect(colon)
      let minutes = number(2) ?? 0
      offsetSeconds = sign * (hours * 3600 + minutes * 60)
    }
    guard (1...12).contains(month), (1...31).contains(day) else { return nil }
    // Days from civil (Howard Hinnant's algorithm).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return seconds * 1_000_000 + micros
  }

  /// Whether time (lhsKey, lhs) is before (rhsKey, rhs): by instant when both parse, else by text.
  static func isBefore(_ lhsKey: Int64?, _ lhs: String, _ rhsKey: Int64?, _ rhs: String) -> Bool {
    switch (lhsKey, rhsKey) {
    case (let a?, let b?): a != b ? a < b : lhs < rhs
    case (.some, nil): true
    case (nil, .some): false
    case (nil, nil): lhs < rhs
    }
  }
}
