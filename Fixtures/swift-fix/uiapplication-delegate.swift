// UIApplicationDelegate makes AppDelegate @MainActor; `nonisolated` takes the method off it.
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    nonisolated func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult {
        guard userInfo["aps"] != nil else {
            return .noData
        }
        return .newData
    }
}
