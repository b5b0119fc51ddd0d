import IPSDoctorSupport

/// Every diagnosis rule, in evaluation order: system terminations first (their backtraces are often
/// irrelevant), then Swift concurrency and main-thread rules, language exceptions, Swift runtime
/// traps, memory access, framework fatal errors, the generic fallbacks, and summaries of other
/// report kinds. What fires is ranked by ``RuleRanking``, never by this order.
public enum RuleCatalog {
  public static let all: [any DiagnosisRule.Type] =
    systemRules + concurrencyRules + languageAndRuntimeRules + otherReportRules

  /// The rule with `id`, if any.
  package static func rule(id: String) -> (any DiagnosisRule.Type)? {
    all.first(where: { $0.description.id == id })
  }

  package static var ids: [String] { all.map { $0.description.id } }

  /// The rules of the lowest tier (``RuleTier/fallback``), by id: they name the kind of crash (an
  /// uncaught Objective-C exception, `abort()`, an invalid address, a trap without a message), not
  /// its cause.
  package static let catchAllIDs: Set<String> = Set(
    all.compactMap { rule in
      rule.description.tier == .fallback ? rule.description.id : nil
    })

  /// The findings a reader should see besides `diagnoses.first`: a catch-all adds nothing under a
  /// specific cause (every Objective-C exception is also "an uncaught Objective-C exception"), so
  /// it is left out when the first finding is not one.
  package static func alternatives(_ diagnoses: [Diagnosis]) -> ArraySlice<Diagnosis> {
    guard let first = diagnoses.first, !catchAllIDs.contains(first.ruleID) else { return diagnoses.dropFirst() }
    return diagnoses.dropFirst().filter { !catchAllIDs.contains($0.ruleID) }[...]
  }
}
