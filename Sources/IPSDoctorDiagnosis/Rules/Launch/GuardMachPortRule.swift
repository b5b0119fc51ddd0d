import IPSDoctorSupport

/// `EXC_GUARD` / `GUARD_TYPE_MACH_PORT`: a Mach port was over-released or misused.
package struct GuardMachPortRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "guard-mach-port",
    title: "Guarded Mach Port Violation",
    summary: "The process over-released or misused a Mach port, and the kernel raised a guard exception.",
    category: .launch,
    severity: .error,
    tier: .specific,
    rationale: """
      The kernel guards Mach port rights: destroying a guarded port, changing its reference \
      count wrongly (`MOD_REFS`, typically deallocating a right twice), or using a port name \
      that no longer exists (`INVALID_NAME`, `INVALID_RIGHT`) raises `EXC_GUARD` with subtype \
      `GUARD_TYPE_MACH_PORT` (termination namespace `GUARD`). Apps rarely touch ports directly, \
      so the culprit is usually low-level code — `mach_port_deallocate`, XPC or IOKit handles, \
      a `CFMachPort`/`NSMachPort` released twice — or memory corruption that overwrote a port \
      name.
      """,
    remedy: """
      Find the call on the crashed thread (`mach_port_deallocate`, `mach_port_mod_refs`, \
      `mach_port_destruct`, an XPC or IOKit release) and balance it: release each right exactly \
      once, and do not keep using a port name after releasing it. If only system frames are on \
      the stack, check for over-released Core Foundation objects that wrap ports and for memory \
      corruption (Address Sanitizer).
      """,
    references: ["https://developer.apple.com/documentation/xcode/exc_guard"],
    examples: [
      .triggers(
        "INVALID_NAME with message",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", subtype: "GUARD_TYPE_MACH_PORT",
            message: "INVALID_NAME on mach port 2819 (guarded with 0x0000000000000000)"),
          termination: ExampleReport.Termination(namespace: "GUARD", code: 0x2000_0200_0000_0b03),
          threads: [.main([.frame(.libsystemKernel, "mach_port_deallocate"), .frame(.app, "DeviceMonitor.stop()")])]),
        .definite, summaryContains: ["`INVALID_NAME`", "port 2819", "DeviceMonitor.stop()"]),
      .ignores(
        "file-descriptor guard",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", subtype: "GUARD_TYPE_FD",
            message: "CLOSE on file descriptor 17 (guarded with 0x1)"),
          threads: [.main([.frame(.libsystemKernel, "close")])])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let guardException = GuardException(context), guardException.kind == .machPort else { return nil }
    var evidence = guardException.evidence
    var summary = "\(context.processDisplayName) misused a Mach port (`EXC_GUARD`, `GUARD_TYPE_MACH_PORT`)"
    if let violation = guardException.violation {
      summary += ": \(CodeSpan.markdown(violation))"
      if let target = guardException.target { summary += " on port \(target)" }
      switch violation {
      case "MOD_REFS": summary += " — a right's reference count was changed wrongly, typically a double release"
      case "INVALID_NAME", "INVALID_RIGHT":
        summary += " — the port name or right no longer existed, typically used after it was released"
      case "DESTROY": summary += " — a guarded port was destroyed"
      default: break
      }
    }
    summary += "."
    summary += GuardException.stackSentence(context, evidence: &evidence)
    return finding(
      confidence: guardException.decodedFromCodes ? .likely : .definite, summary: summary, evidence: evidence)
  }
}
