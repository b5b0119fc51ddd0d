import IPSDoctorSupport

/// `EXC_ARM_DA_ALIGN` / `BUS_ADRALN`: a load or store at an address not aligned for its size.
package struct MisalignedAccessRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "misaligned-access",
    title: "Misaligned Memory Access",
    summary: "The app loaded or stored a value at an address not aligned for its type.",
    category: .memory,
    severity: .error,
    tier: .specific,
    outranks: [BadInstructionFetchRule.self],
    rationale: """
      ARM requires natural alignment for some instructions (atomics, exclusive loads, some \
      vector and multiple-register loads; on 32-bit ARM, doubles and `ldrd`/`strd`). An access at \
      a misaligned address raises `EXC_BAD_ACCESS` with `EXC_ARM_DA_ALIGN` (`SIGBUS` with \
      `BUS_ADRALN` in older reports). It usually comes from casting a byte buffer to a wider type \
      (`UnsafeRawPointer.load(as:)` at an odd offset, `(uint32_t *)(bytes + 3)`), packed structs, \
      or a corrupted pointer.
      """,
    remedy: """
      Read multi-byte values from byte buffers with unaligned loads or by copying: \
      `buffer.loadUnaligned(fromByteOffset:as:)` (Swift 5.7+), `memcpy` into a local in C, or \
      assemble the value from bytes. Don't cast byte pointers to wider types, and don't use \
      atomics on packed or unaligned fields.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/sigbus",
      "https://developer.apple.com/documentation/swift/unsaferawpointer/loadunaligned(frombyteoffset:as:)",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault, fault.kind == .misaligned else { return nil }
    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    var summary =
      "The app accessed \(fault.addressDisplay), an address not aligned for the size of the access ("
      + (fault.text.map { "\(CodeSpan.markdown(TextScan.clip($0, 100)))" } ?? "an alignment fault") + ")"
    if let address = fault.effectiveAddress {
      let alignment = address & 7
      if alignment != 0 { summary += "; the address is \(alignment) bytes past an 8-byte boundary" }
    }
    summary += "."
    summary += MemoryFault.crashSiteSentence(in: context, evidence: &evidence)
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "EXC_ARM_DA_ALIGN",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGBUS", subtype: "EXC_ARM_DA_ALIGN at 0x0000000282f1c0a3"),
        threads: [.main([.frame(.app, "PacketParser.readUInt32(at:)")])]),
      .definite, summaryContains: ["`0x282f1c0a3`", "3 bytes", "PacketParser.readUInt32(at:)"]),
    .triggers(
      "BUS_ADRALN in an older third-party report",
      ExampleReport(
        exception: ExampleReport.Exception("SIGBUS", signal: "SIGBUS", codes: "BUS_ADRALN at 0xcd0b1c"),
        threads: [.main([.frame(.app)])]),
      .definite, summaryContains: ["`0xcd0b1c`"]),
    .ignores(
      "invalid address", ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x00000004cdfaf798", signal: "SIGBUS")),
  ]
}
