import IPSDoctorSupport

/// `NSRangeException`: an index or range outside an Objective-C collection or string.
package struct ObjCRangeExceptionRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "objc-range-exception",
    title: "Index Or Range Out Of Bounds In A Foundation Collection",
    summary: "A Foundation collection or string was accessed at an index or range outside its bounds.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    outranks: [ObjCInvalidArgumentRule.self],
    rationale: """
      Foundation checks indexes: `-[NSArray objectAtIndex:]` with an index past the end, \
      `substringWithRange:` with a range past the string's length, or `NSNotFound` used as an \
      index raise `NSRangeException` ("index 5 beyond bounds [0 .. 2]", "beyond bounds for empty \
      array", "Range {…} out of bounds"). The collection is usually smaller than the code assumed: \
      it changed between counting and indexing (another thread, a table view whose data source \
      was updated without reloading), or an index was computed from another collection.
      """,
    remedy: """
      Check the index against the count right where it is used, from the same snapshot of the \
      data; update table and collection view data sources and call `reloadData`/`performBatchUpdates` \
      together on the main thread; never use `NSNotFound` (from `indexOfObject:`/`rangeOfString:`) \
      as an index. In Swift, prefer safe access:

      ```swift
      extension Collection {
        subscript(safe index: Index) -> Element? { indices.contains(index) ? self[index] : nil }
      }
      ```
      """,
    references: [
      "https://developer.apple.com/documentation/foundation/nsrangeexception",
      "https://developer.apple.com/documentation/xcode/addressing-language-exception-crashes",
    ],
    examples: examples)

  static let markers = [
    "beyond bounds", "out of bounds", "causes integer overflow", "Range or index out of bounds",
    "index out of range",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let exception = context.languageException, exception.isObjC else { return nil }
    let reason = exception.reason ?? ""
    let named = exception.name == "NSRangeException"
    // The name first: the reason's markers matter only to an exception without one, so they are
    // not searched on every other exception.
    guard named || (exception.name == nil && Self.markers.contains { reason.contains($0) })
    else { return nil }

    var summary = "An uncaught `NSRangeException` ended the app: \(exception.reasonDisplay)."
    if let method = ObjCMethodReference(in: reason) {
      summary += " \(CodeSpan.markdown(method.display)) was called with "
      if let index = Self.number(after: "index ", in: reason) {
        summary += "index \(index)"
        if reason.contains("empty") {
          summary += " on an empty collection."
        } else if let upper = Self.upperBound(in: reason) {
          summary += ", but the valid indexes were 0 to \(upper) (\(upper + 1) elements)."
        } else {
          summary += " outside the collection's bounds."
        }
        if index == 9_223_372_036_854_775_807 || index == 2_147_483_647 {
          summary += " That index is `NSNotFound`: a failed search result was used as an index."
        }
      } else {
        summary += " a range or index outside the object's bounds."
      }
    }
    let appFrame = exception.appFrame(in: context)
    summary += " " + exception.throwSiteSentence(appFrame: appFrame)
    var evidence = exception.evidence
    if let appFrame { evidence.append(appFrame) }
    return finding(confidence: named ? .definite : .likely, summary: summary, evidence: evidence)
  }

  static func number(after marker: String, in text: String) -> Int? {
    guard let range = text.firstRange(of: marker) else { return nil }
    let digits = text[range.upperBound...].prefix(while: \.isNumber)
    return Int(digits)
  }

  /// "[0 .. 2]" → 2.
  static func upperBound(in text: String) -> Int? {
    guard let bounds = TextScan.between(text, "[0 .. ", "]") else { return nil }
    return Int(bounds)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "index beyond bounds",
      ExampleReport.uncaughtException(
        name: "NSRangeException",
        reason: "*** -[__NSArrayI objectAtIndexedSubscript:]: index 5 beyond bounds [0 .. 2]",
        throwingFrames: [.frame(.coreFoundation, "-[__NSArrayI objectAtIndexedSubscript:]")],
        appFrame: "FeedViewController.tableView(_:cellForRowAt:)"),
      .definite,
      summaryContains: [
        "NSRangeException", "index 5", "0 to 2", "FeedViewController.tableView(_:cellForRowAt:)",
      ]),
    .triggers(
      "empty array",
      ExampleReport.uncaughtException(
        name: "NSRangeException", reason: "*** -[__NSArray0 objectAtIndex:]: index 0 beyond bounds for empty NSArray"),
      .definite, summaryContains: ["empty collection"]),
    .triggers(
      "NSNotFound used as an index",
      ExampleReport.uncaughtException(
        name: "NSRangeException",
        reason: "*** -[__NSArrayM objectAtIndex:]: index 9223372036854775807 beyond bounds [0 .. 3]"),
      .definite, summaryContains: ["NSNotFound"]),
    .ignores(
      "a Swift array index out of range is not an NSRangeException",
      ExampleReport.trap(
        frames: [.frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app, "Feed.item(at:)")],
        asi: ["libswiftCore.dylib": ["Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range"]])),
    .ignores(
      "another exception",
      ExampleReport.uncaughtException(name: "NSInternalInconsistencyException", reason: "Invalid update")),
  ]
}
