/// `EXC_RESOURCE` / `CPU` or `CPU_FATAL`: the process used more CPU than the system allows over
/// an interval.
public struct CPUResourceLimitRule: DiagnosisRule {
  public init() {}

  public static let description = RuleDescription(
    id: "cpu-resource-limit",
    title: "CPU Usage Limit Exceeded",
    summary: "The process used more CPU than the system allows over an interval (EXC_RESOURCE CPU).",
    category: .resources,
    severity: .error,
    specificity: 80,
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
        SystemExampleReport.report(
          exceptionType: "EXC_RESOURCE", signal: "SIGKILL", subtype: "CPU_FATAL",
          message: "(Limit 80%) Observed 89% over 60 secs",
          mainFrames: SystemExampleReport.idleMainThread,
          otherThreads: [["Example`TileRenderer.renderAll()", "libdispatch.dylib`_dispatch_call_block_and_release"]],
          faultingThread: 1),
        .definite, summaryContains: ["`CPU_FATAL`", "(Limit 80%) Observed 89% over 60 secs", "TileRenderer.renderAll()"]),
      .triggers(
        "non-fatal CPU report",
        SystemExampleReport.report(
          exceptionType: "EXC_RESOURCE", signal: "SIGKILL", subtype: "CPU",
          message: "(Limit 50%) Observed 60% over 180 secs", mainFrames: ["Example`Indexer.run()"],
          extra: ",\"isNonFatal\":true"),
        .definite, summaryContains: ["not killed"]),
      .ignores(
        "wakeups limit",
        SystemExampleReport.report(
          exceptionType: "EXC_RESOURCE", signal: "SIGKILL", subtype: "WAKEUPS",
          message: "(Limit 150/sec) Observed 195/sec over 300 secs", mainFrames: SystemExampleReport.idleMainThread)),
    ])

  public func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let resource = ResourceException(context), resource.kind == .cpu else { return nil }
    var evidence = resource.evidence
    var summary = "\(context.processDisplayName) exceeded the system's CPU limit (`EXC_RESOURCE`, subtype `\(resource.subtype)`)"
    if let message = resource.message { summary += ": \(message)" }
    summary += resource.fatal ? ". The system killed the process." : ". This is a non-fatal report: the process was not killed."
    summary += resource.stackSentence(context, evidence: &evidence)
    return finding(confidence: .definite, summary: summary, evidence: evidence, severity: resource.fatal ? .error : .note)
  }
}
