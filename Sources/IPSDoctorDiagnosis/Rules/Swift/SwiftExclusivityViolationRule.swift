import IPSDoctorSupport

/// "Simultaneous accesses to 0x…, but modification requires exclusive access".
package struct SwiftExclusivityViolationRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-exclusivity-violation",
    title: "Swift Exclusive Access Violation",
    summary: "A variable was modified while another access to it was in progress (Swift exclusivity).",
    category: .swiftRuntime,
    severity: .error,
    tier: .specific,
    rationale: """
      Swift requires that a variable being modified (an `inout` argument, a `mutating` method, \
      a `modify` accessor) is not accessed by anything else until the modification ends. The \
      compiler catches most overlaps; the run-time check (on in Debug builds and by default in \
      Release since Swift 5) catches the rest — typically class properties and globals reached \
      through closures or observers during the modification — and aborts with "Simultaneous \
      accesses to 0x…, but modification requires exclusive access". The report's frames show both \
      accesses' call path through `swift_beginAccess`.
      """,
    remedy: """
      Break the overlap: copy the value to a local, mutate the local, and write it back; don't \
      read or modify the same property from a `didSet`, a closure or a delegate callback that runs \
      during the modification; pass values instead of `inout` references to `self`'s own \
      properties.

      ```swift
      var items = self.items      // copy
      items.sort(by: comparator)  // comparator may read self.items safely now
      self.items = items          // write back
      ```
      """,
    references: [
      "https://www.swift.org/blog/swift-5-exclusivity/",
      "https://docs.swift.org/swift-book/documentation/the-swift-programming-language/memorysafety/",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let text = context.reasonText(containing: "Simultaneous accesses to")
    let frame = context.crashedThreadTop(8, contains: "swift_beginAccess")
    guard text != nil || (frame != nil && (context.isAbort || context.isTrap)) else { return nil }
    var evidence = [text, frame?.evidence].compactMap { $0 }
    var summary = "Swift's exclusivity check stopped the app"
    if let text {
      summary += ": \"\(TextScan.clip(text.detail))\" (\(text.path))."
    } else if let frame {
      summary += ": `swift_beginAccess` aborted on the crashed thread (\(frame.evidence.path))."
    }
    if let previous = context.reasonText(containing: "Previous access") {
      summary += " \(previous.detail.trimmingWhitespace())"
      if !summary.hasSuffix(".") { summary += "." }
      evidence.append(previous)
    }
    if let backtrace = context.crashedBacktrace,
      let app = context.appFrameEvidence(in: backtrace, from: frame?.index ?? 0)
    {
      summary += " The conflicting access starts in \(DiagnosisContext.quote(app))."
      evidence.append(app)
    }
    return finding(confidence: text != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = {
    let frames: [ExampleReport.Frame] =
      ExampleReport.swiftRuntimeAbortFrames + [
        .frame(
          .libswiftCore,
          "swift::runtime::AccessSet::insert(swift::runtime::Access*, void*, void*, swift::ExclusivityFlags)"),
        .frame(.libswiftCore, "swift_beginAccess"), .frame(.app, "Playlist.shuffle()"),
      ]
    return [
      .triggers(
        "overlapping modification",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: [
            "libswiftCore.dylib": [
              "Simultaneous accesses to 0x600000c3d1f0, but modification requires exclusive access.",
              "Previous access (a modification) started at Example`Playlist.shuffle() + 64 (0x100f3c2a0).",
            ]
          ], threads: [.main(frames)]),
        .definite,
        summaryContains: ["Simultaneous accesses to 0x600000c3d1f0", "Previous access", "Playlist.shuffle()"]),
      .ignores(
        "swift_beginAccess deep in an unrelated trap",
        ExampleReport.trap(
          frames: [.frame(.app, "Playlist.next()")] + Array(repeating: .frame(.app, "Playlist.next()"), count: 8) + [
            .frame(.libswiftCore, "swift_beginAccess")
          ])),
    ]
  }()
}
