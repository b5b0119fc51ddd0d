import IPSDoctorSupport

/// `KERN_PROTECTION_FAILURE`: an access the memory's protection forbids (a write to read-only
/// memory, executing data), other than the stack guard.
package struct ProtectionFailureRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "protection-failure",
    title: "Access Forbidden By Memory Protection",
    summary: "The app accessed mapped memory in a way its protection forbids, such as writing read-only memory.",
    category: .memory,
    severity: .error,
    tier: .family,
    rationale: """
      `KERN_PROTECTION_FAILURE at 0x…` (`SEGV_ACCERR`) means the address is mapped but the access \
      is not allowed: writing to read-only memory (constants, string literals, `__DATA_CONST`, \
      memory-mapped files opened read-only, code), executing data, or touching a guard page. \
      `vmRegionInfo` names the region and its protection (`r--`, `r-x`). When the region is a \
      stack guard, the cause is a stack overflow instead (`stack-overflow`).
      """,
    remedy: """
      Look at the region in `vmRegionInfo` and at what the faulting frame writes. Do not modify \
      memory obtained from `withUnsafeBytes`, `String.utf8CString` or constant data; copy it into \
      a mutable buffer first. Map files writable only when opened for writing. Run with the \
      Address Sanitizer and Guard Malloc to catch the access where it happens.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes",
      "https://developer.apple.com/documentation/xcode/sigbus",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault, fault.kind == .protectionFailure else { return nil }
    if StackOverflowEvidence.stackGuard(in: context) != nil || StackOverflowEvidence.statedByReport(in: context) != nil
    {
      return nil
    }
    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    let access = MemoryFault.accessKind(in: context)
    var summary =
      "The app \(access == "write" ? "wrote to" : access == "read" ? "read from" : "accessed") "
      + "\(fault.addressDisplay), which is mapped but protected against that access"
    if let region = MemoryFault.arrowLine(in: context), !region.detail.isEmpty {
      evidence.append(region)
      let words = region.detail.split(separator: " ", omittingEmptySubsequences: true)
      let protection = words.first { $0.contains("/") && $0.count == 7 }
      summary += " (region \(CodeSpan.markdown(TextScan.clip(region.detail, 120))))"
      if access == "write", let protection, !protection.prefix(3).contains("w") {
        summary += ": a write to read-only memory"
      }
    }
    summary += "."
    summary += MemoryFault.crashSiteSentence(in: context, evidence: &evidence)
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "write to read-only data",
      ExampleReport.badAccess(
        "KERN_PROTECTION_FAILURE at 0x0000000104c2c010",
        frames: [.frame(.libsystemC, "_platform_memmove"), .frame(.app, "Obfuscator.patch(_:)")], signal: "SIGBUS",
        registers: ExampleReport.Registers(
          esr: 2449473615, esrDescription: "(Data Abort) byte write Permission fault"),
        vmRegionInfo:
          "0x104c2c010 is in 0x104c28000-0x104c30000;  bytes after start: 16400  bytes before end: 16367\n      REGION TYPE  START - END  [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL\n--->  __DATA_CONST  104c28000-104c30000  [   32K] r--/rw- SM=COW  /private/var/containers/Bundle/Application/0C7E/Example.app/Example"
      ),
      .likely,
      summaryContains: ["wrote to", "`0x104c2c010`", "__DATA_CONST", "read-only memory", "Obfuscator.patch(_:)"]),
    .ignores(
      "stack guard (stack-overflow)",
      ExampleReport.badAccess(
        "KERN_PROTECTION_FAILURE at 0x000000016f603ff8", signal: "SIGBUS",
        vmRegionInfo:
          "0x16f603ff8 is in 0x16f600000-0x16f604000\n--->  STACK GUARD  16f600000-16f604000 [ 16K] ---/rwx SM=NUL  stack guard for thread 1"
      )),
    .ignores("invalid address", ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x00000004cdfaf798")),
  ]
}
