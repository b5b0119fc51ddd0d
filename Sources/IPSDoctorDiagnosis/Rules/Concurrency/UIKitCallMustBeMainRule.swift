import IPSDoctorSupport

/// UIKit's "Call must be made on main thread" assertion from an ordinary UIKit call made off the
/// main thread (not while completing a system callback, and not from the async bridge).
package struct UIKitCallMustBeMainRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "uikit-call-must-be-main",
    title: "UIKit Called Off The Main Thread",
    summary: "The app called a UIKit API off the main thread and UIKit asserted \"Call must be made on main thread\".",
    category: .concurrency,
    severity: .error,
    tier: .specific,
    rationale: """
      Many UIKit internals (`UIView` hierarchy changes, `UIResponder`, the CA-commit queue, layout \
      containers) check the thread with an `NSAssertionHandler` and raise \
      `NSInternalInconsistencyException`, "Call must be made on main thread". The first app frame \
      below UIKit in the exception backtrace is the call that was made off the main thread; the \
      crashed thread's queue tells where it ran (a `DispatchQueue.global()` block, a framework's \
      callback queue, or the Swift concurrency pool).

      When the same assertion comes from UIKit's snapshot/state-restoration or BaseBoard response \
      frames, the app called a *system completion handler* off main instead — see \
      `completion-handler-called-off-main` and `async-bridge-completion-off-main`.
      """,
    remedy: """
      Make the UIKit call on the main thread: wrap it in `DispatchQueue.main.async { … }` or \
      `Task { @MainActor in … }`, or mark the method `@MainActor` so the compiler finds every \
      background caller.
      """,
    references: [
      "https://developer.apple.com/documentation/code_diagnostics/main_thread_checker",
      "https://developer.apple.com/documentation/swift/mainactor",
    ],
    examples: Examples.all)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let reason = context.reasonText(containing: MainThreadAssertion.message) else { return nil }
    if let name = context.report.exceptionReason?.name, name != "NSInternalInconsistencyException" {
      return nil
    }
    // The more specific completion-handler rules own the snapshot/BaseBoard shapes: an asserting
    // frame names the framework that asserted.
    if MainThreadAssertion.find(in: context).deepestAssertingFrame != nil { return nil }
    if AsyncBridgeCompletionOffMainRule.match(context) != nil { return nil }
    if CompletionHandlerCalledOffMainRule.match(context) != nil { return nil }

    var evidence = [reason]
    let found = context.firstAppFrameAndCall()
    let caller = found?.caller
    let uikitCall = found?.call
    if let uikitCall { evidence.append(uikitCall) }
    if let caller { evidence.append(caller.evidence) }
    if let queue = context.crashedQueueEvidence { evidence.append(queue) }
    let thread = context.crashedThread

    var summary = "UIKit asserted \"\(MainThreadAssertion.message)\" (\(reason.path)). "
    if let caller {
      summary +=
        "The app's \(caller.name.map(SymbolText.kind) ?? "code") \(caller.quotedName) (\(caller.evidence.path))"
      if let uikitCall {
        summary += " called \(CodeSpan.markdown(uikitCall.detail))"
      } else {
        summary += " called UIKit"
      }
    } else {
      summary += "A UIKit call was made"
    }
    if let thread {
      summary += " on \(context.threadDescription(thread))"
      summary += thread.isMainThread ? "." : ", not the main thread."
      if thread.isOnCooperativeQueue {
        summary += " The queue is the Swift concurrency pool: the calling code is not isolated to the main actor."
      }
    } else {
      summary += " off the main thread."
    }

    let confidence: Confidence
    if let thread, thread.isMainThread {
      confidence = .possible
    } else if caller?.name != nil {
      confidence = .definite
    } else {
      confidence = .likely
    }
    return finding(
      confidence: confidence, summary: summary, evidence: evidence,
      remedy: remedy(
        caller: caller?.name, uikitCall: uikitCall?.detail, cooperative: thread?.isOnCooperativeQueue ?? false),
      verification: [
        "Run the flow with the Main Thread Checker enabled (Xcode's Debug scheme): it stops at the off-main UIKit call."
      ])
  }

  private func remedy(caller: String?, uikitCall: String?, cooperative: Bool) -> String {
    var text = Self.description.remedy + "\n\n"
    let function = caller.map(SymbolText.enclosingFunction)
    text += function.map { "In \(CodeSpan.markdown($0)), move" } ?? "Move"
    text += " the UIKit call"
    if let uikitCall { text += " (\(CodeSpan.markdown(uikitCall)))" }
    text += " to the main thread:\n\n```swift\n"
    if cooperative {
      text += """
        await MainActor.run {
          view.addSubview(badge)  // UIKit work on the main actor
        }
        """
    } else {
      text += """
        DispatchQueue.main.async {
          view.addSubview(badge)  // UIKit work on the main thread
        }
        """
    }
    text += "\n```"
    return text
  }
}

extension UIKitCallMustBeMainRule {
  enum Examples {
    static func report(appSymbol: String?, queue: String = "com.apple.root.utility-qos") -> ExampleReport {
      ExampleReport.addSubviewOffMain(
        reason: "Call must be made on main thread", queue: queue,
        assertion: "-[NSAssertionHandler handleFailureInMethod:object:file:lineNumber:description:]", in: .foundation,
        appSymbol: appSymbol)
    }

    static let all: [RuleExample] = [
      .triggers(
        "addSubview from a global-queue closure",
        report(appSymbol: "closure #2 in ProfileViewController.reload()"), .definite,
        summaryContains: [
          "closure #2 in ProfileViewController.reload()", "-[UIView(Hierarchy) addSubview:]",
          "lastExceptionBacktrace[3]", "com.apple.root.utility-qos",
        ]),
      .triggers(
        "unsymbolicated caller",
        report(appSymbol: nil), .likely, summaryContains: ["unsymbolicated"]),
      RuleExample(
        "fixture: view change on a utility queue",
        .fixture("reports/uikit-call-must-be-main-other.ips"),
        .triggers(
          .definite, summaryContains: ["closure #2 in ProfileViewController.reload()", "com.apple.root.utility-qos"])),
      RuleExample(
        "fixture: a GCD closure completing the notification response (snapshot frames)",
        .fixture("reports/completion-handler-off-main-gcd.ips"), .doesNotTrigger),
      RuleExample(
        "fixture: the async bridge (founding case)",
        .fixture("reports/async-bridge-didreceive-simplified-symbols.ips"), .doesNotTrigger),
      .ignores(
        "Auto Layout's background-thread exception",
        LayoutEngineBackgroundThreadRule.Examples.report(
          reason:
            "Modifications to the layout engine must not be performed from a background thread after it has been accessed from the main thread."
        )),
    ]
  }
}
