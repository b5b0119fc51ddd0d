import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// What the founding rule must say about one `async-bridge-*` fixture.
struct FoundingCase: Sendable, CustomTestStringConvertible {
  let file: String
  /// `nil` when the app frames are unsymbolicated.
  let typeName: String?
  let method: String
  let protocolName: String
  let selector: String
  /// A fragment of the completion-handler declaration the remedy must spell out.
  let remedyDeclaration: String
  /// Whether the report names no reason and no assertion handler, which is known by its place
  /// only: the frames point at the assertion without proving it (`likely`).
  var handlerKnownByPlace = false

  var testDescription: String { file }
  var isSymbolicated: Bool { typeName != nil }

  static let didReceive = (
    "userNotificationCenter(_:didReceive:)", "UNUserNotificationCenterDelegate",
    "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
    "didReceive response: UNNotificationResponse"
  )

  static func make(_ file: String, _ typeName: String?) -> FoundingCase {
    FoundingCase(
      file: file, typeName: typeName, method: didReceive.0, protocolName: didReceive.1,
      selector: didReceive.2, remedyDeclaration: didReceive.3)
  }

  /// Every `async-bridge-*` fixture, with the type and method of its app frame (from the MANIFEST
  /// notes and the fixtures' frames).
  static let all: [FoundingCase] = [
    make("async-bridge-didreceive-simplified-symbols.ips", "PushNotificationDelegate"),
    make("async-bridge-didreceive-full-demangled.ips", "PushNotificationDelegate"),
    make("async-bridge-didreceive-mangled.ips", "PushNotificationDelegate"),
    make("async-bridge-didreceive-mangled-appdelegate.ips", "AppDelegate"),
    make("async-bridge-didreceive-unsymbolicated.ips", nil),
    make("async-bridge-didreceive-reason-in-asi-only.ips", "PushNotificationDelegate"),
    make("async-bridge-didreceive-no-reason.ips", "PushNotificationDelegate"),
    FoundingCase(
      file: "async-bridge-didreceive-simulator-unnamed-handler.ips", typeName: "InboxNotificationRouter",
      method: didReceive.0, protocolName: didReceive.1, selector: didReceive.2, remedyDeclaration: didReceive.3,
      handlerKnownByPlace: true),
    make("async-bridge-didreceive-legacy.crash", "PushNotificationDelegate"),
    make("async-bridge-didreceive-legacy-unsymbolicated-leb.crash", nil),
    FoundingCase(
      file: "async-bridge-willpresent.ips", typeName: "NotificationRouter",
      method: "userNotificationCenter(_:willPresent:)", protocolName: "UNUserNotificationCenterDelegate",
      selector: "userNotificationCenter:willPresentNotification:withCompletionHandler:",
      remedyDeclaration: "willPresent notification: UNNotification"),
    FoundingCase(
      file: "async-bridge-remote-notification.ips", typeName: "AppDelegate",
      method: "application(_:didReceiveRemoteNotification:)", protocolName: "UIApplicationDelegate",
      selector: "application:didReceiveRemoteNotification:fetchCompletionHandler:",
      remedyDeclaration: "fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void"),
    FoundingCase(
      file: "async-bridge-webview-decide-policy.ips", typeName: "BrowserViewController",
      method: "webView(_:decidePolicyFor:)", protocolName: "WKNavigationDelegate",
      selector: "webView:decidePolicyForNavigationAction:decisionHandler:",
      remedyDeclaration: "decidePolicyFor navigationAction: WKNavigationAction"),
  ]
}

@Suite("Founding rule: async bridge completes off the main thread")
struct FoundingRuleTests {
  static let ruleID = "async-bridge-completion-off-main"

  @Test("Every async-bridge fixture is in the table")
  func tableCoversFixtures() {
    let files = Fixtures.files(in: "reports").map { ($0 as NSString).lastPathComponent }
      .filter { $0.hasPrefix("async-bridge-") }
    #expect(!files.isEmpty)
    let known = Set(FoundingCase.all.map(\.file))
    for file in files {
      #expect(known.contains(file), "\(file) is not in FoundingCase.all; add its type and method")
    }
  }

