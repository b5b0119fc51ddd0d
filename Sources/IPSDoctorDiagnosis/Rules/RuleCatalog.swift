import IPSDoctorSupport

/// Every diagnosis rule, in evaluation order: system terminations first (their backtraces are often
/// irrelevant), then Swift concurrency and main-thread rules, language exceptions, Swift runtime
/// traps, memory access, framework fatal errors, the generic fallbacks, and summaries of other
/// report kinds (taxonomy B.7). What fires is ranked by confidence and specificity; see ``Doctor``.
public enum RuleCatalog {
  public static let all: [any DiagnosisRule.Type] =
    systemRules + concurrencyRules + languageAndRuntimeRules + otherReportRules

  /// `all`'s requirements, in the same order: read as data by `Doctor`, rather than asked of each
  /// rule on every report.
  static let requirements: [RuleRequirement] = all.map { $0.requirement }

  /// The rule with `id`, if any.
  package static func rule(id: String) -> (any DiagnosisRule.Type)? {
    all.first(where: { $0.description.id == id })
  }

  package static var ids: [String] { all.map { $0.description.id } }
}
