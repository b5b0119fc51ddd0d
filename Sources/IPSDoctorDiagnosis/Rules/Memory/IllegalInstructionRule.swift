import IPSDoctorReport
import IPSDoctorSupport

/// The CPU refused an instruction: one Rosetta does not translate (AVX and later vector
/// extensions, in a translated process), or, in native arm64 code, an undefined or privileged
/// instruction (hand-written assembly, a jump into data). Swift's own checks trap with `brk`
/// (`EXC_BREAKPOINT`) on arm64, so `EXC_BAD_INSTRUCTION` there is not one of them.
package struct IllegalInstructionRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "illegal-instruction",
    title: "Illegal Instruction",
    summary:
      "The CPU could not execute an instruction of the app: one Rosetta does not translate, or an undefined or privileged one.",
    category: .memory,
    severity: .error,
    tier: .fallback,
    outranks: [InvalidAddressRule.self],
    rationale: """
      `EXC_BAD_INSTRUCTION` (`SIGILL`) means the CPU stopped on an instruction it will not run. In \
      a process translated by Rosetta (an Intel build on Apple silicon: the report says \
      `translated`, or `Code Type: X86-64 (Translated)`), Rosetta translates every x86_64 \
      instruction except some newer instruction sets, such as the AVX, AVX2 and AVX-512 vector \
      instructions: code compiled for them, or a library that picks them without checking the \
      CPU, stops there. In native arm64 code Swift's runtime checks trap with `brk` \
      (`EXC_BREAKPOINT`), so an illegal instruction is an undefined or privileged one: \
      hand-written assembly, inline `asm`, a system register read that user code may not do, or \
      a jump into data that happens to decode to no instruction.
      """,
    remedy: """
      Under Rosetta: ship an arm64 (or universal) build, which runs natively; if the x86_64 build \
      must stay, compile it without AVX (`-mno-avx`) or execute those instructions only after \
      checking that the CPU has them (`sysctlbyname("hw.optional.avx2_0", …)`, \
      `hw.optional.avx512f`). Natively: look at the crashing frame's code (`otool -tV` or the \
      disassembly in Xcode) for inline assembly or intrinsics, and check that function pointers \
      and jump targets point at code.
      """,
    references: [
      "https://developer.apple.com/documentation/apple-silicon/about-the-rosetta-translation-environment",
      "https://developer.apple.com/documentation/xcode/sigtrap_sigill",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let report = context.report
    guard context.isTrap, let exception = report.exception, let backtrace = context.crashedBacktrace,
      let top = backtrace.frames.first
    else { return nil }
    let isIllegal =
      (exception.type ?? "").hasPrefix("EXC_BAD_INSTRUCTION") || (exception.signal ?? "").hasPrefix("SIGILL")
    guard isIllegal else { return nil }
    // A check that left a message, or a trap in the Swift runtime's assertion code, is the Swift
    // rules' (they trap with ud2, an illegal instruction, on x86_64).
    if !SwiftFailure.all(in: context).isEmpty || !context.informativeApplicationSpecificLines.isEmpty { return nil }
    if context.exceptionMessage != nil || context.languageException != nil { return nil }
    if (top.imageName ?? "").hasPrefix("libswift") { return nil }
    if let name = context.symbol(top)?.display, SwiftTrapUnknownRule.looksLikeSwift(name) { return nil }

    // Natively, only arm64 tells an illegal instruction from a trap: on x86_64 both are ud2.
    let translated = report.isTranslated
    guard translated || report.cpuType?.uppercased().hasPrefix("ARM") == true else { return nil }

    let topEvidence = context.frameEvidence(backtrace, 0)
    var evidence = [context.exceptionEvidence].compactMap { $0 }
    if translated { evidence.append(Evidence("translated", "true (Rosetta)")) }
    evidence.append(topEvidence)
    let stop = "(\(context.exceptionDisplay)) at \(DiagnosisContext.quote(topEvidence))"
    let summary =
      translated
      ? "The process ran under Rosetta (an x86_64 build on Apple silicon) and stopped on an instruction Rosetta "
        + "does not translate \(stop): most often an AVX, AVX2 or AVX-512 vector instruction, in code built for "
        + "them or in a library that uses them without checking the CPU. An arm64 build runs natively and avoids it."
      : "The CPU stopped on an undefined or privileged instruction \(stop). On arm64 Swift's runtime checks trap "
        + "with `brk` (EXC_BREAKPOINT), not this: look there for inline assembly or intrinsics, a system register "
        + "user code may not read, or a jump into data."
    return finding(confidence: translated ? .likely : .possible, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = {
    let translated = ExampleReport.trap(
      frames: [.frame(.app, "blend_rows_avx2"), .frame(.app, "ImageFilter.apply(to:)")], type: "EXC_BAD_INSTRUCTION",
      signal: "SIGILL"
    ).translatedByRosetta()
    return [
      .triggers(
        "an AVX routine in a translated process", translated, .likely,
        summaryContains: ["Rosetta", "blend_rows_avx2", "AVX"]),
      .ignores(
        "a Swift check trapping with ud2 in a translated process",
        ExampleReport.trap(
          frames: [.frame(.app, "CartViewModel.total.getter"), .frame(.app, "CartView.body.getter")],
          type: "EXC_BAD_INSTRUCTION", signal: "SIGILL"
        ).translatedByRosetta()),
      .ignores(
        "a breakpoint trap is not an illegal instruction",
        ExampleReport.trap(frames: [.frame(.app, "blend_rows_avx2")]).translatedByRosetta()),
    ]
  }()
}
