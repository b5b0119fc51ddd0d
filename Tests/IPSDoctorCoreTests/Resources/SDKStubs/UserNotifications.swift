// A stub of UserNotifications for `check --fix` tests: the types and the completion-handler
// requirements the table names. Each requirement has a default implementation marked deprecated,
// so a type may implement only some (as with Objective-C `optional`) and the compiler warns when
// a conformance falls back on one: the tests read that warning as "the rewrite is no witness".

public class UNUserNotificationCenter {}
public class UNNotification {}
public class UNNotificationResponse {}

public struct UNNotificationPresentationOptions: OptionSet, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 0)
  public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
  public static let list = UNNotificationPresentationOptions(rawValue: 1 << 2)
}

public protocol UNUserNotificationCenterDelegate: AnyObject {
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void)
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
}

extension UNUserNotificationCenterDelegate {
  @available(*, deprecated, message: "not implemented")
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {}
  @available(*, deprecated, message: "not implemented")
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
  ) {}
}
