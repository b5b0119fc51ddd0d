import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The isolation check fails in two shapes: in a closure the app handed to a framework, and at the
/// `@objc` entry point of a main-actor method the framework calls itself (a delegate or subscriber
/// method). The fix differs: `@Sendable` on the closure, `nonisolated` on the method.
@Suite("Isolation check: closure or @objc method")
struct IsolationCheckEntranceTests {
  static func finding(_ file: String) throws -> Diagnosis? {
    let report = try ReportReader.read(Fixtures.bytes("reports/" + file))
    return Doctor.diagnose(report).diagnoses.first { $0.ruleID == "swift-isolation-check-failed" }
  }

  @Test("A MetricKit subscriber method isolated by default is fixed with nonisolated")
  func objcMethod() throws {
    let found = try #require(try Self.finding("swift6-isolation-check-objc-method-default-mainactor.ips"))
    #expect(found.confidence == .definite)
    #expect(found.summary.contains("The app's method `MetricsSubscriber.didReceive(_:)`"))
    #expect(found.summary.contains("SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor"))
    #expect(found.remedy.contains("nonisolated func didReceive(…)"))
    #expect(found.remedy.contains("`-[MXMetricManager deliverDiagnosticPayloads:toSubscribers:]`"))
    #expect(!found.remedy.contains("@Sendable result in"))
  }

  @Test("A closure passed to requestAuthorization keeps the closure fix")
  func closure() throws {
    let found = try #require(try Self.finding("swift6-isolation-check-failed.ips"))
    #expect(found.summary.contains("closure #1 in AppDelegate.application(_:didFinishLaunchingWithOptions:)"))
    #expect(found.remedy.contains("@Sendable"))
    #expect(!found.remedy.contains("nonisolated func"))
  }

  @Test(
    "Only an @objc method name is an entry point",
    arguments: [
      ("@objc MetricsSubscriber.didReceive(_:)", "MetricsSubscriber.didReceive(_:)"),
      ("@objc closure #1 in Router.handle(_:)", nil),
      ("MetricsSubscriber.didReceive(_:)", nil),
    ] as [(String, String?)])
  func entryPoint(name: String, method: String?) {
    #expect(SwiftIsolationCheckFailedRule.objcEntryPoint(name) == method)
  }
}
