import IPSDoctorReport
import IPSDoctorSupport

/// `0xbaddd15c`: the system killed the app to reclaim disk space.
package struct DiskSpaceReclaimRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "disk-space-reclaim",
    title: "Killed To Reclaim Disk Space",
    summary: "The system killed the app (0xbaddd15c) while clearing caches to free disk space.",
    category: .systemTermination,
    severity: .warning,
    tier: .exact,
    rationale: """
      Termination code `0xbaddd15c` means the system killed the app while it reclaimed disk space \
      (purging caches and temporary files) because the device was running out of storage. It is \
      not a bug in the app, but an app that keeps large files in `Caches` or `tmp` may lose \
      them.
      """,
    remedy: """
      Nothing to fix in the crash itself. Make sure the app survives losing anything in \
      `Library/Caches` and `tmp` (re-download or regenerate it), store data that must survive in \
      `Application Support`, and keep caches small.
      """,
    references: ["https://developer.apple.com/documentation/xcode/sigkill"],
    examples: [
      .triggers(
        "0xbaddd15c",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "SPRINGBOARD", code: 0xbaddd15c),
          threads: [.main(ExampleReport.idleMainThread)]),
        .definite, summaryContains: ["0xbaddd15c"]),
      .ignores(
        "thermal kill",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0xc00010ff),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  /// Inline (see `TerminationCodes`).
  static let codes = TerminationCodes(0xbaddd15c)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    return finding(
      confidence: .definite,
      summary: context.killedSentence(match)
        + " while it reclaimed disk space; the device was low on storage. This is not a bug in the app.",
      evidence: [match.evidence])
  }
}
