import IPSDoctorSupport

/// "Could not cast value of type 'X' to 'Y'": a failed `as!`.
package struct SwiftForceCastFailedRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-force-cast-failed",
    title: "Swift Force Cast Failed",
    summary: "A Swift force cast (as!) met a value of another type.",
    category: .swiftRuntime,
    severity: .error,
    tier: .specific,
    outranks: [SwiftUnownedDeallocatedRule.self],
    rationale: """
      `value as! T` calls `swift_dynamicCastFailure` when the value is not a `T`, which prints \
      "Could not cast value of type 'X' (0x…) to 'Y' (0x…)." and aborts (`SIGABRT` from the \
      runtime, or a trap in the app frame in optimised builds). Common sources: dequeuing a cell \
      with the wrong class or reuse identifier, a storyboard scene whose custom class is not set, \
      JSON values (`NSNumber` vs `String`, `NSNull`), and notification `userInfo` values.
      """,
    remedy: """
      Use a conditional cast and handle the mismatch:

      ```swift
      guard let cell = tableView.dequeueReusableCell(withIdentifier: "Item", for: indexPath) as? ItemCell else {
        assertionFailure("Item is not registered as ItemCell")
        return UITableViewCell()
      }
      ```

      Then fix the source of the unexpected type (cell registration, the storyboard's custom \
      class and module, the decoded data).
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-crashes-from-swift-runtime-errors",
      "https://docs.swift.org/swift-book/documentation/the-swift-programming-language/typecasting/",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let text = context.reasonText(containing: "Could not cast value of type")
    let frame = context.crashedThreadTop(10, contains: "swift_dynamicCastFailure")
    guard text != nil || frame != nil else { return nil }
    var evidence = [text, frame?.evidence].compactMap { $0 }
    var summary: String
    if let text, let from = TextScan.between(text.detail, "of type '", "'"),
      let toRange = text.detail.firstRange(of: "' to '")
        ?? text.detail.firstRange(of: ") to '")
    {
      let to = text.detail[toRange.upperBound...].prefix { $0 != "'" }
      summary =
        "A force cast (`as!`) to \(CodeSpan.markdown(to)) failed: the value was a \(CodeSpan.markdown(from)) (\(text.path))."
    } else if let text {
      summary = "A force cast (`as!`) failed: \"\(TextScan.clip(text.detail))\" (\(text.path))."
    } else if let frame {
      summary =
        "A force cast (`as!`) failed: `swift_dynamicCastFailure` is on the crashed thread (\(frame.evidence.path)); the report does not record the types."
    } else {
      return nil
    }
    if let backtrace = context.crashedBacktrace,
      let app = context.appFrameEvidence(in: backtrace, from: frame?.index ?? 0)
    {
      summary += " The cast is in \(DiagnosisContext.quote(app))"
      summary += app.detail.hasSuffix("(unsymbolicated)") ? "; symbolicate it to see the line." : "."
      evidence.append(app)
    }
    return finding(confidence: text != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = {
    let frames: [ExampleReport.Frame] =
      ExampleReport.swiftRuntimeAbortFrames + [
        .frame(
          .libswiftCore,
          "swift::swift_dynamicCastFailure(void const*, char const*, void const*, char const*, char const*)"
        ),
        .frame(.libswiftCore, "swift_dynamicCast"), .frame(.app, "ItemsViewController.tableView(_:cellForRowAt:)"),
      ]
    return [
      .triggers(
        "cell of the wrong class",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: [
            "libswiftCore.dylib": [
              "Could not cast value of type 'UITableViewCell' (0x1f2a3b4c8) to 'Example.ItemCell' (0x100f3c2a0)."
            ]
          ], threads: [.main(frames)]),
        .definite,
        summaryContains: ["`Example.ItemCell`", "`UITableViewCell`", "ItemsViewController.tableView(_:cellForRowAt:)"]),
      .triggers(
        "frames only",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: ["libsystem_c.dylib": ["abort() called"]], threads: [.main(frames)]),
        .likely, summaryContains: ["swift_dynamicCastFailure"]),
      .ignores(
        "abort without a cast",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [.main([.frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"), .frame(.app)])])),
    ]
  }()
}
