extension RuleCatalog {
  /// Swift concurrency, main-thread and framework rules (Rules/Concurrency, Rules/Frameworks).
  static let concurrencyRules: [any DiagnosisRule.Type] = [
    AsyncBridgeCompletionOffMainRule.self,
  ]
}
