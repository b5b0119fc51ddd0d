import IPSDoctorSupport

/// Swift's checked arithmetic trapped: overflow, division by zero, or a lossy numeric conversion.
package struct SwiftArithmeticOverflowRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-arithmetic-overflow",
    title: "Swift Arithmetic Overflow Or Division By Zero",
    summary: "Swift integer arithmetic overflowed or divided by zero, or a numeric conversion lost its value.",
    category: .swiftRuntime,
    severity: .error,
    tier: .specific,
    outranks: [SwiftForceCastFailedRule.self],
    rationale: """
      Swift's `+`, `-`, `*`, `/` and `%` on integers are checked: overflow traps ("arithmetic \
      overflow"), as do division by zero ("Division by zero") and `Int.min / -1` ("Division \
      results in an overflow"). Converting initialisers trap when the value does not fit: \
      `Int(someDouble)` with NaN or infinity ("…cannot be converted to Int because it is either \
      infinite or NaN") or out of range, `UInt8(300)` ("Not enough bits to represent the passed \
      value"), `UInt(-1)` ("Negative value is not representable"). Optimised builds drop the \
      message; the symbolicated frame reads "Swift runtime failure: arithmetic overflow".
      """,
    remedy: """
      Validate inputs before arithmetic, or use the explicit forms: wrapping operators (`&+`, \
      `&-`, `&*`) when wrap-around is intended, `addingReportingOverflow(_:)` to detect overflow, \
      `Int(exactly:)`/`Int(clamping:)`/`Int(truncatingIfNeeded:)` for conversions, and check \
      divisors and `isFinite` before dividing or converting.

      ```swift
      let (sum, overflow) = a.addingReportingOverflow(b)
      guard !overflow, let count = Int(exactly: value.rounded()) else { return }
      ```
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-crashes-from-swift-runtime-errors",
      "https://docs.swift.org/swift-book/documentation/the-swift-programming-language/advancedoperators/#Overflow-Operators",
    ],
    examples: examples)

  static let fragments = [
    "arithmetic overflow", "Arithmetic overflow", "Division by zero", "Division results in an overflow",
    "Not enough bits to represent", "Negative value is not representable",
    "because it is either infinite or NaN", "because the result would be",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let (failure, fragment) = SwiftFailure.find(in: context, containing: Self.fragments) else {
      return nil
    }
    var evidence = [failure.evidence]
    let what: String
    switch fragment {
    case "Division by zero": what = "An integer was divided by zero"
    case "Division results in an overflow": what = "An integer division overflowed (`Int.min / -1` or `%`)"
    case "arithmetic overflow", "Arithmetic overflow": what = "An integer operation overflowed"
    default: what = "A numeric conversion could not represent its value"
    }
    var summary = "\(what): \"\(TextScan.clip(failure.message))\" (\(failure.evidence.path))."
    summary += failure.locationSentence(in: context, evidence: &evidence)
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "release build: inline runtime-failure frame",
      ExampleReport.trap(frames: [
        .frame(.app, "Swift runtime failure: arithmetic overflow", inline: true),
        .frame(.app, "Budget.remaining(after:)"),
      ]),
      .definite, summaryContains: ["overflowed", "Budget.remaining(after:)", "threads[0].frames[0]"]),
    .triggers(
      "Double to Int conversion",
      ExampleReport.trap(
        frames: [
          .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"),
          .frame(.app, "ProgressView.percent.getter"),
        ],
        asi: [
          "libswiftCore.dylib": [
            "Swift/IntegerTypes.swift:14590: Fatal error: Double value cannot be converted to Int because it is either infinite or NaN"
          ]
        ]),
      .definite, summaryContains: ["conversion", "infinite or NaN"]),
    .ignores(
      "another fatal error",
      ExampleReport.trap(
        frames: [.frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app)],
        asi: ["libswiftCore.dylib": ["Example/Router.swift:88: Fatal error: Unknown route"]])),
  ]
}
