import IPSDoctorSupport

/// `0x8badf00d` ("ate bad food"): the system watchdog killed an app whose main thread did not
/// respond in time to a launch, scene update or exit.
package struct WatchdogTimeoutRule: DiagnosisRule {
  package init() {}

  /// `[code]`, inline (see `TerminationCodes`).
  static let codes = TerminationCodes(code)
  static let code: UInt64 = 0x8badf00d

  package static let description = RuleDescription(
    id: "watchdog-timeout",
    title: "Watchdog Timeout",
    summary: "The system watchdog killed the app (0x8badf00d) because its main thread did not respond in time.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    outranks: [BackgroundTaskTimeoutRule.self, ExtensionLaunchHangRule.self],
    rationale: """
      iOS runs a watchdog over the app's lifecycle events. When the main thread does not finish \
      one in time — drawing the first frame after launch (`scene-create`, `process-launch`), \
      updating the UI while running or going to the background (`scene-update`), exiting when \
      asked (`process-exit`) — the system kills the app with `EXC_CRASH (SIGKILL)` and \
      termination code `0x8badf00d`. The termination description names the event, the time \
      allowance and the CPU time the app used: little CPU means the main thread was *waiting* \
      (synchronous networking, file I/O, a lock, a semaphore, `DispatchQueue.main.sync` from the \
      main thread); much CPU means it was *computing* (JSON parsing, image decoding, a Core Data \
      migration). The main thread's backtrace shows where it was when the watchdog fired, which \
      is often, but not always, the culprit. The watchdog is disabled under the debugger, so \
      these hangs rarely reproduce in Xcode.
      """,
    remedy: """
      Keep the main thread free: move the blocking or long work to a background queue or a \
      Swift `Task`, and hop back to the main actor only to update the UI.

      ```swift
      func application(_ application: UIApplication,
                       didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // Show UI first; load data off the main thread.
        Task.detached(priority: .userInitiated) {
          let catalog = try await CatalogStore.shared.load()   // network / disk / migration
          await MainActor.run { RootViewModel.shared.catalog = catalog }
        }
        return true
      }
      ```

      Never wait on the main thread for work that may be slow: no synchronous `URLSession` \
      wrappers with semaphores, no `Data(contentsOf:)` of a remote URL, no \
      `DispatchQueue.main.sync` from the main thread, no lock held by a background thread.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-watchdog-terminations",
      "https://developer.apple.com/documentation/xcode/sigkill",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let match = context.terminationCode(in: Self.codes) else { return nil }
    let text = context.terminationDescription
    if text.contains("has active assertions beyond permitted time") { return nil }
    let details = WatchdogDetails(text: text)

    var evidence = [match.evidence]
    if let event = details.event,
      let item = context.terminationText(containing: event)
    {
      if item.path != match.evidence.path { evidence.append(item) }
    } else if let item = context.terminationTexts.first, item.path != match.evidence.path {
      evidence.append(Evidence(item.path, item.text))
    }

    var summary = "The system watchdog killed \(context.processDisplayName) with \(match.phrase)"
    if let event = details.event {
      summary += " during the \(CodeSpan.markdown(event)) event: \(Self.meaning(of: event))"
    } else {
      summary += ": its main thread did not respond in time"
    }
    if let visibility = details.visibility {
      summary += " (the app was in the \(visibility.lowercased()))"
    }
    summary += "."
    if let figures = details.figuresSentence {
      summary += " " + figures
    }
    // A main thread stopped at address 0 did not respond because it had faulted on a NULL call:
    // that call (bad-instruction-fetch) is the cause, the kill its consequence.
    let stoppedAtNull = context.mainOrFirstThread.flatMap(NullProgramCounter.find(on:)) != nil
    if stoppedAtNull {
      summary +=
        " Its main thread was stopped at address 0, after a call through a NULL function pointer: that "
        + "call, not slow work, is why it did not respond."
    }
    if let thread = context.mainOrFirstThread {
      let frames = context.topFrames(of: thread)
      if !frames.isEmpty {
        summary +=
          " When it was killed, the main thread (thread \(thread.index)) was in "
          + "\(DiagnosisContext.frameList(frames))."
        evidence += frames
      }
      if let app = context.firstAppFrame(on: thread) {
        summary += " The first frame of the app's own code there is \(CodeSpan.markdown(app.detail)) (\(app.path))."
        if !evidence.contains(app) { evidence.append(app) }
      }
    }
    return finding(
      confidence: stoppedAtNull ? .possible : .definite, summary: summary, evidence: evidence,
      remedy: Self.remedy(for: details),
      verification: [
        "Run the same flow with the Time Profiler or the Hangs instrument (the watchdog is off under the debugger) and check the main thread.",
        "Watch MetricKit `MXHangDiagnostic` / Xcode Organizer Hangs for the same stack after the fix.",
      ])
  }

  static func meaning(of event: String) -> String {
    switch event {
    case "scene-create":
      "the app did not draw its first frame within the time allowed after launch"
    case "process-launch":
      "the app did not finish launching in time"
    case "scene-update":
      "the main thread did not update the app's UI in time (blocked while running or while moving to the background)"
    case "process-exit":
      "the app did not exit in time when the system asked it to terminate"
    default:
      "the main thread did not handle the event in time"
    }
  }

  static func remedy(for details: WatchdogDetails) -> String {
    var text: String
    switch details.event {
    case "scene-create", "process-launch":
      text = """
        This is a **launch** timeout. Everything between process start and the first frame — \
        static initializers, `application(_:didFinishLaunchingWithOptions:)`, \
        `scene(_:willConnectTo:options:)`, the first view controller's `viewDidLoad` and the \
        first SwiftUI `body` — shares the allowance (about 20 s, less in the background). Show \
        UI first and load later: defer SDK set-up, database migrations, large file reads and \
        network calls until after the first frame, and never wait for them synchronously.

        ```swift
        func scene(_ scene: UIScene, willConnectTo session: UISceneSession,
                   options connectionOptions: UIScene.ConnectionOptions) {
          window?.rootViewController = LoadingViewController()   // draws immediately
          Task {
            let store = try await Store.open()                   // off the main thread inside
            window?.rootViewController = RootViewController(store: store)
          }
        }
        ```
        """
    case "process-exit":
      text = """
        This is an **exit** timeout: work in `applicationWillTerminate(_:)`, \
        `sceneDidDisconnect(_:)`, `deinit` or an `atexit` handler took longer than the system \
        allows (about 5 s). Save state incrementally while the app runs (for example in \
        `sceneDidEnterBackground(_:)`) and keep termination handlers to a few milliseconds; do \
        not wait for network requests or background queues there.
        """
    case "scene-update":
      text = """
        This is a **scene-update** timeout: while the app was running (or moving to the \
        background) its main thread stayed busy or blocked for about 10 s. Find the call on the \
        main thread in the backtrace and move it off the main thread; for waits, make the API \
        asynchronous instead of blocking:

        ```swift
        // Before: blocks the main thread until the request finishes.
        let data = try fetchSynchronously(url)

        // After:
        Task {
          let (data, _) = try await URLSession.shared.data(from: url)
          await MainActor.run { self.show(data) }
        }
        ```
        """
    default:
      text = description.remedy
    }
    if let waiting = details.appMostlyWaiting {
      text +=
        waiting
        ? "\n\nThe app used little CPU during the allowance, so look for **waits** on the main thread: semaphores, `DispatchGroup.wait()`, `DispatchQueue.main.sync`, locks, synchronous file or network I/O."
        : "\n\nThe app used a lot of CPU during the allowance, so look for **heavy computation** on the main thread (parsing, image processing, layout loops) and move it to a background task."
    }
    return text
  }

  static let examples: [RuleExample] = [
    .triggers(
      "scene-create watchdog with CPU statistics",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(
          namespace: "FRONTBOARD", code: 0x8badf00d,
          reasons: [
            "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-create watchdog transgression: application<com.example.app>:667 exhausted real (wall clock) time allowance of 19.97 seconds",
            "ProcessVisibility: Foreground", "ProcessState: Running", "WatchdogEvent: scene-create",
            "WatchdogVisibility: Foreground", "WatchdogCPUStatistics: (",
            "\"Elapsed total CPU time (seconds): 15.290 (user 15.290, system 0.000), 28% CPU\",",
            "\"Elapsed application CPU time (seconds): 0.367, 1% CPU\"",
            ") reportType:CrashLog maxTerminationResistance:Interactive>",
          ]), threads: [.main(ExampleReport.blockedMainThread)]),
      .definite,
      summaryContains: [
        "0x8badf00d", "`scene-create`", "19.97-second", "0.367 s", "mostly waiting",
        "semaphore_wait_trap", "CatalogStore.loadSynchronously()", "threads[0].frames[3]",
      ]),
    .triggers(
      "legacy description with scene-update in one string",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(
          namespace: "SPRINGBOARD", code: 0x8badf00d,
          details: [
            "SPRINGBOARD, scene-update watchdog transgression: com.example.app exhausted real (wall clock) time allowance of 10.00 seconds | ProcessVisibility: Foreground | ProcessState: Running | WatchdogEvent: scene-update | WatchdogVisibility: Foreground | WatchdogCPUStatistics: ( | \"Elapsed total CPU time (seconds): 11.480 (user 11.480, system 0.000), 57% CPU\", | \"Elapsed application CPU time (seconds): 5.812, 29% CPU\" | )"
          ]), threads: [.main(ExampleReport.blockedMainThread)]),
      .definite, summaryContains: ["`scene-update`", "10.00-second", "busy computing"]),
    .triggers(
      "code only in the exception codes (iOS 12 and earlier)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL", codes: "0x000000008badf00d"),
        threads: [.main(ExampleReport.blockedMainThread)]),
      .definite, summaryContains: ["0x8badf00d", "did not respond in time"]),
    .triggers(
      "process-exit: failed to terminate gracefully",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(
          namespace: "FRONTBOARD", code: 0x8badf00d,
          reasons: [
            "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:Failed to terminate gracefully after 5.0s"
          ]),
        threads: [
          .main([
            .frame(.libsystemKernel, "__psynch_mutexwait"), .frame(.app, "SessionStore.flush()"),
            .frame(.app, "AppDelegate.applicationWillTerminate(_:)"), .frame(.uiKit, "UIApplicationMain"),
          ])
        ]),
      .definite, summaryContains: ["`process-exit`", "did not exit in time", "SessionStore.flush()"]),
    .ignores(
      "background assertion overrun (watchdog-background-assertion)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(
          namespace: "RUNNINGBOARD", code: 0x8badf00d,
          reasons: [
            "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:[application<com.example.app>:423] has active assertions beyond permitted time"
          ]), threads: [.main(ExampleReport.idleMainThread)])),
    .ignores(
      "user force-quit (0xdeadfa11) is not a watchdog kill",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(namespace: "FRONTBOARD", code: 0xdeadfa11),
        threads: [.main(ExampleReport.blockedMainThread)])),
    .ignores(
      "a SIGNAL code that is not 0x8badf00d",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGSEGV", codes: "0x0000000000000001, 0x0000000000000000"),
        termination: ExampleReport.Termination(namespace: "SIGNAL", code: 11, indicator: "Segmentation fault: 11"),
        threads: [.main(ExampleReport.blockedMainThread)])),
  ]
}
