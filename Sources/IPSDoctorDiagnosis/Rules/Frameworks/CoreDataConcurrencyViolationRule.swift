import IPSDoctorSupport

/// Core Data's concurrency debugging trap:
/// `+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]`.
package struct CoreDataConcurrencyViolationRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "core-data-concurrency-violation",
    title: "Core Data Context Used On The Wrong Queue",
    summary: "A managed object context or object was used outside its queue and Core Data's concurrency check trapped.",
    category: .frameworks,
    severity: .error,
    tier: .exact,
    rationale: """
      Every `NSManagedObjectContext` is bound to a queue: the main queue for `viewContext`, a \
      private queue for `newBackgroundContext()` and private-queue contexts. Its objects may only be \
      touched on that queue, inside `perform { }` / `performAndWait { }` for private contexts. With \
      concurrency debugging on (`-com.apple.CoreData.ConcurrencyDebug 1`, common in debug and \
      TestFlight builds) Core Data checks every call and traps in \
      `+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]`. Without \
      the flag, the same bug shows up later as random corruption or crashes inside Core Data.
      """,
    remedy: """
      Use each context only on its own queue: wrap the work in `context.perform { }` (or `await \
      context.perform { }`), use `viewContext` only on the main thread, and pass `NSManagedObjectID`s \
      — not managed objects — between queues, re-fetching them with `context.object(with:)` / \
      `existingObject(with:)` on the other side.
      """,
    references: [
      "https://developer.apple.com/documentation/coredata/using_core_data_in_the_background",
      "https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/perform(_:)",
    ],
    examples: Examples.all)

  static let marker = "__Multithreading_Violation_AllThatIsLeftToUsIsHonor__"

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let violation = context.firstFrame(containing: Self.marker) else { return nil }
    var evidence = [violation.evidence]
    let backtrace = violation.backtrace
    // The Core Data call the app made: the outermost Core Data frame above the first app frame.
    let caller = context.appFrame(in: backtrace, from: violation.index + 1)
    var coreDataCall: String?
    if let caller, caller.index > violation.index + 1 {
      let frame = backtrace.frames[caller.index - 1]
      if !context.isAppFrame(frame), let name = context.symbol(frame)?.display {
        coreDataCall = name
        evidence.append(Evidence(backtrace.framePath(caller.index - 1), name))
      }
    }
    if let caller { evidence.append(caller.evidence) }
    if let queue = context.crashedQueueEvidence { evidence.append(queue) }

    var summary =
      "Core Data's concurrency check trapped in `+[NSManagedObjectContext \(Self.marker)]` "
      + "(\(violation.evidence.path)): a managed object context was used outside its queue."
    if let caller {
      summary +=
        " The app's \(caller.name.map(SymbolText.kind) ?? "code") \(caller.quotedName) (\(caller.evidence.path))"
      summary += coreDataCall.map { " called \(CodeSpan.markdown($0))" } ?? " called Core Data"
      if let thread = context.crashedThread { summary += " on \(context.threadDescription(thread))" }
      summary += "."
    }
    return finding(
      confidence: .definite, summary: summary, evidence: evidence,
      remedy: remedy(caller: caller?.name, call: coreDataCall),
      verification: [
        "Keep `-com.apple.CoreData.ConcurrencyDebug 1` in the scheme's arguments and run the flow again: any remaining violation traps at the offending call."
      ])
  }

  private func remedy(caller: String?, call: String?) -> String {
    var text = Self.description.remedy + "\n\n"
    let function = caller.map(SymbolText.enclosingFunction)
    text += function.map { "In \(CodeSpan.markdown($0)), run" } ?? "Run"
    text += " the Core Data work"
    if let call { text += " (\(CodeSpan.markdown(call)))" }
    text += """
       on the context's own queue:

      ```swift
      let context = container.newBackgroundContext()
      context.perform {
        let request = Recipe.fetchRequest()
        request.predicate = NSPredicate(format: "isFavorite == YES")
        let ids = ((try? context.fetch(request)) ?? []).map(\\.objectID)
        DispatchQueue.main.async {
          // Re-fetch on the main queue's context before touching the objects.
          let favorites = ids.compactMap { try? viewContext.existingObject(with: $0) }
          _ = favorites
        }
      }
      ```
      """
    return text
  }
}

extension CoreDataConcurrencyViolationRule {
  enum Examples {
    /// A trap in Core Data's `topSymbol` under a fetch that the app made on a utility queue.
    static func report(topSymbol: String) -> ExampleReport {
      ExampleReport(
        exception: ExampleReport.Exception("EXC_BREAKPOINT", signal: "SIGTRAP"),
        threads: [
          .main([]),
          ExampleReport.Thread(
            queue: "com.apple.root.utility-qos",
            [
              .frame(.coreData, topSymbol), .frame(.coreData, "-[NSManagedObjectContext executeFetchRequest:error:]"),
              .frame(.app, "RecipeRepository.fetchFavorites()"), .frame(.app, "closure #1 in FavoritesSync.run()"),
            ]),
        ],
        crashedThread: 1)
    }

    static let all: [RuleExample] = [
      .triggers(
        "fetch on a global queue with concurrency debugging on",
        report(topSymbol: "+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]"),
        .definite,
        summaryContains: [
          "RecipeRepository.fetchFavorites()", "-[NSManagedObjectContext executeFetchRequest:error:]",
          "threads[1].frames[2]", "com.apple.root.utility-qos",
        ]),
      RuleExample(
        "fixture: favorites sync fetches off the context's queue",
        .fixture("reports/core-data-concurrency-violation.ips"),
        .triggers(.definite, summaryContains: ["RecipeRepository.fetchFavorites()"])),
      .ignores(
        "an ordinary Core Data trap",
        report(topSymbol: "-[NSManagedObjectContext save:]")),
    ]
  }
}
