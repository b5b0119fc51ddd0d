import Foundation
import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorSymbolication

/// `check` over the real Swift files of `../shared/swift-sources`: every labelled finding at its
/// line, and nothing else at `error`. Skipped when the shared folder is not beside the checkout.
@Suite struct SwiftSourcesManifestTests {
  struct Row {
    var file: String
    var label: String
    /// `LINE:Type.method` entries.
    var findings: Set<String>
  }

  static func rows() -> [Row] {
    guard let shared = Fixtures.shared,
      let text = try? String(contentsOf: shared.appendingPathComponent("swift-sources/MANIFEST.tsv"), encoding: .utf8)
    else { return [] }
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count >= 7 else { return nil }
      let findings = columns[6].split(separator: ";").map(String.init)
      return Row(file: columns[0], label: columns[5], findings: Set(findings))
    }
  }

  @Test func everyLabelledFindingAndNoFalsePositiveAtError() throws {
    let rows = Self.rows()
    guard let shared = Fixtures.shared, !rows.isEmpty else { return }
    var expectedTotal = 0
    var foundTotal = 0
    var falsePositives = 0
    var table = ["file | label | expected | found at error | other severities"]
    for row in rows {
      let url = shared.appendingPathComponent("swift-sources/" + row.file)
      let bytes = [UInt8](try Data(contentsOf: url))
      let result = SourceChecker().check([.init(display: row.file, bytes: bytes)])
      let atError = Set(
        result.findings.filter { $0.severity == .error }.map { "\($0.line):\($0.typeName).\($0.function.swiftName)" })
      let lower = result.findings.filter { $0.severity != .error }.map {
        "\($0.line):\($0.typeName).\($0.function.swiftName)@\($0.severity.rawValue)"
      }
      let missed = row.findings.subtracting(atError)
      let extra = atError.subtracting(row.findings)
      expectedTotal += row.findings.count
      foundTotal += row.findings.count - missed.count
      falsePositives += extra.count
      table.append(
        "\(row.file.prefix(60)) | \(row.label) | \(row.findings.count) | \(atError.count) | \(lower.joined(separator: ", "))"
      )
      #expect(missed.isEmpty, "\(row.file): missed \(missed.sorted())")
      #expect(extra.isEmpty, "\(row.file): false positives at error \(extra.sorted())")
    }
    print(table.joined(separator: "\n"))
    print("swift-sources: found \(foundTotal)/\(expectedTotal), false positives at error: \(falsePositives)")
  }
}
