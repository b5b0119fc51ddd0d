import IPSDoctorSupport

/// The Swift 6 runtime's dynamic actor-isolation check (SE-0423): libdispatch's queue assertion
/// failing under `swift_task_isCurrentExecutor…` / `_swift_task_checkIsolated…` on the crashed
/// thread.
package enum SwiftIsolationTrap {
  static let dispatchAssert = "_dispatch_assert_queue_fail"
  static let runtimeChecks = [
    "swift_task_isCurrentExecutor", "_swift_task_checkIsolated", "swift_task_checkIsolated",
    "_checkExpectedExecutor",
  ]

  /// The crashed thread's frames that prove the trap: the dispatch assertion and the runtime check.
  package static func evidence(in context: DiagnosisContext) -> (assert: Evidence, check: Evidence?)? {
    guard let backtrace = context.crashedBacktrace else { return nil }
    guard let assert = context.firstFrame(in: backtrace, containing: dispatchAssert) else { return nil }
    for fragment in runtimeChecks {
      if let check = context.firstFrame(in: backtrace, containing: fragment) {
        return (assert.evidence, check.evidence)
      }
    }
    return (assert.evidence, nil)
  }

  /// Whether the crash is the runtime isolation trap: the dispatch assertion with a runtime
  /// isolation check on the crashed thread (the assertion alone is libdispatch's own).
  package static func isPresent(in context: DiagnosisContext) -> Bool {
    evidence(in: context)?.check != nil
  }
}
