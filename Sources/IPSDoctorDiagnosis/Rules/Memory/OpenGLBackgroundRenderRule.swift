import IPSDoctorSupport

/// `gpus_ReturnNotPermittedKillClient`: OpenGL ES rendering while the app was in the background.
package struct OpenGLBackgroundRenderRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "opengl-background-render",
    title: "OpenGL ES Rendering In The Background",
    summary: "The app issued OpenGL ES commands while in the background, and the GPU driver killed it.",
    category: .memory,
    severity: .error,
    tier: .exact,
    outranks: [GPUDriverKillRule.self],
    rationale: """
      iOS does not let background apps use the GPU. When an app submits OpenGL ES work after it \
      has been backgrounded, the driver calls `gpus_ReturnNotPermittedKillClient`, which crashes \
      the app on purpose (usually `EXC_BAD_ACCESS (SIGSEGV)` or `SIGABRT`). The culprit is a \
      render loop (`CADisplayLink`, `GLKViewController`, a game engine or map view) that keeps \
      drawing after `applicationWillResignActive`/`sceneWillResignActive`.
      """,
    remedy: """
      Stop rendering before the app leaves the foreground: pause the display link or render loop \
      in `sceneWillResignActive(_:)` (or `applicationWillResignActive(_:)`), call `glFinish()` \
      there, and don't resume until the app is active again. OpenGL ES is deprecated; moving the \
      renderer to Metal removes this class of crash.
      """,
    references: [
      "https://developer.apple.com/library/archive/documentation/3DDrawing/Conceptual/OpenGLES_ProgrammingGuide/ImplementingaMultitasking-awareOpenGLESApplication/ImplementingaMultitasking-awareOpenGLESApplication.html",
      "https://developer.apple.com/documentation/xcode/identifying-the-cause-of-common-crashes",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let hit = context.crashedThreadTop(8, contains: "gpus_ReturnNotPermittedKillClient") else {
      return nil
    }
    var evidence = [hit.evidence]
    var summary =
      "The GPU driver killed the app (`gpus_ReturnNotPermittedKillClient` at \(hit.evidence.path)) because it submitted OpenGL ES commands while in the background."
    if let backtrace = context.crashedBacktrace, let app = context.appFrameEvidence(in: backtrace, from: hit.index) {
      summary += " The app's rendering call is \(DiagnosisContext.quote(app))."
      evidence.append(app)
    }
    if let type = context.exceptionEvidence { evidence.append(type) }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "render loop in the background",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x0000000000000001",
        frames: [
          .frame(.gpuSupport, "gpus_ReturnNotPermittedKillClient"), .frame(.gpuSupport, "gpusSubmitDataBuffers"),
          .frame(.gpuSupport, "glFlush"), .frame(.app, "GameRenderer.drawFrame(_:)"),
        ]),
      .definite, summaryContains: ["gpus_ReturnNotPermittedKillClient", "GameRenderer.drawFrame(_:)"]),
    .ignores(
      "a crash in OpenGL code in the foreground",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x00000004cdfaf798",
        frames: [.frame(.gpuSupport, "gleRunVertexSubmitImmediate"), .frame(.app, "GameRenderer.drawFrame(_:)")])),
  ]
}
