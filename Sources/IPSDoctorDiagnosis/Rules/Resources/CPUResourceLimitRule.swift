import IPSDoctorSupport

/// `EXC_RESOURCE` / `CPU` or `CPU_FATAL`: the process used more CPU than the system allows over
/// an interval.
package struct CPUResourceLimitRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "cpu-resource-limit",
    title: "CPU Usage Limit Exceeded",
    summary: "The process used more CPU than the system allows over an interval (EXC_RESOURCE CPU).",
    category: .resources,
    severity: .error,
    tier: .specific,
    rationale: """
      The system monitors CPU use, mainly of background processes. Exceeding the limit (for \
      example "(Limit 50%) Observed 89% over 180 secs") raises `EXC_RESOURCE` with subtype `CPU` \
      — a non-fatal diagnostic; the process keeps running — or `CPU_FATAL`, when the system \
      kills the process. The reporting thread is one that was using the CPU, not necessarily the \
      only one.
      """,
    remedy: """
      Profile the workload with the Time Profiler, especially in the background: stop timers, \
      animations and polling when the app is not visible, batch work, lower the quality of \
      service of background queues (`.utility`, `.background`), and avoid busy loops.
      """,
    references: ["https://developer.apple.com/documentation/xcode/exc_resource"],
    examples: [
      .triggers(
        "fatal CPU limit",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "CPU_FATAL", message: "(Limit 80%) Observed 89% over 60 secs"),
          threads: [
            .main(ExampleReport.idleMainThread),
            ExampleReport.Thread([
              .frame(.app, "TileRenderer.renderAll()"), .frame(.libdispatch, "_dispatch_call_block_and_release"),
            ]),
          ], crashedThread: 1),
        .definite,
        summaryContains: ["`CPU_FATAL`", "(Limit 80%) Observed 89% over 60 secs", "TileRenderer.renderAll()"]),
      .triggers(
        "non-fatal CPU report",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "CPU", message: "(Limit 50%) Observed 60% over 180 secs"),
          threads: [.main([.frame(.app, "Indexer.run()")])], isNonFatal: true),
        .definite, summaryContains: ["not killed"]),
      .triggers(
        "cpu usage resource report (bug_type 202)",
        .cpuUsage(
          cpu: "90 seconds cpu time over 151 seconds (60% cpu average), exceeding limit of 50% cpu over 180 seconds"),
        .definite, summaryContains: ["60% cpu average", "not killed"]),
      .ignores(
        "disk writes resource report",
        .diskWrites()),
      .ignores(
        "wakeups limit",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "WAKEUPS",
            message: "(Limit 150/sec) Observed 195/sec over 300 secs"), threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let resource = ResourceException(context) else { return diagnoseResourceReport(context) }
    guard resource.kind == .cpu else { return nil }
    return resource.finding(
      of: self, context,
      opening:
        "\(context.processDisplayName) exceeded the system's CPU limit (`EXC_RESOURCE`, subtype \(CodeSpan.markdown(resource.subtype)))",
      notKilled: "This is a non-fatal report: the process was not killed.", fatalSeverity: .error)
  }

  /// A microstackshot "cpu usage" resource report (bug_type 202/206, "Event: cpu usage").
  func diagnoseResourceReport(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .resource else { return nil }
    let resource = context.report.resource
    func field(_ key: String, json: String) -> Evidence? {
      for name in [json, key] { if let value = resource?[name] { return Evidence(name, value) } }
      return nil
    }
    guard let event = resource?.event.map({ Evidence("event", $0) }), event.detail.lowercased() == "cpu usage"
    else { return nil }
    var evidence = [event]
    var summary = "\(context.processDisplayName) used more CPU than the system allows (resource report \"cpu usage\")"
    if let cpu = field("CPU", json: "cpu") {
      summary += ": \(cpu.detail)"
      evidence.append(cpu)
    }
    summary += "."
    var killed = false
    if let action = field("Action taken", json: "action") {
      evidence.append(action)
      killed = action.detail.lowercased().contains("kill")
      summary +=
        killed ? " The system killed the process." : " Action taken: \"\(action.detail)\"; the process was not killed."
    }
    summary += " The report's heaviest sampled stack shows where the CPU time went."
    return finding(confidence: .definite, summary: summary, evidence: evidence, severity: killed ? .error : .note)
  }
}
