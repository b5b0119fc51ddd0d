import IPSDoctorSupport

/// `0xdead10cc` ("deadlock"): the app held a file lock or SQLite database lock when it was
/// suspended.
package struct FileLockHeldInBackgroundRule: DiagnosisRule {
  package init() {}

  /// `[code]`, inline (see `TerminationCodes`).
  static let codes = TerminationCodes(code)
  static let code: UInt64 = 0xdead10cc
  static let lockFrames = [
    "sqlite3", "NSSQLiteConnection", "NSPersistentStore", "NSFileCoordinator", "GRDB", "Realm",
    "flock", "fcntl", "pwrite", "fsync",
  ]

  package static let description = RuleDescription(
    id: "file-lock-held-in-background",
    title: "File Lock Held While Suspended",
    summary: "The system killed the app (0xdead10cc) because it held a file or SQLite lock while being suspended.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    rationale: """
      When an app is suspended while it holds a lock on a file in a shared container (an App \
      Group), or a SQLite database lock (Core Data, GRDB, Realm, …), other processes — the app's \
      extensions, widgets — could deadlock waiting for it. RunningBoard kills the app instead, \
      with termination code `0xdead10cc`. The backtrace shows where the app was when it was \
      suspended, which is often not where the lock was taken.
      """,
    remedy: """
      Finish (or cancel) database and file writes before the app is suspended:

      - Wrap writes that may run while the app goes to the background in a background task:

        ```swift
        let task = UIApplication.shared.beginBackgroundTask(withName: "Save") { /* end below */ }
        store.save { UIApplication.shared.endBackgroundTask(task) }
        ```

      - In extensions, use `ProcessInfo.processInfo.performExpiringActivity(withReason:)`.
      - Keep SQLite databases that only the app uses out of the App Group container, and for \
        shared ones use WAL mode and close connections (or checkpoint) when entering the \
        background.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/sigkill",
      "https://developer.apple.com/documentation/uikit/extending-your-app-s-background-execution-time",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    var evidence = [match.evidence]
    var summary =
      context.killedSentence(match)
      + ": it held a file lock or a SQLite database lock when it was suspended."
    if let frame = context.firstFrameInAnyThread(containingFirstOf: Self.lockFrames)?.evidence {
      summary +=
        " A thread was in file or database code at the time: \(CodeSpan.markdown(frame.detail)) (\(frame.path))."
      evidence.append(frame)
    } else {
      summary +=
        " The backtraces show where the app was when it was suspended, not necessarily where the lock was taken."
    }
    if let locked = context.terminationText(containing: "locked system files:") {
      let lines = locked.detail.split(separator: "\n")
      let files = lines.dropFirst().map { $0.trimmingWhitespace() }
        .filter { $0.hasPrefix("/") }
      if !files.isEmpty {
        summary +=
          " The locked file" + (files.count > 1 ? "s were " : " was ")
          + files.prefix(3).map { "\(CodeSpan.markdown($0))" }.joined(separator: ", ") + "."
        if files.contains(where: { $0.contains("/Shared/AppGroup/") }) {
          summary += " It is in an App Group container, shared with the app's extensions."
        }
        if !evidence.contains(locked) { evidence.append(locked) }
      }
    } else if let text = context.quotedTerminationDescription() {
      summary += " The termination description reads \(text)."
    }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  static let examples: [RuleExample] = [
    .triggers(
      "SQLite write on a background thread at suspension",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "RUNNINGBOARD", code: 0xdead10cc),
        threads: [
          .main(ExampleReport.idleMainThread),
          ExampleReport.Thread([
            .frame(.libsystemKernel, "pwrite"), .frame(.libsqlite3, "unixWrite"),
            .frame(.libsqlite3, "sqlite3_step"), .frame(.app, "MessageStore.insert(_:)"),
          ]),
        ]),
      .definite, summaryContains: ["0xdead10cc", "RUNNINGBOARD", "sqlite3_step", "threads[1].frames[2]"]),
    .triggers(
      "RunningBoard names the locked App Group database",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(
          namespace: "RUNNINGBOARD", code: 0xdead10cc,
          reasons: [
            "<RBSTerminateContext| domain:15 code:0xDEAD10CC explanation:[app<com.example.app>:812] was suspended with locked system files:\n/var/mobile/Containers/Shared/AppGroup/4B1E/Library/chat.sqlite\n reportType:CrashLog>"
          ]), threads: [.main(ExampleReport.idleMainThread)]),
      .definite, summaryContains: ["`/var/mobile/Containers/Shared/AppGroup/4B1E/Library/chat.sqlite`", "App Group"]),
    .triggers(
      "legacy exception codes",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL", codes: "0x00000000dead10cc"),
        threads: [.main(ExampleReport.idleMainThread)]),
      .definite, summaryContains: ["0xdead10cc"]),
    .ignores(
      "watchdog timeout (0x8badf00d)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0x8badf00d),
        threads: [.main(ExampleReport.blockedMainThread)])),
  ]
}
