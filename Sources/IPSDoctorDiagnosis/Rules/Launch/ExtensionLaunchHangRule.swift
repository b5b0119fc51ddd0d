import IPSDoctorSupport

/// An app extension that took too long to launch: `EXC_CRASH (SIGABRT)` with subtype
/// `LAUNCH_HANG`, or a keyboard extension killed with `SIGQUIT`.
package struct ExtensionLaunchHangRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "extension-launch-hang",
    title: "App Extension Launch Hang",
    summary: "The app extension took too long to launch and the system killed it.",
    category: .launch,
    severity: .error,
    tier: .exact,
    rationale: """
      The system gives app extensions a short time to launch. An extension that does not finish \
      in time is killed with `EXC_CRASH (SIGABRT)` and exception subtype `LAUNCH_HANG`; a \
      keyboard extension that takes too long is killed with `EXC_CRASH (SIGQUIT)` (Apple, \
      "Understanding the exception types in a crash report"). The usual culprits are work in \
      static initializers, `+load`, the principal class's `init`, or synchronous I/O before the \
      first view appears.
      """,
    remedy: """
      Make the extension's start-up trivial: no synchronous network or disk reads before the \
      first view is shown, no heavy static initializers or `+load` methods, lazy creation of \
      shared singletons, and load data asynchronously after `viewDidLoad`. Extensions also have \
      much lower memory limits than apps, so keep start-up allocations small.
      """,
    references: ["https://developer.apple.com/documentation/xcode/understanding-the-exception-types-in-a-crash-report"],
    examples: [
      .triggers(
        "LAUNCH_HANG subtype",
        ExampleReport(
          processPath: "/private/var/containers/Bundle/Application/0C7E/Example.app/PlugIns/Share.appex/Share",
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT", subtype: "LAUNCH_HANG"),
          threads: [
            .main([
              .frame(.libsystemKernel, "read"), .frame(.app, "ThemeLoader.init()"),
              .frame(.app, "static ThemeLoader.shared"),
            ])
          ]),
        .definite, summaryContains: ["LAUNCH_HANG", "ThemeLoader.init()"]),
      .triggers(
        "keyboard extension killed with SIGQUIT",
        ExampleReport(
          processPath: "/private/var/containers/Bundle/Application/0C7E/Example.app/PlugIns/Keyboard.appex/Keyboard",
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGQUIT"),
          threads: [.main(ExampleReport.blockedMainThread)]),
        .likely, summaryContains: ["SIGQUIT", "Keyboard.appex"]),
      .ignores(
        "SIGQUIT in the app itself",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGQUIT"),
          threads: [.main(ExampleReport.idleMainThread)])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    var evidence: [Evidence] = []
    var summary: String
    let confidence: Confidence
    if let subtype = context.report.exception?.subtype, subtype.contains("LAUNCH_HANG") {
      evidence.append(Evidence("exception.subtype", subtype))
      summary =
        "The system killed \(context.processDisplayName) because it did not finish launching in time (exception subtype `LAUNCH_HANG`)."
      confidence = .definite
    } else if context.report.exception?.signal?.hasPrefix("SIGQUIT") == true, context.processIsAppExtension {
      evidence.append(Evidence("exception.signal", context.report.exception?.signal ?? "SIGQUIT"))
      summary =
        "The app extension \(context.processDisplayName) was killed with `SIGQUIT`, which the system uses for keyboard extensions that take too long to launch."
      confidence = .likely
    } else {
      return nil
    }
    if let path = context.report.processPath, path.contains(".appex/") {
      let bundle = path.split(separator: "/").first(where: { $0.hasSuffix(".appex") }).map(String.init) ?? path
      summary += " The process is the extension \(CodeSpan.markdown(bundle))."
      evidence.append(Evidence("procPath", path))
    }
    if let thread = context.mainOrFirstThread {
      let frames = context.topFrames(of: thread, limit: 3)
      if !frames.isEmpty {
        summary += " Its main thread was in " + DiagnosisContext.frameList(frames) + "."
        evidence += frames
      }
      if let app = context.firstAppFrame(on: thread), !evidence.contains(app) {
        summary += " The first frame of the extension's own code is \(CodeSpan.markdown(app.detail)) (\(app.path))."
        evidence.append(app)
      }
    }
    return finding(confidence: confidence, summary: summary, evidence: evidence)
  }
}
