import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorOutput

/// A batch renders each report with every reporter changed in place: a reporter copied per report
/// copies the collections it keeps (`--format github`'s annotations and unreadable inputs), which
/// made 20,000 groups take 3.6 times as long as `jsonl`.
@Suite struct ReporterCopyTests {
  /// Held by the reporter only: referenced more than once while a report is rendered exactly
  /// when the reporter was copied for it.
  final class Storage {}

  /// What the probe saw, shared with the test.
  final class Log {
    var unique: [Bool] = []
  }

  struct UniquenessProbe: Reporter {
    var storage = Storage()
    var kept: [Int] = []
    let log: Log

    init(context: ReporterContext) { log = Log() }
    init(log: Log) { self.log = log }
    mutating func begin(_ out: TextOutput) {}
    mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
      kept.append(outcome.index)
      log.unique.append(isKnownUniquelyReferenced(&storage))
    }
    mutating func finish(_ run: RunSummary, _ out: TextOutput) {}
  }

  @Test func eachReportIsRenderedWithoutCopyingTheReporter() {
    let log = Log()
    var sinks: [BatchSession<CapturedIO>.Sink] = [
      (CLI.Destination(file: nil, io: CapturedIO()), UniquenessProbe(log: log))
    ]
    for index in 0..<50 {
      BatchSession<CapturedIO>.render(ReportOutcome(index: index, path: "r\(index).ips"), to: &sinks)
    }
    #expect(log.unique == Array(repeating: true, count: 50))
  }
}
