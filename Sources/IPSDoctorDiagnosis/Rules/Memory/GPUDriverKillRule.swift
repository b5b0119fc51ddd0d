import IPSDoctorSupport

/// The GPU driver killed the app for its GPU work: a GPU hang or restart blamed on the app.
package struct GPUDriverKillRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "gpu-driver-kill",
    title: "Killed By The GPU Driver",
    summary: "The GPU driver killed the app because its GPU commands hung or faulted the GPU and forced a restart.",
    category: .memory,
    severity: .error,
    tier: .exact,
    rationale: """
      When a command buffer runs too long, faults on the GPU, or hangs it, the driver restarts \
      the GPU and kills the process it holds responsible. The crashed thread then stops in the \
      driver's kill path: `gpus_ReturnGuiltyForHardwareRestart` or \
      `gpus_ReturnGuiltyForSoftwareRestart` (the app caused the restart), or `gpusKillClient`. \
      The CPU frames show where the app submitted work, not the shader that hung.
      """,
    remedy: """
      Capture a GPU frame (Xcode's Metal debugger) at the same point and look for shaders that \
      loop too long or read out of bounds, enable Metal API and shader validation, and split \
      very long command buffers. Check `MTLCommandBuffer.error` and its \
      `errorOptions = .encoderExecutionStatus` for the failing encoder.
      """,
    references: ["https://developer.apple.com/documentation/metal/mtlcommandbuffer/error"],
    examples: [
      .triggers(
        "GPU restart blamed on the app",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.gpuSupport, "gpusKillClient"),
              .frame(.gpuSupport, "gpus_ReturnGuiltyForHardwareRestart"),
              .frame(.app, "Renderer.draw(in:)"),
            ])
          ]),
        .definite, summaryContains: ["gpus_ReturnGuiltyForHardwareRestart", "Renderer.draw(in:)"]),
      .ignores(
        "OpenGL in the background (opengl-background-render)",
        ExampleReport(
          exception: ExampleReport.Exception(
            "EXC_BAD_ACCESS", signal: "SIGSEGV", subtype: "KERN_INVALID_ADDRESS at 0x0000000000000001"),
          threads: [
            .main([
              .frame(.gpuSupport, "gpus_ReturnNotPermittedKillClient"),
              .frame(.app, "GLView.render()"),
            ])
          ])),
    ])

  /// The driver's kill path, with its guilt, first; `gpusKillClient` alone says less.
  static let guiltyFrames = ["gpus_ReturnGuiltyForHardwareRestart", "gpus_ReturnGuiltyForSoftwareRestart"]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    // Every kill path is a "gpus" function.
    guard context.crashedThreadTop(8, contains: "gpus") != nil else { return nil }
    // Not in the background: that is opengl-background-render's signature.
    if context.crashedThreadTop(8, contains: "gpus_ReturnNotPermittedKillClient") != nil { return nil }
    var hit: (index: Int, evidence: Evidence)?
    var guilty = false
    for fragment in Self.guiltyFrames {
      if let found = context.crashedThreadTop(8, contains: fragment) {
        hit = found
        guilty = true
        break
      }
    }
    if hit == nil { hit = context.crashedThreadTop(8, contains: "gpusKillClient") }
    guard let hit else { return nil }
    var evidence = [hit.evidence]
    var summary = "The GPU driver killed the app in \(DiagnosisContext.quote(hit.evidence))"
    summary +=
      guilty
      ? ": the app's GPU commands hung or faulted the GPU and forced it to restart."
      : ": the driver ended the app for its GPU work (a hang or fault on the GPU)."
    if let backtrace = context.crashedBacktrace, let app = context.appFrameEvidence(in: backtrace, from: hit.index) {
      summary +=
        " The app submitted that work from \(DiagnosisContext.quote(app)); the shader or command buffer it encoded is the lead."
      evidence.append(app)
    }
    return finding(confidence: guilty ? .definite : .likely, summary: summary, evidence: evidence)
  }
}
