// PushKit: the completion tells PushKit the VoIP push was handled.
import PushKit

final class CallPushDelegate: PKPushRegistryDelegate, @unchecked Sendable {
  private var calls = 0

  func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType) async {
    guard type == .voIP else { return }
    calls += 1
  }
}
