import IPSDoctorSupport

/// `EXC_RESOURCE` / `WAKEUPS`: threads woke up more often than the system allows.
package struct WakeupsResourceLimitRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "wakeups-resource-limit",
    title: "Thread Wakeups Limit Exceeded",
    summary: "The process woke threads more often than the system allows (EXC_RESOURCE WAKEUPS).",
    category: .resources,
    severity: .warning,
    tier: .specific,
    rationale: """
      Waking a thread costs energy. The system limits wakeups per second (for example "(Limit \
      150/sec) Observed 195/sec over 300 secs") and reports `EXC_RESOURCE` with subtype \
      `WAKEUPS` when a process exceeds it; the report is usually a diagnostic and the process \
      keeps running. Typical causes: high-frequency timers, many small dispatches between \
      threads, polling loops, chatty networking.
      """,
    remedy: """
      Coalesce work: use fewer, less frequent timers (and set `tolerance`), batch dispatches \
      instead of hopping threads per item, replace polling with notifications or \
      `DispatchSource` events, and stop background activity when the app is not visible.
      """,
    references: ["https://developer.apple.com/documentation/xcode/exc_resource"],
    examples: [
      .triggers(
        "wakeups over 300 seconds",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "WAKEUPS",
            message: "(Limit 150/sec) Observed 195/sec over 300 secs"),
          threads: [
            .main(ExampleReport.idleMainThread),
            ExampleReport.Thread([.frame(.libsystemKernel, "__semwait_signal"), .frame(.app, "Poller.loop()")]),
          ], crashedThread: 1, isNonFatal: true),
        .definite, summaryContains: ["`WAKEUPS`", "195/sec", "Poller.loop()"]),
      .ignores(
        "CPU limit",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "CPU_FATAL", message: "(Limit 80%) Observed 89% over 60 secs"),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let resource = ResourceException(context), resource.kind == .wakeups else { return nil }
    return resource.finding(
      of: self, context,
      opening:
        "\(context.processDisplayName) woke its threads more often than the system allows (`EXC_RESOURCE`, subtype `WAKEUPS`)",
      notKilled: "This is an energy diagnostic; the process was not necessarily killed.", fatalSeverity: .warning)
  }
}
