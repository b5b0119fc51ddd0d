// A stub of UIKit for `check --fix` tests (see UserNotifications.swift): main-actor classes and
// protocols, and the application and scene delegates' completion-handler requirements.

@MainActor open class UIResponder { public init() {} }
@MainActor open class UIApplication {}
@MainActor open class UIScene {}
@MainActor open class UIWindowScene: UIScene {}
public final class UIApplicationShortcutItem: Sendable {}
public final class INIntent: Sendable {}
public final class INIntentResponse: Sendable {}

public enum UIBackgroundFetchResult: Sendable {
  case newData, noData, failed
}

@MainActor public protocol UIApplicationDelegate: AnyObject {
  func application(
    _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
    fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
  func application(
    _ application: UIApplication,
    performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
  func application(
    _ application: UIApplication, performActionFor shortcutItem: UIApplicationShortcutItem,
    completionHandler: @escaping (Bool) -> Void)
  func application(
    _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void)
  func application(
    _ application: UIApplication, handleWatchKitExtensionRequest userInfo: [AnyHashable: Any]?,
    reply: @escaping ([AnyHashable: Any]?) -> Void)
  func application(
    _ application: UIApplication, handle intent: INIntent, completionHandler: @escaping (INIntentResponse) -> Void)
}

extension UIApplicationDelegate {
  @available(*, deprecated, message: "not implemented")
  public func application(
    _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
    fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func application(
    _ application: UIApplication,
    performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func application(
    _ application: UIApplication, performActionFor shortcutItem: UIApplicationShortcutItem,
    completionHandler: @escaping (Bool) -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func application(
    _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
    completionHandler: @escaping () -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func application(
    _ application: UIApplication, handleWatchKitExtensionRequest userInfo: [AnyHashable: Any]?,
    reply: @escaping ([AnyHashable: Any]?) -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func application(
    _ application: UIApplication, handle intent: INIntent, completionHandler: @escaping (INIntentResponse) -> Void
  ) {}
}

@MainActor public protocol UISceneDelegate: AnyObject {}

@MainActor public protocol UIWindowSceneDelegate: UISceneDelegate {
  func windowScene(
    _ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
    completionHandler: @escaping (Bool) -> Void)
}

extension UIWindowSceneDelegate {
  @available(*, deprecated, message: "not implemented")
  public func windowScene(
    _ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
    completionHandler: @escaping (Bool) -> Void
  ) {}
}
