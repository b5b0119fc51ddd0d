import Foundation
import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis

@Suite struct CheckDocsFreshness {
  @Test("docs/check.md is generated from the completion-handler delegate table")
  func checkMarkdown() throws {
    let url = Fixtures.root.appendingPathComponent("docs/check.md")
    let generated = CheckTableDocument.markdown
    if ProcessInfo.processInfo.environment["IPS_DOCTOR_RECORD"] == "1" {
      try generated.write(to: url, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: url, encoding: .utf8)
    #expect(
      committed == generated,
      "docs/check.md is out of date: run 'IPS_DOCTOR_RECORD=1 swift test --skip-build --filter CheckDocsFreshness'")
  }

  @Test func theTableHasAtLeast25UniqueMethods() {
    let all = CompletionHandlerDelegateTable.all
    #expect(all.count >= 25)
    #expect(Set(all.map(\.selector)).count == all.count)
    // Methods that share a Swift name are told apart by a parameter type.
    for (_, group) in Dictionary(grouping: all, by: \.swiftName) where group.count > 1 {
      #expect(group.allSatisfy { $0.parameterType != nil }, "\(group.map(\.selector))")
    }
  }
}
