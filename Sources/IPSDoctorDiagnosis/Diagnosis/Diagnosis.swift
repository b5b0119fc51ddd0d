import IPSDoctorSupport

/// How much a finding matters to the app's developer.
package enum Severity: String, Sendable, Comparable, CaseIterable, Codable {
  /// Informational: a parse warning, or a report that is not about a crash.
  case note
  /// Not the app's fault, or not proven to be (thermal shutdown, user force-quit, a jetsam event
  /// that only names the app).
  case warning
  /// A crash the app caused.
  case error

  var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }

  package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// How sure a rule is that it found the cause.
package enum Confidence: String, Sendable, Comparable, CaseIterable, Codable {
  /// Consistent with the evidence, but other causes fit too.
  case possible
  /// Most of the signature is present.
  case likely
  /// The report carries the rule's exact signature.
  case definite

  var rank: Int {
    switch self {
    case .possible: 0
    case .likely: 1
    case .definite: 2
    }
  }

  package static func < (lhs: Confidence, rhs: Confidence) -> Bool { lhs.rank < rhs.rank }
}

/// One fact in a report that supports a diagnosis.
package struct Evidence: Sendable, Equatable, CustomStringConvertible {
  /// Where the fact is: a JSON path such as `exceptionReason.composed_message`,
  /// `lastExceptionBacktrace[7]` or `threads[7].queue`.
  package var path: String
  /// What is there, e.g. the frame's symbol or the field's value.
  package var detail: String

  package init(_ path: String, _ detail: String) {
    self.path = path
    self.detail = detail
  }

  package var description: String { "\(path): \(detail)" }
}

/// A rule's finding about one report.
public struct Diagnosis: Sendable, Equatable {
  public var ruleID: String
  package var title: String
  package var confidence: Confidence
  package var severity: Severity
  /// What happened in *this* report, naming its exception, frames and types. Full sentences.
  package var summary: String
  package var evidence: [Evidence]
  /// What to change, in Markdown (code blocks where code helps), specific to this report when the
  /// rule can be.
  package var remedy: String
  /// How to confirm the fix or the diagnosis.
  package var verification: [String]
  package var references: [String]
  /// What tells this instance of the rule's crash from another when no app frame does (the
  /// missing library, the exception's name and reason template, the selector, the assertion):
  /// part of the crash's signature. `nil` when the rule and the frames say it all.
  package var instanceKey: String? = nil

  package init(
    ruleID: String, title: String, confidence: Confidence, severity: Severity, summary: String,
    evidence: [Evidence], remedy: String, verification: [String] = [], references: [String] = []
  ) {
    self.ruleID = ruleID
    self.title = title
    self.confidence = confidence
    self.severity = severity
    self.summary = summary
    self.evidence = evidence
    self.remedy = remedy
    self.verification = verification
    self.references = references
  }
}
