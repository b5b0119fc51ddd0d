extension RuleCatalog {
  /// Language exceptions, Swift runtime traps and memory access (Rules/Language, Rules/Swift,
  /// Rules/Memory).
  static let languageAndRuntimeRules: [any DiagnosisRule.Type] = []
}
