import IPSDoctorSupport

/// `EXC_GUARD` / `GUARD_TYPE_USER` ("ExcUserFault" reports): a library reported a fault in
/// user space, usually without ending the process.
package struct UserFaultRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "user-fault",
    title: "User Fault Report",
    summary: "A system library reported a user-space fault (ExcUserFault); this is usually a non-fatal diagnostic.",
    category: .launch,
    severity: .note,
    tier: .specific,
    rationale: """
      Some libraries (libxpc, libdispatch, Core Data and others) report misuse they detected \
      with a simulated `EXC_GUARD` of type `GUARD_TYPE_USER`; ReportCrash saves it as an \
      `ExcUserFault_<process>` report, often marked non-fatal or simulated. The process usually \
      kept running. The message and the reporting thread's stack tell which library complained \
      and about what — sometimes a real bug (an XPC connection misuse) that later surfaces as a \
      hang or a crash.
      """,
    remedy: """
      Read the exception message and the top frames of the reporting thread to see which \
      library raised the fault and why; fix the misuse it describes. If the report is marked \
      non-fatal and recurs rarely, it can be treated as a warning.
      """,
    references: ["https://developer.apple.com/documentation/xcode/exc_guard"],
    examples: [
      .triggers(
        "simulated user fault",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", codes: "0x6000000000000012, 0x0000000000000002", subtype: "GUARD_TYPE_USER",
            message: "namespace 18 reason_code 0x0000000000000002"),
          threads: [.main([.frame(.libsystemKernel, "os_fault_with_payload"), .frame(.app, "XPCClient.send(_:)")])],
          isSimulated: true),
        .definite, summaryContains: ["GUARD_TYPE_USER", "namespace 18", "not a crash"]),
      .ignores(
        "a resource-kind report (resource-report summarises it)",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", subtype: "GUARD_TYPE_USER",
            message: "namespace 18 reason_code 0x0000000000000002"),
          threads: [.main([.frame(.libsystemKernel, "os_fault_with_payload")])], kind: .userFault)),
      .ignores(
        "file-descriptor guard",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", subtype: "GUARD_TYPE_FD",
            message: "CLOSE on file descriptor 17 (guarded with 0x1)"),
          threads: [.main([.frame(.libsystemKernel, "close")])])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let guardException = GuardException(context), guardException.kind == .user else { return nil }
    // A resource-kind report (bug_type 385) is summarised by resource-report.
    if context.report.kind == .resource { return nil }
    var evidence = guardException.evidence
    var summary =
      "A library in \(context.processDisplayName) reported a user-space fault (`EXC_GUARD`, `GUARD_TYPE_USER`)"
    if let message = guardException.message { summary += ": \"\(message)\"" }
    summary += "."
    let report = context.report
    if report.isSimulated == true || report.isNonFatal == true
      || report.exception?.notes.contains(where: {
        $0.contains("SIMULATED") || $0.contains("NON-FATAL")
      }) == true
    {
      summary += " The report is marked simulated or non-fatal: this is not a crash."
    }
    summary += GuardException.stackSentence(context, evidence: &evidence)
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }
}
