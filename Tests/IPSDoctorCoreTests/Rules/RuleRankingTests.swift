import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Findings are ranked by confidence, tier, severity and the rules' precedence (`outranks`, then
/// id), never by the order in which the catalog lists the rules.
@Suite("Rule ranking")
struct RuleRankingTests {
  static func finding(_ rule: any DiagnosisRule.Type, _ confidence: Confidence, _ severity: Severity = .error)
    -> Diagnosis
  {
    Diagnosis(
      ruleID: rule.description.id, title: rule.description.title, confidence: confidence, severity: severity,
      summary: "s", evidence: [], remedy: "r")
  }

  static func isBetter(
    _ lhs: (any DiagnosisRule.Type, Confidence, Severity), than rhs: (any DiagnosisRule.Type, Confidence, Severity)
  ) -> Bool {
    RuleRanking.isBetter(
      finding(lhs.0, lhs.1, lhs.2), of: lhs.0, than: finding(rhs.0, rhs.1, rhs.2), of: rhs.0)
  }

  @Test("Confidence first, then tier, then severity, then the rule that outranks the other")
  func keys() {
    // A definite catch-all before a likely exact cause.
    #expect(Self.isBetter((AbortCalledRule.self, .definite, .error), than: (StackOverflowRule.self, .likely, .error)))
    // Equal confidence: the exact tier before the fallback, whatever the severity.
    #expect(Self.isBetter((StackOverflowRule.self, .likely, .note), than: (AbortCalledRule.self, .likely, .error)))
    // Equal confidence and tier: the higher severity first.
    #expect(
      Self.isBetter(
        (WakeupsResourceLimitRule.self, .definite, .error), than: (CPUResourceLimitRule.self, .definite, .note)))
    // Equal confidence, tier and severity: the rule that outranks the other, though its id sorts later.
    #expect(
      Self.isBetter(
        (ObjCUncaughtExceptionRule.self, .likely, .error), than: (AbortCalledRule.self, .likely, .error)))
    #expect(
      !Self.isBetter(
        (AbortCalledRule.self, .likely, .error), than: (ObjCUncaughtExceptionRule.self, .likely, .error)))
    // Neither outranks the other: by id.
    #expect(
      Self.isBetter(
        (DiskWritesResourceLimitRule.self, .definite, .error), than: (WakeupsResourceLimitRule.self, .definite, .error))
    )
  }

  @Test("A rule outranks only catalog rules of its own tier, and no rule outranks itself through others")
  func outranksRelations() {
    let catalog = Set(RuleCatalog.all.map { ObjectIdentifier($0) })
    let precedence = RuleRanking.precedence(RuleCatalog.all).map { $0.description.id }
    let place = Dictionary(uniqueKeysWithValues: precedence.enumerated().map { ($1, $0) })
    for rule in RuleCatalog.all {
      let description = rule.description
      for lower in description.outranks {
        let id = lower.description.id
        #expect(catalog.contains(ObjectIdentifier(lower)), "\(description.id) outranks \(id), not in the catalog")
        #expect(lower.description.tier == description.tier, "\(description.id) outranks \(id) of another tier")
        // A cycle would leave some rule after one it outranks.
        #expect(place[description.id]! < place[id]!, "\(description.id) outranks \(id) in a cycle")
      }
    }
  }

  /// The catalog in other orders: reversed, by id backwards, and shuffled with fixed seeds.
  static let permutations: [[any DiagnosisRule.Type]] = {
    var orders: [[any DiagnosisRule.Type]] = [
      RuleCatalog.all.reversed(), RuleCatalog.all.sorted { $0.description.id > $1.description.id },
    ]
    for seed: UInt64 in [1, 2, 3] {
      var generator = SeededGenerator(seed: seed)
      orders.append(RuleCatalog.all.shuffled(using: &generator))
    }
    return orders
  }()

  @Test("The precedence of the rules does not depend on their order")
  func precedenceIgnoresOrder() {
    let expected = RuleRanking.precedence(RuleCatalog.all).map { $0.description.id }
    #expect(expected.count == RuleCatalog.all.count)
    for order in Self.permutations {
      #expect(RuleRanking.precedence(order).map { $0.description.id } == expected)
    }
  }

  @Test("Every example and fixture report ranks the same with the catalog shuffled")
  func rankingIgnoresCatalogOrder() throws {
    var inputs: [[UInt8]] = try Fixtures.files(in: "reports").map { try Fixtures.bytes($0) }
    for rule in RuleCatalog.all {
      for example in rule.description.examples {
        switch example.input {
        case .inline(let text): inputs.append(Array(text.utf8))
        case .fixture(let path): inputs.append(try Fixtures.bytes(path))
        }
      }
    }
    var severalFired = 0
    for bytes in inputs {
      guard let report = try? ReportReader.read(bytes) else { continue }
      let expected = Doctor.diagnose(report).diagnoses
      if expected.count > 1 { severalFired += 1 }
      for order in Self.permutations {
        #expect(Doctor.diagnose(report, rules: order).diagnoses == expected)
      }
    }
    // The inputs include reports on which rules compete.
    #expect(severalFired > 20)
  }
}
