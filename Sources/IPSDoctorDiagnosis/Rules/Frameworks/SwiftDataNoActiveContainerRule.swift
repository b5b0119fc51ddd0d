import IPSDoctorSupport

/// SwiftData's fatal error for a model used with no container: "failed to find a currently active
/// container for X".
package struct SwiftDataNoActiveContainerRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swiftdata-no-active-container",
    title: "SwiftData Model Used Without A Container",
    summary: "A SwiftData model was created or used while no ModelContainer for it was active.",
    category: .frameworks,
    severity: .error,
    tier: .exact,
    rationale: """
      A SwiftData `@Model` needs a `ModelContainer` that knows its schema. Creating or touching a \
      model when no container is active — no `.modelContainer(for:)` on the scene or view, a \
      preview or test without an in-memory container, a model type missing from the container's \
      schema, or a model created in a `static let`/`init` before the container exists — stops the \
      app with "SwiftData/ModelContext.swift: Fatal error: failed to find a currently active \
      container for <Model>".
      """,
    remedy: """
      Attach a container that includes the model to the scene (`.modelContainer(for: Model.self)`), \
      give previews and tests an in-memory container, and insert new models into a `ModelContext` \
      from that container before using them.
      """,
    references: [
      "https://developer.apple.com/documentation/swiftdata/modelcontainer",
      "https://developer.apple.com/documentation/swiftui/view/modelcontainer(for:inmemory:isautosaveenabled:isundoenabled:onsetup:)",
    ],
    examples: Examples.all)

  static let marker = "failed to find a currently active container for "

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let reason = context.reasonText(containing: Self.marker) else { return nil }
    let model = SymbolText.between(reason.detail, Self.marker, nil)
      .map { String($0.prefix(while: { $0 != " " && $0 != "\n" })) }
      .map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
      .flatMap { $0.isEmpty ? nil : $0 }
    var evidence = [reason]
    var caller: DiagnosisContext.AppFrame?
    if let backtrace = context.crashedBacktrace { caller = context.appFrame(in: backtrace) }
    if let caller { evidence.append(caller.evidence) }

    var summary =
      "SwiftData stopped the app because no active `ModelContainer` knew the model "
      + (model.map { "\(CodeSpan.markdown($0))" } ?? "type") + " (\(reason.path))."
    if let caller {
      summary += " The model was used by \(caller.quotedName) (\(caller.evidence.path))."
    }
    return finding(
      confidence: .definite, summary: summary, evidence: evidence,
      remedy: remedy(model: model ?? "Item"),
      verification: [
        "Run the same flow in a preview and a unit test with `ModelContainer(for: \(model ?? "Item").self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))`."
      ])
  }

  private func remedy(model: String) -> String {
    Self.description.remedy + """


      ```swift
      @main
      struct MyApp: App {
        var body: some Scene {
          WindowGroup { ContentView() }
            .modelContainer(for: \(model).self)  // include every @Model type the app uses
        }
      }

      // Create models inside a context from that container:
      @Environment(\\.modelContext) private var modelContext
      func add() {
        let item = \(model)(/* … */)
        modelContext.insert(item)
      }

      #Preview {
        ContentView().modelContainer(for: \(model).self, inMemory: true)
      }
      ```
      """
  }
}

extension SwiftDataNoActiveContainerRule {
  enum Examples {
    static func report(_ message: String) -> ExampleReport {
      ExampleReport.swiftFatalError(
        message, from: "static PersistentModel.createBackingData<A>()", in: .swiftData,
        calledBy: "Trip.init(name:)")
    }

    static let all: [RuleExample] = [
      .triggers(
        "model created with no container",
        report("SwiftData/ModelContext.swift:3254: Fatal error: failed to find a currently active container for Trip"),
        .definite, summaryContains: ["`Trip`", "Trip.init(name:)", "threads[0].frames[2]"]),
      RuleExample(
        "fixture: sample recipe created before the container exists",
        .fixture("reports/swiftdata-no-active-container.ips"),
        .triggers(.definite, summaryContains: ["`Recipe`", "Recipe.init(title:servings:)"])),
      .ignores(
        "another SwiftData fatal error",
        report(
          "SwiftData/BackingData.swift:482: Fatal error: This model instance was destroyed by calling ModelContext.reset and is no longer usable."
        )),
    ]
  }
}
