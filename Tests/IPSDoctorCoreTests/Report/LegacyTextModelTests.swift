import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// Legacy text sections the system, resource and launch rules read from the model (they used to
/// re-read the raw text body).
@Suite("Legacy text sections in the model")
struct LegacyTextModelTests {
  static let dyldReport = """
    Process:               Editor [812]
    OS Version:            Mac OS X 10.11.3 (15D21)

    Exception Type:        EXC_BREAKPOINT (SIGTRAP)
    Exception Codes:       0x0000000000000002, 0x0000000000000000

    Dyld Error Message:
      Library not loaded: @rpath/libswiftCore.dylib
      Referenced from: /Applications/Editor.app/Contents/MacOS/Editor
      Reason: image not found

    Binary Images:
        0x7fff6bdbe000 -     0x7fff6bdeafff  dyld (360.22) <A0B3F1A6-0DAB-3E1F-8E6F-4B79F6F7A2E5> /usr/lib/dyld
    """

  @Test("Dyld Error Message block is kept, trimmed, line by line")
  func dyldErrorMessage() throws {
    let report = try ReportReader.read(Self.dyldReport)
    #expect(
      report.dyldErrorMessage == """
        Library not loaded: @rpath/libswiftCore.dylib
        Referenced from: /Applications/Editor.app/Contents/MacOS/Editor
        Reason: image not found
        """)
    #expect(report.images.count == 1)
    #expect(report.warnings.isEmpty)
  }

  @Test("The missing-library rule reads the Dyld Error Message from the model")
  func dyldRule() throws {
    let result = Doctor.diagnose(try ReportReader.read(Self.dyldReport))
    let finding = try #require(result.diagnoses.first(where: { $0.ruleID == "dyld-missing-library" }))
    #expect(finding.summary.contains("@rpath/libswiftCore.dylib"))
    #expect(finding.evidence.contains(where: { $0.path == "dyldErrorMessage" }))
  }

  @Test("A text stackshot keeps its exception code")
  func stackshotExceptionCode() throws {
    let text = """
      {"os_version":"iPhone OS 7.1.2 (11D257)","bug_type":"188"}
      Incident Identifier: D2604550-FFA3-45D5-8247-A3F1E72E6A40
      Exception Code:      0xbaaaaaad
      Reason:              Manually triggered stackshot via backboardd

      Frontmost process PID:    34
      """
    let report = try ReportReader.read(text)
    #expect(report.stackshot?.exceptionCode == "0xbaaaaaad")
    let finding = try #require(Doctor.diagnose(report).diagnoses.first(where: { $0.ruleID == "stackshot" }))
    #expect(finding.summary.contains("triggered it with the buttons"))
    #expect(finding.evidence.contains(Evidence("exceptionCode", "0xbaaaaaad")))
  }

  @Test("Legacy termination description and resource fields give model evidence paths")
  func modelPaths() throws {
    let watchdog = try ReportReader.read(
      """
      Process:             Example [42]
      Exception Type:  EXC_CRASH (SIGKILL)
      Exception Codes: 0x0000000000000000, 0x0000000000000000
      Termination Description: SPRINGBOARD, com.example failed to scene-create in time | Code 0x8badf00d
      """)
    let context = DiagnosisContext(report: watchdog)
    #expect(context.terminationTexts.first?.path == "termination.reasons[0]")
    #expect(context.terminationCode(in: [0x8badf00d])?.evidence.path == "termination.reasons[0]")

    let resource = try ReportReader.read(
      """
      {"bug_type":"202"}
      Command:         Example
      PID:             2489

      Event:           cpu usage
      Action taken:    none
      CPU:             48 seconds cpu time over 54 seconds (88% cpu average)
      """)
    let finding = try #require(
      Doctor.diagnose(resource).diagnoses.first(where: { $0.ruleID == "resource-report" }))
    #expect(finding.evidence.map(\.path) == ["event", "Action taken", "CPU"])
  }
}
