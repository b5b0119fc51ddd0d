import IPSDoctorSupport

/// The app used more memory than its limit: a jetsam event (bug_type 298) with reason
/// `per-process-limit`, or a crash report with `EXC_RESOURCE` / `MEMORY` or namespace `JETSAM`.
package struct JetsamMemoryLimitRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "jetsam-memory-limit",
    title: "Memory Limit Exceeded",
    summary: "The system killed the app because its memory footprint exceeded the per-process limit.",
    category: .resources,
    severity: .error,
    tier: .exact,
    rationale: """
      iOS, iPadOS, tvOS, watchOS and visionOS give every process a memory limit. A process that \
      crosses it is terminated by jetsam: the jetsam event report (bug_type 298) lists it with \
      `"reason": "per-process-limit"` (system daemons: `highwater`) and its resident pages \
      (`rpages` × `memoryStatus.pageSize` = footprint). Crash reports may instead show \
      `EXC_RESOURCE` with subtype `MEMORY`, or termination namespace `JETSAM`. App extensions \
      have much lower limits than apps (tens of megabytes for many extension types), and the \
      limit depends on the device. Jetsam reports have no backtraces: the cause is whatever \
      grew the footprint.
      """,
    remedy: """
      Reduce the app's peak memory footprint:

      - Profile with Instruments (Allocations, Leaks, VM Tracker) and the Xcode memory graph; \
        look for leaks, retain cycles and unbounded caches.
      - Downsample large images instead of decoding them at full size \
        (`CGImageSourceCreateThumbnailAtIndex` with `kCGImageSourceThumbnailMaxPixelSize`), and \
        process large files in chunks.
      - Use `NSCache` (which evicts under pressure) instead of dictionaries for caches, and free \
        memory in `didReceiveMemoryWarning` / `UIApplication.didReceiveMemoryWarningNotification`.
      - Check `os_proc_available_memory()` before large allocations, especially in extensions.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/identifying-high-memory-use-with-jetsam-event-reports",
      "https://developer.apple.com/documentation/xcode/reducing-your-app-s-memory-use",
    ],
    examples: [
      .triggers(
        "jetsam event: per-process-limit of the app",
        ExampleReport.jetsam(
          pageSize: 16384, largestProcess: "Example",
          processes: [
            .init("Example", pid: 812, residentPages: 92802, reason: "per-process-limit", states: ["frontmost"]),
            .init("backboardd", pid: 61, residentPages: 5000, states: ["daemon"]),
          ]),
        .definite,
        summaryContains: ["`Example` (pid 812, 1450.0 MB, `per-process-limit`)", "processes[0]", "foreground"]),
      .triggers(
        "EXC_RESOURCE MEMORY in a crash report",
        ExampleReport(
          processPath: "/private/var/containers/Bundle/Application/0C7E/Example.app/PlugIns/Share.appex/Share",
          exception: ExampleReport.Exception(
            "EXC_RESOURCE", signal: "SIGKILL", subtype: "MEMORY", message: "(Limit 120 MB) Crossed High Water Mark"),
          threads: [.main([.frame(.app, "ImageCache.decode(_:)"), .frame(.app, "main")])]),
        .definite, summaryContains: ["120 MB", "app extension"]),
      .triggers(
        "JETSAM termination for the per-process limit",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(
            namespace: "JETSAM", code: 0, indicator: "per-process-limit",
            reasons: ["350808KB exceeds task limit 335872KB"]),
          threads: [.main([.frame(.app, "ImageCache.decode(_:)")])]),
        .definite, summaryContains: ["per-process-limit"]),
      .ignores(
        "JETSAM termination for a system-wide page shortage (jetsam-system-memory-pressure)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(
            namespace: "JETSAM", code: 0, indicator: "vm-pageshortage", reasons: ["vm-pageshortage 512000KB"]),
          threads: [.main([.frame(.app, "ImageCache.decode(_:)")])])),
      .ignores(
        "jetsam event where only other processes hit vm-pageshortage",
        ExampleReport.jetsam(
          pageSize: 16384, largestProcess: "Game",
          processes: [
            .init("Example", pid: 812, residentPages: 9000, reason: "vm-pageshortage", states: ["suspended"]),
            .init("Game", pid: 90, residentPages: 120000, states: ["frontmost"]),
          ])),
      .ignores(
        "a system daemon over its highwater mark",
        ExampleReport.jetsam(
          pageSize: 4096, largestProcess: "SpringBoard",
          processes: [.init("SpringBoard", pid: 57, residentPages: 61443, reason: "highwater", states: [])])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    if let analysis = JetsamAnalysis(context) {
      guard let kill = analysis.limitKill else { return nil }
      let process = kill.process
      var evidence = [Evidence("\(kill.path).reason", process.reason ?? "")]
      if let pages = process.residentPages {
        evidence.append(
          Evidence("\(kill.path).rpages", "\(pages) × pageSize \(analysis.jetsam.pageSize.map(String.init) ?? "?")"))
      }
      var summary = "Jetsam killed \(analysis.describe(process)) (\(kill.path)) because it exceeded its memory limit"
      if let size = analysis.footprint(process) { summary += "; its footprint was \(size) (rpages × pageSize)" }
      summary += "."
      if process.states.contains("frontmost") {
        summary += " It was in the foreground, so the user saw the app disappear."
      }
      if process.reason == "highwater" {
        summary +=
          " The reason `highwater` is used for processes over their high-water mark (usually daemons and extensions)."
      }
      let others = analysis.jetsam.killed.filter { $0.name != process.name }
      if !others.isEmpty {
        summary +=
          " The event also killed " + others.prefix(3).map { analysis.describe($0) }.joined(separator: ", ")
          + (others.count > 3 ? " and \(others.count - 3) more" : "") + "."
      }
      summary += " Jetsam reports carry no backtraces: profile the app's memory at the same point."
      return finding(confidence: .definite, summary: summary, evidence: evidence)
    }

    let report = context.report
    var evidence: [Evidence] = []
    var summary: String
    // Only a stated per-process limit is definite; a JETSAM kill without a reason is likely one.
    var confidence = Confidence.definite
    if context.exceptionTypeHasPrefix("EXC_RESOURCE"),
      let subtype = report.exception?.subtype, subtype.contains("MEMORY")
    {
      evidence.append(Evidence("exception.subtype", subtype))
      summary = "\(context.processDisplayName) exceeded its memory limit (`EXC_RESOURCE`, subtype `MEMORY`)"
      if let message = report.exception?.message {
        evidence.append(Evidence("exception.message", message))
        summary += ": \"\(message)\""
      }
      summary += "."
      if report.isNonFatal == true
        || report.exception?.notes.contains(where: { $0.contains("NON-FATAL") }) == true
      {
        summary += " The report is marked non-fatal: the process crossed the limit's warning level and kept running."
      }
    } else if report.termination?.namespace == "JETSAM" {
      let stated = JetsamAnalysis.terminationReason(report.termination)
      // A system-wide shortage is jetsam-system-memory-pressure.
      if let stated, JetsamAnalysis.systemPressureReasons.contains(stated.reason) { return nil }
      evidence.append(Evidence("termination.namespace", "JETSAM"))
      if let stated {
        evidence.append(Evidence(stated.path, stated.reason))
        summary =
          "\(context.processDisplayName) was killed by jetsam for exceeding its memory limit (\(CodeSpan.markdown(stated.reason)))."
      } else {
        confidence = .likely
        summary =
          "\(context.processDisplayName) was killed by jetsam (termination namespace `JETSAM`) for using too much memory; the report does not say whether its own limit or a system-wide shortage was the reason."
      }
    } else {
      return nil
    }
    if context.processIsAppExtension {
      summary += " The process is an app extension; extensions have much lower memory limits than apps."
    }
    if let thread = context.crashedThread ?? context.mainOrFirstThread, let app = context.firstAppFrame(on: thread) {
      summary += " The app was in \(CodeSpan.markdown(app.detail)) (\(app.path)) when the limit was reached."
      evidence.append(app)
    }
    let nonFatal =
      report.isNonFatal == true
      || report.exception?.notes.contains(where: { $0.contains("NON-FATAL") }) == true
    return finding(confidence: confidence, summary: summary, evidence: evidence, severity: nonFatal ? .note : .error)
  }
}
