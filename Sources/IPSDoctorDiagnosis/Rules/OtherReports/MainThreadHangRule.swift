import IPSDoctorSupport

/// A hang report: the main thread did not respond to events for a while, and the report holds its
/// stack. Not a crash; the summary names the app frames that were blocking and what the frames
/// above them were doing.
package struct MainThreadHangRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "main-thread-hang",
    title: "Main Thread Hang",
    summary: "The app hung: its main thread was busy or waiting and did not respond to events; it is not a crash.",
    category: .otherReports,
    severity: .warning,
    tier: .specific,
    rationale: """
      A hang diagnostic (MetricKit's `hangDiagnostics`) records that the main thread did not \
      handle user input for a while (`hangDuration`) and its call stack at that time. The main \
      thread hangs in one of two ways: it is busy (the top frames run code — the app's, or a \
      framework's on the app's behalf) or it waits (the top frames are in the kernel: a lock, a \
      semaphore, a synchronous dispatch to a busy queue, file I/O or a synchronous call to \
      another process). The app frames below the top are the code that started the work or the \
      wait on the main thread. The app kept running (or the user left it), so no crash rule \
      applies.
      """,
    remedy: """
      Move the work the app frames show off the main thread (a background queue, a detached task \
      or an actor) and deliver only the result to the main actor. Never wait on the main thread \
      for other work: no `DispatchQueue.sync` to a queue that may be busy, no semaphores or \
      `DispatchGroup.wait`, no locks that background threads hold for long, no synchronous file, \
      network or XPC calls. Measure with the Hangs and Time Profiler instruments.
      """,
    references: [
      "https://developer.apple.com/documentation/metrickit/mxhangdiagnostic",
      "https://developer.apple.com/documentation/xcode/understanding-hangs-in-your-app",
    ],
    examples: [
      .triggers(
        "MetricKit hang waiting in the kernel under the app's code",
        .text(
          Self.examplePayload(
            list: "hangDiagnostics", meta: #""hangDuration":"3.5 sec""#,
            frames: ["libsystem_kernel.dylib", "libdispatch.dylib", "ShopApp", "UIKitCore", "ShopApp", "dyld"])),
        .likely, summaryContains: ["3.5 sec", "main thread", "system call", "ShopApp + 0x1002"]),
      .triggers(
        "MetricKit hang busy in the app's own code",
        .text(
          Self.examplePayload(
            list: "hangDiagnostics", meta: #""hangDuration":"2 sec""#,
            frames: ["ShopApp", "ShopApp", "UIKitCore", "ShopApp", "dyld"])),
        .likely, summaryContains: ["busy", "ShopApp + 0x1000"]),
      .ignores(
        "MetricKit CPU exception (resource-report)",
        .text(
          Self.examplePayload(
            list: "cpuExceptionDiagnostics", meta: #""totalCPUTime":"20 sec""#,
            frames: ["ShopApp", "ShopApp", "dyld"]))),
    ])

  /// A MetricKit payload (``ExampleReport`` writes Apple's reports; this is the SDK's JSON) with one diagnostic whose one call stack runs through `frames` (the top
  /// first), each frame in the binary it names at offset 0x1000 plus its position.
  static func examplePayload(list: String, meta: String, frames: [String]) -> String {
    var frame = ""
    for (index, name) in frames.enumerated().reversed() {
      let children = frame.isEmpty ? "" : #","subFrames":["# + frame + "]"
      frame =
        #"{"binaryName":""# + name + #"","offsetIntoBinaryTextSegment":"# + String(0x1000 + index)
        + #","address":"# + String(0x1_0000_0000 + 0x1000 + index) + #","sampleCount":10"# + children + "}"
    }
    return #"{""# + list
      + #"":[{"callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,"callStackRootFrames":["#
      + frame + #"]}]},"diagnosticMetaData":{"osVersion":"iPhone OS 18.1 (22B83)","# + meta + "}}]}"
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .resource, let resource = context.report.resource, resource.measure == .hang
    else { return nil }
    var evidence: [Evidence] = []
    var summary = "The app hung: its main thread did not respond to events"
    if let duration = resource["hangDuration"] {
      // "20 secs.": the sentence's own period ends it.
      summary += " for " + (duration.hasSuffix(".") ? String(duration.dropLast()) : duration)
      evidence.append(Evidence("hangDuration", duration))
    }
    let fatal = context.report.isNonFatal == false
    summary += fatal ? ". The app was ended while it hung (a fatal hang)." : ". This is a hang report, not a crash."
    guard let backtrace = context.crashedBacktrace, !backtrace.frames.isEmpty else {
      summary += " It holds no call stack, so nothing says where the main thread was."
      return finding(confidence: .possible, summary: summary, evidence: evidence, severity: fatal ? .error : nil)
    }
    let onMain = context.crashedThreadDisplay ?? "the main thread"
    let firstApp = context.firstAppFrameIndex(in: backtrace.frames, from: 0)
    // The frames above the first app frame (the top one when the app's code is on top).
    let activity = HangActivity(backtrace.frames.prefix(max(1, firstApp ?? 8)), context)
    summary += " " + activity.sentence(on: onMain, top: context.frameEvidence(backtrace, 0))
    evidence.append(context.frameEvidence(backtrace, activity.frameIndex ?? 0))

    // The app's frames on the stack, the top first: the code that did the work or the wait.
    var appFrames: [Evidence] = []
    var index = firstApp
    while let found = index, appFrames.count < 3 {
      let frame = context.frameEvidence(backtrace, found)
      // `main` starts every app: it blocks nothing.
      let name = context.displayName(backtrace.frames[found])
      let isMain = name == "main" || (name?.hasSuffix(".$main()") ?? false)
      if !isMain && !appFrames.contains(where: { $0.detail == frame.detail }) { appFrames.append(frame) }
      index = context.firstAppFrameIndex(in: backtrace.frames, from: found + 1)
    }
    if appFrames.isEmpty {
      summary += " No frame of the stack is known to be the app's."
    } else {
      summary += " The app's frames on the stack, the blocking code first: "
      summary += appFrames.map { DiagnosisContext.quote($0) }.joined(separator: ", ") + "."
      evidence += appFrames
      if context.hasUnsymbolicatedAppFrames {
        summary +=
          " Symbolicate them with the build's dSYM (`ips-doctor … --dsym MyApp.app.dSYM`) to see the functions."
      }
    }
    summary += activity.advice
    // Likely only when the stack shows both the app's code and what the main thread was doing.
    let shown = activity.kind != .unknown && activity.kind != .idle
    let confidence: Confidence = !appFrames.isEmpty && shown ? .likely : .possible
    return finding(confidence: confidence, summary: summary, evidence: evidence, severity: fatal ? .error : nil)
  }
}
