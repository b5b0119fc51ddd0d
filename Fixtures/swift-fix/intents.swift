// Intents handlers take their completion on any thread: notes, rewritten with --fix-warnings.
import Intents

final class SendMessageHandler: INSendMessageIntentHandling {
    func handle(intent: INSendMessageIntent) async -> INSendMessageIntentResponse {
        INSendMessageIntentResponse(code: 3)
    }

    func resolveRecipients(for intent: INSendMessageIntent) async -> [INSendMessageRecipientResolutionResult] {
        []
    }
}
