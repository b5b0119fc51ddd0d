import IPSDoctorSupport

/// "CoreData could not fulfill a fault": a managed object whose row was deleted was accessed.
package struct CoreDataFaultUnfulfillableRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "core-data-fault-unfulfillable",
    title: "Core Data Could Not Fulfill A Fault",
    summary: "A Core Data managed object was accessed after its row was deleted from the store.",
    category: .languageException,
    severity: .error,
    tier: .exact,
    rationale: """
      A managed object that has not been loaded yet is a fault. When the code touches one of its \
      properties, Core Data fetches the row; if another context (or a batch delete, or a sync \
      merge) deleted it meanwhile, Core Data raises `NSObjectInaccessibleException`: "CoreData \
      could not fulfill a fault for '0x… <x-coredata://…/Entity/p42>'". The code kept a reference \
      to an object across a save or merge that deleted it.
      """,
    remedy: """
      Do not hold managed objects across contexts or long-lived state: keep the `objectID`, and \
      re-fetch with `existingObject(with:)` (which throws instead of raising) when you need the \
      object. Merge changes from other contexts (`automaticallyMergesChangesFromParent = true`) \
      and check `isDeleted`/`managedObjectContext == nil` before use. Set \
      `shouldDeleteInaccessibleFaults` (the default since iOS 9) unless you need the exception.

      ```swift
      if let object = try? context.existingObject(with: objectID) as? Item {
        use(object)
      }
      ```
      """,
    references: [
      "https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/1506197-existingobject",
      "https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext/1506290-shoulddeleteinaccessiblefaults",
    ],
    examples: examples)

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let text = context.reasonText(containing: "could not fulfill a fault")
    let exception = context.languageException
    guard text != nil || exception?.name == "NSObjectInaccessibleException" else { return nil }
    var summary = "Core Data raised `NSObjectInaccessibleException`"
    let reason = text?.detail ?? exception?.reason
    if let reason { summary += ": \"\(TextScan.clip(reason))\"" }
    summary += "."
    if let reason, let uri = TextScan.between(reason, "<x-coredata://", ">") {
      let parts = uri.split(separator: "/")
      if parts.count >= 3 {
        summary +=
          " The object is a \(CodeSpan.markdown(parts[parts.count - 2])) (`x-coredata://\(uri)`), which was deleted from the store while the app still held it."
      }
    } else {
      summary += " The object was deleted from the store while the app still held it."
    }
    if let exception { summary += " " + exception.throwSiteSentence(in: context) }
    var evidence = exception?.evidence ?? []
    if let text, !evidence.contains(text) { evidence.append(text) }
    if let frame = exception?.appFrame(in: context) { evidence.append(frame) }
    return finding(confidence: text != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "deleted object",
      ExampleReport.uncaughtException(
        name: "NSObjectInaccessibleException",
        reason:
          "CoreData could not fulfill a fault for '0x8f2c1e0a <x-coredata://5E3B0C2A-1D4F-4B7A-9C1E-2F3A4B5C6D7E/Message/p42>'",
        throwingFrames: [
          .frame(.coreData, "_PFFaultHandlerLookupRow"), .frame(.coreData, "_PF_FulfillDeferredFault"),
        ], appFrame: "ThreadViewController.render(_:)"),
      .definite, summaryContains: ["`Message`", "x-coredata://", "ThreadViewController.render(_:)"]),
    .ignores(
      "another Core Data exception",
      ExampleReport.uncaughtException(
        name: "NSInternalInconsistencyException",
        reason:
          "This NSPersistentStoreCoordinator has no persistent stores (unknown). It cannot perform a save operation.")
    ),
  ]
}
