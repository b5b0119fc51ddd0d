import IPSDoctorSupport

/// `KERN_INVALID_ADDRESS` at an address that is not near zero: a dangling, corrupted or
/// uninitialised pointer. A symptom, not a root cause.
package struct InvalidAddressRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "invalid-address",
    title: "Access To An Unmapped Address",
    summary: "The app accessed unmapped memory, a symptom of a dangling, corrupted or uninitialised pointer.",
    category: .memory,
    severity: .error,
    tier: .fallback,
    outranks: [AbortCalledRule.self],
    rationale: """
      `EXC_BAD_ACCESS` with `KERN_INVALID_ADDRESS at 0x…` (or `SEGV_MAPERR` in older and \
      third-party reports) means the code followed a pointer into memory that is not mapped. \
      The crashing frame is where the bad pointer was used, which is rarely where it went bad: \
      an object freed while still referenced, a buffer overflow that overwrote a pointer, a data \
      race on a reference, or uninitialised memory. Different stacks across reports of the same \
      build point to memory corruption.
      """,
    remedy: """
      Reproduce with the memory tools, which stop where the pointer goes bad rather than where it \
      is used: the Address Sanitizer (use after free, overflows), the Thread Sanitizer (races), \
      Malloc Scribble and Guard Malloc, and Zombie Objects for Objective-C objects (Scheme → Run → \
      Diagnostics). Review `Unsafe…Pointer`, `Unmanaged`, `unowned(unsafe)` and C/C++ code on the \
      crashing path, and references shared between threads without synchronisation.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes",
      "https://developer.apple.com/documentation/xcode/diagnosing-memory-thread-and-crash-issues-early",
    ],
    examples: examples)

  /// The summary's last sentence (joined once, not its literals concatenated on every finding).
  static let symptomSentence =
    " This is the symptom, not the root cause: the pointer was freed, overwritten or "
    + "never initialised earlier. Reproduce with the Address Sanitizer, Thread Sanitizer, Guard "
    + "Malloc or Zombie Objects to find where."

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault,
      fault.kind == .invalidAddress || fault.kind == .generalProtection, !fault.isBad0
    else { return nil }
    if StackOverflowEvidence.isPresent(in: context) { return nil }  // stack-overflow
    if fault.kind == .invalidAddress, let address = fault.address, address < 0x10000, !fault.isPACFlagged {
      return nil  // null-pointer-dereference
    }
    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    var summary: String
    if fault.kind == .generalProtection {
      summary = """
        The app crashed with \(context.exceptionDisplay) (`EXC_I386_GPFLT`, a general protection fault): on \
        Intel this is an access through a non-canonical pointer, i.e. garbage in a pointer variable.
        """
    } else {
      let verb =
        switch MemoryFault.accessKind(in: context) {
        case "write": "wrote to"
        case "read": "read from"
        default: "accessed"
        }
      summary = "The app \(verb) \(fault.addressDisplay), which is not mapped memory"
      if let headline = MemoryFault.regionHeadline(in: context) {
        summary += " (\"\(headline.detail)\")"
        evidence.append(headline)
      }
      summary += "."
      if fault.isPACFlagged {
        summary += " The report flags a possible pointer authentication failure: the pointer's high bits are corrupt."
      }
    }
    summary += MemoryFault.crashSiteSentence(in: context, evidence: &evidence)
    summary += Self.symptomSentence
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "wild pointer in a JavaScript engine's GC",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x00000004cdfaf798",
        frames: [
          .frame(.coreFoundation, "hermes::vm::GCScope::_newChunkAndPHV(hermes::vm::HermesValue)"), .frame(.app),
        ],
        vmRegionInfo:
          "0x4cdfaf798 is not in any region.  Bytes after previous region: 4667930521\n--->  GAP OF 0xc08400000 BYTES",
        queue: "com.facebook.react.JavaScript"),
      .likely,
      summaryContains: ["`0x4cdfaf798`", "not in any region", "symptom", "Address Sanitizer"]),
    .triggers(
      "SEGV_MAPERR from an older third-party report",
      ExampleReport(
        exception: ExampleReport.Exception("SIGSEGV", signal: "SIGSEGV", codes: "SEGV_MAPERR at 0x88000"),
        threads: [.main([.frame(.app)])]),
      .likely, summaryContains: ["`0x88000`"]),
    .triggers(
      "Intel general protection fault",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGSEGV", codes: "0x000000000000000d, 0x0000000000000000",
          subtype: "EXC_I386_GPFLT"), threads: [.main([.frame(.app, "Mesh.vertex(at:)")])]),
      .likely, summaryContains: ["EXC_I386_GPFLT", "non-canonical", "Mesh.vertex(at:)"]),
    .ignores("null dereference", ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000000000")),
    .ignores(
      "protection failure",
      ExampleReport.badAccess("KERN_PROTECTION_FAILURE at 0x0000000104c2c000")),
  ]
}
