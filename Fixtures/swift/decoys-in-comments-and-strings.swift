import UserNotifications

/* A block comment /* with a nested one */ still a comment:
   func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
*/
// func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async {

final class Strings: NSObject, UNUserNotificationCenterDelegate {
    let raw = #"func userNotificationCenter(_ c: UNUserNotificationCenter, didReceive r: UNNotificationResponse) async { "# + "}"
    let rawInterpolated = #"brace \#("{" + "}}") and \(not interpolated"#
    let multiline = """
        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        \(["}", "{"].joined(separator: "\("}")")) \""" still inside
        """
    let regex = #/ \{ " /#
    let nested = "\(values.map { "\($0 + ")")" }) }"

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {} // check: error
}

@MainActor final class AfterStrings: NSObject, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}
