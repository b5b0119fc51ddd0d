// WebKit delegates in a plain class: main-actor only with the iOS 18 / macOS 15 SDKs, so notes
// that --fix-warnings rewrites. The TLS method's two forms label the challenge differently.
import WebKit

final class WebCoordinator: WKNavigationDelegate, WKUIDelegate {
  var allowed: Set<String> = []

  func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async -> WKNavigationActionPolicy {
    allowed.isEmpty ? .cancel : .allow
  }

  func webView(_ webView: WKWebView, shouldAllowDeprecatedTLSFor challenge: URLAuthenticationChallenge) async -> Bool {
    false
  }

  func webView(
    _ webView: WKWebView,
    runJavaScriptAlertPanelWithMessage message: String,
    initiatedByFrame frame: WKFrameInfo,
  ) async {
    allowed.insert(message)
  }
}
