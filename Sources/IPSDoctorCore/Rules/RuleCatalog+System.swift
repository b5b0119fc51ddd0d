extension RuleCatalog {
  /// System terminations, resources, jetsam, dyld, code signing, privacy, guards and the generic
  /// fallbacks (Rules/System, Rules/Resources, Rules/Launch).
  static let systemRules: [any DiagnosisRule.Type] = [
    WatchdogTimeoutRule.self,
  ]

  /// Summaries of reports that are not crashes: panics, jetsam events, stackshots, resource and
  /// watchdog reports (Rules/OtherReports).
  static let otherReportRules: [any DiagnosisRule.Type] = []
}
