import IPSDoctorSupport

/// The app kept a background-task assertion (`beginBackgroundTask`) past the time the system
/// allows, usually because `endBackgroundTask(_:)` was never called.
package struct WatchdogBackgroundAssertionRule: DiagnosisRule {
  package init() {}

  static let signature = "has active assertions beyond permitted time"

  package static let description = RuleDescription(
    id: "watchdog-background-assertion",
    title: "Background Task Not Ended In Time",
    summary: "The app held a background-task assertion beyond the permitted time and was killed.",
    category: .systemTermination,
    severity: .error,
    tier: .exact,
    outranks: [WatchdogTimeoutRule.self],
    rationale: """
      `UIApplication.beginBackgroundTask(withName:expirationHandler:)` asks the system for extra \
      time after the app leaves the foreground. Every call must be balanced by \
      `endBackgroundTask(_:)`, and the expiration handler must end the task when the time runs \
      out. When an assertion is still held after the permitted duration, the system kills the \
      app: the termination description says the process "has active assertions beyond \
      permitted time" and names the assertion (often "Called by UIKitCore, from -[UIApplication \
      _beginBackgroundTaskWithName:expirationHandler:]") and its `permittedBackgroundDuration`. \
      The backtrace is usually irrelevant: the leak happened earlier.
      """,
    remedy: """
      Balance every `beginBackgroundTask` with exactly one `endBackgroundTask`, on every path, \
      and end the task in the expiration handler too:

      ```swift
      var task: UIBackgroundTaskIdentifier = .invalid
      task = UIApplication.shared.beginBackgroundTask(withName: "Upload") {
        // Time is up: stop the work and end the task now.
        uploader.cancel()
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
      }
      uploader.start { _ in
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
      }
      ```

      Do not start a new background task from an expiration handler, and give each task a name so \
      the termination description tells you which one leaked.
      """,
    references: [
      "https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)",
      "https://developer.apple.com/documentation/xcode/sigkill",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard
      let text = context.terminationText(containing: Self.signature)
        ?? context.terminationText(containing: "permittedBackgroundDuration")
    else { return nil }
    var evidence: [Evidence] = []
    let match = context.terminationCode(in: WatchdogTimeoutRule.codes)
    if let match { evidence.append(match.evidence) }
    if !evidence.contains(text) { evidence.append(text) }
    var summary = match.map { context.killedSentence($0) } ?? "The system killed \(context.processDisplayName)"
    summary += " because it still held a background-task assertion after the permitted time."
    if let duration = text.detail.numberFollowing("permittedBackgroundDuration: ") {
      let seconds = Double(duration).map { String(Int($0)) } ?? duration
      summary += " The permitted background duration was \(seconds) seconds."
    }
    if let name = text.detail.textFollowing(" name: ", upTo: "\n)").map(Self.assertionName) {
      summary += " The assertion that was still held is named \"\(name)\"."
      if name.contains("beginBackgroundTask") {
        summary +=
          " It was taken by `beginBackgroundTask(withName:expirationHandler:)`, so a matching `endBackgroundTask(_:)` was not called in time."
      }
    } else {
      summary +=
        " A `beginBackgroundTask` call was not balanced by `endBackgroundTask(_:)` in time, or the expiration handler did not end the task."
    }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  /// "Called by UIKitCore, from -[UIApplication …] process: <…>" → up to " process:".
  static func assertionName(_ text: String) -> String {
    if let range = text.firstRange(of: " process:") { return String(text[..<range.lowerBound]) }
    if let range = text.firstRange(of: " permittedBackgroundDuration") {
      return String(text[..<range.lowerBound])
    }
    return text
  }

  static let examples: [RuleExample] = [
    .triggers(
      "BKProcessAssertion past permittedBackgroundDuration",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL", codes: "0x000000008badf00d"),
        termination: ExampleReport.Termination(details: [
          "<BKNewProcess: 0x14dd2e3a0; com.example.app; pid: 423; hostpid: -1> has active assertions beyond permitted time: {(<BKProcessAssertion: 0x14de4e6e0; id: 423-9A2B; name: Called by UIKitCore, from -[UIApplication _beginBackgroundTaskWithName:expirationHandler:] process: <BKNewProcess: 0x14dd2e3a0; com.example.app; pid: 423> permittedBackgroundDuration: 180.000000 reason: finishTask owner pid:423 preventSuspend preventIdleSleep preventSuspendOnSleep>)}"
        ]), threads: [.main(ExampleReport.idleMainThread)]),
      .definite,
      summaryContains: [
        "0x8badf00d", "180 seconds", "_beginBackgroundTaskWithName:expirationHandler:", "endBackgroundTask",
      ]),
    .triggers(
      "RunningBoard reason without details",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(
          namespace: "RUNNINGBOARD", code: 0x8badf00d,
          reasons: [
            "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:[application<com.example.app>:423] has active assertions beyond permitted time"
          ]), threads: [.main(ExampleReport.idleMainThread)]),
      .definite, summaryContains: ["background-task assertion"]),
    .ignores(
      "scene-update watchdog (watchdog-timeout)",
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGKILL"),
        termination: ExampleReport.Termination(
          namespace: "FRONTBOARD", code: 0x8badf00d,
          reasons: [
            "scene-update watchdog transgression: app exhausted real (wall clock) time allowance of 10.00 seconds"
          ]), threads: [.main(ExampleReport.blockedMainThread)])),
  ]
}
