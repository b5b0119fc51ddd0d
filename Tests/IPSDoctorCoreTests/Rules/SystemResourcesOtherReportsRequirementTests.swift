import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The edges of the System, Resources and OtherReports rules' requirements: reports that have only
/// the trait (or termination code) a requirement relies on, and where the rule still fires. Each
/// case names traits the report must lack, so that it probes the edge it is meant to.
@Suite("System, resources and other-report requirements")
struct SystemResourcesOtherReportsRequirementTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let ruleID: String
    let text: String
    /// Traits the report must not have: the requirement admits it through what is left.
    let absent: ReportTraits
    /// Whether the report must hold none of the rule's termination codes.
    var noCode = false

    var testDescription: String { "\(ruleID): \(name)" }
  }

  /// A legacy text crash report: the usual header, then `body`, a crashed main thread and the
  /// app's image.
  static func legacy(
    _ body: String, frames: [String] = ["libsystem_kernel.dylib  \t0x00000001ed2aef64 __pthread_kill + 8"]
  ) -> String {
    var text = """
      Incident Identifier: 42DFE71F-16F6-4115-AA31-F8CFA6D7715C
      Hardware Model:      iPhone10,4
      Process:             Example [388]
      Path:                /private/var/containers/Bundle/Application/0C7E/Example.app/Example
      Identifier:          com.example.app
      Version:             1 (1.0)
      Code Type:           ARM-64 (Native)
      OS Version:          iPhone OS 16.4 (20E247)
      Report Version:      104

      """
    text += "\n" + body + "\nTriggered by Thread:  0\n\nThread 0 Crashed:\n"
    for (index, frame) in frames.enumerated() { text += "\(index)   \(frame)\n" }
    text += "\nBinary Images:\n"
    text +=
      "0x100b9c000 - 0x100d1ffff Example arm64  <8a3c5e0f1b2d4e6f9a0b1c2d3e4f5a6b> /private/var/containers/Bundle/Application/0C7E/Example.app/Example\n"
    return text
  }

  static let abortThread = [
    "libsystem_kernel.dylib        \t0x00000001ed2aef64 __pthread_kill + 8",
    "libsystem_c.dylib             \t0x00000001a1b2c3d4 abort + 180",
    "Example                       \t0x0000000100c65238 -[Store open] + 64",
  ]

  /// A JSON crash body without an exception, with `termination` (the members) and `asi`.
  static func withoutException(termination: String, asi: String = "", frames: [String]) -> String {
    var body = "{\"procName\":\"Example\",\"termination\":{\(termination)}"
    if !asi.isEmpty { body += ",\"asi\":{\(asi)}" }
    body += ",\"faultingThread\":0,\"threads\":[{\"id\":1,\"triggered\":true,\"queue\":\"com.apple.main-thread\","
    body += "\"frames\":\(SystemExampleReport.frames(frames))}],\"usedImages\":\(SystemExampleReport.usedImages)}"
    return ExampleReport.ips(body)
  }

  static let cases: [Case] = [
    Case(
      name: "JSON: SIGNAL code 6 termination, no exception",
      ruleID: "abort-called",
      text: withoutException(
        termination: "\"namespace\":\"SIGNAL\",\"code\":6,\"indicator\":\"Abort trap: 6\"",
        asi: "\"libsystem_c.dylib\":[\"abort() called\"]",
        frames: SystemExampleReport.abortFrames()),
      absent: [.abort, .exception, .signal]),
    Case(
      name: "legacy text: EXC_CRASH without a signal, Namespace SIGNAL Code 6",
      ruleID: "abort-called",
      text: legacy(
        "Exception Type:  EXC_CRASH\nTermination Reason: Namespace SIGNAL, Code 6 Abort trap: 6\n",
        frames: abortThread),
      absent: [.abort, .signal]),
    Case(
      name: "JSON: SIGNAL code 12 termination, no exception",
      ruleID: "bad-system-call",
      text: withoutException(
        termination: "\"namespace\":\"SIGNAL\",\"code\":12,\"indicator\":\"Bad system call: 12\"",
        frames: ["libsystem_kernel.dylib`syscall", "Example`JailbreakCheck.run()", "Example`main"]),
      absent: [.exception, .signal]),
    Case(
      name: "the message only in the termination indicator",
      ruleID: "libdispatch-client-bug",
      text: SystemExampleReport.report(
        exceptionType: "EXC_BREAKPOINT", signal: "SIGTRAP",
        indicator: "BUG IN CLIENT OF LIBDISPATCH: Over-resume of an object",
        mainFrames: ["libdispatch.dylib`_dispatch_resume.cold.1", "Example`Timer.start()", "Example`main"]),
      absent: [.reasonText, .applicationSpecificInfo]),
    Case(
      name: "legacy text: the message only in Application Specific Information",
      ruleID: "libdispatch-client-bug",
      text: legacy(
        "Exception Type:  EXC_BREAKPOINT (SIGTRAP)\nException Codes: 0x0000000000000001, 0x00000001a2b3c4d5\n\nApplication Specific Information:\nBUG IN CLIENT OF LIBDISPATCH: dispatch_sync called on queue already owned by current thread\n",
        frames: [
          "libdispatch.dylib             \t0x00000001a1b2c3d4 __DISPATCH_WAIT_FOR_QUEUE__ + 400",
          "Example                       \t0x0000000100c65238 -[Cache valueForKey:] + 64",
        ]),
      absent: [.termination, .terminationText]),
    Case(
      name: "the marker only in exception.message, no termination",
      ruleID: "watchdog-background-assertion",
      text: SystemExampleReport.report(
        message: "[application<com.example.app>:423] has active assertions beyond permitted time",
        mainFrames: SystemExampleReport.idleMainThread),
      absent: [.termination, .terminationText], noCode: true),
    Case(
      name: "the marker only in the termination indicator",
      ruleID: "watchdog-background-assertion",
      text: SystemExampleReport.report(
        indicator: "[application<com.example.app>:423] has active assertions beyond permitted time",
        mainFrames: SystemExampleReport.idleMainThread),
      absent: [.reasonText], noCode: true),
    Case(
      name: "PushKit's reason only in the termination indicator, no code",
      ruleID: "voip-push-without-callkit",
      text: SystemExampleReport.report(
        indicator:
          "Killing app because it never posted an incoming call to the system after receiving a PushKit VoIP push.",
        mainFrames: SystemExampleReport.idleMainThread),
      absent: [.reasonText], noCode: true),
    Case(
      name: "legacy text: the code only in the exception codes",
      ruleID: "voip-push-without-callkit",
      text: legacy("Exception Type:  EXC_CRASH (SIGKILL)\nException Codes: 0x00000000baadca11\n"),
      absent: [.termination, .terminationText, .reasonText]),
    Case(
      name: "the code only in a termination detail",
      ruleID: "watchdog-timeout",
      text: SystemExampleReport.report(
        details: [
          "SPRINGBOARD, Code 0x8badf00d, scene-update watchdog transgression: exhausted real (wall clock) time allowance of 10.00 seconds"
        ],
        mainFrames: SystemExampleReport.blockedMainThread),
      absent: []),
    Case(
      name: "a body cut after its termination (salvaged)",
      ruleID: "file-lock-held-in-background",
      text: ExampleReport.ips(
        "{\"procName\":\"Example\",\"exception\":{\"type\":\"EXC_CRASH\",\"signal\":\"SIGKILL\"},"
          + "\"termination\":{\"namespace\":\"RUNNINGBOARD\",\"code\":3735883980},"
          + "\"threads\":[{\"id\":1,\"triggered\":true,\"frames\":[{\"imageIndex\":0,\"imageOff"),
      absent: [.reasonText, .terminationText]),
    Case(
      name: "legacy text: EXC_CRASH (SIGTERM)",
      ruleID: "terminated-by-signal",
      text: legacy("Exception Type:  EXC_CRASH (SIGTERM)\nException Codes: 0x0000000000000000, 0x0000000000000000\n"),
      absent: [.termination]),
    Case(
      name: "legacy text: EXC_RESOURCE without a subtype, the kind in the codes",
      ruleID: "cpu-resource-limit",
      text: legacy("Exception Type:  EXC_RESOURCE\nException Codes: 0x2000000000000032, 0x00000000000000b4\n"),
      absent: [.resourceKind, .termination]),
    Case(
      name: "legacy text: EXC_RESOURCE WAKEUPS",
      ruleID: "wakeups-resource-limit",
      text: legacy(
        "Exception Type:  EXC_RESOURCE\nException Subtype: WAKEUPS\nException Message: (Limit 150/sec) Observed 195/sec over 300 secs\n"
      ),
      absent: [.resourceKind, .termination]),
    Case(
      name: "legacy text: EXC_RESOURCE IO",
      ruleID: "disk-writes-resource-limit",
      text: legacy(
        "Exception Type:  EXC_RESOURCE\nException Subtype: IO\nException Message: (Limit 2147.48 MB/day) Observed 2147.65 MB/day\n"
      ),
      absent: [.resourceKind, .termination]),
    Case(
      name: "a plain text panic without a header",
      ruleID: "kernel-panic",
      text: "panic(cpu 0 caller 0xfffffff009773984): x86 global reset detected\nDebugger message: panic\n",
      absent: [.exception, .termination]),
  ]

  @Test("The rule fires where only the edge of its requirement admits the report", arguments: cases)
  func edge(_ item: Case) throws {
    let report = try ReportReader.read(Array(item.text.utf8))
    let context = DiagnosisContext(report: report)
    let traits = ReportTraits(context)
    let rule = try #require(RuleCatalog.rule(id: item.ruleID))
    #expect(traits.isDisjoint(with: item.absent), "traits \(String(traits.rawValue, radix: 2))")
    if item.noCode, let codes = rule.requirement.codes {
      #expect(!context.hasTerminationCodeCandidate(in: codes))
    }
    #expect(rule.init().diagnose(context) != nil, "\(item.ruleID) did not fire")
    #expect(rule.requirement.admits(traits, context))
    #expect(Doctor.diagnose(report) == Doctor.diagnoseUngated(report))
  }

  /// The rules of these categories that must not run on a plain memory crash (every one but the two
  /// that any exception may admit): what the requirements save.
  static let gatedOnPlainCrash = [
    "abort-called", "background-task-timeout", "disk-space-reclaim", "file-lock-held-in-background",
    "libdispatch-client-bug", "security-violation", "system-resources-exhausted", "thermal-shutdown",
    "user-force-quit", "voip-push-without-callkit", "voip-resume-too-frequent", "watchos-background-budget",
    "watchdog-background-assertion", "watchdog-timeout", "cpu-resource-limit", "disk-writes-resource-limit",
    "wakeups-resource-limit", "kernel-panic", "resource-report", "stackshot", "system-watchdog",
  ]

  @Test("A plain EXC_BAD_ACCESS crash runs none of the gated rules")
  func plainCrash() throws {
    let text = SystemExampleReport.report(
      exceptionType: "EXC_BAD_ACCESS", signal: "SIGSEGV", codes: "0x0000000000000001, 0x0000000000000010",
      mainFrames: ["Example`Parser.parse()", "Example`main"])
    let report = try ReportReader.read(Array(text.utf8))
    let context = DiagnosisContext(report: report)
    let traits = ReportTraits(context)
    for id in Self.gatedOnPlainCrash {
      let rule = try #require(RuleCatalog.rule(id: id))
      #expect(!rule.requirement.admits(traits, context), "\(id) would run")
    }
  }
}
