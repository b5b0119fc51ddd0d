import IPSDoctorSupport

/// Facts of a report, found once per diagnosis, that decide whether a rule can fire at all.
///
/// Each is a plain test of the report or of a fact ``DiagnosisContext`` has already found; what
/// each means is exactly what its doc comment says, since a rule's ``RuleRequirement`` promises
/// that the rule returns `nil` on any report that has none of its traits.
struct ReportTraits: OptionSet, Sendable {
  let rawValue: UInt32

  init(rawValue: UInt32) { self.rawValue = rawValue }

  // The report's kind (`report.kind`).
  static let crashKind = ReportTraits(rawValue: 1 << 0)
  static let panicKind = ReportTraits(rawValue: 1 << 1)
  static let jetsamKind = ReportTraits(rawValue: 1 << 2)
  static let stackshotKind = ReportTraits(rawValue: 1 << 3)
  static let resourceKind = ReportTraits(rawValue: 1 << 4)
  static let watchdogKind = ReportTraits(rawValue: 1 << 5)
  static let unknownKind = ReportTraits(rawValue: 1 << 6)

  /// `report.exception?.type` contains `EXC_BAD_ACCESS`.
  static let badAccess = ReportTraits(rawValue: 1 << 7)
  /// `report.exception?.type` contains `EXC_GUARD`.
  static let guardException = ReportTraits(rawValue: 1 << 8)
  /// `report.exception?.type` contains `EXC_RESOURCE`.
  static let resourceException = ReportTraits(rawValue: 1 << 9)
  /// `context.isAbort`: the signal starts with `SIGABRT` or the exception type contains it.
  static let abort = ReportTraits(rawValue: 1 << 10)
  /// `context.isTrap`: `EXC_BREAKPOINT`, `EXC_BAD_INSTRUCTION`, `SIGTRAP` or `SIGILL`.
  static let trap = ReportTraits(rawValue: 1 << 11)
  /// `report.exception?.signal` is not `nil`.
  static let signal = ReportTraits(rawValue: 1 << 12)
  /// `report.termination` is not `nil`.
  static let termination = ReportTraits(rawValue: 1 << 13)
  /// `report.exception` is not `nil`.
  static let exception = ReportTraits(rawValue: 1 << 14)

  /// Some text that `context.reasonText(containing:)` searches is not empty: the exception
  /// reason's composed message, an Application Specific Information line, `exception.message`, a
  /// termination reason or detail. A rule that needs a fragment of reason text needs this.
  static let reasonText = ReportTraits(rawValue: 1 << 15)
  /// `context.terminationTexts` is not empty (termination reasons, details, indicator). Note that
  /// `context.terminationText(containing:)` also searches the reason texts: a rule that calls it
  /// needs `[.terminationText, .reasonText]`.
  static let terminationText = ReportTraits(rawValue: 1 << 16)
  /// `report.applicationSpecificInfo` is not empty.
  static let applicationSpecificInfo = ReportTraits(rawValue: 1 << 17)
  /// `report.exceptionReason` is not `nil`.
  static let exceptionReason = ReportTraits(rawValue: 1 << 18)
  /// `context.lastExceptionBacktrace` is not `nil`.
  static let lastExceptionBacktrace = ReportTraits(rawValue: 1 << 19)
  /// `context.languageException` is not `nil`.
  static let languageException = ReportTraits(rawValue: 1 << 20)
  /// `context.languageException?.isObjC == true`.
  static let objCException = ReportTraits(rawValue: 1 << 21)
  /// `context.swiftFailures` is not empty.
  static let swiftFailure = ReportTraits(rawValue: 1 << 22)
  /// `context.isMainThreadAssertionPresent == true`.
  static let mainThreadAssertion = ReportTraits(rawValue: 1 << 23)
  /// `context.memoryFault` is not `nil`.
  static let memoryFault = ReportTraits(rawValue: 1 << 24)
  /// `report.dyldErrorMessage` is not `nil`.
  static let dyldErrorMessage = ReportTraits(rawValue: 1 << 25)
  /// `report.jetsam` is not `nil`.
  static let jetsamSummary = ReportTraits(rawValue: 1 << 26)
  /// One of the crashed thread's first 8 frames has a symbol containing `gpus` (the GPU driver's
  /// kill paths: `gpusKillClient`, `gpus_ReturnGuiltyFor…`, `gpus_ReturnNotPermittedKillClient`).
  static let gpuDriverFrame = ReportTraits(rawValue: 1 << 27)

  static let all = ReportTraits(rawValue: .max)

