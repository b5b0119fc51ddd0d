import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

/// One crash, one group: the same crash in any spelling shares a signature, and different crashes
/// never do.
@Suite struct CrashGroupingTests {
  static func signature(_ path: String) throws -> CrashSignature {
    let report = try ReportReader.read(try Fixtures.bytes(path))
    return Doctor.diagnose(report).signature
  }

  /// The founding crash's fixtures hold three crashes: `PushNotificationDelegate`'s in six
  /// spellings (simplified, full and mangled symbols, `.ips` and `.crash`, with and without the
  /// reason or the exception's name in it), `AppDelegate`'s, and an unsymbolicated one, twice.
  @Test func theFoundingFixturesMakeThreeGroups() throws {
    let push = [
      "reports/async-bridge-didreceive-simplified-symbols.ips",
      "reports/async-bridge-didreceive-full-demangled.ips",
      "reports/async-bridge-didreceive-mangled.ips",
      "reports/async-bridge-didreceive-legacy.crash",
      "reports/async-bridge-didreceive-no-reason.ips",
      "reports/async-bridge-didreceive-reason-in-asi-only.ips",
    ]
    let unsymbolicated = [
      "reports/async-bridge-didreceive-unsymbolicated.ips",
      "reports/async-bridge-didreceive-legacy-unsymbolicated-leb.crash",
    ]
    let pushIDs = Set(try push.map { try Self.signature($0).id })
    let unsymbolicatedIDs = Set(try unsymbolicated.map { try Self.signature($0).id })
    let appDelegate = try Self.signature("reports/async-bridge-didreceive-mangled-appdelegate.ips").id
    #expect(pushIDs.count == 1)
    #expect(unsymbolicatedIDs.count == 1)
    #expect(Set([pushIDs.first, unsymbolicatedIDs.first, appDelegate]).count == 3)
    // Other delegate methods with the same rule are other crashes.
    let others = try [
      "reports/async-bridge-remote-notification.ips", "reports/async-bridge-webview-decide-policy.ips",
      "reports/async-bridge-willpresent.ips",
    ].map { try Self.signature($0).id }
    #expect(Set(others + [pushIDs.first!]).count == 4)
  }

  @Test(arguments: [
    (
      "@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)",
      "@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)"
    ),
    (
      "(1) await resume partial function for @objc closure #1 () async -> () in ChatApp.PushNotificationDelegate.userNotificationCenter(_: __C.UNUserNotificationCenter, didReceive: __C.UNNotificationResponse) async -> ()",
      "@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)"
    ),
    (
      "(2) suspend resume partial function for closure #3 @Sendable () -> () in App.Model.load()",
      "closure #3 in Model.load()"
    ),
    ("specialized App.Cache.value<A>(for: A) throws -> A?", "Cache.value(for:)"),
    ("Cache.value(for:)", "Cache.value(for:)"),
    ("static App.Router.open(Swift.String, animated: Swift.Bool) -> ()", "static Router.open(_:animated:)"),
    ("static Router.open(_:animated:)", "static Router.open(_:animated:)"),
    ("App.Settings.theme.getter : App.Theme", "theme.getter"),
    ("Settings.theme.getter", "theme.getter"),
    ("-[Crasher doAbort]", "-[Crasher doAbort]"),
    ("_dispatch_main_queue_drain.cold.5", "_dispatch_main_queue_drain.cold.5"),
    (
      "swift_job_runImpl(swift::Job*, swift::SerialExecutorRef)",
      "swift_job_runImpl(swift::Job*, swift::SerialExecutorRef)"
    ),
    ("static AppDelegate.$main()", "static AppDelegate.$main()"),
    ("static App.AppDelegate.$main() -> ()", "static AppDelegate.$main()"),
    ("__pthread_kill", "__pthread_kill"),
    // Nested generic clauses and a closure in a generic function, one entity after another.
    (
      "closure #2 (Swift.Array<Swift.Dictionary<Swift.String, Swift.Int>>) -> () in App.Store.merge<A>(A, into: inout [A]) -> ()",
      "closure #2 in Store.merge(_:into:)"
    ),
    ("partial apply for thunk for @escaping @callee_guaranteed () -> ()", "@escaping @callee_guaranteed ()"),
    // Labels of parameters whose types hold commas and colons.
    ("App.Grid.place(at: (x: Swift.Int, y: Swift.Int), in: [Swift.String : Swift.Int]) -> ()", "Grid.place(at:in:)"),
    // Bytes that are not ASCII pass through.
    ("App.Café.crème(_: Swift.String) -> ()", "Café.crème(_:)"),
    // A comma without a space after it is not the full form's.
    ("objc_msgSend(id,sel)", "objc_msgSend(id,sel)"),
  ])
  func oneSpellingPerFunction(name: String, expected: String) {
    #expect(SignatureFrame.canonical(name) == expected)
  }

