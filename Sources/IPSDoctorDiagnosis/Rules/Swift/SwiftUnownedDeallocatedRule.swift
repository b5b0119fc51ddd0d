import IPSDoctorSupport

/// "Attempted to read an unowned reference but object 0x… was already deallocated".
package struct SwiftUnownedDeallocatedRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-unowned-deallocated",
    title: "Unowned Reference To A Deallocated Object",
    summary: "An unowned reference was read after the object it refers to was deallocated.",
    category: .swiftRuntime,
    severity: .error,
    tier: .specific,
    outranks: [SwiftExclusivityViolationRule.self],
    rationale: """
      `unowned` (and `[unowned self]` in closures) promises that the object outlives the \
      reference. When it does not, the runtime traps in `swift_abortRetainUnowned`: "Fatal error: \
      Attempted to read an unowned reference but object 0x… was already deallocated". The usual \
      case is a closure capturing `[unowned self]` that runs after its owner went away: a \
      network completion, a timer, a notification, an animation completion.
      """,
    remedy: """
      Use `weak` and handle the object being gone:

      ```swift
      service.load { [weak self] result in
        guard let self else { return }
        self.show(result)
      }
      ```

      Keep `unowned` only where the lifetimes are tied by construction (a child that its parent \
      owns and never hands out).
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-crashes-from-swift-runtime-errors",
      "https://docs.swift.org/swift-book/documentation/the-swift-programming-language/automaticreferencecounting/#Unowned-References",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let text = context.reasonText(containing: "Attempted to read an unowned reference")
    let frame = context.crashedThreadTop(10, contains: "swift_abortRetainUnowned")
    guard text != nil || frame != nil else { return nil }
    var evidence = [text, frame?.evidence].compactMap { $0 }
    var summary = "An `unowned` reference was read after its object was deallocated"
    if let text {
      summary += ": \"\(TextScan.clip(text.detail))\" (\(text.path))."
    } else if let frame {
      summary += ": `swift_abortRetainUnowned` is on the crashed thread (\(frame.evidence.path))."
    }
    if let backtrace = context.crashedBacktrace,
      let app = context.appFrameEvidence(in: backtrace, from: frame?.index ?? 0)
    {
      summary +=
        " The reference was read in \(DiagnosisContext.quote(app)): look for `unowned` or `[unowned self]` there."
      evidence.append(app)
    }
    return finding(confidence: text != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = {
    let frames: [ExampleReport.Frame] = [
      .frame(.libswiftCore, "swift::swift_abortRetainUnowned(void const*)"),
      .frame(.libswiftCore, "swift_unknownObjectUnownedLoadStrong"),
      .frame(.app, "closure #1 in PlayerViewController.startTimer()"),
    ]
    return [
      .triggers(
        "closure with [unowned self]",
        ExampleReport.trap(
          frames: frames,
          asi: [
            "libswiftCore.dylib": [
              "Fatal error: Attempted to read an unowned reference but object 0x600003a2c0e0 was already deallocated"
            ]
          ]),
        .definite, summaryContains: ["unowned", "0x600003a2c0e0", "closure #1 in PlayerViewController.startTimer()"]),
      .triggers(
        "frames only", ExampleReport.trap(frames: frames), .likely, summaryContains: ["swift_abortRetainUnowned"]),
      .ignores(
        "weak reference use is fine",
        ExampleReport.trap(frames: [.frame(.app, "closure #1 in PlayerViewController.startTimer()")])),
    ]
  }()
}
