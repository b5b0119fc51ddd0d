import IPSDoctorSupport

/// The crash reporter's watchdog found the main thread deadlocked (blocked on a lock it can never
/// get), and the report shows where the main thread waits.
package struct MainThreadDeadlockRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "main-thread-deadlock",
    title: "Main Thread Deadlocked",
    summary:
      "The main thread stopped responding while waiting on a lock, semaphore or synchronous dispatch that never completes.",
    category: .systemTermination,
    severity: .error,
    tier: .specific,
    outranks: [LibdispatchClientBugRule.self],
    rationale: """
      Crash reporters such as KSCrash watch the main thread and write a report ("Application \
      main thread deadlocked") when it stops responding for several seconds. Nothing faulted: \
      the main thread waits in `pthread_mutex_lock`, `-[NSLock lock]`, a semaphore or \
      `dispatch_sync` for something held by itself (a non-recursive lock taken twice, \
      `DispatchQueue.main.sync` from the main queue) or by a thread that waits for the main \
      thread in turn.
      """,
    remedy: """
      Find the lock or queue the main thread waits on (the frames under the wait, named in the \
      summary) and who holds it. Never call `DispatchQueue.main.sync` from code that may run on \
      the main queue, take locks in one global order, keep critical sections short and \
      synchronous work off the main thread.
      """,
    references: ["https://developer.apple.com/documentation/xcode/diagnosing-performance-issues-early"],
    examples: [
      .triggers(
        "the reporter says the main thread deadlocked",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
          asi: ["Example": ["Application main thread deadlocked"]],
          threads: [
            .main([
              .frame(.libsystemKernel, "__psynch_mutexwait"), .frame(.libsystemPthread, "pthread_mutex_lock"),
              .frame(.foundation, "-[NSLock lock]"), .frame(.app, "Store.reload()"),
              .frame(.libdispatch, "_dispatch_call_block_and_release"),
              .frame(.uiKit, "UIApplicationMain"), .frame(.app, "main"),
            ])
          ]),
        .likely, summaryContains: ["deadlocked", "-[NSLock lock]", "Store.reload()"]),
      .ignores(
        "a main thread in a lock without the statement",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__psynch_mutexwait"), .frame(.libsystemPthread, "pthread_mutex_lock"),
              .frame(.app, "main"),
            ])
          ])),
    ])

  /// Functions a blocked thread waits in, nearest the kernel first.
  static let waits = [
    "pthread_mutex_lock", "-[NSLock lock]", "-[NSRecursiveLock lock]", "-[NSCondition", "os_unfair_lock_lock",
    "_dispatch_sync_f_slow", "__DISPATCH_WAIT_FOR_QUEUE__", "dispatch_sync", "_dispatch_sema4_wait",
    "dispatch_semaphore_wait", "pthread_cond_wait", "pthread_rwlock",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let statement = context.reasonText(containing: "main thread deadlocked") else { return nil }
    var evidence = [statement]
    var summary =
      "The report says the main thread deadlocked (\(statement.path)): it stopped responding and no fault happened."
    if let thread = context.mainOrFirstThread {
      let backtrace = DiagnosisContext.Backtrace(
        path: "threads[\(thread.index)].frames", frames: thread.frames, thread: thread)
      let top = backtrace.frames.prefix(8)
      if let index = top.indices.last(where: { index in
        guard let name = context.symbol(backtrace.frames[index])?.display else { return false }
        return Self.waits.contains(where: { name.hasPrefix($0) })
      }) {
        let wait = context.frameEvidence(backtrace, index)
        summary += " The main thread waits in \(DiagnosisContext.quote(wait))"
        evidence.append(wait)
        if let app = context.appFrameEvidence(in: backtrace, from: index + 1) {
          summary += ", called from \(DiagnosisContext.quote(app))"
          evidence.append(app)
        }
        summary += ": a lock or queue that is held by the main thread itself or by a thread waiting for it."
      } else if let app = context.appFrameEvidence(in: backtrace) {
        summary += " The main thread's first app frame is \(DiagnosisContext.quote(app))."
        evidence.append(app)
      }
    }
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }
}
