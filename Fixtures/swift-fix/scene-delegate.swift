// A scene delegate indented with tabs, with CRLF line endings.
import UIKit

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
	nonisolated func windowScene(_ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem) async -> Bool {
		if Int.random(in: 0..<2) == 0 {
			return false
		}
		return true
	}
}
