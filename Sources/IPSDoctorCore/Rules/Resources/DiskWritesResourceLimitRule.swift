/// `EXC_RESOURCE` / `IO`: the process wrote more to disk than the system allows over an interval.
public struct DiskWritesResourceLimitRule: DiagnosisRule {
  public init() {}

  public static let description = RuleDescription(
    id: "disk-writes-resource-limit",
    title: "Disk Writes Limit Exceeded",
    summary: "The process wrote more data to disk than the system allows over an interval (EXC_RESOURCE IO).",
    category: .resources,
    severity: .warning,
    specificity: 80,
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
        SystemExampleReport.report(
          exceptionType: "EXC_RESOURCE", signal: "SIGKILL", subtype: "IO",
          message: "(Limit 2147.48 MB/day) Observed 2147.65 MB/day",
          mainFrames: ["libsystem_kernel.dylib`pwrite", "libsqlite3.dylib`unixWrite", "Example`EventLog.append(_:)"],
          extra: ",\"isNonFatal\":true"),
        .definite, summaryContains: ["`IO`", "2147.65 MB/day", "EventLog.append(_:)"]),
      .ignores(
        "memory limit",
        SystemExampleReport.report(
          exceptionType: "EXC_RESOURCE", signal: "SIGKILL", subtype: "MEMORY",
          message: "(Limit 120 MB) Crossed High Water Mark", mainFrames: SystemExampleReport.idleMainThread)),
    ])

  /// `guard let resource = ResourceException(context)`: type prefix `EXC_RESOURCE`.
  public static var requirement: RuleRequirement { .anyOf(.resourceException) }

  public func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let resource = ResourceException(context), resource.kind == .io else { return nil }
    return resource.finding(
      of: self, context,
      opening: "\(context.processDisplayName) wrote more data to disk than the system allows (`EXC_RESOURCE`, subtype `IO`)",
      notKilled: "This is a diagnostic; the process was not killed.", fatalSeverity: .warning)
  }
}
