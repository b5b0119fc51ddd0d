import IPSDoctorReport
import IPSDoctorSupport

/// Everything ips-doctor concludes about one report.
public struct DiagnosisResult: Sendable, Equatable {
  /// Findings, best first. Empty means inconclusive.
  public var diagnoses: [Diagnosis]
  /// What the report says happened, independent of any rule.
  package var summary: CrashSummary
  public var signature: CrashSignature
  /// Ready-to-run commands to symbolicate the app's frames, when they lack symbols.
  package var symbolication: SymbolicationHint?

  package init(
    diagnoses: [Diagnosis], summary: CrashSummary, signature: CrashSignature, symbolication: SymbolicationHint? = nil
  ) {
    self.diagnoses = diagnoses
    self.summary = summary
    self.signature = signature
    self.symbolication = symbolication
  }

  package var isInconclusive: Bool { diagnoses.isEmpty }

  /// The highest severity among the findings.
  package var severity: Severity? { diagnoses.map(\.severity).max() }
}

/// Runs the rule catalog over reports.
public enum Doctor {
  /// Runs every rule of `RuleCatalog.all` and lists what fires best first (``RuleRanking``).
  ///
  /// The report is consumed (see ``DiagnosisContext/init(report:)``): a caller that is done with it
  /// passes it without a copy.
  public static func diagnose(_ report: consuming CrashReport) -> DiagnosisResult {
    diagnose(report, rules: RuleCatalog.all)
  }

  public static func diagnose(_ report: consuming CrashReport, rules: [any DiagnosisRule.Type]) -> DiagnosisResult {
    let context = DiagnosisContext(report: report)
    let isDamaged = context.report.bodyError != nil
    let isAbridged = context.report.isAbridged
    var found: [(diagnosis: Diagnosis, rule: any DiagnosisRule.Type)] = []
    for rule in rules {
      if var diagnosis = rule.init().diagnose(context) {
        // A body that broke part-way may lack the very field that would rule this out.
        if isDamaged && diagnosis.confidence == .definite {
          diagnosis.confidence = .likely
          diagnosis.summary += " (The report is damaged; this was read from the part before the damage.)"
        } else if isAbridged && diagnosis.confidence == .definite {
          diagnosis.confidence = .likely
          diagnosis.summary += " (The report was too large to keep whole; this was read from the part kept.)"
        }
        found.append((diagnosis, rule))
      }
    }
    found.sort { lhs, rhs in RuleRanking.isBetter(lhs.diagnosis, of: lhs.rule, than: rhs.diagnosis, of: rhs.rule) }
    let diagnoses = found.map(\.diagnosis)
    let summary = CrashSummary(context: context)
    // The signature takes the winner's rule ID and instance key.
    let signature = CrashSignature(
      context: context, winnerRuleID: diagnoses.first?.ruleID, instanceKey: diagnoses.first?.instanceKey,
      summary: summary)
    return DiagnosisResult(
      diagnoses: diagnoses, summary: summary, signature: signature,
      symbolication: SymbolicationHint(context: context))
  }
}
