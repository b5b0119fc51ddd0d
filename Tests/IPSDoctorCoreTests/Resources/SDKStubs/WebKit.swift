// A stub of WebKit for `check --fix` tests (see UserNotifications.swift): the navigation and UI
// delegates as the SDKs before iOS 18 / macOS 15 declare them (not main-actor isolated).

open class WKWebView {}
open class WKNavigationAction {}
open class WKNavigationResponse {}
open class WKFrameInfo {}
open class URLAuthenticationChallenge {}

public enum WKNavigationActionPolicy: Sendable {
  case cancel, allow, download
}

public enum WKNavigationResponsePolicy: Sendable {
  case cancel, allow, download
}

public protocol WKNavigationDelegate: AnyObject {
  func webView(
    _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
    decisionHandler: @escaping (WKNavigationActionPolicy) -> Void)
  func webView(
    _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
    decisionHandler: @escaping (WKNavigationResponsePolicy) -> Void)
  func webView(
    _ webView: WKWebView, authenticationChallenge challenge: URLAuthenticationChallenge,
    shouldAllowDeprecatedTLS decisionHandler: @escaping (Bool) -> Void)
}

extension WKNavigationDelegate {
  @available(*, deprecated, message: "not implemented")
  public func webView(
    _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
    decisionHandler: @escaping (WKNavigationActionPolicy) -> Void
  ) {}
  // Not deprecated: its Swift name is the navigation action's, so its warning would read the same.
  public func webView(
    _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
    decisionHandler: @escaping (WKNavigationResponsePolicy) -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func webView(
    _ webView: WKWebView, authenticationChallenge challenge: URLAuthenticationChallenge,
    shouldAllowDeprecatedTLS decisionHandler: @escaping (Bool) -> Void
  ) {}
}

public protocol WKUIDelegate: AnyObject {
  func webView(
    _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String,
    initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping () -> Void)
  func webView(
    _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String,
    initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping (Bool) -> Void)
  func webView(
    _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
    initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping (String?) -> Void)
}

extension WKUIDelegate {
  @available(*, deprecated, message: "not implemented")
  public func webView(
    _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String,
    initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping () -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func webView(
    _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String,
    initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping (Bool) -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func webView(
    _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
    initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping (String?) -> Void
  ) {}
}