  /// The traits of the report `context` holds.
  init(_ context: borrowing DiagnosisContext) {
    let report = context.report
    var traits: ReportTraits
    switch report.kind {
    case .crash: traits = .crashKind
    case .panic: traits = .panicKind
    case .jetsam: traits = .jetsamKind
    case .stackshot: traits = .stackshotKind
    case .resource: traits = .resourceKind
    case .watchdog: traits = .watchdogKind
    case .unknown: traits = .unknownKind
    }
    if let exception = report.exception {
      traits.insert(.exception)
      if let type = exception.type {
        if type.prefilteredContains("EXC_BAD_ACCESS") { traits.insert(.badAccess) }
        if type.prefilteredContains("EXC_GUARD") { traits.insert(.guardException) }
        if type.prefilteredContains("EXC_RESOURCE") { traits.insert(.resourceException) }
      }
      if exception.signal != nil { traits.insert(.signal) }
      if let message = exception.message, !message.isEmpty { traits.insert(.reasonText) }
    }
    if context.isAbort { traits.insert(.abort) }
    if context.isTrap { traits.insert(.trap) }
    if let termination = report.termination {
      traits.insert(.termination)
      if termination.reasons.contains(where: { !$0.isEmpty }) || termination.details.contains(where: { !$0.isEmpty }) {
        traits.insert(.reasonText)
      }
    }
    if !context.terminationTextList.isEmpty { traits.insert(.terminationText) }
    if !report.applicationSpecificInfo.isEmpty {
      traits.insert(.applicationSpecificInfo)
      if report.applicationSpecificInfo.contains(where: { $0.lines.contains { !$0.isEmpty } }) {
        traits.insert(.reasonText)
      }
    }
    if report.exceptionReason != nil { traits.insert(.exceptionReason) }
    if let message = context.exceptionMessage, !message.isEmpty { traits.insert(.reasonText) }
    if context.lastExceptionBacktrace != nil { traits.insert(.lastExceptionBacktrace) }
    if context.languageException != nil {
      traits.insert(.languageException)
      if context.languageException?.isObjC == true { traits.insert(.objCException) }
    }
    if !context.swiftFailures.isEmpty { traits.insert(.swiftFailure) }
    if context.isMainThreadAssertionPresent == true { traits.insert(.mainThreadAssertion) }
    if context.memoryFault != nil { traits.insert(.memoryFault) }
    if report.dyldErrorMessage != nil { traits.insert(.dyldErrorMessage) }
    if report.jetsam != nil { traits.insert(.jetsamSummary) }
    if context.crashedThreadTop(8, contains: "gpus") != nil { traits.insert(.gpuDriverFrame) }
    self = traits
  }
}

/// What a report must show before a rule can fire: ``Doctor`` reads it as data and does not run a
/// rule whose requirement the report does not meet.
///
/// A diagnosis asks some 70 rules, and on most reports most of them return `nil` at their first
/// guard; reaching each rule's code (cold, branchy, once per report) costs more than the guard. A
/// requirement is a promise about the rule's own code: **the rule returns `nil` on every report
/// that meets none of it.** `RuleRequirementTests` checks the promise on every fixture, rule
/// example and corpus report, and that gated and ungated diagnoses are the same. When a rule's
/// conditions are not a plain test of the report, its requirement is ``always``.
public struct RuleRequirement: Sendable {
  /// The rule may fire on a report with any of these traits.
  let traits: ReportTraits
  /// ... or on one where `context.terminationCode(in: codes)` can find a code.
  let codes: TerminationCodes?

  /// The rule runs on every report.
  package static let always = RuleRequirement(traits: .all, codes: nil)

  /// The rule can fire only on a report with at least one of `traits`.
  static func anyOf(_ traits: ReportTraits) -> RuleRequirement {
    RuleRequirement(traits: traits, codes: nil)
  }

  /// The rule can fire only where `context.terminationCode(in: codes)` finds a code, or on a
  /// report with one of `traits`.
  static func terminationCode(_ codes: TerminationCodes, or traits: ReportTraits = []) -> RuleRequirement {
    RuleRequirement(traits: traits, codes: codes)
  }

  /// Whether a report with `traits`, held by `context`, meets the requirement.
  @inline(__always)
  func admits(_ traits: ReportTraits, _ context: borrowing DiagnosisContext) -> Bool {
    if !self.traits.isDisjoint(with: traits) { return true }
    guard let codes else { return false }
    return context.hasTerminationCodeCandidate(in: codes)
  }
}
