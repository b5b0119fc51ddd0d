import IPSDoctorSupport

/// A crash report whose `JETSAM` termination names a system-wide memory shortage
/// (`vm-pageshortage`, thrashing, compressor exhaustion, …), not the app's own limit.
package struct JetsamSystemMemoryPressureRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "jetsam-system-memory-pressure",
    title: "Killed For System Memory Pressure",
    summary:
      "Jetsam killed the process because the whole system ran short of memory, not because the process exceeded its own limit.",
    category: .resources,
    severity: .warning,
    tier: .exact,
    rationale: """
      When the system as a whole runs out of free pages (`vm-pageshortage`), thrashes \
      (`vm-thrashing`, `fc-thrashing`, `proc-thrashing`) or exhausts the compressor or a kernel \
      zone, jetsam kills processes in priority order until memory recovers: idle and background \
      processes first, then larger ones. The termination's reason names that cause. The process \
      did not cross its own limit (that is `per-process-limit`, see `jetsam-memory-limit`), but a \
      large footprint makes it an earlier victim.
      """,
    remedy: """
      Nothing in the app crashed. Lower the app's footprint while it is in the background (free \
      caches on `didReceiveMemoryWarning` and when entering the background, avoid keeping large \
      images and buffers alive) so that it is not among the first processes chosen, and restore \
      state on the next launch so the user loses nothing.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/identifying-high-memory-use-with-jetsam-event-reports"
    ],
    examples: [
      .triggers(
        "vm-pageshortage",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(
            namespace: "JETSAM", code: 0, indicator: "vm-pageshortage", reasons: ["vm-pageshortage 512000KB"]),
          threads: [.main([.frame(.app, "ImageCache.decode(_:)")])]),
        .definite, summaryContains: ["vm-pageshortage", "whole system"]),
      .ignores(
        "per-process limit (jetsam-memory-limit)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "JETSAM", code: 0, indicator: "per-process-limit"),
          threads: [.main([.frame(.app, "ImageCache.decode(_:)")])])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let stated = JetsamAnalysis.terminationReason(context.report.termination),
      JetsamAnalysis.systemPressureReasons.contains(stated.reason)
    else { return nil }
    let summary =
      "Jetsam killed \(context.processDisplayName) for \(CodeSpan.markdown(stated.reason)): the whole system was short of memory and it was chosen to free some. It did not exceed its own memory limit."
    return finding(
      confidence: .definite, summary: summary,
      evidence: [Evidence("termination.namespace", "JETSAM"), Evidence(stated.path, stated.reason)])
  }
}
