import IPSDoctorSupport

extension RuleCatalog {
  /// Language exceptions, Swift runtime traps and memory access (Rules/Language, Rules/Swift,
  /// Rules/Memory).
  static let languageAndRuntimeRules: [any DiagnosisRule.Type] = [
    // Language exceptions: the specific ones, then the generic uncaught exception.
    ObjCConcurrentPropertyAccessRule.self,
    CoreDataFaultUnfulfillableRule.self,
    ObjCUnrecognizedSelectorRule.self,
    ObjCMutatingImmutableRule.self,
    ObjCRangeExceptionRule.self,
    ObjCInvalidArgumentRule.self,
    ObjCKVCUndefinedKeyRule.self,
    LibcxxAssertionRule.self,
    ReactNativeFatalErrorRule.self,
    DotNetUnhandledExceptionRule.self,
    CxxUncaughtExceptionRule.self,
    ObjCUncaughtExceptionRule.self,
    // Swift runtime errors, by message, then the trap without one.
    SwiftForceUnwrapNilRule.self,
    SwiftIndexOutOfRangeRule.self,
    SwiftArithmeticOverflowRule.self,
    SwiftForceCastFailedRule.self,
    SwiftUnownedDeallocatedRule.self,
    SwiftExclusivityViolationRule.self,
    SwiftFatalErrorRule.self,
    SwiftTrapUnknownRule.self,
    // Memory access: specific signatures, then the generic invalid address.
    OpenGLBackgroundRenderRule.self,
    GPUDriverKillRule.self,
    StackOverflowRule.self,
    StackBufferOverflowRule.self,
    HeapCorruptionRule.self,
    ZombieObjectRule.self,
    BadInstructionFetchRule.self,
    IllegalInstructionRule.self,
    KernMemoryErrorRule.self,
    MisalignedAccessRule.self,
    PointerAuthenticationFailureRule.self,
    NullPointerDereferenceRule.self,
    ProtectionFailureRule.self,
    InvalidAddressRule.self,
  ]
}
