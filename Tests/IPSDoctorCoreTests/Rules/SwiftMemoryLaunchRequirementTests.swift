import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// The edges of the Swift, memory and launch rules' requirements: reports that carry only the one
/// trait a rule's requirement relies on for a path of its `diagnose`, on which the rule still
/// fires (and the gated diagnosis is the ungated one).
@Suite("Swift, memory and launch rule requirements at their edges")
struct SwiftMemoryLaunchRequirementTests {
  typealias E = LanguageRuntimeExamples

  /// A probe: `rule` fires on `text`, and of its requirement's traits the report has exactly
  /// `only` (so that trait alone is what admits it).
  struct Probe: Sendable, CustomTestStringConvertible {
    let name: String
    let rule: any DiagnosisRule.Type
    let only: ReportTraits
    let text: String

    var testDescription: String { "\(rule.description.id): \(name)" }
  }

  static let legacyHeader = """
    Incident Identifier: E0D1513F-A583-4CBD-AE9C-E36C6221C008
    Hardware Model:      iPhone17,1
    Process:             Example [2555]
    Path:                /private/var/containers/Bundle/Application/0C7E/Example.app/Example
    Identifier:          com.example.app
    OS Version:          iPhone OS 18.6 (22G86)

    """

  static let probes: [Probe] = [
    // Swift
    Probe(
      name: "swift_beginAccess on an abort, no reason text", rule: SwiftExclusivityViolationRule.self, only: .abort,
      text: E.signal(
        type: "EXC_CRASH", signal: "SIGABRT",
        frames: [
          E.F(.kernel, "__pthread_kill"), E.F(.libc, "abort"),
          E.F(.swiftCore, "swift::fatalErrorv(unsigned int, char const*, char*)"),
          E.F(.swiftCore, "swift_beginAccess"), E.F(.app, "Store.update(_:)"),
        ])),
    Probe(
      name: "swift_beginAccess on a trap, no reason text", rule: SwiftExclusivityViolationRule.self, only: .trap,
      text: E.signal(
        type: "EXC_BREAKPOINT", signal: "SIGTRAP",
        frames: [E.F(.swiftCore, "swift_beginAccess"), E.F(.app, "Store.update(_:)")])),
    Probe(
      name: "message only in a termination detail of a kill", rule: SwiftExclusivityViolationRule.self,
      only: .reasonText,
      text: SystemExampleReport.report(
        signal: "SIGKILL",
        details: ["Simultaneous accesses to 0x600001a2c0e0, but modification requires exclusive access."],
        mainFrames: ["Example`Store.update(_:)"])),
    Probe(
      name: "legacy text: Exception Message only", rule: SwiftExclusivityViolationRule.self, only: .reasonText,
      text: legacyHeader + """
        Exception Type:  EXC_CRASH (SIGKILL)
        Exception Message: Simultaneous accesses to 0x600001a2c0e0, but modification requires exclusive access.

        Thread 0 Crashed:
        0   Example                       	       0x100d98c5c Store.update(_:) + 96

        """),
    Probe(
      name: "release build: inline failure frame only", rule: SwiftForceUnwrapNilRule.self, only: .swiftFailure,
      text: E.signal(
        type: "EXC_BREAKPOINT", signal: "SIGTRAP",
        frames: [
          E.F(.app, "Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value", inline: true),
          E.F(.app, "Profile.load()"),
        ])),
    Probe(
      name: "legacy text: Intel trap in an app frame", rule: SwiftTrapUnknownRule.self, only: .trap,
      text: legacyHeader + """
        Exception Type:  EXC_BAD_INSTRUCTION (SIGILL)

        Thread 0 Crashed:
        0   Example                       	       0x100d98c5c Parser.next() + 96
        1   Example                       	       0x100d98a10 Parser.run() + 40

        Binary Images:
               0x100d80000 -        0x100e8ffff Example arm64  <8a3c5e0f1b2d4e6f9a0b1c2d3e4f5a6b> /private/var/containers/Bundle/Application/0C7E/Example.app/Example

        """),
    // Memory
    Probe(
      name: "legacy text: SIGSEGV with SEGV_MAPERR, no Mach type", rule: NullPointerDereferenceRule.self,
      only: .memoryFault,
      text: legacyHeader + """
        Exception Type:  SIGSEGV
        Exception Codes: SEGV_MAPERR at 0x0000000000000010

        Thread 0 Crashed:
        0   Example                       	       0x100d98c5c Cache.read() + 96

        """),
    Probe(
      name: "legacy text: unrelated receiver of an unrecognized selector", rule: ZombieObjectRule.self,
      only: .reasonText,
      text: legacyHeader + """
        Exception Type:  EXC_CRASH (SIGABRT)

        Application Specific Information:
        *** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[UIImageView numberOfSections]: unrecognized selector sent to instance 0x10a3c5e00'

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        	       0x1ed2d95e4 __pthread_kill + 8

        """),
    // Launch
    Probe(
      name: "legacy text: Dyld Error Message only (symbol)", rule: DyldMissingSymbolRule.self, only: .dyldErrorMessage,
      text: legacyHeader + """
        Exception Type:  EXC_CRASH (SIGABRT)

        Dyld Error Message:
          Symbol not found: _OBJC_CLASS_$_UISheetPresentationController
          Referenced from: /private/var/containers/Bundle/Application/0C7E/Example.app/Example
          Expected in: /System/Library/Frameworks/UIKit.framework/UIKit

        """),
    Probe(
      name: "legacy text: Dyld Error Message only (library)", rule: DyldMissingLibraryRule.self,
      only: .dyldErrorMessage,
      text: legacyHeader + """
        Exception Type:  EXC_BREAKPOINT (SIGTRAP)

        Dyld Error Message:
          Library not loaded: @rpath/Analytics.framework/Analytics
          Referenced from: /private/var/containers/Bundle/Application/0C7E/Example.app/Example
          Reason: image not found

        """),
    Probe(
      name: "asi dyld lines only", rule: DyldMissingLibraryRule.self, only: .applicationSpecificInfo,
      text: SystemExampleReport.report(
        signal: "SIGABRT", asi: ["dyld": ["Library not loaded: @rpath/Analytics.framework/Analytics"]],
        mainFrames: ["dyld`__abort_with_payload"])),
    Probe(
      name: "namespace DYLD and code 1 without texts", rule: DyldMissingLibraryRule.self, only: .termination,
      text: SystemExampleReport.report(
        signal: "SIGABRT", namespace: "DYLD", code: 1, mainFrames: ["dyld`__abort_with_payload"])),
    Probe(
      name: "asi dyld lines only (symbol)", rule: DyldMissingSymbolRule.self, only: .applicationSpecificInfo,
      text: SystemExampleReport.report(
        signal: "SIGABRT", asi: ["dyld": ["Symbol not found: _OBJC_CLASS_$_UISheetPresentationController"]],
        mainFrames: ["dyld`__abort_with_payload"])),
    Probe(
      name: "legacy text: EXC_BAD_ACCESS code 0x32 without a signal", rule: CodeSigningInvalidRule.self,
      only: .badAccess,
      text: legacyHeader + """
        Exception Type:  EXC_BAD_ACCESS
        Exception Codes: 0x0000000000000032, 0x0000000104c5c000

        Thread 0 Crashed:
        0   Example                       	       0x104c5c000 Parser.run() + 0

        """),
    Probe(
      name: "legacy text: Code Signature Invalid signal, no termination", rule: CodeSigningInvalidRule.self,
      only: .signal,
      text: legacyHeader + """
        Exception Type:  EXC_CRASH (Code Signature Invalid)
        Exception Codes: 0x0000000000000000, 0x0000000000000000

        Thread 0 Crashed:
        0   dyld                          	       0x1b2fa1c6c _dyld_start + 0

        """),
    Probe(
      name: "legacy text: LAUNCH_HANG subtype", rule: ExtensionLaunchHangRule.self, only: .exception,
      text: legacyHeader + """
        Exception Type:  EXC_CRASH (SIGKILL)
        Exception Subtype: LAUNCH_HANG

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        	       0x1ed2d95e4 mach_msg2_trap + 8

        """),
    Probe(
      name: "legacy text: EXC_GUARD decoded from codes", rule: GuardFileDescriptorRule.self, only: .guardException,
      text: legacyHeader + """
        Exception Type:  EXC_GUARD
        Exception Codes: 0x4000000100000011, 0x08fd4dbfade2dead

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        	       0x1ed2d95e4 close + 8

        """),
    Probe(
      name: "legacy text: EXC_GUARD mach port decoded from codes", rule: GuardMachPortRule.self, only: .guardException,
      text: legacyHeader + """
        Exception Type:  EXC_GUARD
        Exception Codes: 0x2000000200000b03, 0x0000000000000000

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        	       0x1ed2d95e4 mach_port_deallocate + 8

        """),
  ]

