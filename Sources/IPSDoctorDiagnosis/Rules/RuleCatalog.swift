import IPSDoctorSupport

/// Every diagnosis rule. ``all`` is generated from the rule files (`RuleCatalog+Rules.swift`, by
/// `Tools/generate-rule-catalog.sh`); what fires is ranked by ``RuleRanking``, never by the
/// catalog's order.
public enum RuleCatalog {
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
