import IPSDoctorSupport

/// `NSUnknownKeyException`: "this class is not key value coding-compliant for the key X", most
/// often a stale Interface Builder outlet.
package struct ObjCKVCUndefinedKeyRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "objc-kvc-undefined-key",
    title: "Key-Value Coding Undefined Key",
    summary: "A key-value coding key did not exist on its object, typically a stale storyboard or XIB outlet.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    outranks: [ObjCInvalidArgumentRule.self],
    rationale: """
      Loading a storyboard or XIB connects each outlet with key-value coding: \
      `-[UIRuntimeOutletConnection connect]` calls `setValue:forKey:` on the owner. When the \
      property no longer exists (renamed, deleted, not `@objc`/`@IBOutlet`, or the view controller's \
      custom class is wrong or in another module), `setValue:forUndefinedKey:` raises \
      `NSUnknownKeyException`: "[<MyApp.SettingsViewController 0x…> setValue:forUndefinedKey:]: this \
      class is not key value coding-compliant for the key titleLabel." Code that calls \
      `setValue(_:forKey:)`/`value(forKey:)` with a wrong key fails the same way.
      """,
    remedy: """
      Open the storyboard or XIB named in the backtrace, select the object, and in the Connections \
      inspector remove the outlet marked with a warning triangle (or reconnect it to the renamed \
      property). Check the Identity inspector's Class and Module fields. For code that uses KVC, \
      use `#keyPath`/key paths instead of string keys so renames fail at compile time.
      """,
    references: [
      "https://developer.apple.com/documentation/foundation/nsunknownkeyexception",
      "https://developer.apple.com/documentation/objectivec/nsobject/1413490-setvalue",
    ],
    examples: examples)

  static let nibFrames = [
    "UIRuntimeOutletConnection connect", "UINib instantiateWithOwner:options:",
    "NSIBUserDefinedRuntimeAttributesConnector", "UIStoryboard instantiateViewControllerWithIdentifier:",
    "NSNib _instantiateNibWithExternalNameTable:", "-[NSIBObjectData nibInstantiateWithOwner:",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let exception = context.languageException, exception.isObjC else { return nil }
    let reason = exception.reason ?? ""
    // The name first: where it says so, the reason's markers change nothing.
    let named = exception.name == "NSUnknownKeyException"
    let textMatch =
      !named
      && (reason.contains("not key value coding-compliant")
        || reason.contains("forUndefinedKey:"))
    guard named || textMatch else { return nil }

    let key = Self.key(in: reason)
    let owner =
      TextScan.between(reason, "[<", " 0x").map { $0.trimmingWhitespace() }
      ?? TextScan.between(reason, "[<", ">").map { $0.trimmingWhitespace() }
    var nibEvidence: Evidence?
    if let backtrace = exception.throwBacktrace {
      for fragment in Self.nibFrames {
        if let hit = context.firstFrame(in: backtrace, containing: fragment) {
          nibEvidence = hit.evidence
          break
        }
      }
    }
    let isSetter = reason.contains("setValue:forUndefinedKey:")

    var summary = "An uncaught `NSUnknownKeyException` ended the app: \(exception.reasonDisplay)."
    var remedy = Self.description.remedy
    if let nibEvidence, isSetter || !reason.contains("valueForUndefinedKey:") {
      summary += " A storyboard or XIB was being loaded (\(DiagnosisContext.quote(nibEvidence)))"
      summary += " and tried to connect the outlet"
      summary += key.map { " \(CodeSpan.markdown($0))" } ?? ""
      summary += owner.map { " on \(CodeSpan.markdown($0))" } ?? ""
      summary +=
        ", which has no such property: the outlet is stale (renamed or deleted in code) "
        + "or the object's custom class is wrong."
      if let key {
        remedy =
          "In Interface Builder, find the outlet \(CodeSpan.markdown(key))"
          + (owner.map { " of \(CodeSpan.markdown($0))" } ?? "")
          + " in the Connections inspector and delete it or reconnect it to the current property "
          + "(`@IBOutlet weak var \(key): …`). Check the Identity inspector's Class and Module.\n\n"
          + Self.description.remedy
      }
    } else {
      summary += " The code "
      summary += isSetter ? "set" : "read"
      summary += key.map { " the key \(CodeSpan.markdown($0))" } ?? " a key"
      summary += owner.map { " on \(CodeSpan.markdown($0))" } ?? ""
      summary +=
        " through key-value coding, and the class has no property of that name "
        + "(or it is not exposed to Objective-C with `@objc`)."
      summary += " " + exception.throwSiteSentence(in: context)
    }
    var evidence = exception.evidence
    if let nibEvidence { evidence.append(nibEvidence) }
    if let frame = exception.appFrame(in: context) { evidence.append(frame) }
    return finding(
      confidence: named || textMatch ? .definite : .likely,
      summary: summary, evidence: evidence, remedy: remedy)
  }

  /// "…compliant for the key titleLabel." → "titleLabel".
  static func key(in reason: String) -> String? {
    guard let range = reason.firstRange(of: "for the key ") else { return nil }
    var key = reason[range.upperBound...].trimmingWhitespace()
    if key.hasSuffix(".") { key.removeLast() }
    return key.isEmpty ? nil : key
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "stale outlet in a storyboard",
      ExampleReport.uncaughtException(
        name: "NSUnknownKeyException",
        reason:
          "[<Example.SettingsViewController 0x10a80b600> setValue:forUndefinedKey:]: this class is not key value coding-compliant for the key titleLabel.",
        throwingFrames: [
          .frame(.foundation, "-[NSObject(NSKeyValueCoding) setValue:forKey:]"),
          .frame(.uiKit, "-[UIRuntimeOutletConnection connect]"),
          .frame(.uiKit, "-[UINib instantiateWithOwner:options:]"),
        ], appFrame: "AppCoordinator.showSettings()"),
      .definite,
      summaryContains: ["titleLabel", "Example.SettingsViewController", "UIRuntimeOutletConnection connect"]),
    .triggers(
      "KVC from code",
      ExampleReport.uncaughtException(
        name: "NSUnknownKeyException",
        reason:
          "[<Example.Profile 0x600001234560> valueForUndefinedKey:]: this class is not key value coding-compliant for the key nickname.",
        appFrame: "ProfileExporter.export(_:)"),
      .definite, summaryContains: ["read the key `nickname`", "ProfileExporter.export(_:)"]),
    .ignores(
      "another exception",
      ExampleReport.uncaughtException(
        name: "NSInternalInconsistencyException", reason: "Invalid update: invalid number of rows")),
  ]
}
