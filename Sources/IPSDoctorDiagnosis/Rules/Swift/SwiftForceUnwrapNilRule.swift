import IPSDoctorSupport

/// "Unexpectedly found nil while unwrapping an Optional value": a force unwrap of `nil`.
package struct SwiftForceUnwrapNilRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-force-unwrap-nil",
    title: "Force Unwrap Of Nil",
    summary: "A Swift optional (! or an implicitly unwrapped T!) was unwrapped while it was nil.",
    category: .swiftRuntime,
    severity: .error,
    tier: .specific,
    outranks: [SwiftIndexOutOfRangeRule.self],
    rationale: """
      `value!` and implicitly unwrapped optionals (`var label: UILabel!`, including `@IBOutlet`s) \
      trap when the value is `nil`: "Fatal error: Unexpectedly found nil while unwrapping an \
      Optional value" (or "…while implicitly unwrapping…"). The process stops with \
      `EXC_BREAKPOINT (SIGTRAP)` (`EXC_BAD_INSTRUCTION` on Intel and in the simulator). Debug \
      builds write the message with file and line into Application Specific Information; \
      optimised builds drop it, and the symbolicated frame reads "Swift runtime failure: \
      Unexpectedly found nil while unwrapping an Optional value".
      """,
    remedy: """
      Replace the force unwrap at the reported line with optional binding and handle `nil`:

      ```swift
      guard let url = URL(string: text) else {
        logger.error("bad URL: \\(text)")
        return
      }
      ```

      For an implicitly unwrapped `@IBOutlet`, the view was not loaded yet (accessed before \
      `viewDidLoad`, or the view controller was created with `init()` instead of from the \
      storyboard) or the outlet is not connected.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-crashes-from-swift-runtime-errors",
      "https://docs.swift.org/swift-book/documentation/the-swift-programming-language/thebasics/#Forced-Unwrapping",
    ],
    examples: examples)

  static let fragments = [
    "Unexpectedly found nil while implicitly unwrapping an Optional value",
    "Unexpectedly found nil while unwrapping an Optional value",
    "Unexpectedly found nil",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let (failure, _) = SwiftFailure.find(in: context, containing: Self.fragments) else { return nil }
    let implicit = failure.message.contains("implicitly")
    var evidence = [failure.evidence]
    var summary =
      implicit
      ? "An implicitly unwrapped optional (a `T!` property or `@IBOutlet`) was used while it was nil"
      : "The app force-unwrapped (`!`) an optional that was nil"
    summary += ": \"\(TextScan.clip(failure.message))\" (\(failure.evidence.path))."
    summary += failure.locationSentence(in: context, evidence: &evidence)
    let remedy = failure.remedy(Self.description.remedy) { "Open \($0) and replace the force unwrap there." }
    return finding(confidence: .definite, summary: summary, evidence: evidence, remedy: remedy)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "debug build: message with file and line",
      ExampleReport.trap(
        frames: [
          .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"),
          .frame(.app, "ProfileViewController.viewDidLoad()"),
        ],
        asi: [
          "libswiftCore.dylib": [
            "Example/ProfileViewController.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value"
          ]
        ]),
      .definite,
      summaryContains: [
        "force-unwrapped", "Example/ProfileViewController.swift:42", "ProfileViewController.viewDidLoad()",
        "threads[0].frames[1]",
      ]),
    .triggers(
      "implicitly unwrapped outlet, old message format",
      ExampleReport.trap(
        frames: [
          .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"),
          .frame(.app, "LoginViewController.configure()"),
        ],
        asi: [
          "libswiftCore.dylib": [
            "Fatal error: Unexpectedly found nil while implicitly unwrapping an Optional value: file Example/LoginViewController.swift, line 17"
          ]
        ]),
      .definite, summaryContains: ["implicitly unwrapped", "Example/LoginViewController.swift:17"]),
    .triggers(
      "release build symbolicated: inline runtime-failure frame",
      ExampleReport.trap(frames: [
        .frame(
          .app, "Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value", inline: true),
        .frame(.app, "CartStore.total.getter"),
      ]),
      .definite, summaryContains: ["CartStore.total.getter"]),
    .ignores(
      "trap without a message (swift-trap-unknown)",
      ExampleReport.trap(frames: [.frame(.app), .frame(.app)])),
    .ignores(
      "another fatal error",
      ExampleReport.trap(
        frames: [.frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app)],
        asi: ["libswiftCore.dylib": ["Example/Router.swift:88: Fatal error: Unknown route"]])),
  ]
}
