import IPSDoctorSupport

/// `KERN_MEMORY_ERROR`: a memory-mapped file could not be read (it vanished or the read failed).
package struct KernMemoryErrorRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "kern-memory-error",
    title: "Memory-Mapped File Could Not Be Read",
    summary: "Memory mapped from a file could not be read: the file was truncated, deleted or on a vanished volume.",
    category: .memory,
    severity: .error,
    tier: .specific,
    outranks: [PointerAuthenticationFailureRule.self],
    rationale: """
      `EXC_BAD_ACCESS` with `KERN_MEMORY_ERROR` means the address is mapped, but the kernel could \
      not bring the page in from its backing file: the file was truncated or replaced while \
      mapped, lives on a network or removable volume that disappeared, or the read failed with \
      an I/O error. Data read with `Data(contentsOf:options: .alwaysMapped)`/`mappedIfSafe`, SQLite \
      in WAL/mmap mode and the app's own executable are all memory-mapped.
      """,
    remedy: """
      Don't map files that another process (or your own code) may truncate or replace: read them \
      into memory (`Data(contentsOf:)` without mapping options), or coordinate writes \
      (`NSFileCoordinator`) and replace files atomically. If the region in `vmRegionInfo` is the \
      app's own binary, the app was launched from a volume that went away; this is not a code bug.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes"
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault, fault.kind == .memoryError else { return nil }
    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    var summary =
      "The app crashed with `KERN_MEMORY_ERROR` at \(fault.addressDisplay): the page is "
      + "mapped from a file the kernel could no longer read"
    if let region = MemoryFault.arrowLine(in: context), !region.detail.isEmpty {
      summary += " (region \(CodeSpan.markdown(TextScan.clip(region.detail, 160))))"
      evidence.append(region)
    }
    summary += "."
    summary += MemoryFault.crashSiteSentence(in: context, evidence: &evidence)
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "mapped file truncated",
      ExampleReport.badAccess(
        "KERN_MEMORY_ERROR at 0x0000000108a4c000",
        frames: [.frame(.libsystemC, "_platform_memmove"), .frame(.app, "AssetPack.read(at:)")], signal: "SIGBUS",
        vmRegionInfo:
          "0x108a4c000 is in 0x108a00000-0x108b00000\n--->  mapped file  108a00000-108b00000 [ 1024K] r--/r-- SM=PRV  Object_id=1a2b3c4d"
      ),
      .definite, summaryContains: ["KERN_MEMORY_ERROR", "`0x108a4c000`", "mapped file", "AssetPack.read(at:)"]),
    .ignores("invalid address", ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x00000004cdfaf798")),
  ]
}
