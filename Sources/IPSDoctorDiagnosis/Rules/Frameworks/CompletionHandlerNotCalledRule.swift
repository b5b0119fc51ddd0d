import IPSDoctorSupport

/// WebKit's completion-handler checker: "Completion handler passed to -[X webView:…] was not
/// called" (or "was called more than once").
package struct CompletionHandlerNotCalledRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "completion-handler-not-called",
    title: "WebKit Completion Handler Not Called Exactly Once",
    summary:
      "A WebKit delegate method dropped its completion handler, or called it twice, and WebKit raised an exception.",
    category: .frameworks,
    severity: .error,
    tier: .exact,
    rationale: """
      `WKNavigationDelegate` and `WKUIDelegate` methods such as \
      `webView(_:decidePolicyFor:decisionHandler:)`, `webView(_:decidePolicyFor:preferences:decisionHandler:)`, \
      `webView(_:didReceive:completionHandler:)` (authentication challenges) and \
      `webView(_:runJavaScriptAlertPanelWithMessage:initiatedByFrame:completionHandler:)` hand the \
      app a block that must be called exactly once. WebKit wraps it in a \
      `CompletionHandlerCallChecker`: when the block is released without being called it raises \
      `NSInternalInconsistencyException` "Completion handler passed to -[Class selector] was not \
      called"; a second call raises "… was called more than once".

      A dropped handler usually comes from an early `return` or a `guard … else { return }` that \
      skips the call, or a handler stored for later that is released when the view controller goes \
      away. A double call comes from calling it in a branch and again at the end.
      """,
    remedy: """
      Call the handler exactly once on every path, including early returns and error paths (a \
      `defer` that decides a default works well). If the decision needs async work, keep the handler \
      and make sure it is called even when that work fails or the view controller is dismissed. \
      Alternatively implement the `async` variant that returns the policy, so the compiler enforces \
      a single answer (and mark it `@MainActor`).
      """,
    references: [
      "https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:decidepolicyfor:decisionhandler:)-2ni62",
      "https://github.com/meismyles/SwiftWebVC/issues/26",
    ],
    examples: Examples.all)

  static let prefix = "Completion handler passed to "
  static let notCalled = " was not called"
  static let calledTwice = " was called more than once"

  /// WebKit's checker destructor, the only trace of a dropped handler without the reason text.
  static let checkerDestructor = "CompletionHandlerCallChecker::~CompletionHandlerCallChecker"

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let reason = context.reasonText(containing: Self.prefix)
    if let reason {
      let text = reason.detail
      let isDropped = text.contains(Self.notCalled)
      guard isDropped || text.contains(Self.calledTwice) else { return nil }
      let method = SymbolText.between(text, Self.prefix, isDropped ? Self.notCalled : Self.calledTwice)
      var evidence = [reason]
      if let checker = context.firstFrame(containing: "CompletionHandlerCallChecker") {
        evidence.append(checker.evidence)
      }
      return diagnosis(context, method: method, dropped: isDropped, evidence: evidence, confidence: .definite)
    }
    // Without the reason text: WebKit's checker destructor raising an exception (which aborts).
    let aborted =
      (context.signal ?? "").hasPrefix("SIGABRT") || (context.exceptionType ?? "").contains("SIGABRT")
    guard aborted,
      context.report.exceptionReason?.name == "NSInternalInconsistencyException"
        || context.report.exceptionReason == nil,
      let checker = context.firstFrame(containing: Self.checkerDestructor)
    else { return nil }
    return diagnosis(context, method: nil, dropped: true, evidence: [checker.evidence], confidence: .likely)
  }

  private func diagnosis(
    _ context: DiagnosisContext, method: String?, dropped: Bool, evidence: [Evidence], confidence: Confidence
  ) -> Diagnosis {
    let parts = method.flatMap(SymbolText.objcMethodParts)
    var summary = "WebKit raised an exception because the completion handler passed to "
    summary += method.map { "\(CodeSpan.markdown($0))" } ?? "a WebKit delegate method"
    summary += dropped ? " was released without being called" : " was called more than once"
    summary += " (\(evidence[0].path))."
    if let parts {
      summary +=
        " Check every path of \(CodeSpan.markdown(SymbolText.unqualified(parts.className)))'s "
        + "\(CodeSpan.markdown(swiftName(parts.selector)))"
      summary += dropped ? " for a return that skips the handler." : " for a second call of the handler."
    }
    if dropped, let checker = evidence.first(where: { $0.detail.contains("~CompletionHandlerCallChecker") }) {
      summary += " The checker fired when the block was released (\(checker.path)), not where the call was skipped."
    }
    return finding(
      confidence: confidence, summary: summary, evidence: evidence,
      remedy: remedy(parts: parts),
      verification: [
        "Unit-test the delegate method with a handler that counts calls: every branch (allowed, cancelled, error, early return) must call it exactly once."
      ])
  }

  /// "webView:decidePolicyForNavigationAction:decisionHandler:" → "webView(_:decidePolicyFor:decisionHandler:)".
  private func swiftName(_ selector: String) -> String {
    switch selector {
    case "webView:decidePolicyForNavigationAction:decisionHandler:":
      return "webView(_:decidePolicyFor:decisionHandler:)"
    case "webView:decidePolicyForNavigationAction:preferences:decisionHandler:":
      return "webView(_:decidePolicyFor:preferences:decisionHandler:)"
    case "webView:decidePolicyForNavigationResponse:decisionHandler:":
      return "webView(_:decidePolicyFor:decisionHandler:)"
    case "webView:didReceiveAuthenticationChallenge:completionHandler:":
      return "webView(_:didReceive:completionHandler:)"
    default:
      return selector
    }
  }

  private func remedy(parts: (className: String, selector: String)?) -> String {
    var text = Self.description.remedy + "\n\n"
    let typeName = parts.map { SymbolText.unqualified($0.className) } ?? "BrowserViewController"
    let selector = parts?.selector ?? "webView:decidePolicyForNavigationAction:decisionHandler:"
    if selector.contains("NavigationResponse") {
      text += """
        ```swift
        extension \(typeName): WKNavigationDelegate {
          func webView(
            _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
            decisionHandler: @escaping @MainActor (WKNavigationResponsePolicy) -> Void
          ) {
            var policy = WKNavigationResponsePolicy.allow
            defer { decisionHandler(policy) }  // exactly once, on every path
            guard navigationResponse.canShowMIMEType else { policy = .cancel; return }
          }
        }
        ```
        """
    } else if selector.contains("AuthenticationChallenge") {
      text += """
        ```swift
        extension \(typeName): WKNavigationDelegate {
          func webView(
            _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @MainActor (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
          ) {
            guard let trust = challenge.protectionSpace.serverTrust else {
              completionHandler(.performDefaultHandling, nil)  // every early return answers too
              return
            }
            completionHandler(.useCredential, URLCredential(trust: trust))
          }
        }
        ```
        """
    } else {
      text += """
        ```swift
        extension \(typeName): WKNavigationDelegate {
          func webView(
            _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
            decisionHandler: @escaping @MainActor (WKNavigationActionPolicy) -> Void
          ) {
            var policy = WKNavigationActionPolicy.allow
            defer { decisionHandler(policy) }  // exactly once, on every path
            guard let url = navigationAction.request.url else { policy = .cancel; return }
            if url.scheme == "mailto" {
              UIApplication.shared.open(url)
              policy = .cancel
            }
          }
        }
        ```

        Or answer with the `async` variant, which cannot forget the handler:

        ```swift
        @MainActor
        func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async
          -> WKNavigationActionPolicy
        {
          navigationAction.request.url == nil ? .cancel : .allow
        }
        ```
        """
    }
    return text
  }
}

