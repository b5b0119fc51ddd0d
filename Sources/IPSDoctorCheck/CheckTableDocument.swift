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

      ## From crash to patch: `--fix` and `--diff`

      ```sh
      ips-doctor crash.ips                                    # why it crashed: the bridge frame names the method
      ips-doctor check Sources --report crash.ips --diff      # the patch for that method, to review
      ips-doctor check Sources --report crash.ips --fix       # the same patch, written
      ```

      `--fix` rewrites each `error` into the completion-handler form of its requirement, in place;
      `--diff` prints the same rewrite as a unified diff (`git apply`-able, paths relative to the
      working directory) and writes nothing; with `--report crash.ips` only the method the
      report's bridge frame names is rewritten. Warnings and notes (isolation or conformance not
      visible to the scan, main-actor only with a recent SDK) are left, each with the reason, unless
      `--fix-warnings` is given. Standard output tells each rewrite and each refusal as
      `file:line:column`; the exit status counts the findings left.

      The rewrite of `func userNotificationCenter(_:didReceive:) async`:

      ```swift
      func userNotificationCenter(
          _ center: UNUserNotificationCenter,
          didReceive response: UNNotificationResponse,
          withCompletionHandler completionHandler: @escaping () -> Void
      ) {
          nonisolated(unsafe) let body = { await self.userNotificationCenterAsync(center, didReceive: response) }
          nonisolated(unsafe) let completionHandler = completionHandler
          Task { @MainActor in
              await body()
              completionHandler()
          }
      }

      private func userNotificationCenterAsync(
          _ center: UNUserNotificationCenter,
          didReceive response: UNNotificationResponse
      ) async {
          // the original body, byte for byte
      }
      ```

      - The signature keeps what was written before the parameter list's `)`: comments,
        attributes, access level, availability and parameter names; a label changes only where the
        two forms differ (`respondTo:` becomes `didReceive:`). It gains the handler, typed as in the
        table below, and loses `async` and the return type.
      - The body moves, unchanged, into a private `async` helper beside the method, with the same
        parameters, return type, `nonisolated` and `@available`, so it runs where it ran before and
        every `return`, `guard` and early exit keeps its meaning. The method starts a task on the main
        actor that awaits the helper and then calls the handler with its result: exactly once, on
        every path, on the main thread.
      - Swift 6 with complete concurrency checking: the call of the helper (a closure that captures
        `self` and the framework's arguments, `Sendable` or not) and the handler go into the task
        as `nonisolated(unsafe)` constants; in an actor or a type isolated to another global actor
        the method becomes `nonisolated`. Nothing else in the file changes; the new
        lines follow the file's line endings and indentation.

      Refused, with the reason and no edit: a method called or referenced as the `async` method
      in any scanned file, an `override` or `open` method, an explicit `@objc(…)` name, a body using `#function`,
      `#line`, `#file` or a macro (their values would change in the helper), a method that throws
      or is generic, one whose declaration holds code the scanner skipped, and one whose helper's
      name is taken. `--fix` twice gives the file of `--fix` once, and `check` after it reports
      none of the rewritten methods. A file is written atomically (a temporary file beside it,
      renamed over it; it keeps its mode), once however many paths name it, never through a
      symbolic link and never when it is another input of the run (`--report`, the build settings).

      ## Methods


      """
    out +=
      "| Protocol | Swift (async) | Objective-C selector | Completion-handler form | Handler | Framework | Off-main completion | Protocol isolation |\n"
    out += "|---|---|---|---|---|---|---|---|\n"
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
        + "`\(method.completion.swiftName)` | `\(method.completion.type)` | "
        + "\(method.framework) | \(method.effect.rawValue) | \(isolation) |\n"
    }
    out +=
      "\n\(CompletionHandlerDelegateTable.all.count) methods. To add one, add a line to "
      + "`Sources/IPSDoctorCheck/CompletionHandlerDelegateTable.swift` and re-record this file.\n"
    return out
  }
}
