import IPSDoctorDiagnosis
import IPSDoctorSupport

/// `docs/check.md`: what `ips-doctor check` looks for, generated from
/// ``CompletionHandlerDelegateTable`` (a test keeps the committed file equal to this text).
enum CheckTableDocument {
  static var markdown: String {
    var out = """
      # ips-doctor check

      <!-- Generated from CompletionHandlerDelegateTable.swift; do not edit. Re-record with
      IPS_DOCTOR_RECORD=1 swift test --skip-build --filter CheckDocsFreshness -->

      `ips-doctor check PATH...` finds Swift `async` methods that implement an Objective-C protocol
      method taking a completion handler, in code not isolated to the main actor. The compiler
      bridges such a method: it starts a task that awaits it and calls the framework's completion
      block where that task resumes, on the cooperative pool, off the main thread. UIKit asserts
      the main thread in some of these completions: the app crashes (see
      `async-bridge-completion-off-main` in [rules.md](rules.md)).

      ## Severity

      | Off-main completion | Isolation certainly not main | Isolation or conformance not visible to the scan | Main-actor only with a recent SDK |
      |---|---|---|---|
      | crash | error | warning | note |
      | misuse | warning | note | note |
      | harmless | note | note | note |

      Isolation follows the compiler: `@MainActor` on the method, the type or the extension; a
      `@MainActor` protocol or class (`UIApplicationDelegate`, `UIResponder`, …) in the type's
      primary declaration, or in the inheritance clause of the extension holding the method; an
      isolated conformance (`extension T: @MainActor P`). `nonisolated` on the method overrides
      them; other global actors and actors are not the main actor. `--default-isolation
      main-actor` states a module built with `-default-isolation MainActor`.

      ## Methods


      """
    out +=
      "| Protocol | Swift (async) | Objective-C selector | Framework | Off-main completion | Protocol isolation |\n"
    out += "|---|---|---|---|---|---|\n"
    for method in CompletionHandlerDelegateTable.all {
      let isolation: String
      switch method.isolation {
      case .none: isolation = "none"
      case .mainActor: isolation = "`@MainActor`"
      case .mainActorSince(let sdk): isolation = "`@MainActor` from the \(sdk)"
      }
      let swift = method.swiftName + (method.parameterType.map { " (\($0))" } ?? "")
      out +=
        "| [`\(method.protocolName)`](\(method.reference)) | `\(swift)` | `\(method.selector)` | "
        + "\(method.framework) | \(method.effect.rawValue) | \(isolation) |\n"
    }
    out +=
      "\n\(CompletionHandlerDelegateTable.all.count) methods. To add one, add a line to "
      + "`Sources/IPSDoctorCheck/CompletionHandlerDelegateTable.swift` and re-record this file.\n"
    return out
  }
}
