import Foundation
import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorJSON

/// JSONTestSuite's parsing cases: `y_` must be accepted, `n_` rejected, `i_` handled either way
/// without crashing. Runs over `../shared/json-test-suite` when present and always over our own
/// cases in `Fixtures/json`.
@Suite("JSON test suite")
struct JSONTestSuiteTests {
  static let sharedCases: [URL] = Fixtures.sharedFiles(in: "json-test-suite/test_parsing")
    .filter { $0.pathExtension == "json" }

  static let ownCases: [String] = Fixtures.files(in: "json", extensions: ["json"])

  @Test("Shared JSONTestSuite cases", .enabled(if: !sharedCases.isEmpty))
  func sharedSuite() throws {
    var failures: [String] = []
    for url in Self.sharedCases {
      let bytes = [UInt8](try Data(contentsOf: url))
      if let failure = check(name: url.lastPathComponent, bytes: bytes) { failures.append(failure) }
    }
    #expect(failures.isEmpty, "\(failures.count) cases misbehaved:\n\(failures.joined(separator: "\n"))")
    #expect(Self.sharedCases.count >= 300)
  }

  @Test("Our own accept/reject cases", arguments: ownCases)
  func ownCase(path: String) throws {
    let name = (path as NSString).lastPathComponent
    let failure = check(name: name, bytes: try Fixtures.bytes(path))
    #expect(failure == nil, "\(failure ?? "")")
  }

  @Test("Our own cases exist")
  func ownCasesExist() {
    #expect(Self.ownCases.count >= 20)
  }

  private func check(name: String, bytes: [UInt8]) -> String? {
    let outcome = Result { () throws(JSONError) -> JSONValue in try JSONParser.parse(bytes) }
    switch (name.first, outcome) {
    case ("y", .failure(let error)): return "\(name): rejected: \(error)"
    case ("n", .success): return "\(name): accepted"
    default: return nil
    }
  }
}
