import IPSDoctorDiagnosis
import IPSDoctorSupport

/// An Objective-C protocol method that takes a completion handler, which Swift lets a conforming
/// type implement as an `async` method. The compiler then bridges the two: it starts a task that
/// awaits the method and calls the framework's completion block where that task resumes.
struct CompletionHandlerDelegateMethod: Sendable, Equatable {
  /// What calling the completion off the main thread does.
  enum OffMainEffect: String, Sendable, Equatable {
    /// The framework asserts the main thread in the completion: the app crashes.
    case crash
    /// The framework documents that the handler must be called on main, or relies on it; it
    /// hops to main itself in current releases, or fails in ways other than a crash.
    case misuse
    /// The framework accepts the completion on any thread.
    case harmless

    /// The severity of a finding where the method is certainly not main-actor isolated.
    var severity: Severity {
      switch self {
      case .crash: .error
      case .misuse: .warning
      case .harmless: .note
      }
    }
  }

  /// The protocol's own isolation, which a conforming type may inherit (SE-0316).
  enum ProtocolIsolation: Sendable, Equatable {
    case none
    /// `@MainActor` in every SDK that has the async form.
    case mainActor
    /// `@MainActor` from the given SDK on; built with an older SDK the conformance isolates
    /// nothing.
    case mainActorSince(String)
  }

  var protocolName: String
  var framework: String
  /// The async method's Swift name with argument labels.
  var swiftName: String
  /// A type that one of the parameters must mention, for methods whose Swift names collide
  /// (`webView(_:decidePolicyFor:)` for a navigation action or a navigation response).
  var parameterType: String?
  /// The Objective-C selector, completion handler included.
  var selector: String
  var effect: OffMainEffect
  var isolation: ProtocolIsolation
  /// The completion-handler requirement that the `async` form stands for.
  var completion: CompletionForm
  var reference: String

