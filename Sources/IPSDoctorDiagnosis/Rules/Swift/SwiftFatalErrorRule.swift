import IPSDoctorSupport

/// `fatalError(_:)`, `precondition(_:_:)` or `assert(_:_:)` stopped the app with a message.
package struct SwiftFatalErrorRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-fatal-error",
    title: "Swift Fatal Error, Precondition Or Assertion",
    summary: "Swift code stopped the app on purpose: fatalError, a failed precondition or a failed assertion.",
    category: .swiftRuntime,
    severity: .error,
    tier: .family,
    outranks: [ProtectionFailureRule.self, TerminatedBySignalRule.self],
    rationale: """
      `fatalError(_:)`, `precondition(_:_:)`/`preconditionFailure(_:)` and \
      `assert(_:_:)`/`assertionFailure(_:)` (Debug builds only) stop the process with a trap \
      (`EXC_BREAKPOINT (SIGTRAP)`) after writing "File.swift:42: Fatal error: message" (or \
      "Precondition failed", "Assertion failed") into Application Specific Information. Libraries \
      and frameworks use them too, for example SwiftUI, SwiftData and the standard library. The \
      message states the invariant that the program found broken. In optimised builds \
      `precondition` keeps the trap but drops the message; the symbolicated frame reads "Swift \
      runtime failure: precondition failure".
      """,
    remedy: """
      Read the message and go to the file and line it names: the condition there did not hold. \
      Fix the state that broke it. If the situation can legitimately happen (bad input, missing \
      data, a network response), replace the trap with error handling (`throw`, return an \
      optional, show an error).
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-crashes-from-swift-runtime-errors",
      "https://developer.apple.com/documentation/swift/fatalerror(_:file:line:)",
      "https://developer.apple.com/documentation/swift/precondition(_:_:file:line:)",
    ],
    examples: examples)

  /// Messages that other rules explain better: the Swift runtime rules here, and the Swift
  /// concurrency and framework fatal errors of the concurrency rules. Built once: as a computed
  /// property the four arrays would be joined again for every failure tested.
  static let specificFragments: [String] =
    SwiftForceUnwrapNilRule.fragments + SwiftIndexOutOfRangeRule.fragments
    + SwiftArithmeticOverflowRule.fragments
    + [
      "Could not cast value of type", "Attempted to read an unowned reference", "Simultaneous accesses to",
      "SWIFT TASK CONTINUATION MISUSE", "Incorrect actor executor assumption",
      "No ObservableObject of type", "No Observable object of type",
      "failed to find a currently active container",
    ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let candidate = SwiftFailure.all(in: context).first { failure in
      failure.kind != .runtimeMessage
        && !Self.specificFragments.contains { failure.message.contains($0) }
    }
    guard let failure = candidate else { return nil }
    var evidence = [failure.evidence]
    let what: String
    switch failure.kind {
    case .preconditionFailed: what = "A precondition failed (`precondition`/`preconditionFailure`)"
    case .assertionFailed: what = "An assertion failed (`assert`/`assertionFailure`, a Debug build)"
    case .runtimeFailure:
      what =
        failure.message.hasPrefix("precondition")
        ? "A precondition failed in an optimised build (`precondition`, `preconditionFailure` or a library check)"
        : "A Swift runtime check failed"
    default: what = "`fatalError` (or a library's fatal error) stopped the app"
    }
    var summary = what
    if failure.message.isEmpty {
      summary += " without a message (\(failure.evidence.path))."
    } else {
      summary += ": \"\(TextScan.clip(failure.message))\" (\(failure.evidence.path))."
    }
    summary += failure.locationSentence(in: context, evidence: &evidence)
    let remedy = failure.remedy(Self.description.remedy) { "Open \($0): the check that failed is there." }
    return finding(confidence: .definite, summary: summary, evidence: evidence, remedy: remedy)
  }

  private static let examples: [RuleExample] = {
    let frames: [ExampleReport.Frame] = [
      .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app, "Router.route(for:)"),
    ]
    return [
      .triggers(
        "fatalError with file and line",
        ExampleReport.trap(
          frames: frames,
          asi: ["libswiftCore.dylib": ["Example/Router.swift:88: Fatal error: Unknown route: settings/privacy"]]),
        .definite,
        summaryContains: [
          "fatalError", "Unknown route: settings/privacy", "Example/Router.swift:88", "Router.route(for:)",
        ]),
      .triggers(
        "precondition",
        ExampleReport.trap(
          frames: frames,
          asi: ["libswiftCore.dylib": ["Example/Cache.swift:12: Precondition failed: capacity must be positive"]]),
        .definite, summaryContains: ["precondition", "capacity must be positive"]),
      .triggers(
        "release build: precondition failure frame",
        ExampleReport.trap(frames: [
          .frame(.app, "Swift runtime failure: precondition failure", inline: true),
          .frame(.app, "Cache.init(capacity:)"),
        ]),
        .definite, summaryContains: ["optimised build", "Cache.init(capacity:)"]),
      .ignores(
        "force unwrap (swift-force-unwrap-nil)",
        ExampleReport.trap(
          frames: frames,
          asi: [
            "libswiftCore.dylib": [
              "Example/A.swift:3: Fatal error: Unexpectedly found nil while unwrapping an Optional value"
            ]
          ])),
      .ignores(
        "continuation resumed twice (continuation-resumed-twice)",
        ExampleReport.trap(
          frames: frames,
          asi: [
            "libswiftCore.dylib": [
              "_Concurrency/CheckedContinuation.swift:167: Fatal error: SWIFT TASK CONTINUATION MISUSE: load() tried to resume its continuation more than once, returning ()!"
            ]
          ])),
      .ignores(
        "libdispatch assertion",
        ExampleReport.trap(
          frames: [
            .frame(.libdispatch, "_dispatch_assert_queue_fail"), .frame(.libdispatch, "dispatch_assert_queue"),
            .frame(.app),
          ],
          asi: [
            "libdispatch.dylib": [
              "BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread]"
            ]
          ])),
      .ignores(
        "C assert()",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: ["libsystem_c.dylib": ["Assertion failed: (count > 0), function pop, file stack.c, line 12."]],
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.libsystemC, "__assert_rtn"), .frame(.app),
            ])
          ])),
    ]
  }()
}
