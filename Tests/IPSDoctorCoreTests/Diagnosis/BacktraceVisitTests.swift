import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// `firstResult(inBacktraces:)` and `forEachBacktrace(_:)` read the exception and crashed
/// backtraces where they are stored instead of looping over `backtraces`: they must visit the same
/// backtraces in the same order, and stop where a loop that breaks at the first answer stops.
struct BacktraceVisitTests {
  static func describe(_ backtrace: DiagnosisContext.Backtrace) -> String {
    var text = ""
    dump(backtrace, to: &text)
    return text
  }

  @Test func visitsWhatTheBacktracesArrayHolds() throws {
    var checked = 0
    var withBoth = 0
    for path in Fixtures.files(in: "reports", extensions: ["ips", "crash"]) {
      guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { continue }
      let context = DiagnosisContext(report: report)
      var visited: [String] = []
      context.forEachBacktrace { visited.append(Self.describe($0)) }
      #expect(visited == context.backtraces.map(Self.describe), "\(path)")
      // Every possible stopping point: the loop answers with the first backtrace past `skip`.
      for skip in 0...context.backtraces.count {
        var seen = 0
        let found = context.firstResult(inBacktraces: { backtrace -> String? in
          seen += 1
          return seen > skip ? backtrace.path : nil
        })
        var expected: String?
        for (index, backtrace) in context.backtraces.enumerated() where index >= skip {
          expected = backtrace.path
          break
        }
        #expect(found == expected, "\(path) skip \(skip)")
        #expect(seen == min(skip + 1, context.backtraces.count), "\(path) skip \(skip)")
      }
      checked += 1
      if context.backtraces.count == 2 { withBoth += 1 }
    }
    #expect(checked > 50)
    #expect(withBoth > 10)
  }
}