  /// The completion-handler form of a requirement: its Swift name, and its last parameter, the
  /// handler, by name and type.
  struct CompletionForm: Sendable, Equatable {
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`.
    var swiftName: String
    /// The handler parameter's name (`completionHandler`).
    var handler: String
    /// The handler's type without `@escaping`: `(UNNotificationPresentationOptions) -> Void`.
    var type: String

    /// The argument labels, the handler's last.
    var labels: [String] {
      guard let open = swiftName.firstIndex(of: "("), swiftName.hasSuffix(")") else { return [] }
      return swiftName[swiftName.index(after: open)..<swiftName.index(before: swiftName.endIndex)]
        .split(separator: ":").map(String.init)
    }

    /// The handler's parameter types: `(A, B) -> Void` has two, `() -> Void` none. Commas inside
    /// brackets (`[AnyHashable: Any]`, generic arguments) separate nothing.
    var handlerArity: Int {
      var depth = 0
      var commas = 0
      var sawType = false
      for character in type {
        switch character {
        case "(", "[", "<":
          depth += 1
        case ")", "]", ">":
          if depth == 1 && character == ")" { return sawType ? commas + 1 : 0 }
          depth -= 1
        case "," where depth == 1:
          commas += 1
        case " ":
          break
        default:
          if depth >= 1 { sawType = true }
        }
      }
      return 0
    }
  }
}

/// The completion-handler delegate methods `ips-doctor check` knows. One entry a line: add one
/// to teach the scanner a method; `docs/check.md` is generated from this table.
enum CompletionHandlerDelegateTable {
  typealias Method = CompletionHandlerDelegateMethod

  static let all: [Method] = [
    // UserNotifications. UIKit's completion for a response updates the snapshot and asserts main.
    Method(
      protocolName: "UNUserNotificationCenterDelegate", framework: "UserNotifications",
      swiftName: "userNotificationCenter(_:didReceive:)",
      selector: "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:", effect: .crash,
      isolation: .none,
      completion: .init(
        swiftName: "userNotificationCenter(_:didReceive:withCompletionHandler:)", handler: "completionHandler",
        type: "() -> Void"),
      reference:
        "https://developer.apple.com/documentation/usernotifications/unusernotificationcenterdelegate/usernotificationcenter(_:didreceive:withcompletionhandler:)"
    ),
    Method(
      protocolName: "UNUserNotificationCenterDelegate", framework: "UserNotifications",
      swiftName: "userNotificationCenter(_:willPresent:)",
      selector: "userNotificationCenter:willPresentNotification:withCompletionHandler:", effect: .crash,
      isolation: .none,
      completion: .init(
        swiftName: "userNotificationCenter(_:willPresent:withCompletionHandler:)", handler: "completionHandler",
        type: "(UNNotificationPresentationOptions) -> Void"),
      reference:
        "https://developer.apple.com/documentation/usernotifications/unusernotificationcenterdelegate/usernotificationcenter(_:willpresent:withcompletionhandler:)"
    ),
    // UIKit application and scene delegates: `@MainActor` protocols.
    Method(
      protocolName: "UIApplicationDelegate", framework: "UIKit",
      swiftName: "application(_:didReceiveRemoteNotification:)",
      selector: "application:didReceiveRemoteNotification:fetchCompletionHandler:", effect: .crash,
      isolation: .mainActor,
      completion: .init(
        swiftName: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", handler: "completionHandler",
        type: "(UIBackgroundFetchResult) -> Void"),
      reference:
        "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didreceiveremotenotification:fetchcompletionhandler:)"
    ),
    Method(
      protocolName: "UIApplicationDelegate", framework: "UIKit", swiftName: "application(_:)",
      selector: "application:performFetchWithCompletionHandler:", effect: .crash, isolation: .mainActor,
      completion: .init(
        swiftName: "application(_:performFetchWithCompletionHandler:)", handler: "completionHandler",
        type: "(UIBackgroundFetchResult) -> Void"),
      reference:
        "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:performfetchwithcompletionhandler:)"
    ),
    Method(
      protocolName: "UIApplicationDelegate", framework: "UIKit", swiftName: "application(_:performActionFor:)",
      selector: "application:performActionForShortcutItem:completionHandler:", effect: .crash, isolation: .mainActor,
      completion: .init(
        swiftName: "application(_:performActionFor:completionHandler:)", handler: "completionHandler",
        type: "(Bool) -> Void"),
      reference:
        "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:performactionfor:completionhandler:)"
    ),
    Method(
      protocolName: "UIApplicationDelegate", framework: "UIKit",
      swiftName: "application(_:handleEventsForBackgroundURLSession:)",
      selector: "application:handleEventsForBackgroundURLSession:completionHandler:", effect: .crash,
      isolation: .mainActor,
      completion: .init(
        swiftName: "application(_:handleEventsForBackgroundURLSession:completionHandler:)",
        handler: "completionHandler", type: "() -> Void"),
      reference:
        "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:handleeventsforbackgroundurlsession:completionhandler:)"
    ),
    Method(
      protocolName: "UIApplicationDelegate", framework: "UIKit",
      swiftName: "application(_:handleWatchKitExtensionRequest:)",
      selector: "application:handleWatchKitExtensionRequest:reply:", effect: .misuse, isolation: .mainActor,
      completion: .init(
        swiftName: "application(_:handleWatchKitExtensionRequest:reply:)", handler: "reply",
        type: "([AnyHashable: Any]?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:handlewatchkitextensionrequest:reply:)"
    ),
    Method(
      protocolName: "UIApplicationDelegate", framework: "UIKit", swiftName: "application(_:handle:)",
      parameterType: "INIntent", selector: "application:handleIntent:completionHandler:", effect: .misuse,
      isolation: .mainActor,
      completion: .init(
        swiftName: "application(_:handle:completionHandler:)", handler: "completionHandler",
        type: "(INIntentResponse) -> Void"),
      reference:
        "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:handle:completionhandler:)"
    ),
    Method(
      protocolName: "UIWindowSceneDelegate", framework: "UIKit", swiftName: "windowScene(_:performActionFor:)",
      selector: "windowScene:performActionForShortcutItem:completionHandler:", effect: .crash, isolation: .mainActor,
      completion: .init(
        swiftName: "windowScene(_:performActionFor:completionHandler:)", handler: "completionHandler",
        type: "(Bool) -> Void"),
      reference:
        "https://developer.apple.com/documentation/uikit/uiwindowscenedelegate/windowscene(_:performactionfor:completionhandler:)"
    ),
    // WebKit: `@MainActor` protocols from the iOS 18 / macOS 15 SDKs on; WebKit has called the
    // handlers back on main itself since r295101 (2022).
    Method(
      protocolName: "WKNavigationDelegate", framework: "WebKit", swiftName: "webView(_:decidePolicyFor:)",
      parameterType: "WKNavigationAction", selector: "webView:decidePolicyForNavigationAction:decisionHandler:",
      effect: .misuse, isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:decidePolicyFor:decisionHandler:)", handler: "decisionHandler",
        type: "(WKNavigationActionPolicy) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:decidepolicyfor:decisionhandler:)-2ni62"
    ),
    Method(
      protocolName: "WKNavigationDelegate", framework: "WebKit", swiftName: "webView(_:decidePolicyFor:preferences:)",
      selector: "webView:decidePolicyForNavigationAction:preferences:decisionHandler:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:decidePolicyFor:preferences:decisionHandler:)", handler: "decisionHandler",
        type: "(WKNavigationActionPolicy, WKWebpagePreferences) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:decidepolicyfor:preferences:decisionhandler:)"
    ),
    Method(
      protocolName: "WKNavigationDelegate", framework: "WebKit", swiftName: "webView(_:decidePolicyFor:)",
      parameterType: "WKNavigationResponse", selector: "webView:decidePolicyForNavigationResponse:decisionHandler:",
      effect: .misuse, isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:decidePolicyFor:decisionHandler:)", handler: "decisionHandler",
        type: "(WKNavigationResponsePolicy) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:decidepolicyfor:decisionhandler:)-8t1ey"
    ),
    Method(
      protocolName: "WKNavigationDelegate", framework: "WebKit", swiftName: "webView(_:respondTo:)",
      selector: "webView:didReceiveAuthenticationChallenge:completionHandler:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:didReceive:completionHandler:)", handler: "completionHandler",
        type: "(URLSession.AuthChallengeDisposition, URLCredential?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:didreceive:completionhandler:)"
    ),
    Method(
      protocolName: "WKNavigationDelegate", framework: "WebKit", swiftName: "webView(_:shouldAllowDeprecatedTLSFor:)",
      selector: "webView:authenticationChallenge:shouldAllowDeprecatedTLS:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:authenticationChallenge:shouldAllowDeprecatedTLS:)", handler: "decisionHandler",
        type: "(Bool) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:authenticationchallenge:shouldallowdeprecatedtls:)"
    ),
    Method(
      protocolName: "WKUIDelegate", framework: "WebKit",
      swiftName: "webView(_:runJavaScriptAlertPanelWithMessage:initiatedByFrame:)",
      selector: "webView:runJavaScriptAlertPanelWithMessage:initiatedByFrame:completionHandler:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:runJavaScriptAlertPanelWithMessage:initiatedByFrame:completionHandler:)",
        handler: "completionHandler", type: "() -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkuidelegate/webview(_:runjavascriptalertpanelwithmessage:initiatedbyframe:completionhandler:)"
    ),
    Method(
      protocolName: "WKUIDelegate", framework: "WebKit",
      swiftName: "webView(_:runJavaScriptConfirmPanelWithMessage:initiatedByFrame:)",
      selector: "webView:runJavaScriptConfirmPanelWithMessage:initiatedByFrame:completionHandler:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:runJavaScriptConfirmPanelWithMessage:initiatedByFrame:completionHandler:)",
        handler: "completionHandler", type: "(Bool) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkuidelegate/webview(_:runjavascriptconfirmpanelwithmessage:initiatedbyframe:completionhandler:)"
    ),
    Method(
      protocolName: "WKUIDelegate", framework: "WebKit",
      swiftName: "webView(_:runJavaScriptTextInputPanelWithPrompt:defaultText:initiatedByFrame:)",
      selector: "webView:runJavaScriptTextInputPanelWithPrompt:defaultText:initiatedByFrame:completionHandler:",
      effect: .misuse, isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:runJavaScriptTextInputPanelWithPrompt:defaultText:initiatedByFrame:completionHandler:)",
        handler: "completionHandler", type: "(String?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkuidelegate/webview(_:runjavascripttextinputpanelwithprompt:defaulttext:initiatedbyframe:completionhandler:)"
    ),
    Method(
      protocolName: "WKUIDelegate", framework: "WebKit", swiftName: "webView(_:contextMenuConfigurationForElement:)",
      selector: "webView:contextMenuConfigurationForElement:completionHandler:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:contextMenuConfigurationForElement:completionHandler:)", handler: "completionHandler",
        type: "(UIContextMenuConfiguration?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkuidelegate/webview(_:contextmenuconfigurationforelement:completionhandler:)"
    ),
    Method(
      protocolName: "WKUIDelegate", framework: "WebKit",
      swiftName: "webView(_:requestMediaCapturePermissionFor:initiatedByFrame:type:)",
      selector: "webView:requestMediaCapturePermissionForOrigin:initiatedByFrame:type:decisionHandler:",
      effect: .misuse, isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:requestMediaCapturePermissionFor:initiatedByFrame:type:decisionHandler:)",
        handler: "decisionHandler", type: "(WKPermissionDecision) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkuidelegate/webview(_:requestmediacapturepermissionfor:initiatedbyframe:type:decisionhandler:)"
    ),
    Method(
      protocolName: "WKUIDelegate", framework: "WebKit",
      swiftName: "webView(_:requestDeviceOrientationAndMotionPermissionFor:initiatedByFrame:)",
      selector: "webView:requestDeviceOrientationAndMotionPermissionForOrigin:initiatedByFrame:decisionHandler:",
      effect: .misuse, isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:requestDeviceOrientationAndMotionPermissionFor:initiatedByFrame:decisionHandler:)",
        handler: "decisionHandler", type: "(WKPermissionDecision) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkuidelegate/webview(_:requestdeviceorientationandmotionpermissionfor:initiatedbyframe:decisionhandler:)"
    ),
    Method(
      protocolName: "WKUIDelegate", framework: "WebKit", swiftName: "webView(_:runOpenPanelWith:initiatedByFrame:)",
      selector: "webView:runOpenPanelWithParameters:initiatedByFrame:completionHandler:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "webView(_:runOpenPanelWith:initiatedByFrame:completionHandler:)", handler: "completionHandler",
        type: "([URL]?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkuidelegate/webview(_:runopenpanelwith:initiatedbyframe:completionhandler:)"
    ),
    Method(
      protocolName: "WKDownloadDelegate", framework: "WebKit",
      swiftName: "download(_:decideDestinationUsing:suggestedFilename:)",
      selector: "download:decideDestinationUsingResponse:suggestedFilename:completionHandler:", effect: .misuse,
      isolation: .mainActorSince("iOS 18 / macOS 15 SDK"),
      completion: .init(
        swiftName: "download(_:decideDestinationUsing:suggestedFilename:completionHandler:)",
        handler: "completionHandler", type: "(URL?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/webkit/wkdownloaddelegate/download(_:decidedestinationusing:suggestedfilename:completionhandler:)"
    ),
    // PushKit: the completion tells PushKit the VoIP push was handled (after reporting the call).
    Method(
      protocolName: "PKPushRegistryDelegate", framework: "PushKit",
      swiftName: "pushRegistry(_:didReceiveIncomingPushWith:for:)",
      selector: "pushRegistry:didReceiveIncomingPushWithPayload:forType:withCompletionHandler:", effect: .misuse,
      isolation: .none,
      completion: .init(
        swiftName: "pushRegistry(_:didReceiveIncomingPushWith:for:completion:)", handler: "completion",
        type: "() -> Void"),
      reference:
        "https://developer.apple.com/documentation/pushkit/pkpushregistrydelegate/pushregistry(_:didreceiveincomingpushwith:for:completion:)"
    ),
    // Intents: handlers run on a background queue and take their completion on any thread.
    Method(
      protocolName: "INSendMessageIntentHandling", framework: "Intents", swiftName: "handle(intent:)",
      parameterType: "INSendMessageIntent", selector: "handleSendMessage:completion:", effect: .harmless,
      isolation: .none,
      completion: .init(
        swiftName: "handle(intent:completion:)", handler: "completion", type: "(INSendMessageIntentResponse) -> Void"),
      reference:
        "https://developer.apple.com/documentation/intents/insendmessageintenthandling/handle(intent:completion:)"),
    Method(
      protocolName: "INSendMessageIntentHandling", framework: "Intents", swiftName: "resolveRecipients(for:)",
      parameterType: "INSendMessageIntent", selector: "resolveRecipientsForSendMessage:withCompletion:",
      effect: .harmless, isolation: .none,
      completion: .init(
        swiftName: "resolveRecipients(for:with:)", handler: "completion",
        type: "([INSendMessageRecipientResolutionResult]) -> Void"),
      reference:
        "https://developer.apple.com/documentation/intents/insendmessageintenthandling/resolverecipients(for:with:)"),
    Method(
      protocolName: "INStartCallIntentHandling", framework: "Intents", swiftName: "handle(intent:)",
      parameterType: "INStartCallIntent", selector: "handleStartCall:completion:", effect: .harmless, isolation: .none,
      completion: .init(
        swiftName: "handle(intent:completion:)", handler: "completion", type: "(INStartCallIntentResponse) -> Void"),
      reference:
        "https://developer.apple.com/documentation/intents/instartcallintenthandling/handle(intent:completion:)"),
    // Foundation: URLSession calls its delegate on the delegate queue and accepts the handler anywhere.
    Method(
      protocolName: "URLSessionDelegate", framework: "Foundation", swiftName: "urlSession(_:didReceive:)",
      selector: "URLSession:didReceiveChallenge:completionHandler:", effect: .harmless, isolation: .none,
      completion: .init(
        swiftName: "urlSession(_:didReceive:completionHandler:)", handler: "completionHandler",
        type: "(URLSession.AuthChallengeDisposition, URLCredential?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/foundation/urlsessiondelegate/urlsession(_:didreceive:completionhandler:)"
    ),
    Method(
      protocolName: "URLSessionTaskDelegate", framework: "Foundation",
      swiftName: "urlSession(_:task:willPerformHTTPRedirection:newRequest:)",
      selector: "URLSession:task:willPerformHTTPRedirection:newRequest:completionHandler:", effect: .harmless,
      isolation: .none,
      completion: .init(
        swiftName: "urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)",
        handler: "completionHandler", type: "(URLRequest?) -> Void"),
      reference:
        "https://developer.apple.com/documentation/foundation/urlsessiontaskdelegate/urlsession(_:task:willperformhttpredirection:newrequest:completionhandler:)"
    ),
    Method(
      protocolName: "URLSessionDataDelegate", framework: "Foundation", swiftName: "urlSession(_:dataTask:didReceive:)",
      parameterType: "URLResponse", selector: "URLSession:dataTask:didReceiveResponse:completionHandler:",
      effect: .harmless, isolation: .none,
      completion: .init(
        swiftName: "urlSession(_:dataTask:didReceive:completionHandler:)", handler: "completionHandler",
        type: "(URLSession.ResponseDisposition) -> Void"),
      reference:
        "https://developer.apple.com/documentation/foundation/urlsessiondatadelegate/urlsession(_:datatask:didreceive:completionhandler:)"
    ),
  ]

  /// The protocols of the table, each with its isolation.
  static let protocols: [String: Method.ProtocolIsolation] = {
    var protocols: [String: Method.ProtocolIsolation] = [:]
    for method in all { protocols[method.protocolName] = method.isolation }
    return protocols
  }()

  /// Protocols and classes outside the table that make a type conforming to or inheriting from
  /// them `@MainActor` (SE-0316 inference from the type's primary declaration).
  static let mainActorSupertypes: Set<String> = [
    "UIApplicationDelegate", "UISceneDelegate", "UIWindowSceneDelegate", "NSApplicationDelegate",
    "UIResponder", "UIViewController", "UIView", "UIApplication", "UIWindow", "UITableViewController",
    "UICollectionViewController", "UINavigationController", "UITabBarController", "NSResponder",
    "NSViewController", "NSView", "NSWindowController", "NSWindow", "NSApplication", "WKWebView",
    "UIHostingController", "NSHostingController", "NSHostingView", "View", "App",
  ]

  /// Supertypes known to carry no isolation of their own.
  static let nonisolatedSupertypes: Set<String> = [
    "NSObject", "Sendable", "AnyObject", "Equatable", "Hashable", "Identifiable", "Codable",
    "ObservableObject", "CustomStringConvertible", "Error",
  ]

  /// The entries for `function`'s Swift name whose parameter type, when they name one, matches;
  /// for `@objc(selector)`, the entry of that selector.
  static func entries(for function: SwiftFunctionDeclaration) -> [Method] {
    if let selector = function.objcSelector { return all.filter { $0.selector == selector } }
    let name = function.swiftName
    return (byName[name] ?? []).filter { entry in
      guard let required = entry.parameterType else { return true }
      return function.parameterTypes.contains { $0.contains(required) }
    }
  }

  private static let byName: [String: [Method]] = Dictionary(grouping: all, by: \.swiftName)

  /// The base names of the async forms (`userNotificationCenter`).
  static let baseNames: Set<Substring> = Set(all.map { $0.swiftName.prefix { $0 != "(" } })
}
