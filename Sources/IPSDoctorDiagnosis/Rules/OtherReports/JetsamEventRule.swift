import IPSDoctorSupport

/// A jetsam event (bug_type 298) that is not the app crossing its own limit: a summary of who
/// was killed and why.
package struct JetsamEventRule: DiagnosisRule {
  package init() {}

  static let reasonMeanings: [String: String] = [
    "vm-pageshortage": "the system ran short of memory and reclaimed it from background processes",
    "vm-thrashing": "the system was thrashing (paging heavily)",
    "vnode-limit": "too many files were open system-wide",
    "highwater": "a system process went over its high-water mark",
    "fc-thrashing": "the file cache was thrashing on memory-mapped files",
    "jettisoned": "the process was jettisoned for another reason",
    "per-process-limit": "the process crossed its memory limit",
    "idle-exit": "an idle process was asked to exit",
  ]

  package static let description = RuleDescription(
    id: "jetsam-event",
    title: "Jetsam Event",
    summary: "The system killed processes to free memory; a summary of the jetsam event report.",
    category: .otherReports,
    severity: .warning,
    tier: .family,
    rationale: """
      A jetsam event report (bug_type 298) lists every process's memory when the system ran low \
      and which processes it killed, with a reason. `per-process-limit` means a process crossed \
      its own limit (see `jetsam-memory-limit`); `vm-pageshortage`, `vnode-limit`, \
      `fc-thrashing` and `vm-thrashing` mean the *system* was short and killed background \
      processes by priority — usually not the fault of the process that was killed; \
      `highwater` is a system daemon over its expected use. The largest process is a hint at \
      who caused the pressure.
      """,
    remedy: """
      If the app was killed for `vm-pageshortage` or similar while in the background, that is \
      normal: save state when entering the background and restore it on relaunch so the user \
      does not notice. If the app was the largest process, reduce its footprint (see \
      `jetsam-memory-limit`).
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/identifying-high-memory-use-with-jetsam-event-reports"
    ],
    examples: [
      .triggers(
        "system daemon over its highwater mark",
        ExampleReport.jetsam(
          pageSize: 4096, largestProcess: "SpringBoard",
          processes: [
            .init("heard", pid: 2, residentPages: 652, states: ["daemon", "idle"]),
            .init("SpringBoard", pid: 57, residentPages: 61443, reason: "highwater", states: []),
          ]),
        .definite, summaryContains: ["`SpringBoard` (pid 57, 240.0 MB, `highwater`)", "system process"]),
      .triggers(
        "many background apps killed for vm-pageshortage",
        ExampleReport.jetsam(
          pageSize: 16384, largestProcess: "Game",
          processes: [
            .init("Example", pid: 812, residentPages: 9000, reason: "vm-pageshortage", states: ["suspended"]),
            .init("Mail", pid: 813, residentPages: 4000, reason: "vm-pageshortage"),
            .init("Maps", pid: 814, residentPages: 5000, reason: "vm-pageshortage"),
            .init("Game", pid: 90, residentPages: 120000, states: ["frontmost"]),
          ]),
        .definite, summaryContains: ["3 processes", "vm-pageshortage", "`Game`", "not the fault"]),
      .triggers(
        "the app crossed its own limit: summary beside jetsam-memory-limit",
        ExampleReport.jetsam(
          pageSize: 16384, largestProcess: "Example",
          processes: [
            .init("Example", pid: 812, residentPages: 92802, reason: "per-process-limit", states: ["frontmost"])
          ]),
        .definite, summaryContains: ["jetsam-memory-limit"]),
      .triggers(
        "an old jetsam report that holds its header only",
        .text(
          #"{"bug_type":"298","timestamp":"2016-05-14 09:12:33.54 +0200","os_version":"iPhone OS 9.3.2 (13F69)","incident_id":"8A1B2C3D-4E5F-4061-9728-3A4B5C6D7E8F"}"#
        ),
        .likely, summaryContains: ["bug_type 298", "2016-05-14 09:12:33.54 +0200", "only its header"]),
      .ignores(
        "a crash report",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0x8badf00d),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let analysis = JetsamAnalysis(context) else { return headerOnly(context) }
    let processes = analysis.jetsam.processes
    var evidence: [Evidence] = []
    var summary = "This is a jetsam event report (the system ran low on memory), not a crash of the app."
    if let largest = analysis.jetsam.largestProcess {
      evidence.append(Evidence("largestProcess", largest))
      if let index = processes.firstIndex(where: { $0.name == largest }) {
        summary += " The largest process was \(analysis.describe(processes[index]))."
      } else {
        summary += " The largest process was \(CodeSpan.markdown(largest))."
      }
    }
    let killed = processes.indices.filter { processes[$0].reason != nil }
    if killed.isEmpty {
      summary += " No process was killed in this report."
    } else {
      summary += " Killed: " + killed.prefix(5).map { analysis.describe(processes[$0]) }.joined(separator: ", ")
      if killed.count > 5 { summary += " and \(killed.count - 5) more" }
      summary += "."
      for index in killed.prefix(5) {
        evidence.append(
          Evidence(
            "processes[" + String(index) + "].reason",
            (processes[index].name ?? "?") + ": " + (processes[index].reason ?? "")))
      }
      var counts: [String: Int] = [:]
      for index in killed { counts[processes[index].reason ?? "", default: 0] += 1 }
      for (reason, count) in counts.sorted(by: { $0.key < $1.key }) {
        guard let meaning = Self.reasonMeanings[reason], reason != "per-process-limit" || analysis.limitKill == nil
        else { continue }
        if reason == "highwater" {
          summary += " `highwater`: \(meaning) — a system process, not the app."
        } else if count >= 3 {
          summary +=
            " \(count) processes were killed for \(CodeSpan.markdown(reason)): \(meaning); background processes killed "
            + "this way are not the fault of the process."
        } else {
          summary += " \(CodeSpan.markdown(reason)): \(meaning)."
        }
      }
    }
    if let app = analysis.appEntry {
      summary += " The app \(analysis.describe(app.process)) appears at \(app.path)"
      summary += app.process.reason == nil ? " and was not killed." : "."
      evidence.append(Evidence(app.path, app.process.name ?? ""))
    }
    if evidence.isEmpty { evidence.append(Evidence("bug_type", context.report.bugType?.rawValue ?? "298")) }
    if let kill = analysis.limitKill {
      summary += " \(analysis.describe(kill.process)) crossed its own memory limit (see `jetsam-memory-limit`)."
      return finding(confidence: .definite, summary: summary, evidence: evidence, severity: .note)
    }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  /// A jetsam report (bug_type 298) that holds its header and no body: old iOS versions wrote the
  /// header line first, and copies are often cut after it.
  private func headerOnly(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .jetsam, context.report.jetsam == nil else { return nil }
    var summary =
      "This is a jetsam event report (bug_type 298): the system ran low on memory and killed processes to free it"
    if let time = context.report.captureTime { summary += ", at \(time)" }
    if let os = context.report.osVersion { summary += ", on \(os)" }
    summary +=
      ". The file holds only its header, so which processes were killed, and why, is not recorded "
      + "(the body was not written or the copy was cut). It is not a crash of the app; whether the app "
      + "was one of the processes killed shows in Xcode's Organizer (Terminations) or in MetricKit."
    return finding(
      confidence: .likely, summary: summary,
      evidence: [Evidence("bug_type", context.report.bugType?.rawValue ?? "298")])
  }
}
