import IPSDoctorSupport

/// `-[X sel]: unrecognized selector sent to instance 0x…`: a message the receiver does not
/// implement.
package struct ObjCUnrecognizedSelectorRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "objc-unrecognized-selector",
    title: "Unrecognized Selector Sent To An Object",
    summary: "An Objective-C message was sent to an object that does not implement it.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    outranks: [ObjCInvalidArgumentRule.self],
    rationale: """
      When an object receives a message it does not implement, the runtime calls \
      `-doesNotRecognizeSelector:`, which raises `NSInvalidArgumentException` with the reason \
      `-[Class selector]: unrecognized selector sent to instance 0x…`. The report names the \
      receiver's class and the selector. The usual causes: a value of another type than the code \
      expects (`NSNull` from JSON `null`, an `NSNumber` where a string was expected), a mutating \
      message to an immutable collection, a target-action or `#selector` whose method was renamed \
      or is not `@objc`, a category method not linked (`-ObjC` missing), or — when the receiver's \
      class has nothing to do with the selector — a deallocated object whose memory now holds \
      another object (a zombie).
      """,
    remedy: """
      Check the receiver's class against what the code expected at the first app frame of the \
      exception backtrace. Validate decoded values with `as?` before use; keep `#selector` \
      targets `@objc` and alive; link static libraries with categories using `-ObjC`. When the \
      receiver is unrelated to the message, run the app with Zombie Objects enabled (Scheme → \
      Diagnostics) to find the over-released object.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-language-exception-crashes",
      "https://developer.apple.com/documentation/xcode/investigating-crashes-for-zombie-objects",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let hit = UnrecognizedSelector.find(in: context) else { return diagnoseWithoutReason(context) }
    let exception = LanguageException.find(in: context)
    let kind = hit.method.isClassMethod ? "class method" : "instance method"
    var summary =
      "\(CodeSpan.markdown(hit.method.display)): the \(kind) \(CodeSpan.markdown(hit.selector)) was sent to "
      + (hit.method.isClassMethod
        ? "the class \(CodeSpan.markdown(hit.receiver))" : "an object of class \(CodeSpan.markdown(hit.receiver))")
      + (hit.address.map { " at \($0)" } ?? "") + ", which does not implement it."
    var remedy = Self.description.remedy
    if hit.isJSONNull {
      summary +=
        " `NSNull` is how `JSONSerialization` and property lists represent `null`: a value the code "
        + "treated as a \(Self.expectedType(for: hit.selector)) was `null` in the data."
      remedy = """
        A JSON `null` arrived where the code expected a \(Self.expectedType(for: hit.selector)). \
        Cast before use instead of force-casting or bridging blindly:

        ```swift
        // JSONSerialization turns null into NSNull.
        if let name = json["name"] as? String {
          label.text = name
        } else {
          label.text = nil  // null or missing
        }
        // Better: decode with Codable and make the property optional.
        struct User: Decodable { let name: String? }
        ```

        In Objective-C, compare with `[NSNull null]` (or check `isKindOfClass:`) before sending \
        the message.
        """
    } else if hit.isMutationOfImmutable {
      summary +=
        " \(CodeSpan.markdown(hit.receiver)) is an immutable Foundation class: the code mutated a collection or string "
        + "it believed was mutable."
      remedy =
        "Make a mutable copy before mutating (`[array mutableCopy]`, `NSMutableDictionary(dictionary:)`), "
        + "and do not cast an immutable object returned by an API to its mutable subclass. In Swift, "
        + "use `var` Swift collections instead of `NSMutable…` types."
    } else if hit.isTypeMismatch {
      summary +=
        " The receiver is a Foundation value of another type than the code expected (a "
        + "\(Self.expectedType(for: hit.selector)) was expected): typically a JSON or property-list "
        + "value whose type changed."
      remedy =
        "Check the value's type before use (`as? String`, `as? [String: Any]`) or decode with "
        + "`Codable` so a type change becomes a handled `DecodingError` instead of a crash.\n\n"
        + Self.description.remedy
    } else if hit.selector == "encodeWithCoder:" {
      summary +=
        " An object was archived (`NSKeyedArchiver`, `UserDefaults`, state restoration) but its class "
        + "does not adopt `NSCoding`."
      remedy =
        "Adopt `NSSecureCoding` in \(CodeSpan.markdown(hit.receiver)) (implement `encode(with:)` and `init?(coder:)`), "
        + "or store a `Codable` representation (`JSONEncoder`/`PropertyListEncoder` to `Data`) instead."
    } else if hit.method.isClassMethod {
      summary +=
        " A class method that does not exist in this build was called: a category not linked in "
        + "(static library without `-ObjC`), or an API newer than the OS the app runs on."
      remedy =
        "If \(CodeSpan.markdown(hit.selector)) comes from a category in a static library, add `-ObjC` to Other Linker "
        + "Flags. If it is a system API, check its availability against the deployment target and "
        + "guard the call with `if #available`.\n\n" + Self.description.remedy
    } else if hit.receiverLooksUnrelated {
      summary +=
        " \(CodeSpan.markdown(hit.receiver)) has nothing to do with \(CodeSpan.markdown(hit.selector)): the code most likely messaged an "
        + "object that had been deallocated, and another object now lives at that address (a zombie)."
      remedy =
        "Run the app with Zombie Objects enabled (Scheme → Run → Diagnostics) or the Zombies "
        + "instrument and repeat the steps: the message is then reported against the deallocated "
        + "object, with its retain/release history. Check `unowned`/`unowned(unsafe)`/`assign` "
        + "references, delegates and notification observers that outlive their target.\n\n"
        + Self.description.remedy
    } else {
      summary +=
        " Either the object is of another class than the code expected, or the method was renamed, "
        + "removed, or is not exposed to Objective-C (`@objc`)."
    }
    if let exception { summary += " " + exception.throwSiteSentence(in: context) }

    var evidence = [hit.evidence]
    if let exception {
      if let name = exception.nameEvidence { evidence.insert(name, at: 0) }
      for backtrace in [exception.throwBacktrace].compactMap({ $0 }) {
        for fragment in ["doesNotRecognizeSelector:", "___forwarding___", "_CF_forwarding_prep_0"] {
          if let frame = context.firstFrame(in: backtrace, containing: fragment) {
            evidence.append(frame.evidence)
          }
        }
      }
      if let frame = exception.appFrame(in: context) { evidence.append(frame) }
    }
    var diagnosis = finding(confidence: .definite, summary: summary, evidence: evidence, remedy: remedy)
    // Which selector tells one unrecognized selector from another (not the receiver's class: a
    // zombie's changes from one crash to the next).
    diagnosis.instanceKey = (hit.method.isClassMethod ? "+" : "-") + hit.selector
    return diagnosis
  }

  /// No recorded reason, but `-[NSObject doesNotRecognizeSelector:]` near the top of the last
  /// exception backtrace: the method raises only the unrecognized-selector exception. Which
  /// selector and receiver is not recorded, so the finding is likely, not definite.
  func diagnoseWithoutReason(_ context: DiagnosisContext) -> Diagnosis? {
    guard let backtrace = context.lastExceptionBacktrace,
      let frame = context.firstFrame(in: backtrace, containing: "doesNotRecognizeSelector:"), frame.index < 6
    else { return nil }
    var summary =
      "The last exception backtrace shows \(DiagnosisContext.quote(frame.evidence)): an object was sent a message "
      + "its class does not implement, and the runtime raised `NSInvalidArgumentException`. The report "
      + "records no reason, so the selector and the receiver's class are unknown."
    var evidence = [frame.evidence]
    if let app = context.appFrameEvidence(in: backtrace, from: frame.index + 1) {
      summary += " The app frame that sent it is \(DiagnosisContext.quote(app))."
      evidence.append(app)
    }
    return finding(confidence: .likely, summary: summary, evidence: evidence)
  }

  static func expectedType(for selector: String) -> String {
    switch selector {
    case "length", "isEqualToString:", "characterAtIndex:", "substringToIndex:",
      "substringFromIndex:", "hasPrefix:", "hasSuffix:", "rangeOfString:", "UTF8String",
      "lowercaseString", "uppercaseString", "dataUsingEncoding:", "_fastCStringContents:",
      "getCharacters:range:", "componentsSeparatedByString:":
      "string"
    case "count", "objectAtIndex:", "objectAtIndexedSubscript:", "firstObject", "lastObject":
      "array (or dictionary)"
    case "objectForKey:", "objectForKeyedSubscript:", "allKeys", "allValues", "valueForKey:":
      "dictionary"
    case "intValue", "integerValue", "boolValue", "doubleValue", "floatValue", "longLongValue",
      "unsignedIntegerValue", "stringValue":
      "number"
    default:
      "value of another type"
    }
  }

  private static let examples: [RuleExample] = {
    let forwarding: [ExampleReport.Frame] = [
      .frame(.coreFoundation, "-[NSObject(NSObject) doesNotRecognizeSelector:]"),
      .frame(.coreFoundation, "___forwarding___"), .frame(.coreFoundation, "_CF_forwarding_prep_0"),
    ]
    return [
      .triggers(
        "NSNull from JSON",
        ExampleReport.uncaughtException(
          name: "NSInvalidArgumentException",
          reason: "-[NSNull length]: unrecognized selector sent to instance 0x206db76c0", throwingFrames: forwarding,
          appFrame: "ProfileViewController.render(_:)"),
        .definite,
        summaryContains: [
          "-[NSNull length]", "`length`", "NSNull", "null", "string",
          "ProfileViewController.render(_:)", "lastExceptionBacktrace[5]",
        ]),
      .triggers(
        "unrelated receiver: a possible zombie",
        ExampleReport.uncaughtException(
          name: "NSInvalidArgumentException",
          reason: "-[NSNumberFormatter playSound]: unrecognized selector sent to instance 0x283f1c0a0",
          throwingFrames: forwarding),
        .definite, summaryContains: ["NSNumberFormatter", "playSound", "zombie"]),
      .triggers(
        "mutating an immutable array",
        ExampleReport.uncaughtException(
          name: "NSInvalidArgumentException",
          reason: "-[__NSArrayI addObject:]: unrecognized selector sent to instance 0x600003a2c0e0",
          throwingFrames: forwarding),
        .definite, summaryContains: ["__NSArrayI", "immutable"]),
      .triggers(
        "class method from an unlinked category",
        ExampleReport.uncaughtException(
          name: "NSInvalidArgumentException",
          reason: "+[UIColor brandColor]: unrecognized selector sent to class 0x1f2a3b4c8", throwingFrames: forwarding),
        .definite, summaryContains: ["class method", "-ObjC"]),
      .triggers(
        "no reason recorded, doesNotRecognizeSelector: in the exception backtrace",
        ExampleReport.uncaughtException(
          name: nil, reason: nil, throwingFrames: forwarding, appFrame: "ProfileViewController.render(_:)"),
        .likely, summaryContains: ["doesNotRecognizeSelector:", "no reason", "ProfileViewController.render(_:)"]),
      .ignores(
        "no reason, an exception raised by the app (objc-uncaught-exception)",
        ExampleReport.uncaughtException(
          name: nil, reason: nil, throwingFrames: [.frame(.coreFoundation, "-[NSException raise]")])),
      .ignores(
        "other NSInvalidArgumentException",
        ExampleReport.uncaughtException(
          name: "NSInvalidArgumentException",
          reason: "*** -[__NSDictionaryM setObject:forKey:]: object cannot be nil (key: route)")),
    ]
  }()
}
