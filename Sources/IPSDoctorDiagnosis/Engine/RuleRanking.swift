/// The order in which findings of one report are listed, best first.
///
/// Findings are ordered by confidence, then by their rule's ``RuleTier`` (highest first), then by
/// severity, then by the rules' precedence: within a tier a rule comes before every rule it
/// `outranks` (directly or through other rules) and otherwise in the order of their ids. No key
/// depends on where a rule is listed, so the catalog's order never changes a result.
package enum RuleRanking {
  /// Each catalog rule's place in the precedence order.
  private static let places: [ObjectIdentifier: Int] = {
    var places: [ObjectIdentifier: Int] = [:]
    for (place, rule) in precedence(RuleCatalog.all).enumerated() { places[ObjectIdentifier(rule)] = place }
    return places
  }()

  /// `rules` in precedence order: by tier, highest first; within a tier, a rule before the rules it
  /// outranks, and otherwise by id. The result does not depend on the order of `rules`. A cycle of
  /// `outranks` (which `RuleRankingTests` rejects) is broken by id rather than trapping.
  package static func precedence(_ rules: [any DiagnosisRule.Type]) -> [any DiagnosisRule.Type] {
    let index = Dictionary(
      rules.map { (ObjectIdentifier($0), $0) }, uniquingKeysWith: { first, _ in first })
    var pending = Array(index.values)
    // The number of pending rules that outrank each rule.
    var outrankedBy: [ObjectIdentifier: Int] = [:]
    for rule in pending {
      for lower in rule.description.outranks where index[ObjectIdentifier(lower)] != nil {
        outrankedBy[ObjectIdentifier(lower), default: 0] += 1
      }
    }
    var ordered: [any DiagnosisRule.Type] = []
    while !pending.isEmpty {
      let free = pending.indices.filter { outrankedBy[ObjectIdentifier(pending[$0]), default: 0] == 0 }
      let candidates = free.isEmpty ? Array(pending.indices) : free
      guard let next = candidates.min(by: { comesFirst(pending[$0], pending[$1]) }) else { break }
      let rule = pending.remove(at: next)
      ordered.append(rule)
      for lower in rule.description.outranks where index[ObjectIdentifier(lower)] != nil {
        outrankedBy[ObjectIdentifier(lower), default: 0] -= 1
      }
    }
    return ordered
  }

  /// The order between two rules that no `outranks` relation decides: higher tier, then id.
  private static func comesFirst(_ lhs: any DiagnosisRule.Type, _ rhs: any DiagnosisRule.Type) -> Bool {
    let left = lhs.description
    let right = rhs.description
    if left.tier != right.tier { return left.tier > right.tier }
    return left.id < right.id
  }

  /// Whether finding `lhs` of rule `lhsRule` is listed before finding `rhs` of rule `rhsRule`.
  package static func isBetter(
    _ lhs: Diagnosis, of lhsRule: any DiagnosisRule.Type, than rhs: Diagnosis, of rhsRule: any DiagnosisRule.Type
  ) -> Bool {
    if lhs.confidence != rhs.confidence { return lhs.confidence > rhs.confidence }
    let lhsTier = lhsRule.description.tier
    let rhsTier = rhsRule.description.tier
    if lhsTier != rhsTier { return lhsTier > rhsTier }
    if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
    let lhsPlace = places[ObjectIdentifier(lhsRule)] ?? Int.max
    let rhsPlace = places[ObjectIdentifier(rhsRule)] ?? Int.max
    if lhsPlace != rhsPlace { return lhsPlace < rhsPlace }
    return lhs.ruleID < rhs.ruleID
  }
}
