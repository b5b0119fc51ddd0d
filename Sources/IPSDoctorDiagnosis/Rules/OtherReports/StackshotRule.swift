import IPSDoctorSupport

/// A stackshot (bug_type 288/188): the stacks of every process, taken for a hang, a slow event
/// or on request.
package struct StackshotRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "stackshot",
    title: "Stackshot",
    summary: "The report is a stackshot of every process, taken for a hang or on request; it is not a crash.",
    category: .otherReports,
    severity: .note,
    tier: .specific,
    rationale: """
      A stackshot (bug_type 288, older 188; `stacks-*.ips`) records the stacks of all processes \
      at one moment. The system takes one when something hangs (a watchdog about to fire, a \
      slow wake, an unresponsive UI) or when the user presses the volume buttons together with \
      the side button (exception code `0xbaaaaaad`, "Manually triggered stackshot"). Nothing \
      crashed; the frontmost process's main thread is the place to look for a hang.
      """,
    remedy: """
      If you were investigating a hang, find the frontmost app's main thread in the stackshot \
      and look for what it waits on (locks, semaphores, synchronous I/O, IPC). If the stackshot \
      was triggered by accident, it can be ignored.
      """,
    references: ["https://developer.apple.com/documentation/xcode/interpreting-the-json-format-of-a-crash-report"],
    examples: [
      .triggers(
        "hang stackshot",
        .stackshot(
          reason: "watchdog timeout: no checkins from watchdogd in 180 seconds", product: "iPhone14,2",
          processes: [412: "Example", 1: "launchd"], frontmost: [412]),
        .definite, summaryContains: ["watchdog timeout", "`Example`", "2 processes"]),
      .ignores(
        "a crash report",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0x8badf00d),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .stackshot else { return nil }
    let stackshot = context.report.stackshot
    var evidence: [Evidence] = []
    var summary = "This is a stackshot (the stacks of every process at one moment), not a crash."
    let reason = stackshot?.reason.map { ("reason", $0) }
    if let (path, text) = reason {
      evidence.append(Evidence(path, text))
      summary += " Reason: \"\(text)\"."
    }
    if let code = stackshot?.exceptionCode {
      evidence.append(Evidence("exceptionCode", code))
      summary +=
        code.contains("baaaaaad")
        ? " Exception code `0xbaaaaaad` means someone triggered it with the buttons; it is not a hang report."
        : " Exception code \(CodeSpan.markdown(code))."
    }
    if let frontmost = stackshot?.frontmostProcesses, !frontmost.isEmpty {
      summary += " Frontmost: " + frontmost.map { "\(CodeSpan.markdown($0))" }.joined(separator: ", ") + "."
      evidence.append(Evidence("frontmostPids", frontmost.joined(separator: ", ")))
    }
    if let count = stackshot?.processCount { summary += " It covers \(count) processes." }
    let lower = (reason?.1 ?? "").lowercased()
    if lower.contains("hang") || lower.contains("watchdog")
      || lower.contains("unresponsive") || lower.contains("slow")
    {
      summary += " It was taken for a hang or a slow event: look at the frontmost process's main thread."
    }
    if evidence.isEmpty { evidence.append(Evidence("bug_type", context.report.bugType?.rawValue ?? "288")) }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }
}
