import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// The edges of the Concurrency, Frameworks and Language rules' requirements: reports that carry
/// only the trait a requirement relies on (no reason text where a second path needs none, a
/// legacy text report, a report without `exceptionReason`) and on which the rule still fires.
@Suite("Concurrency, Frameworks and Language requirements")
struct ConcurrencyFrameworksLanguageRequirementTests {
  /// Reads `text`; checks that `rule` fires on it ungated, that its traits include `has` and
  /// exclude `lacks` (so the report is the edge it claims), that the requirement admits it, and
  /// that the gated diagnosis finds the rule too.
  func probe(
    _ rule: any DiagnosisRule.Type, _ text: String, has: ReportTraits, lacks: ReportTraits,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let report = try ReportReader.read(Array(text.utf8))
    let context = DiagnosisContext(report: report)
    let traits = ReportTraits(context)
    let id = rule.description.id
    #expect(rule.init().diagnose(context) != nil, "\(id) does not fire", sourceLocation: sourceLocation)
    #expect(
      traits.isSuperset(of: has), "\(id): traits \(String(traits.rawValue, radix: 2))", sourceLocation: sourceLocation)
    #expect(
      traits.isDisjoint(with: lacks), "\(id): traits \(String(traits.rawValue, radix: 2))",
      sourceLocation: sourceLocation)
    #expect(rule.requirement.admits(traits, context), "\(id)'s requirement excludes it", sourceLocation: sourceLocation)
    let gated = Doctor.diagnose(report, rules: [rule]).diagnoses.map(\.ruleID)
    #expect(gated == [id], "\(id): gated \(gated)", sourceLocation: sourceLocation)
  }

  /// `text` with its Application Specific Information removed: the examples' "abort() called"
  /// line is reason text, which would hide whether a path needs it.
  static func withoutASI(_ text: String) -> String {
    text.replacing(#""asi":{"libsystem_c.dylib":["abort() called"]},"#, with: "")
  }

  // MARK: Frameworks

  @Test("completion-handler-not-called: the checker destructor with SIGABRT alone")
  func checkerDestructorWithoutReasonText() throws {
    let text = Self.withoutASI(CompletionHandlerNotCalledRule.Examples.report(reason: nil))
    try probe(CompletionHandlerNotCalledRule.self, text, has: .abort, lacks: .reasonText)
  }

  @Test("completion-handler-not-called: the reason text on a report that did not abort")
  func completionHandlerReasonWithoutAbort() throws {
    let text = CompletionHandlerNotCalledRule.Examples.report(
      reason:
        "Completion handler passed to -[A webView:decidePolicyForNavigationAction:decisionHandler:] was not called"
    ).replacing(#""type":"EXC_CRASH","signal":"SIGABRT""#, with: #""type":"EXC_BREAKPOINT","signal":"SIGTRAP""#)
    try probe(CompletionHandlerNotCalledRule.self, text, has: .reasonText, lacks: .abort)
  }

  // MARK: Concurrency

  @Test("The main-thread assertion rules: UIKit's asserting frames without any reason text")
  func assertionFramesWithoutReasonText() throws {
    let bridge = Self.withoutASI(
      AsyncBridgeCompletionOffMainRule.Examples.report(
        appSymbol: "@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)",
        reason: nil))
    try probe(AsyncBridgeCompletionOffMainRule.self, bridge, has: .mainThreadAssertion, lacks: .reasonText)
    let gcd = Self.withoutASI(
      CompletionHandlerCalledOffMainRule.Examples.report(
        "closure #1 in NotificationService.handle(response:completion:)", reason: nil))
    try probe(CompletionHandlerCalledOffMainRule.self, gcd, has: .mainThreadAssertion, lacks: .reasonText)
  }

  @Test("uikit-call-must-be-main: the assertion in a legacy text report's Application Specific Information")
  func legacyMainThreadAssertion() throws {
    let text = Self.legacy(
      asi: "*** Assertion failure in -[UIView addSubview:]\nCall must be made on main thread",
      crashed: ["0   UIKitCore                     \t       0x18cd5c594 -[UIView(Hierarchy) addSubview:] + 92"])
    try probe(UIKitCallMustBeMainRule.self, text, has: [.mainThreadAssertion, .reasonText], lacks: [.exceptionReason])
  }

  @Test("The reason-text concurrency rules: the text in a legacy report's Application Specific Information")
  func reasonTextInLegacyReport() throws {
    let layout = Self.legacy(
      asi:
        "This application is modifying the autolayout engine from a background thread after the engine was accessed from the main thread."
    )
    try probe(
      LayoutEngineBackgroundThreadRule.self, layout, has: .reasonText, lacks: [.exceptionReason, .languageException])
    let twice = Self.legacy(
      asi: "SWIFT TASK CONTINUATION MISUSE: fetch() tried to resume its continuation more than once, returning ()!",
      exception: "EXC_BREAKPOINT (SIGTRAP)")
    try probe(ContinuationResumedTwiceRule.self, twice, has: .reasonText, lacks: [.exceptionReason, .abort])
  }

  // MARK: Language

  @Test("core-data-fault-unfulfillable: the exception's name with no reason text anywhere")
  func coreDataFaultByNameOnly() throws {
    let text = ExampleReport.ips(
      """
      {"exception":{"type":"EXC_CRASH","signal":"SIGABRT"},
       "exceptionReason":{"name":"NSObjectInaccessibleException","type":"objc-exception"},
       "faultingThread":0,
       "threads":[{"id":1,"triggered":true,"frames":[]}],
       "usedImages":[\(ExampleReport.appImage)]}
      """)
    try probe(CoreDataFaultUnfulfillableRule.self, text, has: .languageException, lacks: .reasonText)
  }

  @Test("The Objective-C exception rules: the legacy \"Terminating app\" line")
  func legacyTerminatingLine() throws {
    let text = Self.legacy(
      asi:
        "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[NSNull length]: unrecognized selector sent to instance 0x1f2e3d4c0'"
    )
    try probe(ObjCUnrecognizedSelectorRule.self, text, has: [.reasonText, .objCException], lacks: .exceptionReason)
    try probe(ObjCUncaughtExceptionRule.self, text, has: .objCException, lacks: .exceptionReason)
    let range = Self.legacy(
      asi:
        "*** Terminating app due to uncaught exception 'NSRangeException', reason: '*** -[__NSArrayI objectAtIndex:]: index 5 beyond bounds [0 .. 2]'"
    )
    try probe(ObjCRangeExceptionRule.self, range, has: .objCException, lacks: .exceptionReason)
  }

  @Test("objc-uncaught-exception: only objc_exception_throw on the crashed thread")
  func uncaughtExceptionFromTheThrowFrameAlone() throws {
    let text = ExampleReport.ips(
      """
      {"exception":{"type":"EXC_CRASH","signal":"SIGABRT"},
       "faultingThread":0,
       "threads":[{"id":1,"triggered":true,"frames":[
         {"imageIndex":1,"imageOffset":10,"symbol":"__pthread_kill"},
         {"imageIndex":2,"imageOffset":20,"symbol":"objc_exception_throw"},
         {"imageIndex":0,"imageOffset":81920}]}],
       "usedImages":[\(ExampleReport.appImage),\(ExampleReport.systemImage("libsystem_kernel.dylib")),
         \(ExampleReport.systemImage("libobjc.A.dylib"))]}
      """)
    try probe(
      ObjCUncaughtExceptionRule.self, text, has: .objCException,
      lacks: [.reasonText, .exceptionReason, .lastExceptionBacktrace])
  }

  /// A legacy text crash report with `asi` as its Application Specific Information and `crashed`
  /// as the crashed thread's frames.
  static func legacy(
    asi: String, exception: String = "EXC_CRASH (SIGABRT)",
    crashed: [String] = ["0   libsystem_kernel.dylib        \t       0x1ed2d95e4 __pthread_kill + 8"]
  ) -> String {
    """
    Incident Identifier: E0D1513F-A583-4CBD-AE9C-E36C6221C008
    Hardware Model:      iPhone17,1
    Process:             Acme [2555]
    Path:                /private/var/containers/Bundle/Application/2D8E4C1A-7F3B-4A60-B5E9-0C6A1D9F3B72/Acme.app/Acme
    Identifier:          com.example.acme
    Version:             7310 (7.3)
    Code Type:           ARM-64 (Native)
    OS Version:          iPhone OS 26.6 (23G80)
    Report Version:      104

    Exception Type:  \(exception)
    Exception Codes: 0x0000000000000000, 0x0000000000000000
    Triggered by Thread:  1

    Application Specific Information:
    \(asi)


    Thread 0 name:   Dispatch queue: com.apple.main-thread
    Thread 0:
    0   libsystem_kernel.dylib        \t       0x1ed2d95e4 mach_msg2_trap + 8

    Thread 1 name:   Dispatch queue: com.example.sync
    Thread 1 Crashed:
    \(crashed.joined(separator: "\n"))

    """
  }
}
