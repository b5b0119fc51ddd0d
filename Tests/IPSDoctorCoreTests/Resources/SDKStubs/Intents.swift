// A stub of Intents for `check --fix` tests (see UserNotifications.swift).

open class INSendMessageIntent {}
open class INSendMessageIntentResponse {
  public init(code: Int) {}
}
open class INSendMessageRecipientResolutionResult {}
open class INStartCallIntent {}
open class INStartCallIntentResponse {
  public init(code: Int) {}
}

public protocol INSendMessageIntentHandling: AnyObject {
  func handle(intent: INSendMessageIntent, completion: @escaping (INSendMessageIntentResponse) -> Void)
  func resolveRecipients(
    for intent: INSendMessageIntent, with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void)
}

extension INSendMessageIntentHandling {
  @available(*, deprecated, message: "not implemented")
  public func resolveRecipients(
    for intent: INSendMessageIntent, with completion: @escaping ([INSendMessageRecipientResolutionResult]) -> Void
  ) {}
}

public protocol INStartCallIntentHandling: AnyObject {
  func handle(intent: INStartCallIntent, completion: @escaping (INStartCallIntentResponse) -> Void)
}
