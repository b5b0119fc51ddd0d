import UserNotifications

// Isolated by the type's attribute: nothing to report.
@MainActor
final class IsolatedDelegate: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}

    // `nonisolated` overrides the type's isolation.
    nonisolated func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions { [] } // check: error
}

// Isolated by the method's own attribute, on the line above.
final class MethodIsolatedDelegate: NSObject, UNUserNotificationCenterDelegate {
    @MainActor
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}

@globalActor actor DatabaseActor { static let shared = DatabaseActor() }

// Another global actor is not the main actor.
@DatabaseActor
final class DatabaseDelegate: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {} // check: error
}

// An actor runs its methods on its own executor.
actor NotificationActor: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {} // check: error
}

// An isolated conformance makes the witnesses main-actor isolated.
final class LaterDelegate: NSObject {}
extension LaterDelegate: @MainActor UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}
