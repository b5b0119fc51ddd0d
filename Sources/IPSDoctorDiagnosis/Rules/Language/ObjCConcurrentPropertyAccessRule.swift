import IPSDoctorSupport

/// `EXC_BAD_ACCESS` at the magic address `0x…bad0`: an Objective-C object property accessed from
/// several threads at once.
package struct ObjCConcurrentPropertyAccessRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "objc-concurrent-property-access",
    title: "Object Property Accessed From Several Threads At Once",
    summary: "The fault address ends in 0xbad0, Apple's marker for a nonatomic property used from several threads.",
    category: .languageException,
    severity: .error,
    tier: .exact,
    rationale: """
      Apple documents this signature in "Identifying the cause of common crashes": \
      `EXC_BAD_ACCESS (SIGSEGV)` with `KERN_INVALID_ADDRESS at 0x400000000000bad0 -> \
      0x000000000000bad0 (possible pointer authentication failure)` (`0x0000bad0` on 32-bit \
      watchOS). The Objective-C runtime poisons the pointer when it detects that a `nonatomic` \
      object property was released by one thread while another was using it; the next access \
      faults at the poisoned address. Despite the "pointer authentication" wording, this is a data \
      race, not a PAC failure.
      """,
    remedy: """
      Find the property that the crashing frames read or write and serialise every access to it: \
      confine the object to one actor or queue (`@MainActor`, a serial `DispatchQueue`), protect \
      it with a lock (`OSAllocatedUnfairLock`, `NSLock`), or make the Objective-C property \
      `atomic`. Run the app with the Thread Sanitizer (Scheme → Diagnostics → Thread Sanitizer) to \
      see both racing accesses.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/identifying-the-cause-of-common-crashes",
      "https://developer.apple.com/documentation/xcode/diagnosing-memory-thread-and-crash-issues-early",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let fault = context.memoryFault, fault.isBad0 else { return nil }
    var summary =
      "The app crashed with \(context.exceptionDisplay) at the magic address "
      + "\(fault.addressDisplay), the pattern Apple documents for an Objective-C object property "
      + "accessed from several threads at once (one thread released the value while another used it)."
    var evidence = [fault.subtypeEvidence].compactMap { $0 }
    if let crashing = context.crashingFrame {
      summary += " The faulting frame is \(DiagnosisContext.quote(crashing.evidence))"
      evidence.append(crashing.evidence)
      if let backtrace = context.crashedBacktrace, let app = context.appFrameEvidence(in: backtrace),
        app.path != crashing.evidence.path
      {
        summary += ", called from \(DiagnosisContext.quote(app))"
        evidence.append(app)
      }
      summary += "."
    }
    if let thread = context.crashedThreadDisplay { summary += " It happened on \(thread)." }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "PAC-flagged 0xbad0",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x400000000000bad0 -> 0x000000000000bad0 (possible pointer authentication failure)",
        frames: [.frame(.libobjc, "objc_release"), .frame(.app, "SessionStore.token.setter")],
        queue: "com.example.sync"),
      .definite, summaryContains: ["0xbad0", "objc_release", "SessionStore.token.setter", "com.example.sync"]),
    .triggers(
      "32-bit watchOS",
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000bad0", frames: [.frame(.libobjc, "objc_msgSend")]),
      .definite),
    .ignores(
      "a real PAC failure",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x41fc821e000001b0 -> 0x00000001000001b0 (possible pointer authentication failure)")),
    .ignores("null dereference", ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x0000000000000000")),
  ]
}
