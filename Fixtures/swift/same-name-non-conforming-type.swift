import UserNotifications

// Same names in a type that does not conform: a helper, not a delegate. Nothing to report.
final class NotificationRouter: NSObject {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}

struct Payload {
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions { [] }
}

// A protocol's requirements are not implementations.
protocol NotificationHandling {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
}

// Default implementations in protocol extensions are never called by Objective-C.
extension NotificationHandling {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}

extension UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions { [] }
}

// An extension of a type declared elsewhere: conformance and isolation unknown, so a warning.
extension ExternalDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {} // check: warning
}

// A superclass from another module might be @MainActor: a warning, not an error.
final class SubclassDelegate: FrameworkBaseDelegate, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {} // check: warning
}

// The completion-handler form is the fix, never a finding.
final class CompletionDelegate: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
        completionHandler()
    }
}
