import UserNotifications

// An explicit Objective-C name makes any Swift name the delegate method.
final class RenamedDelegate: NSObject, UNUserNotificationCenterDelegate {
    @objc(userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:)
    func handleTap(_ center: UNUserNotificationCenter, response: UNNotificationResponse) async {} // check: error

    @objc(handleOther:)
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}
