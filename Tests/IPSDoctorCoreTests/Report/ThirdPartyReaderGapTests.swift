import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Facts the crash reporters keep in their own places, read where Apple's report keeps them: the
/// ARM exception syndrome, React Native's fatal JavaScript error, a Swift assertion message with a
/// label of its own.
@Suite("Crash reporters' facts in Apple's places")
struct ThirdPartyReaderGapTests {
  @Test(
    "An exception syndrome is described in Apple's words",
    arguments: [
      (0x9200_0007, "(Data Abort) byte read Translation fault"),
      (0x9200_004F, "(Data Abort) byte write Permission fault"),
      (0x92C0_0046, "(Data Abort) doubleword write Translation fault"),
      (0x8200_0006, "(Instruction Abort) Translation fault"),
    ] as [(UInt64, String)])
  func syndrome(esr: UInt64, description: String) {
    #expect(ExceptionSyndrome.description(esr) == description)
  }

  @Test("Syndromes other than aborts are not described")
  func otherSyndromes() {
    #expect(ExceptionSyndrome.description(0xF200_0001) == nil)  // BRK
    #expect(ExceptionSyndrome.description(0) == nil)
  }

  /// A KSCrash report whose crashed thread has `exceptionRegisters` and whose error is `error`.
  static func kscrash(error: String, exceptionRegisters: String = "", crashInfo: String = "") -> [UInt8] {
    let registers = exceptionRegisters.isEmpty ? "" : #", "registers": {"exception": \#(exceptionRegisters)}"#
    return Array(
      """
      {"report": {"id": "A", "process_name": "ShopApp"},
       "binary_images": [{"name": "/usr/lib/swift/libswiftCore.dylib", "image_addr": 6442450944\(crashInfo)},
         {"name": "/private/var/containers/Bundle/Application/X/ShopApp.app/ShopApp", "image_addr": 4294967296}],
       "crash": {"error": \(error),
         "threads": [{"index": 0, "crashed": true, "dispatch_queue": "com.apple.main-thread"\(registers),
           "backtrace": {"contents": [
             {"instruction_addr": 6442451200, "object_addr": 6442450944, "object_name": "libswiftCore.dylib"},
             {"instruction_addr": 4294971392, "object_addr": 4294967296, "object_name": "ShopApp"}]}}]}}
      """.utf8)
  }

  @Test("A bad access whose Mach code is not a kernel code is named from the syndrome, at the fault address")
  func faultFromSyndrome() throws {
    let report = try ReportReader.read(
      Self.kscrash(
        error:
          #"{"type": "mach", "address": 4333142016, "mach": {"exception": 1, "code": 38174720, "subcode": 8}, "signal": {"signal": 10, "name": "SIGBUS"}}"#,
        exceptionRegisters: #"{"exception": 0, "esr": 2449473543, "far": 4333142016}"#))
    #expect(report.crashedThread?.state?.esrDescription == "(Data Abort) byte read Translation fault")
    #expect(report.crashedThread?.state?["far"] == 0x1_0246_8000)
    #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000102468000")
    #expect(Doctor.diagnose(report).diagnoses.first?.ruleID == "invalid-address")
  }

  @Test("A kernel code in the report is kept, whatever the syndrome")
  func kernelCodeKept() throws {
    let report = try ReportReader.read(
      Self.kscrash(
        error:
          #"{"type": "mach", "address": 16, "mach": {"exception": 1, "code": 1, "subcode": 16, "code_name": "KERN_INVALID_ADDRESS"}}"#,
        exceptionRegisters: #"{"esr": 2449473615, "far": 16}"#))
    #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
  }

  @Test("React Native's fatal JavaScript error, filed as a user report, is the crash it ended the app with")
  func reactNativeFatal() throws {
    let report = try ReportReader.read(
      Self.kscrash(
        error:
          #"{"type": "user", "reason": "TypeError: undefined is not an object", "mach": {"exception": 10}, "signal": {"signal": 6, "name": "SIGABRT"}, "user_reported": {"name": "TypeError: undefined is not an object", "language": "react-native"}}"#
      ))
    #expect(report.kind == .crash)
    #expect(report.applicationSpecificLines == ["Unhandled JS Exception: TypeError: undefined is not an object"])
    let finding = try #require(Doctor.diagnose(report).diagnoses.first)
    #expect(finding.ruleID == "react-native-fatal-js-error")
    #expect(finding.summary.contains("TypeError: undefined is not an object"))
  }

  @Test("A user report in another language is still a handled error")
  func otherUserReport() throws {
    let report = try ReportReader.read(
      Self.kscrash(
        error: #"{"type": "user", "reason": "boom", "user_reported": {"name": "Oops", "language": "unity"}}"#))
    #expect(report.kind == .unknown)
    #expect(report.isNonFatal == true)
  }

  @Test("A Swift runtime message in _assertionFailure's layout with a label of its own is a fatal error at its line")
  func labelledAssertion() throws {
    let report = try ReportReader.read(
      Self.kscrash(
        error: #"{"type": "mach", "mach": {"exception": 6, "code": 1}, "signal": {"signal": 5, "name": "SIGTRAP"}}"#,
        crashInfo: #", "crash_info_message": "ShopApp/Cart.swift:53: Checkout invariant: total is negative""#))
    let finding = try #require(Doctor.diagnose(report).diagnoses.first)
    #expect(finding.ruleID == "swift-fatal-error")
    #expect(finding.summary.contains("Checkout invariant: total is negative"))
    #expect(finding.summary.contains("`ShopApp/Cart.swift:53`"))
  }

  @Test("A Swift runtime message without a file and line stays a bare runtime message")
  func unlocatedMessage() {
    #expect(SwiftFailure.located("Could not cast value of type 'A' to 'B'.", evidence: Evidence("asi", "")) == nil)
    #expect(SwiftFailure.located("see Cart.swift:12 for details", evidence: Evidence("asi", "")) == nil)
  }
}
