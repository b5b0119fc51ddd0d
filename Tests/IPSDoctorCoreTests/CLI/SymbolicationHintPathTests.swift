import Testing

@testable import IPSDoctorCLI

/// The command a symbolication hint suggests names a file that exists: for one report of a file
/// that holds several (a MetricKit payload's diagnostics), the file, not `file#label`.
@Suite("Symbolication hint paths")
struct SymbolicationHintPathTests {
  static let payload = "Fixtures/thirdparty/metrickit-hang-cpu-disk-writes.json"

  /// The `ips-doctor … --dsym …` lines of `output`, without their indentation.
  static func hints(_ output: String) -> [String] {
    output.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }
      .filter { $0.hasPrefix("ips-doctor ") && $0.contains(" --dsym ") }.map(String.init)
  }

  @Test(
    "Each diagnostic of a MetricKit payload suggests the payload file",
    arguments: [["--format", "text"], ["--format", "markdown", "--verbose"]])
  func payloadDiagnosticsNameThePayload(_ format: [String]) {
    let run = CLITest.run([Self.payload, "--fail-on", "never"] + format)
    let hints = Self.hints(run.stdout)
    #expect(!hints.isEmpty, "no symbolication hint in \(run.stdout)")
    for hint in hints {
      #expect(hint == "ips-doctor \(Self.payload) --dsym ShopApp.app.dSYM")
    }
  }
}