extension CompletionHandlerNotCalledRule {
  enum Examples {
    /// WebKit's completion-handler checker aborting on the main thread, with an
    /// `NSInternalInconsistencyException` of `reason` when there is one.
    static func report(reason: String?) -> ExampleReport {
      ExampleReport(
        exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
        asi: ["libsystem_c.dylib": ["abort() called"]],
        languageException: reason.map { .objc("NSInternalInconsistencyException", reason: $0) },
        threads: [
          .main([
            .frame(.libsystemKernel, "__pthread_kill"),
            .frame(.webKit, "WebKit::CompletionHandlerCallChecker::~CompletionHandlerCallChecker()"),
            .frame(.libsystemBlocks, "_Block_release"),
          ])
        ])
    }

    static let all: [RuleExample] = [
      .triggers(
        "decidePolicyForNavigationAction handler dropped",
        report(
          reason:
            "Completion handler passed to -[Example.BrowserViewController webView:decidePolicyForNavigationAction:decisionHandler:] was not called"
        ),
        .definite,
        summaryContains: [
          "-[Example.BrowserViewController webView:decidePolicyForNavigationAction:decisionHandler:]",
          "released without being called", "webView(_:decidePolicyFor:decisionHandler:)",
        ]),
      .triggers(
        "handler called twice",
        report(
          reason:
            "Completion handler passed to -[SwiftWebVC webView:decidePolicyForNavigationAction:decisionHandler:] was called more than once"
        ),
        .definite, summaryContains: ["called more than once"]),
      .triggers(
        "checker destructor without the reason text",
        report(reason: nil), .likely),
      RuleExample(
        "fixture: reader app drops the decision handler",
        .fixture("reports/completion-handler-not-called-webkit.ips"),
        .triggers(.definite, summaryContains: ["WebReader.ArticleWebViewController"])),
      RuleExample(
        "fixture: the async bridge calls the decision handler off main",
        .fixture("reports/async-bridge-webview-decide-policy.ips"), .doesNotTrigger),
      .ignores(
        "another NSInternalInconsistencyException",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          languageException: .objc(
            "NSInternalInconsistencyException", reason: "Invalid update: invalid number of rows in section 0"))),
    ]
  }
}
