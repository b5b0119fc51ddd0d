import IPSDoctorSupport

/// Auto Layout's thread check: "Modifications to the layout engine must not be performed from a
/// background thread after it has been accessed from the main thread."
package struct LayoutEngineBackgroundThreadRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "layout-engine-background-thread",
    title: "Auto Layout Modified From A Background Thread",
    summary: "The app changed views or constraints off the main thread and Auto Layout raised an exception.",
    category: .concurrency,
    severity: .error,
    tier: .exact,
    rationale: """
      UIKit and AppKit views are main-thread-only. Auto Layout's engine checks the thread on every \
      modification (`_AssertAutoLayoutOnAllowedThreadsOnly` in CoreAutoLayout) and raises \
      `NSInternalInconsistencyException`, "Modifications to the layout engine must not be performed \
      from a background thread after it has been accessed from the main thread." Older systems only \
      logged "This application is modifying the autolayout engine from a background thread" and \
      crashed later in unrelated places.

      The view change usually sits in a completion handler that a framework calls on its own queue: \
      `URLSession` data tasks (`com.apple.NSURLSession-delegate`), `PHImageManager`, Core Data \
      background contexts, `DispatchQueue.global()` work, or a `Task` that is not on the main actor.
      """,
    remedy: """
      Move the UI change to the main thread: wrap it in `DispatchQueue.main.async { … }` (or \
      `Task { @MainActor in … }`), or make the method that touches views `@MainActor` so the \
      compiler finds the other background callers.
      """,
    references: [
      "https://developer.apple.com/documentation/code_diagnostics/main_thread_checker",
      "https://developer.apple.com/documentation/uikit/uiview",
    ],
    examples: Examples.all)

  static let messages = [
    "Modifications to the layout engine must not be performed from a background thread",
    "modifying the autolayout engine from a background thread",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let reason = context.reasonText(containingAny: Self.messages)
    else { return nil }
    var evidence = [reason]
    // The app frame that made the change, and the UIKit call it made.
    let found = context.firstAppFrameAndCall()
    let caller = found?.caller
    let uikitCall = found?.call?.detail
    if let call = found?.call { evidence.append(call) }
    if let caller { evidence.append(caller.evidence) }
    if let queue = context.crashedQueueEvidence { evidence.append(queue) }
    let thread = context.crashedThread

    var summary =
      "Auto Layout raised \"\(reason.detail.trimmingWhitespace())\" (\(reason.path)). "
    if let caller {
      summary +=
        "The app's \(caller.name.map(SymbolText.kind) ?? "code") \(caller.quotedName) (\(caller.evidence.path))"
      if let uikitCall {
        summary += " called \(CodeSpan.markdown(uikitCall))"
      } else {
        summary += " changed the view hierarchy"
      }
    } else {
      summary += "A view or constraint was changed"
    }
    if let thread {
      summary += " on \(context.threadDescription(thread)), a background thread."
    } else {
      summary += " off the main thread."
    }
    let confidence: Confidence = (thread?.isMainThread ?? false) ? .likely : .definite
    return finding(
      confidence: confidence, summary: summary, evidence: evidence,
      remedy: remedy(caller: caller?.name, uikitCall: uikitCall),
      verification: [
        "Run with the Main Thread Checker (on by default in Xcode's Debug scheme): it stops at the first off-main UI call."
      ])
  }

  private func remedy(caller: String?, uikitCall: String?) -> String {
    var text = Self.description.remedy + "\n\n"
    let function = caller.map(SymbolText.enclosingFunction)
    text += function.map { "In \(CodeSpan.markdown($0)), hop" } ?? "Hop"
    text += " to the main queue before touching views"
    if let uikitCall { text += " (here \(CodeSpan.markdown(uikitCall)))" }
    text += """
      :

      ```swift
      let task = URLSession.shared.dataTask(with: url) { data, _, _ in
        let image = data.flatMap(UIImage.init(data:))  // decode off main
        DispatchQueue.main.async {
          imageView.image = image  // view changes on main
          container.addSubview(imageView)
        }
      }
      ```
      """
    return text
  }
}

extension LayoutEngineBackgroundThreadRule {
  enum Examples {
    static func report(reason: String, queue: String = "com.apple.NSURLSession-delegate") -> ExampleReport {
      ExampleReport.addSubviewOffMain(
        reason: reason, queue: queue, assertion: "_AssertAutoLayoutOnAllowedThreadsOnly", in: .coreAutoLayout,
        appSymbol: "closure #1 in AvatarLoader.load(into:)")
    }

    static let all: [RuleExample] = [
      .triggers(
        "addSubview from a URLSession completion handler",
        report(
          reason:
            "Modifications to the layout engine must not be performed from a background thread after it has been accessed from the main thread."
        ),
        .definite,
        summaryContains: [
          "closure #1 in AvatarLoader.load(into:)", "-[UIView(Hierarchy) addSubview:]",
          "lastExceptionBacktrace[3]", "com.apple.NSURLSession-delegate",
        ]),
      RuleExample(
        "fixture: avatar loader adds a subview on the URLSession queue",
        .fixture("reports/layout-engine-background-thread.ips"),
        .triggers(
          .definite, summaryContains: ["closure #1 in AvatarLoader.load(into:)", "com.apple.NSURLSession-delegate"])),
      .ignores(
        "UIKit's other main-thread assertion",
        report(reason: "Call must be made on main thread", queue: "com.apple.root.utility-qos")),
    ]
  }
}
