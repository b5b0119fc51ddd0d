import IPSDoctorSupport

/// "mutating method sent to immutable object": an immutable Foundation object was mutated.
package struct ObjCMutatingImmutableRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "objc-mutating-immutable",
    title: "Mutating Method Sent To An Immutable Object",
    summary: "A mutating method was sent to an immutable NSArray, NSDictionary, NSString or NSData.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    outranks: [ObjCInvalidArgumentRule.self, ObjCUnrecognizedSelectorRule.self],
    rationale: """
      Foundation's mutable classes share their implementation with the immutable ones, so an \
      immutable object that the code treats as mutable raises `NSInternalInconsistencyException` \
      "mutating method sent to immutable object" (or `NSInvalidArgumentException` "unrecognized \
      selector" for `-[__NSArrayI addObject:]`). It happens when an object from an API (a copy, a \
      property-list or JSON value without `NSJSONReadingMutableContainers`, a `copy` property) is \
      cast to its mutable subclass.
      """,
    remedy: """
      Make a mutable copy before mutating (`[object mutableCopy]`, `NSMutableArray(array:)`), and \
      declare properties that hold mutable collections `strong` rather than `copy` (a `copy` \
      property stores an immutable copy). In Swift, use Swift `var` arrays, dictionaries and \
      strings instead of `NSMutable…` types.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-language-exception-crashes"
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let exception = context.languageException, exception.isObjC else { return nil }
    let reason = exception.reason ?? ""
    var summary: String
    if reason.contains("mutating method sent to immutable object") {
      summary =
        "An uncaught `\(exception.name ?? "NSInternalInconsistencyException")` ended the app: "
        + "\(exception.reasonDisplay)."
      if let method = ObjCMethodReference(in: reason) {
        summary +=
          " \(CodeSpan.markdown(method.selector)) was sent to an immutable \(CodeSpan.markdown(method.className))."
      }
    } else if let selector = UnrecognizedSelector.find(in: context), selector.isMutationOfImmutable {
      summary =
        "An uncaught `\(exception.name ?? "NSInvalidArgumentException")` ended the app: "
        + "\(exception.reasonDisplay). \(CodeSpan.markdown(selector.receiver)) is an immutable Foundation class, so it "
        + "does not implement \(CodeSpan.markdown(selector.selector))."
    } else {
      return nil
    }
    let appFrame = exception.appFrame(in: context)
    summary += " " + exception.throwSiteSentence(appFrame: appFrame)
    var evidence = exception.evidence
    if let appFrame { evidence.append(appFrame) }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "appendString: on an immutable string",
      ExampleReport.uncaughtException(
        name: "NSInternalInconsistencyException",
        reason: "-[__NSCFString appendString:]: mutating method sent to immutable object",
        appFrame: "LogFormatter.append(_:)"),
      .definite, summaryContains: ["appendString:", "__NSCFString", "LogFormatter.append(_:)"]),
    .triggers(
      "addObject: on an immutable array",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason: "-[__NSArrayI addObject:]: unrecognized selector sent to instance 0x600003a2c0e0"),
      .definite, summaryContains: ["__NSArrayI", "addObject:"]),
    .ignores(
      "unrecognized selector on an unrelated class",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason: "-[NSNull length]: unrecognized selector sent to instance 0x206db76c0")),
  ]
}