  @Test("Fires, ranks first and names the bridge", arguments: FoundingCase.all)
  func founding(_ testCase: FoundingCase) throws {
    guard let (report, result) = try ConcurrencyFixtureTests.diagnoseFixture(testCase.file) else {
      // A legacy text report before the text reader reads backtraces: nothing to diagnose yet.
      return
    }
    guard let diagnosis = result.diagnoses.first(where: { $0.ruleID == Self.ruleID }) else {
      Issue.record("\(testCase.file): the founding rule did not fire; fired \(result.diagnoses.map(\.ruleID))")
      return
    }
    #expect(result.diagnoses.first?.ruleID == Self.ruleID, "ranked \(result.diagnoses.map(\.ruleID))")

    // The remedy: Swift code for this method, and the two caveats.
    #expect(diagnosis.remedy.contains("```swift"))
    #expect(diagnosis.remedy.contains("await MainActor.run"))
    #expect(diagnosis.remedy.contains("@MainActor"))
    #expect(diagnosis.remedy.contains("nonisolated"))

    if let typeName = testCase.typeName {
      #expect(diagnosis.confidence == (testCase.handlerKnownByPlace ? .likely : .definite))
      let qualified = "\(typeName).\(testCase.method)"
      #expect(diagnosis.summary.contains(qualified), "summary: \(diagnosis.summary)")
      #expect(diagnosis.summary.contains(testCase.protocolName), "summary: \(diagnosis.summary)")
      #expect(diagnosis.summary.contains(testCase.selector), "summary: \(diagnosis.summary)")
      // The bridge frame, cited by its path in both the summary and the evidence.
      // (Full demangled symbols keep their module and argument types, so match the pieces.)
      let baseName = String(testCase.method.prefix(while: { $0 != "(" }))
      let bridge = diagnosis.evidence.first {
        $0.detail.contains("@objc closure #1") && $0.detail.contains("\(typeName).\(baseName)(")
      }
      #expect(bridge != nil, "no bridge frame in the evidence: \(diagnosis.evidence)")
      if let bridge {
        #expect(Self.isFramePath(bridge.path), "\(bridge.path) is not a frame path")
        #expect(diagnosis.summary.contains(bridge.path), "summary does not cite \(bridge.path)")
      }
      #expect(diagnosis.remedy.contains("extension \(typeName)"), "remedy: \(diagnosis.remedy)")
      #expect(diagnosis.remedy.contains(testCase.remedyDeclaration), "remedy: \(diagnosis.remedy)")
    } else {
      #expect(diagnosis.confidence == .likely || diagnosis.confidence == .possible)
      #expect(diagnosis.evidence.contains { Self.isFramePath($0.path) && $0.detail.contains("unsymbolicated") })
      // A symbolication hint with the report's real load address and frame addresses.
      guard let hint = result.symbolication else {
        Issue.record("no symbolication hint")
        return
      }
      let context = DiagnosisContext(report: report)
      var expected = Set<UInt64>()
      for backtrace in context.backtraces {
        for frame in backtrace.frames where context.isAppFrame(frame) && context.symbol(frame) == nil {
          if let address = frame.address { expected.insert(address) }
        }
      }
      #expect(!hint.images.isEmpty)
      for image in hint.images {
        #expect(image.atos.hasPrefix("atos -arch "))
        #expect(image.atos.contains("-l \(String.hex(image.loadAddress))"))
        #expect(image.loadAddress != 0)
        #expect(!image.addresses.isEmpty)
        for address in image.addresses {
          #expect(expected.contains(address), "\(String.hex(address)) is not an app frame's address")
          #expect(image.atos.contains(String.hex(address)))
        }
      }
    }
  }

  static func isFramePath(_ path: String) -> Bool {
    let pattern = #"^(lastExceptionBacktrace\[\d+\]|threads\[\d+\]\.frames\[\d+\])$"#
    return path.range(of: pattern, options: .regularExpression) != nil
  }

  /// A look-alike, and the rule that owns it.
  struct LookAlike: Sendable, CustomTestStringConvertible {
    let file: String
    let rightRule: String
    var testDescription: String { file }
  }

  static let lookAlikes: [LookAlike] = [
    LookAlike(file: "completion-handler-off-main-gcd.ips", rightRule: "completion-handler-called-off-main"),
    LookAlike(file: "swift6-isolation-check-failed.ips", rightRule: "swift-isolation-check-failed"),
    LookAlike(file: "async-delegate-unrelated-exception.ips", rightRule: "objc-invalid-argument"),
    LookAlike(file: "uikit-call-must-be-main-other.ips", rightRule: "uikit-call-must-be-main"),
  ]

  @Test("Look-alikes: the founding rule stays silent and the right rule fires", arguments: lookAlikes)
  func lookAlike(_ lookAlike: LookAlike) throws {
    guard let (_, result) = try ConcurrencyFixtureTests.diagnoseFixture(lookAlike.file) else {
      Issue.record("\(lookAlike.file) did not read")
      return
    }
    let fired = result.diagnoses.map(\.ruleID)
    #expect(!fired.contains(Self.ruleID), "\(lookAlike.file): the founding rule fired")
    // The right rule may belong to another team and not exist yet.
    if RuleCatalog.rule(id: lookAlike.rightRule) != nil {
      #expect(fired.contains(lookAlike.rightRule), "\(lookAlike.file): fired \(fired)")
      #expect(fired.first == lookAlike.rightRule, "\(lookAlike.file): ranked \(fired)")
    }
  }

  @Test("The founding rule fires on no corpus report without the main-thread assertion")
  func corpus() throws {
    guard let shared = Fixtures.shared else { return }
    let root = shared.appendingPathComponent("corpus")
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return }
    while let path = enumerator.nextObject() as? String {
      let url = root.appendingPathComponent(path)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
        !isDirectory.boolValue, let data = try? Data(contentsOf: url),
        let report = try? ReportReader.read([UInt8](data))
      else { continue }
      let text = String(decoding: data, as: UTF8.self)
      let hasAssertion =
        text.contains(MainThreadAssertion.message)
        || MainThreadAssertion.messages.contains { text.contains($0) }
      guard !hasAssertion else { continue }
      let fired = Doctor.diagnose(report).diagnoses.map(\.ruleID)
      #expect(!fired.contains(Self.ruleID), "\(path): the founding rule fired without the assertion text")
    }
  }
}
