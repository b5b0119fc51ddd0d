import IPSDoctorSupport

extension RuleCatalog {
  /// System terminations, resources, jetsam, dyld, code signing, privacy, guards and the generic
  /// fallbacks (Rules/System, Rules/Resources, Rules/Launch).
  static let systemRules: [any DiagnosisRule.Type] = [
    // System terminations by code.
    WatchdogTimeoutRule.self,
    WatchdogBackgroundAssertionRule.self,
    BackgroundTaskTimeoutRule.self,
    FileLockHeldInBackgroundRule.self,
    VoIPPushWithoutCallKitRule.self,
    VoIPResumeTooFrequentRule.self,
    ThermalShutdownRule.self,
    DiskSpaceReclaimRule.self,
    SystemResourcesExhaustedRule.self,
    WatchOSBackgroundBudgetRule.self,
    UserForceQuitRule.self,
    SecurityViolationRule.self,
    ExtensionLaunchHangRule.self,
    MainThreadDeadlockRule.self,
    SelfRaisedSignalRule.self,
    TerminatedBySignalRule.self,
    BadSystemCallRule.self,
    // Launch, linking, signing, privacy and guards.
    DyldMissingLibraryRule.self,
    DyldMissingSymbolRule.self,
    CodeSigningInvalidRule.self,
    PrivacyUsageDescriptionMissingRule.self,
    GuardFileDescriptorRule.self,
    GuardMachPortRule.self,
    UserFaultRule.self,
    LibdispatchClientBugRule.self,
    // Resources and jetsam.
    JetsamMemoryLimitRule.self,
    JetsamSystemMemoryPressureRule.self,
    CPUResourceLimitRule.self,
    WakeupsResourceLimitRule.self,
    DiskWritesResourceLimitRule.self,
    // Generic fallback: after every specific SIGABRT cause.
    AbortCalledRule.self,
  ]

  /// Summaries of reports that are not crashes: panics, jetsam events, stackshots, resource and
  /// watchdog reports (Rules/OtherReports).
  static let otherReportRules: [any DiagnosisRule.Type] = [
    ForceResetRule.self,
    KernelPanicRule.self,
    JetsamEventRule.self,
    StackshotRule.self,
    ResourceReportRule.self,
    SystemWatchdogReportRule.self,
  ]
}