  /// A baseline written before signature version 2 still knows its crashes.
  @Test func aVersion1BaselineStillMatches() throws {
    let old = """
      {"schemaVersion": 1, "tool": "ips-doctor", "signatures": [{"id": "b325c4ffd2cd1004",
        "rule": "async-bridge-completion-off-main", "title": "t", "count": 1, "components": [
        "rule:async-bridge-completion-off-main",
        "reason:NSInternalInconsistencyException: Call must be made on main thread",
        "frame:(1) await resume partial function for @objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)"]}]}
      """
    let baseline = try Baseline.parse(Array(old.utf8))
    let current = try Self.signature("reports/async-bridge-didreceive-simplified-symbols.ips")
    #expect(baseline.ids == [current.id])
    // Written again, it says which version made its ids, and reads back unchanged.
    let rewritten = JSONWriter.string(baseline.json)
    #expect(rewritten.contains("\"signatureVersion\""))
    #expect(try Baseline.parse(Array(rewritten.utf8)).ids == [current.id])
  }

  /// Whether two labels (`|`-separated accepted rule-id prefixes) can name one cause: they share a
  /// prefix, or neither names a cause (inconclusive, not a crash report).
  static func sameCause(_ first: String, _ second: String) -> Bool {
    let noCause: Set<Substring> = ["inconclusive", "not-a-crash-report"]
    let a = Set(first.split(separator: "|")), b = Set(second.split(separator: "|"))
    if a.isSubset(of: noCause) || b.isSubset(of: noCause) {
      return !a.isDisjoint(with: noCause) && !b.isDisjoint(with: noCause)
    }
    return a.contains { x in b.contains { y in x.hasPrefix(y) || y.hasPrefix(x) } }
  }

  /// Over the labelled shared corpora, reports whose expert-labelled causes differ never share a
  /// group, and the number of groups is printed against the number of reports.
  @Test func differentCausesNeverShareAGroup() throws {
    guard let shared = Fixtures.shared else { return }
    var groups: [String: (label: String, file: String)] = [:]
    var reports = 0
    for corpus in ["corpus", "corpus-peers"] {
      let base = shared.appendingPathComponent(corpus)
      let manifest = corpus == "corpus" ? "EXPECTED.tsv" : "MANIFEST.tsv"
      guard let text = try? String(contentsOf: base.appendingPathComponent(manifest), encoding: .utf8)
      else { continue }
      let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
      guard let header = lines.first, let fileColumn = header.firstIndex(of: "file"),
        let labelColumn = header.firstIndex(of: "expected")
      else { continue }
      for row in lines.dropFirst() where row.count > max(fileColumn, labelColumn) {
        let file = String(row[fileColumn])
        guard let bytes = try? [UInt8](Data(contentsOf: base.appendingPathComponent(file))),
          let report = try? ReportReader.read(bytes)
        else { continue }
        reports += 1
        let id = Doctor.diagnose(report).signature.id
        let label = String(row[labelColumn])
        if let other = groups[id] {
          #expect(
            Self.sameCause(other.label, label), "\(file) (\(label)) groups with \(other.file) (\(other.label))")
        } else {
          groups[id] = (label, file)
        }
      }
    }
    print("crash groups over the shared corpora: \(groups.count) for \(reports) reports")
    #expect(groups.count * 10 >= reports * 8, "groups collapsed: \(groups.count) for \(reports) reports")
  }
}
