import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Causes a careful reader names from a fragment alone: the report's own words (an exception
/// message, a termination code) are enough without the header, the images or the other threads.
@Suite("Causes read from pasted fragments")
struct PastedCauseTests {
  static func top(_ fixture: String) throws -> (report: CrashReport, diagnosis: Diagnosis?) {
    let report = try ReportReader.read(try Fixtures.bytes("pasted/" + fixture))
    return (report, Doctor.diagnose(report).diagnoses.first)
  }

  @Test("A VoIP fragment with 0xbad22222 and no header is a VoIP app resumed too often")
  func voipFragment() throws {
    let (report, diagnosis) = try Self.top("apple-excerpt-voip-resume-limit.txt")
    #expect(report.source == .excerpt)
    #expect(diagnosis?.ruleID == "voip-resume-too-frequent")
    #expect(diagnosis?.confidence == .definite)
  }

  @Test("An excerpt in an issue whose exception message states the stack overflow")
  func stackOverflowExcerpt() throws {
    let (report, diagnosis) = try Self.top("apple-excerpt-stack-overflow-in-issue.md")
    #expect(report.source == .excerpt)
    #expect(diagnosis?.ruleID == "stack-overflow")
    #expect(diagnosis?.summary.contains("FolderNode.depth()") == true)
  }
}
