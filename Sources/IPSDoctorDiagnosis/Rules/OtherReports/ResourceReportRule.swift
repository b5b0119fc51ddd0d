import IPSDoctorSupport

/// A resource report (CPU usage, disk writes, wakeups; bug_type 202, 145, 206, 185, 385, 327):
/// the system measured heavy resource use. Usually not a crash.
package struct ResourceReportRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "resource-report",
    title: "Resource Usage Report",
    summary:
      "The report records heavy CPU, disk-write or wakeup use measured by the system; it is usually not a crash.",
    category: .otherReports,
    severity: .note,
    tier: .family,
    rationale: """
      Resource reports ("Event: cpu usage", "Event: disk writes", "Event: wakeups") are \
      microstackshot reports: the system sampled the process while it used more of a resource \
      than allowed and recorded the heaviest stacks. "Action taken: none" means the process kept \
      running; "Process killed" means the system ended it. The sampled stacks, with their \
      sample counts, show where the time or the writes went.
      """,
    remedy: """
      Read the heaviest stack in the report (the branch with the most samples) and reduce that \
      work: move it off the critical path, batch it, or do less of it in the background. Use \
      the Time Profiler for CPU and the File Activity instrument for disk writes.
      """,
    references: ["https://developer.apple.com/documentation/xcode/exc_resource"],
    examples: [
      .triggers(
        "CPU usage report where the process was killed",
        .resource(
          .wakeupsResource, event: "cpu usage", action: "Process killed",
          measures: [
            "CPU": "48 seconds cpu time over 54 seconds (88% cpu average), exceeding limit of 80% cpu over 60 seconds"
          ]),
        .likely, summaryContains: ["cpu usage", "Process killed", "88% cpu average"]),
      .triggers(
        "JSON disk writes report",
        .diskWrites(writes: "2147.65 MB", format: .json),
        .likely, summaryContains: ["disk writes"]),
      .triggers(
        "ExcUserFault report (bug_type 385)",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_GUARD", signal: "SIGKILL", subtype: "GUARD_TYPE_USER",
            message: "namespace 18 reason_code 0x0000000000000002"),
          threads: [.main([.frame(.libsystemKernel, "os_fault_with_payload")])], isNonFatal: true, kind: .userFault),
        .definite, summaryContains: ["GUARD_TYPE_USER", "kept running"]),
      .ignores(
        "EXC_RESOURCE crash report (wakeups-resource-limit)",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "WAKEUPS",
            message: "(Limit 150/sec) Observed 195/sec over 300 secs"), threads: [.main(ExampleReport.idleMainThread)],
          kind: .resourceException)),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .resource else { return nil }
    if ResourceException(context) != nil { return nil }
    if context.report.resource?.measure == .hang { return nil }  // main-thread-hang
    let resource = context.report.resource
    var evidence: [Evidence] = []
    func field(_ key: String, json: [String]) -> (String, String)? {
      for name in json + [key] { if let value = resource?[name] { return (name, value) } }
      return nil
    }
    let event = resource?.event.map { ("event", $0) }
    guard event != nil || resource != nil || context.report.exception != nil
    else { return nil }
    var summary = "This is a resource report"
    if let (path, value) = event {
      summary += " for \"\(value)\""
      evidence.append(Evidence(path, value))
    }
    if let command = field("Command", json: ["procName", "process"]) {
      summary += " about \(CodeSpan.markdown(command.1))"
    }
    summary += ", measured by the system; it is not a crash report."
    if let guardException = GuardException(context) {
      summary += " It records an `EXC_GUARD` exception"
      if guardException.kind == .user { summary += " of type `GUARD_TYPE_USER` (a user fault a library reported)" }
      if let message = guardException.message { summary += ": \"\(message)\"" }
      summary += "."
      evidence += guardException.evidence
      if context.report.isNonFatal == true || context.report.isSimulated == true {
        summary += " It is marked non-fatal: the process kept running."
      }
    }
    var killed = false
    if let action = field("Action taken", json: ["action", "actionTaken"]) {
      evidence.append(Evidence(action.0, action.1))
      killed = action.1.lowercased().contains("kill")
      summary += " Action taken: \"\(action.1)\"" + (killed ? " — the system ended the process." : ".")
    }
    for key in ["CPU", "Writes", "Wakeups", "Limit"] {
      if let value = field(key, json: [key.lowercased()]) {
        summary += " \(key): \(value.1)."
        evidence.append(Evidence(value.0, value.1))
      }
    }
    if evidence.isEmpty { evidence.append(Evidence("bug_type", context.report.bugType?.rawValue ?? "")) }
    return finding(
      confidence: .definite, summary: summary, evidence: evidence, severity: killed ? .error : .note)
  }
}
