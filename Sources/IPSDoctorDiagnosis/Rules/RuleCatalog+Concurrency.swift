import IPSDoctorSupport

extension RuleCatalog {
  /// Swift concurrency, main-thread and framework rules (Rules/Concurrency, Rules/Frameworks).
  static let concurrencyRules: [any DiagnosisRule.Type] = [
    AsyncBridgeCompletionOffMainRule.self,
    CompletionHandlerCalledOffMainRule.self,
    UIKitCallMustBeMainRule.self,
    LayoutEngineBackgroundThreadRule.self,
    SwiftIsolationCheckFailedRule.self,
    ActorExecutorAssumptionFailedRule.self,
    ContinuationResumedTwiceRule.self,
    CompletionHandlerNotCalledRule.self,
    CoreDataConcurrencyViolationRule.self,
    SwiftUIMissingEnvironmentObjectRule.self,
    SwiftDataNoActiveContainerRule.self,
  ]
}
