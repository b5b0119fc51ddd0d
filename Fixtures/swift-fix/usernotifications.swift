// The founding crash: a plain class whose async didReceive the compiler's bridge completes off
// the main thread. Every path of the body returns; the handler must be called once on each.
import UserNotifications

@MainActor final class Router {
    static let shared = Router()
    var pending: [String] = []
}

public final class PushNotificationDelegate: UNUserNotificationCenterDelegate {
    private var handled = 0

    /// Parks the tapped notification's route for the UI.
    @available(iOS 15, macOS 12, *)
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: UNNotificationResponse // the tap
    ) async {
        handled += 1
        guard handled < 100 else { return }
        await MainActor.run { Router.shared.pending.append("inbox") }
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
        if handled > 10 { return [.list] }
        return [.banner, .sound]
    }
}
