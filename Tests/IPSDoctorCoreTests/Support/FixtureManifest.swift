import Foundation
import Testing

/// One row of Fixtures/reports/MANIFEST.tsv, the ground truth every fixture test reads.
struct FixtureRow: CustomTestStringConvertible, Sendable {
  var file: String
  var kind: String
  var bugType: String
  var exceptionType: String
  var signal: String
  var expectedRules: [String]
  var mustNotFire: [String]
  var notes: String

  var testDescription: String { file }

  static let all: [FixtureRow] = {
    guard let text = try? String(contentsOf: Fixtures.url("reports/MANIFEST.tsv"), encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count >= 8 else { return nil }
      func list(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
          .filter { !$0.isEmpty }
      }
      return FixtureRow(
        file: columns[0], kind: columns[1], bugType: columns[2], exceptionType: columns[3],
        signal: columns[4], expectedRules: list(columns[5]), mustNotFire: list(columns[6]),
        notes: columns[7])
    }
  }()
}
