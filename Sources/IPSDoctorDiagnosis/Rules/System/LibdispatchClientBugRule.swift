import IPSDoctorReport
import IPSDoctorSupport

/// libdispatch trapped on misuse of its API: "BUG IN CLIENT OF LIBDISPATCH: …".
package struct LibdispatchClientBugRule: DiagnosisRule {
  package init() {}

  static let marker = "BUG IN CLIENT OF LIBDISPATCH: "

  /// Known messages: what they mean and how to fix them.
  static let misuses: [(fragment: String, meaning: String, fix: String)] = [
    (
      "dispatch_sync called on queue already owned by current thread",
      "`DispatchQueue.sync` (or `dispatch_sync`) was called on the serial queue the code was already running on, which would deadlock",
      "Do not call `sync` on the queue you are on. Call the work directly when already on the queue, or use `async`:\n\n```swift\n// Before\nqueue.sync { update() }   // called from a block already running on `queue`\n\n// After\nqueue.async { update() }\n// or, when the caller may already be on the queue:\nif DispatchQueue.getSpecific(key: queueKey) != nil { update() } else { queue.sync { update() } }\n```"
    ),
    (
      "Unbalanced call to dispatch_group_leave()",
      "`DispatchGroup.leave()` was called more times than `enter()`",
      "Call `leave()` exactly once for every `enter()`. Typical causes are a completion handler that runs twice, or `leave()` both in a success path and a `defer`:\n\n```swift\ngroup.enter()\nfetch { result in\n  defer { group.leave() }   // the only leave for this enter\n  handle(result)\n}\n```"
    ),
    (
      "Semaphore object deallocated while in use",
      "a `DispatchSemaphore` was deallocated while its value was lower than the value it was created with — some `wait()` was never matched by a `signal()`",
      "Balance every `wait()` with a `signal()` before the semaphore is released, or keep the semaphore alive until the waiters finish. A semaphore used as a lock must be created with value 1 and signalled on every path (use `defer { semaphore.signal() }`). Consider `NSLock`/`OSAllocatedUnfairLock` or Swift concurrency instead."
    ),
    (
      "Group object deallocated while in use",
      "a `DispatchGroup` was deallocated while work entered with `enter()` had not left",
      "Keep the group alive until every `enter()` is balanced by `leave()` (for example by capturing it in the completion handlers), and balance every `enter()`."
    ),
    (
      "Release of a suspended object",
      "a dispatch object (queue or source) was released while it was suspended",
      "Resume a suspended queue or source before its last reference goes away. For a `DispatchSourceTimer` that you `suspend()`, call `resume()` before releasing it, or `cancel()` it instead of suspending:\n\n```swift\ndeinit {\n  timer.setEventHandler {}\n  timer.cancel()\n  if isSuspended { timer.resume() }   // a suspended source must not be released\n}\n```"
    ),
    (
      "Release of an inactive object",
      "a dispatch object created inactive was released without ever being activated",
      "Call `activate()` on queues or sources created with `.initiallyInactive` (or `resume()` on sources) before releasing them."
    ),
    (
      "Over-resume of an object",
      "`resume()` was called on a dispatch queue or source more times than `suspend()` — for example resuming a timer source twice",
      "Track whether the queue or source is suspended and call `resume()` only to balance a `suspend()` (a new `DispatchSource` needs exactly one `resume()` or `activate()`)."
    ),
    (
      "Block was expected to execute on queue",
      "a `dispatchPrecondition(condition: .onQueue(…))` (or `dispatch_assert_queue`) failed: the code ran on a different queue than it requires",
      "Call the code on the queue it asserts (for UI code, the main queue), for example by dispatching to that queue or isolating the caller to the main actor; check which queue the caller runs on in the backtrace."
    ),
    (
      "Block was expected not to execute on queue",
      "a `dispatchPrecondition(condition: .notOnQueue(…))` failed: the code ran on a queue it must not block",
      "Move the call off that queue (it would deadlock or block it), for example by dispatching it to a background queue."
    ),
  ]

  package static let description = RuleDescription(
    id: "libdispatch-client-bug",
    title: "Libdispatch API Misuse",
    summary: "libdispatch detected misuse of its API (\"BUG IN CLIENT OF LIBDISPATCH\") and trapped.",
    category: .systemTermination,
    severity: .error,
    tier: .specific,
    rationale: """
      Grand Central Dispatch checks for misuse that would otherwise deadlock or corrupt its \
      state, and stops the process with `EXC_BREAKPOINT (SIGTRAP)` (or `EXC_BAD_INSTRUCTION` on \
      Intel) and a message in the Application Specific Information: "BUG IN CLIENT OF \
      LIBDISPATCH: …". Common messages: `dispatch_sync` on the queue already running the code, \
      an unbalanced `dispatch_group_leave()`, a semaphore or group deallocated while in use, \
      releasing a suspended source, over-resuming an object, or a failed \
      `dispatchPrecondition`. (When the failed queue assertion comes from Swift 6's runtime \
      isolation check, see `swift-isolation-check-failed` instead.)
      """,
    remedy: """
      Fix the misuse the message names, at the app frame that called libdispatch (listed in \
      the summary).
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/examining-the-fields-in-a-crash-report",
      "https://github.com/apple-oss-distributions/libdispatch",
    ],
    examples: [
      .triggers(
        "semaphore deallocated while in use",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"),
          asi: [
            "libdispatch.dylib": [
              "BUG IN CLIENT OF LIBDISPATCH: Semaphore object deallocated while in use", "Abort Cause 1",
            ]
          ],
          threads: [
            .main([
              .frame(.libdispatch, "_dispatch_semaphore_dispose.cold.1"), .frame(.libdispatch, "_dispatch_dispose"),
              .frame(.app, "use_sema"), .frame(.app, "main"),
            ])
          ]),
        .definite, summaryContains: ["Semaphore object deallocated while in use", "`wait()`", "use_sema"]),
      .triggers(
        "dispatch_sync on the current queue",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"),
          asi: [
            "libdispatch.dylib": [
              "BUG IN CLIENT OF LIBDISPATCH: dispatch_sync called on queue already owned by current thread"
            ]
          ],
          threads: [
            .main([
              .frame(.libdispatch, "__DISPATCH_WAIT_FOR_QUEUE__"), .frame(.libdispatch, "_dispatch_sync_f_slow"),
              .frame(.app, "Cache.value(for:)"),
            ])
          ]),
        .definite, summaryContains: ["already running on", "Cache.value(for:)"]),
      .ignores(
        "Swift 6 isolation check (swift-isolation-check-failed)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"),
          asi: [
            "libdispatch.dylib": [
              "BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread (0x1f2e3d4c0)]"
            ]
          ],
          threads: [
            .main(ExampleReport.idleMainThread),
            ExampleReport.Thread([
              .frame(.libdispatch, "_dispatch_assert_queue_fail"), .frame(.libdispatch, "dispatch_assert_queue"),
              .frame(
                .libswiftConcurrency,
                "swift_task_isCurrentExecutorWithFlagsImpl(swift::SerialExecutorRef, swift::swift_task_is_current_executor_flag)"
              ),
              .frame(.app, "closure #1 in SettingsModel.requestAuthorization()"),
            ]),
          ], crashedThread: 1)),
      .ignores(
        "a Swift trap without a libdispatch message",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"),
          threads: [.main([.frame(.app, "Parser.parse()"), .frame(.app, "main")])])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let found = context.terminationText(containing: "BUG IN CLIENT OF LIBDISPATCH") else { return nil }
    let message = found.detail.textFollowing(Self.marker) ?? found.detail
    if message.contains("Block was expected to execute on queue"), SwiftIsolationTrap.isPresent(in: context) {
      return nil
    }
    var evidence = [found]
    var summary = "libdispatch stopped \(context.processDisplayName) on API misuse: \"\(message)\""
    let misuse = Self.misuses.first(where: { message.contains($0.fragment) })
    if let misuse { summary += " — " + misuse.meaning }
    summary += "."
    if message.contains("Block was expected to execute on queue"),
      let queue = message.textFollowing("queue [", upTo: "] ")
    {
      summary += " The required queue is \(CodeSpan.markdown(queue))."
    }
    if let backtrace = context.crashedBacktrace {
      if let (index, frame) = context.firstAppFrame(in: backtrace) {
        let item = Evidence(backtrace.framePath(index), context.describe(frame))
        summary += " The app called libdispatch from \(CodeSpan.markdown(item.detail)) (\(item.path))."
        evidence.append(item)
      } else if let top = context.topFrames(of: backtrace.thread ?? CrashThread(index: 0), limit: 2).first {
        summary += " The crashed thread was in \(CodeSpan.markdown(top.detail)) (\(top.path))."
        evidence.append(top)
      }
    }
    let remedy = misuse.map { $0.fix } ?? Self.description.remedy
    return finding(confidence: .definite, summary: summary, evidence: evidence, remedy: remedy)
  }
}
