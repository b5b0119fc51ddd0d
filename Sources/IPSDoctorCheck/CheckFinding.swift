import IPSDoctorDiagnosis
import IPSDoctorSupport

/// One `async` implementation of a completion-handler delegate method that the bridge may
/// complete off the main thread.
package struct CheckFinding: Sendable, Equatable {
  /// The file as shown to the user (never printed without escaping).
  package var file: String
  package var line: Int
  package var column: Int
  package var severity: Severity
  /// The type (or extended type) that declares the method.
  var typeName: String
  var function: SwiftFunctionDeclaration
  var method: CompletionHandlerDelegateMethod
  /// Why the method is taken to run off the main actor, and what the scan could not see.
  package var isolation: String

  /// The one-line message of the diagnostic.
  var message: String {
    "async '\(typeName).\(function.swiftName)' implements \(method.protocolName)'s "
      + "'\(method.selector)'; \(isolation), so the compiler's bridge calls the completion handler "
      + "off the main thread (\(effectPhrase))"
  }

  var effectPhrase: String {
    switch method.effect {
    case .crash: "\(method.framework) asserts the main thread: a crash"
    case .misuse: "\(method.framework) expects the handler on main"
    case .harmless: "\(method.framework) accepts it on any thread"
    }
  }

  /// The fix, in a sentence (the full remedy is ``CheckRemedy/text(for:)``).
  var fix: String {
    "implement '\(method.selector)' (the completion-handler variant) and call the handler once, "
      + "on every path, on the main thread; or make the method @MainActor"
  }
}

/// The remedy of every finding: the founding rule's, plus this method's completion-handler form.
enum CheckRemedy {
  static func text(for finding: CheckFinding) -> String {
    AsyncBridgeCompletionOffMainRule.description.remedy
      + "\n\nReplace `\(finding.function.swiftName) async` with the Objective-C form "
      + "`\(finding.method.selector)` and call the handler on the main thread."
  }
}
