import IPSDoctorSupport

/// A rule that recognises one cause of a crash.
///
/// A new rule is one file in `Rules/<Category>/` holding a type that conforms to this protocol, with
/// a ``RuleDescription`` carrying at least one triggering and one non-triggering example:
/// `Tools/new-rule NameRule --category CATEGORY` writes it, and `Tools/generate-rule-catalog.sh`
/// lists it in ``RuleCatalog/all``.
public protocol DiagnosisRule: Sendable {
  static var description: RuleDescription { get }
  init()
  /// Returns a diagnosis when the report carries this rule's signature, otherwise `nil`.
  func diagnose(_ context: DiagnosisContext) -> Diagnosis?
}

extension DiagnosisRule {
  /// A diagnosis pre-filled from the rule's description.
  package func finding(
    confidence: Confidence, summary: String, evidence: [Evidence], remedy: String? = nil,
    severity: Severity? = nil, verification: [String] = []
  ) -> Diagnosis {
    let description = Self.description
    return Diagnosis(
      ruleID: description.id, title: description.title, confidence: confidence,
      severity: severity ?? description.severity, summary: summary, evidence: evidence,
      remedy: remedy ?? description.remedy, verification: verification,
      references: description.references)
  }
}

/// Groups of rules, one per folder of `Rules/`, in the order `ips-doctor rules` lists them.
package enum RuleCategory: String, Sendable, CaseIterable {
  case concurrency = "Swift concurrency and main thread"
  case languageException = "Language exceptions"
  case swiftRuntime = "Swift runtime errors"
  case memory = "Memory access"
  case systemTermination = "System terminations"
  case resources = "Resources and jetsam"
  case launch = "Linking, signing, privacy and guards"
  case frameworks = "Framework fatal errors"
  case otherReports = "Other report kinds"
}

/// Everything a rule says about itself: the catalog, `ips-doctor rules`, `explain`, SARIF rule
/// metadata and the example tests all read it.
public struct RuleDescription: Sendable {
  /// Stable kebab-case id, e.g. `watchdog-timeout`. Ids are API: CI users pin them.
  public var id: String
  /// Title Case name.
  package var title: String
  /// One sentence, ending with a period.
  package var summary: String
  package var category: RuleCategory
  package var severity: Severity
  /// How precisely the rule names a cause; ranks findings of equal confidence (``RuleRanking``).
  package var tier: RuleTier
  /// Rules of the same tier that this rule's finding comes before when both fire with equal
  /// confidence and severity: the pairs that can fire together and must be ordered. Other rules of a
  /// tier are ordered by id.
  package var outranks: [any DiagnosisRule.Type]
  /// Why this happens, in Markdown.
  package var rationale: String
  /// What to do, in Markdown.
  package var remedy: String
  package var references: [String]
  /// Built when asked for (by `explain`, the docs and the example tests), not on every diagnosis:
  /// a rule's examples are its largest part, and a run over one report needs none of them.
  package var examples: [RuleExample] { makeExamples() }
  private let makeExamples: @Sendable () -> [RuleExample]

  package init(
    id: String, title: String, summary: String, category: RuleCategory, severity: Severity = .error,
    tier: RuleTier, outranks: [any DiagnosisRule.Type] = [], rationale: String, remedy: String,
    references: [String] = [],
    examples: @autoclosure @escaping @Sendable () -> [RuleExample]
  ) {
    self.id = id
    self.title = title
    self.summary = summary
    self.category = category
    self.severity = severity
    self.tier = tier
    self.outranks = outranks
    self.rationale = rationale
    self.remedy = remedy
    self.references = references
    self.makeExamples = examples
  }
}

/// A minimal report that a rule must (or must not) diagnose. Examples are documentation and tests:
/// `RuleExampleTests` runs every one and reports a failure at the example's own line.
package struct RuleExample: Sendable {
  package enum Input: Sendable {
    /// The text of a report (an `.ips` header line and body, or a legacy text report), as
    /// ``ExampleReport`` renders it.
    case inline(String)
    /// A file under `Fixtures/`, e.g. `reports/stack-overflow.ips`.
    case fixture(String)
  }

  package enum Expectation: Sendable, Equatable {
    /// The rule fires with at least this confidence and its summary contains every string.
    case triggers(Confidence, summaryContains: [String] = [])
    case doesNotTrigger
  }

  package var name: String
  package var input: Input
  package var expectation: Expectation
  package var fileID: String
  package var filePath: String
  package var line: Int
  package var column: Int

  package init(
    _ name: String, _ input: Input, _ expectation: Expectation, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    self.name = name
    self.input = input
    self.expectation = expectation
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// A triggering example: `report` makes the rule fire with at least `confidence`, and the
  /// summary contains every string of `summaryContains`.
  package static func triggers(
    _ name: String, _ report: ExampleReport, _ confidence: Confidence = .definite,
    summaryContains: [String] = [], fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
  ) -> RuleExample {
    RuleExample(
      name, .inline(report.rendered), .triggers(confidence, summaryContains: summaryContains), fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// A non-triggering example: the rule does not fire on `report`.
  package static func ignores(
    _ name: String, _ report: ExampleReport, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
  ) -> RuleExample {
    RuleExample(
      name, .inline(report.rendered), .doesNotTrigger, fileID: fileID, filePath: filePath, line: line,
      column: column)
  }
}
