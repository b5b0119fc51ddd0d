import Foundation
import Testing

@testable import IPSDoctorCore

/// `DiagnosisContext(report:)` runs its helpers (Swift failures, language exception, main-thread
/// assertion and bridge frame, memory fault, stack overflow, dyld error) on a context that holds
/// none of their results yet, and stores the results only afterwards. Each helper, run again on the
/// finished context (where every earlier result is present, as when the initializer stored each
/// result before running the next helper), must find exactly what the context stored.
struct DiagnosisContextDerivedFactsTests {
  static func text(_ value: Any?) -> String {
    var text = ""
    dump(value, to: &text)
    return text
  }

  @Test func storedResultsAreWhatTheHelpersFindOnTheFinishedContext() throws {
    var checked = 0
    var withResults = 0
    for path in Fixtures.files(in: "reports", extensions: ["ips", "crash"]) {
      guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { continue }
      let context = DiagnosisContext(report: report)
      checked += 1
      let stored: [Any?] = [
        context.swiftFailures, context.languageException, context.mainThreadAssertion,
        context.assertionBridgeFrame, context.memoryFault, context.isStackOverflow, context.dyldError,
      ]
      let assertion = MainThreadAssertion.collect(in: context)
      let found: [Any?] = [
        SwiftFailure.collect(in: context), LanguageException.collect(in: context), assertion,
        assertion.isPresent ? .some(MainThreadAssertion.collectBridgeFrame(in: context)) : nil,
        MemoryFault(context), StackOverflowRule.collect(in: context, memoryFault: context.memoryFault),
        DyldError(context),
      ]
      for (index, (lhs, rhs)) in zip(stored, found).enumerated() {
        #expect(Self.text(lhs) == Self.text(rhs), "\(path): result \(index)")
      }
      if !context.swiftFailures.isEmpty || context.languageException != nil || assertion.isPresent
        || context.memoryFault != nil || context.isStackOverflow == true
      {
        withResults += 1
      }
    }
    #expect(checked > 50)
    #expect(withResults > 20)
  }
}
