// A stub of PushKit for `check --fix` tests (see UserNotifications.swift).

open class PKPushRegistry {}
open class PKPushPayload {}
public struct PKPushType: Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let voIP = PKPushType(rawValue: "PKPushTypeVoIP")
}

public protocol PKPushRegistryDelegate: AnyObject {
  func pushRegistry(
    _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
    completion: @escaping () -> Void)
}

extension PKPushRegistryDelegate {
  @available(*, deprecated, message: "not implemented")
  public func pushRegistry(
    _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
    completion: @escaping () -> Void
  ) {}
}
