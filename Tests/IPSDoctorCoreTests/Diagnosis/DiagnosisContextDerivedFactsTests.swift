import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// `DiagnosisContext(report:)` runs its helpers (Swift failures, language exception, main-thread
/// assertion and bridge frame, memory fault, stack overflow, dyld error) on a context that holds
/// none of their results yet, and stores the results only afterwards. Each helper, run again on the
/// finished context (where every earlier result is present, as when the initializer stored each
/// result before running the next helper), must find exactly what the context stored.
struct DiagnosisContextDerivedFactsTests {
  static func text<T>(_ value: T) -> String {
    var text = ""
    dump(value, to: &text)
    return text
  }

  static func expectSame<T>(_ stored: T, _ found: T, _ path: String) {
    #expect(text(stored) == text(found), "\(path): \(T.self)")
  }

  @Test func storedResultsAreWhatTheHelpersFindOnTheFinishedContext() throws {
    var checked = 0
    var withResults = 0
    for path in Fixtures.files(in: "reports", extensions: ["ips", "crash"]) {
      guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { continue }
      let context = DiagnosisContext(report: report)
      checked += 1
      let assertion = MainThreadAssertion.collect(in: context)
      let bridge: MainThreadAssertion.BridgeFrame?? =
        assertion.isPresent ? .some(MainThreadAssertion.collectBridgeFrame(in: context)) : nil
      Self.expectSame(context.swiftFailures, SwiftFailure.collect(in: context), path)
      Self.expectSame(context.languageException, LanguageException.collect(in: context), path)
      Self.expectSame(context.mainThreadAssertion, assertion, path)
      Self.expectSame(context.assertionBridgeFrame, bridge, path)
      Self.expectSame(context.memoryFault, MemoryFault(context), path)
      Self.expectSame(
        context.isStackOverflow, StackOverflowEvidence.collect(in: context, memoryFault: context.memoryFault), path)
      Self.expectSame(context.dyldError, DyldError(context), path)
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
