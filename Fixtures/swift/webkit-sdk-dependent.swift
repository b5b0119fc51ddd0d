import WebKit

// WKNavigationDelegate is @MainActor only from the iOS 18 / macOS 15 SDK on: a note.
final class WebCoordinator: NSObject, WKNavigationDelegate, WKUIDelegate {
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async -> WKNavigationActionPolicy { .allow } // check: note

    func webView( // check: note
        _ webView: WKWebView,
        decidePolicyFor navigationResponse: WKNavigationResponse
    ) async -> WKNavigationResponsePolicy {
        .allow
    }

    func webView(_ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo) async {} // check: note
}

// In an extension that does not declare the conformance, even the iOS 18 SDK isolates nothing.
final class PlainWebHost: NSObject {}
extension PlainWebHost: WKNavigationDelegate {}
extension PlainWebHost {
    func webView(_ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction) async -> WKNavigationActionPolicy { .allow } // check: warning
}
