import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis

/// The crash-group table of a batch: reports with one signature counted together, where they
/// were first and last seen (by instant, across time zones), their app and OS versions in version
/// order, and the first few paths as examples.
@Suite struct CrashGroupsTests {
  /// Microseconds since 1970 of a civil time at a UTC offset, by Foundation's calendar.
  static func foundationKey(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
    micros: Int64 = 0, offsetMinutes: Int = 0
  ) throws -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(secondsFromGMT: offsetMinutes * 60))
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    let date = try #require(calendar.date(from: components))
    return Int64(date.timeIntervalSince1970.rounded()) * 1_000_000 + micros
  }

  @Test("Timestamps in Apple's layout become the same instants as Foundation's calendar")
  func sortKeysMatchFoundation() throws {
    #expect(
      Timestamp.sortKey("2026-08-20 10:31:05.1922 -0700")
        == (try Self.foundationKey(2026, 8, 20, 10, 31, 5, micros: 192_200, offsetMinutes: -420)))
    #expect(Timestamp.sortKey("2024-02-29 23:59:59.00 +0000") == (try Self.foundationKey(2024, 2, 29, 23, 59, 59)))
    #expect(
      Timestamp.sortKey("2000-03-01T00:00:00 +05:30")
        == (try Self.foundationKey(2000, 3, 1, 0, 0, 0, offsetMinutes: 330)))
    #expect(Timestamp.sortKey("1969-12-31 23:59:59") == -1_000_000)
    #expect(Timestamp.sortKey("1970-01-01 00:00:00.000001") == 1)
    // The same instant written in two zones is one key.
    #expect(Timestamp.sortKey("2026-01-01 09:00:00 +0100") == Timestamp.sortKey("2026-01-01 00:00:00 -0800"))
  }

  @Test(
    "Text not in Apple's layout has no key",
    arguments: [
      "", "yesterday", "2026-08-20", "2026-13-01 00:00:00", "2026-01-32 00:00:00", "2026-1-01 00:00:00",
      "2026-01-01_00:00:00", "2026-01-01 00:00", "２０２６-01-01 00:00:00", "2026-01-01 00:00:00 +x",
    ])
  func malformedTimestampsHaveNoKey(text: String) {
    #expect(Timestamp.sortKey(text) == nil)
  }

  /// The diagnosed fixture's outcome, as the batch makes it, with its path, position, time and
  /// versions replaced.
  static func outcome(
    index: Int, time: String?, appVersion: String = "2.4", osBuild: String = "23G80"
  ) throws -> ReportOutcome {
    var outcome = ReportOutcome.diagnose(
      bytes: try Fixtures.bytes("reports/async-bridge-didreceive-simplified-symbols.ips"), index: index,
      path: "crashes/\(index).ips", options: Options(), baseline: nil)
    try #require(outcome.facts != nil && outcome.result != nil)
    outcome.facts?.time = time
    outcome.facts?.appVersion = appVersion
    outcome.facts?.buildVersion = nil
    outcome.facts?.osBuild = osBuild
    return outcome
  }

  @Test("One signature's reports make one group, updated report by report")
  func countsOneSignatureTogether() throws {
    var groups = CrashGroups()
    let times = [
      "2026-09-08 11:00:00.0000 -0700",  // 18:00 UTC
      "2026-09-08 19:30:00.0000 +0200",  // 17:30 UTC: the first
      nil,
      "2026-09-08 12:15:00.0000 -0700",  // 19:15 UTC: the last
      "2026-09-08 18:45:00.0000 +0000",
    ]
    let versions = ["2.10", "2.9", "2.10", "2.4", "2.9"]
    for (index, time) in times.enumerated() {
      groups.add(try Self.outcome(index: index, time: time, appVersion: versions[index]))
    }
    #expect(groups.count == 1)
    let group = try #require(groups.sorted.first)
    #expect(group.count == 5)
    #expect(group.rule == "async-bridge-completion-off-main")
    #expect(group.firstSeen == "2026-09-08 19:30:00.0000 +0200")
    #expect(group.lastSeen == "2026-09-08 12:15:00.0000 -0700")
    #expect(group.appVersions == ["2.4", "2.9", "2.10"])
    #expect(group.osVersions == ["iPhone OS 26.6 (23G80)"])
    #expect(group.examples == ["crashes/0.ips", "crashes/1.ips", "crashes/2.ips"])
    #expect(group.firstIndex == 0)
  }

  @Test("Groups come most reports first, then in the order they first appeared")
  func ordersByCountThenFirstAppearance() throws {
    var groups = CrashGroups()
    let other = ReportOutcome.diagnose(
      bytes: try Fixtures.bytes("cli/inconclusive-sigusr1.ips"), index: 0, path: "crashes/other.ips",
      options: Options(), baseline: nil)
    groups.add(other)
    groups.add(try Self.outcome(index: 1, time: nil))
    #expect(groups.sorted.map(\.examples) == [["crashes/other.ips"], ["crashes/1.ips"]])
    groups.add(try Self.outcome(index: 2, time: nil))
    #expect(groups.sorted.map(\.count) == [2, 1])
    #expect(groups.sorted.first?.examples == ["crashes/1.ips", "crashes/2.ips"])
  }

  @Test("Groups of one input position (a payload's diagnostics) keep the order they were made in")
  func diagnosticsOfOneFileKeepTheirOrder() throws {
    let files = [
      "null-pointer-dereference.ips", "watchdog-launch-8badf00d.ips", "stack-overflow.ips",
      "zombie-object.ips", "thermal-shutdown.ips", "background-task-timeout.ips", "invalid-address.ips",
      "swift-force-cast-failed.ips",
    ]
    var groups = CrashGroups()
    for file in files {
      groups.add(
        ReportOutcome.diagnose(
          bytes: try Fixtures.bytes("reports/" + file), index: 0, path: "payload.json#" + file,
          options: Options(), baseline: nil))
    }
    #expect(groups.sorted.map(\.examples) == files.map { ["payload.json#" + $0] })
  }
}
