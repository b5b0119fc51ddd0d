import IPSDoctorSupport

/// A panic report whose panic string is `btn_rst`: the user held the buttons to force-restart.
package struct ForceResetRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "force-reset",
    title: "User Forced A Restart",
    summary:
      "The user held the device's buttons to force a restart; the panic report records that, not a kernel fault.",
    category: .otherReports,
    severity: .note,
    tier: .specific,
    outranks: [KernelPanicRule.self],
    rationale: """
      Holding the side and volume buttons (or the power button on a Mac) forces a restart. The \
      system records it as a panic report (bug_type 210, or 151 for a full panic log) whose \
      panic string is `btn_rst` (button reset). Nothing crashed at that moment: people force a \
      restart when the device stops responding, so the interesting question is what hung before \
      it, which this report does not show.
      """,
    remedy: """
      Nothing in this report to fix. If the device was unresponsive, look for hang, watchdog or \
      stackshot reports written just before this one; if a restart was needed while your app was \
      in the foreground, check those for your app's main thread.
      """,
    references: ["https://support.apple.com/en-us/118259"],
    examples: [
      .triggers(
        "full panic log of a button reset",
        .fullPanic(
          """
          panic(cpu 1 caller 0xfffffff02e156784): btn_rst
          Debugger message: panic
          """,
          product: "iPhone11,8", build: "iPhone OS 16.2 (20C65)"),
        .definite, summaryContains: ["btn_rst", "force"]),
      .ignores(
        "another panic (kernel-panic)",
        .panic("panic(cpu 0 caller 0xfffffff009773984): x86 global reset detected", product: "iBridge2,3")),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .panic, let headline = context.report.panic?.headline else { return nil }
    // The message is the headline's text after "panic(cpu N caller 0x…): ".
    let message = KernelPanicRule.panicMessage(headline)
    guard message == "btn_rst" || message.hasPrefix("btn_rst ") else { return nil }
    var summary = "The panic string is `btn_rst`: the user held the buttons to force a restart"
    if let product = context.report.panic?.product { summary += " of \(CodeSpan.markdown(product))" }
    summary += ". This is not a kernel fault and not a crash of an app; the device was probably unresponsive before it."
    return finding(confidence: .definite, summary: summary, evidence: [Evidence("panicString", headline)])
  }
}
