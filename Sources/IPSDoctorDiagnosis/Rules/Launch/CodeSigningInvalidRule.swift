import IPSDoctorSupport

/// The kernel killed the process for a code-signing violation: an invalid page, an invalid
/// signature, or a launch constraint.
package struct CodeSigningInvalidRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "code-signing-invalid",
    title: "Invalid Code Signature",
    summary: "The kernel killed the process because its code signature was invalid or violated a launch constraint.",
    category: .launch,
    severity: .error,
    tier: .exact,
    outranks: [WatchOSBackgroundBudgetRule.self],
    rationale: """
      Every page of executable code must match the app's code signature. The kernel kills the \
      process (`SIGKILL (Code Signature Invalid)`, termination namespace `CODESIGNING`, or \
      `EXC_BAD_ACCESS` with code `0x32` / subtype `UNKNOWN_0x32`, `KERN_CODESIGN_ERROR`) when a \
      page does not match (indicator "Invalid Page": the binary was modified after signing, or \
      code was generated at runtime without the JIT entitlement), when the signature or its \
      entitlements are not accepted ("Taskgated Invalid Signature": restricted entitlements \
      without a matching provisioning profile), or when a launch constraint is violated \
      ("Launch Constraint Violation", macOS 13+).
      """,
    remedy: """
      - Re-sign after every modification to the bundle (scripts that patch binaries, strip \
        architectures or copy in frameworks must run before the final `codesign`), then check \
        with `codesign --verify --deep --strict --verbose=2 MyApp.app`.
      - Make sure the entitlements match the provisioning profile \
        (`codesign -d --entitlements - MyApp.app`), especially restricted ones.
      - Code generated at runtime needs the `com.apple.security.cs.allow-jit` entitlement \
        (macOS, hardened runtime) and `MAP_JIT`; it is not allowed on iOS outside the system.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/examining-the-fields-in-a-crash-report",
      "https://developer.apple.com/documentation/security/resolving-common-notarization-issues",
    ],
    examples: [
      .triggers(
        "invalid page",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL (Code Signature Invalid)"),
          termination: ExampleReport.Termination(namespace: "CODESIGNING", code: 2, indicator: "Invalid Page"),
          threads: [.main([.frame(.app, "PluginLoader.load()"), .frame(.app, "main")])]),
        .definite, summaryContains: ["`CODESIGNING`", "Invalid Page", "modified after it was signed"]),
      .triggers(
        "EXC_BAD_ACCESS with code 0x32",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_BAD_ACCESS", signal: "SIGKILL", codes: "0x0000000000000032, 0x0000000104a8c000",
            subtype: "UNKNOWN_0x32 at 0x0000000104a8c000"), threads: [.main([.frame(.app), .frame(.app, "main")])]),
        .likely, summaryContains: ["0x32"]),
      .ignores(
        "invalid address (memory access)",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_BAD_ACCESS", signal: "SIGSEGV", codes: "0x0000000000000001, 0x0000000000000032",
            subtype: "KERN_INVALID_ADDRESS at 0x0000000000000032"), threads: [.main([.frame(.app, "Parser.run()")])])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let report = context.report
    var evidence: [Evidence] = []
    var summary: String
    var confidence = Confidence.definite
    let indicator = report.termination?.indicator
    if report.termination?.namespace == "CODESIGNING" {
      evidence.append(
        Evidence("termination.namespace", "CODESIGNING" + (report.termination?.code.map { " code \($0)" } ?? "")))
      if let indicator { evidence.append(Evidence("termination.indicator", indicator)) }
      summary =
        "The kernel killed \(context.processDisplayName) for a code-signing violation (termination namespace `CODESIGNING`"
        + (indicator.map { ", \"\($0)\"" } ?? "") + ")."
    } else if let signal = report.exception?.signal,
      signal.contains("Code Signature Invalid") || signal.contains("CODESIGNING")
    {
      evidence.append(Evidence("exception.signal", signal))
      summary =
        "The kernel killed \(context.processDisplayName) with \(CodeSpan.markdown(signal)): its code signature was invalid."
    } else if context.exceptionTypeHasPrefix("EXC_BAD_ACCESS"),
      report.exception?.subtype?.hasPrefix("UNKNOWN_0x32") == true
        // The first code, parsed once by the context (the codes are not split again here, on
        // every bad-access report).
        || (context.exceptionCodeValues.first ?? nil) == 0x32
    {
      evidence.append(Evidence("exception.codes", report.exception?.codes ?? report.exception?.subtype ?? "0x32"))
      summary =
        "\(context.processDisplayName) was killed with `EXC_BAD_ACCESS` code 0x32 (`KERN_CODESIGN_ERROR`): it executed a page whose contents did not match the code signature."
      confidence = .likely
    } else {
      return nil
    }
    switch indicator {
    case "Invalid Page":
      summary +=
        " A page of code did not match the signature: the binary was modified after it was signed, or code was generated at runtime without permission."
    case "Launch Constraint Violation":
      summary +=
        " The executable violated a launch constraint: it was launched from a location or by a parent that its constraints do not allow."
    case let value? where value.contains("Taskgated"):
      summary +=
        " The signature or its entitlements were rejected, typically restricted entitlements without a matching provisioning profile."
    default:
      break
    }
    if let triage = report.kernelTriage,
      triage.contains("execute permissions") || triage.contains("code sign")
    {
      evidence.append(Evidence("ktriageinfo", triage.trimmingWhitespace()))
      summary += " Kernel triage: \"\(triage.trimmingWhitespace())\"."
    }
    return finding(confidence: confidence, summary: summary, evidence: evidence)
  }
}