  @Test("A rule fires where only the trait its requirement relies on admits the report", arguments: probes)
  func edge(_ probe: Probe) throws {
    let report = try ReportReader.read(probe.text)
    let context = DiagnosisContext(report: report)
    let traits = ReportTraits(context)
    let requirement = probe.rule.requirement
    #expect(probe.rule.init().diagnose(context) != nil, "does not fire")
    #expect(requirement.admits(traits, context), "traits \(String(traits.rawValue, radix: 2))")
    // The probe is an edge: of the requirement's traits, only `only` is in the report.
    #expect(traits.intersection(requirement.traits) == probe.only, "traits \(String(traits.rawValue, radix: 2))")
    #expect(Doctor.diagnose(report) == Doctor.diagnoseUngated(report))
  }

  @Test("The requirements rule out the usual reports of other causes")
  func gates() throws {
    // An uncaught Objective-C exception: no memory fault, Swift failure, trap or guard.
    let objC = try ReportReader.read(E.exception(name: "NSInternalInconsistencyException", reason: "Invalid update"))
    let context = DiagnosisContext(report: objC)
    let traits = ReportTraits(context)
    let excluded: [any DiagnosisRule.Type] = [
      NullPointerDereferenceRule.self, InvalidAddressRule.self, StackOverflowRule.self, BadInstructionFetchRule.self,
      KernMemoryErrorRule.self, MisalignedAccessRule.self, ProtectionFailureRule.self,
      PointerAuthenticationFailureRule.self, SwiftFatalErrorRule.self, SwiftForceUnwrapNilRule.self,
      SwiftIndexOutOfRangeRule.self, SwiftArithmeticOverflowRule.self, SwiftTrapUnknownRule.self,
      GuardFileDescriptorRule.self, GuardMachPortRule.self, UserFaultRule.self,
    ]
    for rule in excluded {
      #expect(!rule.requirement.admits(traits, context), "\(rule.description.id)")
    }
  }
}
