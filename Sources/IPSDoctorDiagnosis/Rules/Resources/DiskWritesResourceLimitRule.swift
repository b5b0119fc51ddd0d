import IPSDoctorSupport

/// `EXC_RESOURCE` / `IO`: the process wrote more to disk than the system allows over an interval.
package struct DiskWritesResourceLimitRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "disk-writes-resource-limit",
    title: "Disk Writes Limit Exceeded",
    summary: "The process wrote more data to disk than the system allows over an interval (EXC_RESOURCE IO).",
    category: .resources,
    severity: .warning,
    tier: .specific,
    rationale: """
      Flash storage wears with writes, so the system limits how much a process writes per day \
      and reports `EXC_RESOURCE` with subtype `IO` (or a "disk writes" resource report) when a \
      process exceeds it, for example "(Limit 2147.48 MB/day) Observed 2147.65 MB/day". The \
      report is a diagnostic; the process keeps running.
      """,
    remedy: """
      Write less: avoid rewriting whole files for small changes (append or use a database), \
      batch Core Data / SQLite saves in transactions, don't persist caches that are cheap to \
      rebuild, and check logging that writes to files at a high rate.
      """,
    references: ["https://developer.apple.com/documentation/xcode/exc_resource"],
    examples: [
      .triggers(
        "disk writes",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "IO", message: "(Limit 2147.48 MB/day) Observed 2147.65 MB/day"),
          threads: [
            .main([
              .frame(.libsystemKernel, "pwrite"), .frame(.libsqlite3, "unixWrite"), .frame(.app, "EventLog.append(_:)"),
            ])
          ], isNonFatal: true),
        .definite, summaryContains: ["`IO`", "2147.65 MB/day", "EventLog.append(_:)"]),
      .triggers(
        "disk writes resource report (bug_type 145)",
        .diskWrites(
          writes:
            "1073.74 MB of file backed memory dirtied over 8588 seconds, exceeding limit of 12.43 KB per second over 86400 seconds"
        ),
        .definite, summaryContains: ["1073.74 MB", "not killed"]),
      .ignores(
        "cpu usage resource report (cpu-resource-limit)",
        .cpuUsage()),
      .ignores(
        "memory limit",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "MEMORY", message: "(Limit 120 MB) Crossed High Water Mark"),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let resource = ResourceException(context) else { return diagnoseResourceReport(context) }
    guard resource.kind == .io else { return nil }
    return resource.finding(
      of: self, context,
      opening:
        "\(context.processDisplayName) wrote more data to disk than the system allows (`EXC_RESOURCE`, subtype `IO`)",
      notKilled: "This is a diagnostic; the process was not killed.", fatalSeverity: .warning)
  }

  /// A microstackshot "disk writes" resource report (bug_type 145, "Event: disk writes").
  func diagnoseResourceReport(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .resource, let resource = context.report.resource,
      let event = resource.event, event.lowercased() == "disk writes"
    else { return nil }
    func field(_ key: String, json: String) -> Evidence? {
      for name in [json, key] { if let value = resource[name] { return Evidence(name, value) } }
      return nil
    }
    var evidence = [Evidence("event", event)]
    var summary =
      "\(context.processDisplayName) wrote more to disk than the system allows (resource report \"disk writes\")"
    if let writes = field("Writes", json: "writes") {
      summary += ": \(writes.detail)"
      evidence.append(writes)
    }
    summary += "."
    var killed = false
    if let action = field("Action taken", json: "action") {
      evidence.append(action)
      killed = action.detail.lowercased().contains("kill")
      summary +=
        killed ? " The system killed the process." : " Action taken: \"\(action.detail)\"; the process was not killed."
    }
    summary += " The report's heaviest sampled stack shows where the writes came from."
    return finding(confidence: .definite, summary: summary, evidence: evidence, severity: killed ? .warning : .note)
  }
}
