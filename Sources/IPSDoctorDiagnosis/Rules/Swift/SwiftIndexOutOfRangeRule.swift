import IPSDoctorSupport

/// "Fatal error: Index out of range": a Swift collection subscripted outside its bounds.
package struct SwiftIndexOutOfRangeRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-index-out-of-range",
    title: "Swift Index Out Of Range",
    summary: "A Swift array, string or collection was accessed at an index outside its bounds.",
    category: .swiftRuntime,
    severity: .error,
    tier: .specific,
    outranks: [SwiftArithmeticOverflowRule.self],
    rationale: """
      Swift collections check every subscript: `array[i]` with `i >= count` (or negative), a \
      range past the end, `removeLast()` on an empty array, or a `String.Index` from another \
      string traps with "Fatal error: Index out of range" (also "Range out of bounds", "String \
      index is out of bounds", "Can't remove last element from an empty collection"). The \
      process stops with `EXC_BREAKPOINT (SIGTRAP)`. The collection is usually smaller than the \
      code assumed: it changed between counting and indexing (another thread, a data source \
      updated without reloading its table view), or the index came from another collection.
      """,
    remedy: """
      Check the index against the collection where it is used, from the same snapshot of the \
      data, and prefer APIs that cannot go out of bounds:

      ```swift
      guard items.indices.contains(index) else { return }
      let item = items[index]
      // or: items.first, items.last, items.dropFirst(n), zip(a, b), for (i, x) in items.enumerated()
      ```

      Keep table and collection view data sources and their `reloadData`/`performBatchUpdates` \
      on the main thread together, and don't share mutable arrays between threads.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-crashes-from-swift-runtime-errors",
      "https://developer.apple.com/documentation/swift/array",
    ],
    examples: examples)

  static let fragments = [
    "Index out of range", "index out of range", "Range out of bounds", "Array index is out of range",
    "Index out of bounds", "index is out of bounds", "Can't remove last element from an empty collection",
    "Can't remove first element from an empty collection", "Negative index is out of range",
    "out of bounds",
  ]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let (failure, _) = SwiftFailure.find(in: context, containing: Self.fragments) else { return nil }
    var evidence = [failure.evidence]
    var summary =
      "A Swift collection was accessed outside its bounds: \"\(TextScan.clip(failure.message))\" (\(failure.evidence.path))."
    if let file = failure.file, file.hasPrefix("Swift/") {
      summary +=
        " The check is in the standard library (\(CodeSpan.markdown(failure.location ?? file))); the bad index came from the app."
    }
    var located = failure
    if let file = failure.file, file.hasPrefix("Swift/") { located.file = nil }
    summary += located.locationSentence(in: context, evidence: &evidence)
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "Array subscript",
      ExampleReport.trap(
        frames: [
          .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"),
          .frame(.libswiftCore, "Array.subscript.getter"),
          .frame(.app, "FeedViewController.tableView(_:cellForRowAt:)"),
        ], asi: ["libswiftCore.dylib": ["Swift/ContiguousArrayBuffer.swift:600: Fatal error: Index out of range"]]),
      .definite,
      summaryContains: [
        "Index out of range", "standard library", "FeedViewController.tableView(_:cellForRowAt:)",
        "threads[0].frames[2]",
      ]),
    .triggers(
      "release build: inline runtime-failure frame",
      ExampleReport.trap(frames: [
        .frame(.app, "Swift runtime failure: Index out of range", inline: true), .frame(.app, "Board.cell(at:)"),
      ]),
      .definite, summaryContains: ["Board.cell(at:)"]),
    .ignores(
      "libc++ hardening assertion (vector[] index out of bounds) is C++, not Swift",
      ExampleReport.trap(frames: [
        .frame(
          .app, "*/usr/include/c++/v1/vector:1393: assertion __n < size() failed: vector[] index out of bounds",
          inline: true),
        .frame(.app, "std::__1::vector<int>::operator[](unsigned long)"), .frame(.app, "Pathfinder::route(int)"),
      ])),
    .ignores(
      "NSRangeException from Foundation (objc-range-exception)",
      ExampleReport.uncaughtException(
        name: "NSRangeException", reason: "*** -[__NSArrayI objectAtIndex:]: index 5 beyond bounds [0 .. 2]")),
  ]
}
