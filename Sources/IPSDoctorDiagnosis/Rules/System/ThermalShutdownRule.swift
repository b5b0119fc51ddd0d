import IPSDoctorReport
import IPSDoctorSupport

/// `0xc00010ff` ("cool off"): the system killed the app during a thermal event.
package struct ThermalShutdownRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "thermal-shutdown",
    title: "Thermal Shutdown",
    summary: "The system killed the app (0xc00010ff) to cool the device down.",
    category: .systemTermination,
    severity: .warning,
    tier: .exact,
    rationale: """
      Termination code `0xc00010ff` ("cool off") means the system killed the app in response to a \
      thermal event. It may be a problem of the particular device or of its environment (sun, \
      charging, a case) rather than of the app; if it happens on many devices, the app is likely \
      using too much CPU, GPU, camera or radio for long periods.
      """,
    remedy: """
      Check whether the terminations cluster on a few devices (hardware or environment) or \
      spread over many. For the app's part, measure energy use with Instruments (Energy Log, \
      Time Profiler, Metal System Trace), react to `ProcessInfo.thermalStateNotification` by \
      reducing frame rate, video quality or background processing, and avoid sustained work in \
      tight loops.

      ```swift
      NotificationCenter.default.addObserver(forName: ProcessInfo.thermalStateDidChangeNotification,
                                             object: nil, queue: .main) { _ in
        renderer.preferredFramesPerSecond = ProcessInfo.processInfo.thermalState == .serious ? 30 : 60
      }
      ```
      """,
    references: ["https://developer.apple.com/documentation/xcode/sigkill"],
    examples: [
      .triggers(
        "thermal kill with ThermalInfo",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(
            namespace: "FRONTBOARD", code: 0xc00010ff,
            reasons: ["<RBSTerminateContext| domain:10 code:0xC00010FF explanation:ThermalInfo: Thermal Level 4"]),
          threads: [.main(ExampleReport.idleMainThread)]),
        .definite, summaryContains: ["0xc00010ff", "Thermal Level 4"]),
      .ignores(
        "watchdog timeout",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0x8badf00d),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  /// Inline (see `TerminationCodes`).
  static let codes = TerminationCodes(0xc00010ff)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    var summary =
      context.killedSentence(match)
      + " during a thermal event: the device was too hot. This is not necessarily a bug in the app; check whether it happens on many devices."
    if let text = context.quotedTerminationDescription() { summary += " The termination description reads \(text)." }
    return finding(confidence: .definite, summary: summary, evidence: [match.evidence])
  }
}
