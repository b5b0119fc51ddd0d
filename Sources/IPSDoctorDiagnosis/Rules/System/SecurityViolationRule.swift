import IPSDoctorSupport

/// `0x2bad45ec` ("too bad for security"): a legacy SpringBoard security-violation code, documented
/// with "Process detected doing insecure drawing while in secure mode".
package struct SecurityViolationRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "security-violation",
    title: "Security Violation",
    summary:
      "SpringBoard killed the app (0x2bad45ec) for a security violation, such as drawing while the device was locked.",
    category: .systemTermination,
    severity: .warning,
    tier: .specific,
    rationale: """
      Technical Note TN2151 (iOS 11 era) documents `0x2bad45ec` as a termination for a security \
      violation, and the description "Process detected doing insecure drawing while in secure \
      mode" as the app drawing to the screen when it was not permitted to, for example while the \
      Lock Screen was shown. The code is not in Apple's current SIGKILL list, so the diagnosis is \
      tentative; users usually do not notice the termination because the screen is locked or \
      off.
      """,
    remedy: """
      Avoid rendering while the app is not active: stop display links, animations and \
      OpenGL/Metal drawing in `sceneWillResignActive(_:)` / `applicationWillResignActive(_:)` and \
      resume them in `sceneDidBecomeActive(_:)`. Check which drawing code the main thread was in \
      when the app was killed.
      """,
    references: ["https://developer.apple.com/library/archive/technotes/tn2151/_index.html"],
    examples: [
      .triggers(
        "insecure drawing while in secure mode",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(
            namespace: "SPRINGBOARD", code: 0x2bad45ec,
            details: ["SPRINGBOARD, Process detected doing insecure drawing while in secure mode"]),
          threads: [
            .main([
              .frame(.coreUI, "-[CUICatalog namedLookupWithName:scaleFactor:]"),
              .frame(.uiKit, "-[UIImageView setImage:]"),
              .frame(.app, "BadgeView.refresh()"),
            ])
          ]),
        .likely, summaryContains: ["0x2bad45ec", "insecure drawing", "CUICatalog"]),
      .triggers(
        "code only",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL", codes: "0x000000002bad45ec"),
          threads: [.main(ExampleReport.idleMainThread)]),
        .possible, summaryContains: ["0x2bad45ec"]),
      .ignores(
        "thermal",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0xc00010ff),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  /// Inline (see `TerminationCodes`).
  static let codes = TerminationCodes(0x2bad45ec)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    var evidence = [match.evidence]
    var summary = context.killedSentence(match) + " for a security violation."
    let drawing = context.terminationText(containing: "insecure drawing")
    if let drawing {
      summary +=
        " The termination description says \"\(drawing.detail.trimmingWhitespace())\": the app drew to the screen while that was not permitted, for example while the device was locked."
      if drawing.path != match.evidence.path { evidence.append(drawing) }
    } else {
      summary +=
        " This legacy code is documented only in Technical Note TN2151; without a termination description the exact violation is unknown."
    }
    if let thread = context.mainOrFirstThread {
      let frames = context.topFrames(of: thread, limit: 3)
      if !frames.isEmpty {
        summary += " The main thread was in " + DiagnosisContext.frameList(frames) + "."
        evidence += frames
      }
    }
    return finding(confidence: drawing != nil ? .likely : .possible, summary: summary, evidence: evidence)
  }
}
