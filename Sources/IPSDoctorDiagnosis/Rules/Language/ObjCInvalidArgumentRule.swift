import IPSDoctorSupport

/// `NSInvalidArgumentException` other than an unrecognized selector: `nil` inserted into a
/// collection, mismatched counts, and other bad arguments to Foundation and UIKit.
package struct ObjCInvalidArgumentRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "objc-invalid-argument",
    title: "Invalid Argument Passed To A Framework",
    summary: "A framework raised NSInvalidArgumentException, most often for nil inserted into a collection.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    outranks: [CxxUncaughtExceptionRule.self],
    rationale: """
      Foundation collections cannot hold `nil`: `-[__NSDictionaryM setObject:forKey:]: object \
      cannot be nil (key: …)`, `-[__NSArrayM insertObject:atIndex:]: object cannot be nil`, \
      `-[__NSPlaceholderDictionary initWithObjects:forKeys:count:]: attempt to insert nil object \
      from objects[1]` (a dictionary literal with a `nil` value). Other methods raise the same \
      exception for arguments they reject (a missing storyboard identifier, a `nil` URL string, \
      presenting a view controller that is already presented). From Swift this usually comes from \
      an implicitly unwrapped or bridged Objective-C value that was `nil`.
      """,
    remedy: """
      Find the argument named in the reason and guard it before the call: skip the insertion, use \
      a default, or store `NSNull()` when the collection must represent "no value". In Swift, \
      build dictionaries from optionals with `compactMapValues`, and treat values that come from \
      Objective-C APIs as optional.
      """,
    references: [
      "https://developer.apple.com/documentation/foundation/nsinvalidargumentexception",
      "https://developer.apple.com/documentation/xcode/addressing-language-exception-crashes",
    ],
    examples: examples)

  static let nilMarkers = [
    "object cannot be nil", "key cannot be nil", "attempt to insert nil", "nil value",
    "must not be nil", "cannot be nil", "nil argument", "attempt to set a nil",
    "attempt to insert nil object", "nil string argument",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let exception = context.languageException, exception.isObjC, exception.name == "NSInvalidArgumentException"
    else { return nil }
    let reason = exception.reason ?? ""
    if reason.contains(UnrecognizedSelector.marker) { return nil }  // objc-unrecognized-selector
    let isNil = Self.nilMarkers.contains { reason.contains($0) }
    let isCountMismatch =
      reason.contains("count of objects") && reason.contains("differs from count")

    var summary = "An uncaught `NSInvalidArgumentException` ended the app: \(exception.reasonDisplay)."
    let method = ObjCMethodReference(in: reason)
    var remedy = Self.description.remedy
    if isNil {
      summary += " A `nil` value was passed where "
      summary += method.map { "\(CodeSpan.markdown($0.display))" } ?? "the method"
      summary += " requires an object"
      if let key = TextScan.between(reason, "(key: ", ")") {
        summary += " (for the key \(CodeSpan.markdown(key)))"
        remedy += """


          For the key \(CodeSpan.markdown(key)):

          ```swift
          if let value = optionalValue {
            dictionary["\(key)"] = value
          }  // or: dictionary["\(key)"] = optionalValue ?? NSNull()
          ```
          """
      } else if let slot = TextScan.between(reason, "from objects[", "]") {
        summary += " (element \(slot) of a dictionary or array literal was `nil`)"
      }
      summary += "."
    } else if isCountMismatch {
      summary +=
        " The objects and keys arrays passed to \(method.map { "\(CodeSpan.markdown($0.display))" } ?? "the initializer") have different lengths."
    } else if let method {
      summary += " \(CodeSpan.markdown(method.display)) rejected one of its arguments."
    }
    let appFrame = exception.appFrame(in: context)
    summary += " " + exception.throwSiteSentence(appFrame: appFrame)
    var evidence = exception.evidence
    if let appFrame { evidence.append(appFrame) }
    return finding(
      confidence: isNil || isCountMismatch ? .definite : .likely, summary: summary,
      evidence: evidence, remedy: remedy)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "nil into a mutable dictionary",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason: "*** -[__NSDictionaryM setObject:forKey:]: object cannot be nil (key: route)",
        throwingFrames: [.frame(.coreFoundation, "-[__NSDictionaryM setObject:forKey:]")],
        appFrame: "NotificationRouter.park(_:)"),
      .definite,
      summaryContains: ["nil", "-[__NSDictionaryM setObject:forKey:]", "`route`", "NotificationRouter.park(_:)"]),
    .triggers(
      "nil in a dictionary literal",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason:
          "*** -[__NSPlaceholderDictionary initWithObjects:forKeys:count:]: attempt to insert nil object from objects[1]"
      ),
      .definite, summaryContains: ["element 1"]),
    .triggers(
      "another invalid argument",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason:
          "Storyboard (<UIStoryboard: 0x600002d4c000>) doesn't contain a view controller with identifier 'Settings'"),
      .likely, summaryContains: ["Settings"]),
    .ignores(
      "unrecognized selector (objc-unrecognized-selector)",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason: "-[NSNull length]: unrecognized selector sent to instance 0x206db76c0")),
    .ignores(
      "NSRangeException",
      ExampleReport.uncaughtException(
        name: "NSRangeException", reason: "*** -[__NSArrayI objectAtIndex:]: index 5 beyond bounds [0 .. 2]")),
  ]
}
