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

  /// The founding crash's fixtures hold two crashes: `PushNotificationDelegate`'s in eight
  /// spellings (simplified, full and mangled symbols, `.ips` and `.crash`, with and without the
  /// reason or the exception's name in it, unsymbolicated), and `AppDelegate`'s. Symbolicated or
  /// not, a crash is one group: the unsymbolicated copies share the symbolicated ones' images and
  /// offsets, and the symbolicated ones of another build share their names.
  @Test func theFoundingFixturesMakeTwoGroups() throws {
    let push = [
      "reports/async-bridge-didreceive-simplified-symbols.ips",
      "reports/async-bridge-didreceive-full-demangled.ips",
      "reports/async-bridge-didreceive-mangled.ips",
      "reports/async-bridge-didreceive-legacy.crash",
      "reports/async-bridge-didreceive-no-reason.ips",
      "reports/async-bridge-didreceive-reason-in-asi-only.ips",
      "reports/async-bridge-didreceive-unsymbolicated.ips",
      "reports/async-bridge-didreceive-legacy-unsymbolicated-leb.crash",
    ]
    let appDelegate = "reports/async-bridge-didreceive-mangled-appdelegate.ips"
    var batch = CrashGroups()
    for (index, path) in (push + [appDelegate]).enumerated() {
      batch.add(
        ReportOutcome.diagnose(
          bytes: try Fixtures.bytes(path), index: index, path: path, options: Options(), baseline: nil))
    }
    #expect(batch.sorted.map(\.count) == [8, 1])
    #expect(batch.sorted.last?.examples == [appDelegate])
    // Other delegate methods with the same rule are other crashes.
    let others = try [
      "reports/async-bridge-remote-notification.ips", "reports/async-bridge-webview-decide-policy.ips",
      "reports/async-bridge-willpresent.ips",
    ].map { try Self.signature($0).ids }
    let pushIDs = Set(try push.flatMap { try Self.signature($0).ids })
    #expect(Set(others.flatMap { $0 }).isDisjoint(with: pushIDs))
    #expect(Set(others.map { $0[0] }).count == 3)
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
    ("App.Settings.theme.getter : App.Theme", "Settings.theme.getter"),
    ("Settings.theme.getter", "Settings.theme.getter"),
    // Two types' properties of one name are two functions.
    ("App.ContentView.body.getter : some", "ContentView.body.getter"),
    ("SettingsView.body.getter", "SettingsView.body.getter"),
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
    // An Objective-C method inside a longer C++ name is kept whole.
    (
      "Logos hook for -[UIWindow(_ungrouped) setFrame:](UIWindow*, objc_selector*, CGRect)",
      "Logos hook for -[UIWindow(_ungrouped) setFrame:](UIWindow*, objc_selector*, CGRect)"
    ),
  ])
  func oneSpellingPerFunction(name: String, expected: String) {
    #expect(SignatureFrame.canonical(name) == expected)
  }

  /// What symbolicators write after a name, and a Rust hash, are not part of the function's key;
  /// a folded function's placeholder is no name.
  @Test(arguments: [
    (
      "specialized static CrashClass.pleaseCrash() (in iOSCrashingTest) (ViewController.swift:17)",
      "static CrashClass.pleaseCrash()"
    ),
    ("-[MyClass crashingMethod] (in CrashingTest) (main.m:21)", "-[MyClass crashingMethod]"),
    ("-[MyClass crashingMethod] (in CrashingTest) + 37", "-[MyClass crashingMethod]"),
    ("main + 0x10", "main"),
    ("closure #1 in Model.load() (Model.swift:12:7) [inlined]", "closure #1 in Model.load()"),
    ("app::parse::h0123456789abcdef", "app::parse"),
    ("app::parse::h0123456789abcdeg", "app::parse::h0123456789abcdeg"),
    ("operator+(Money, Money)", "operator+(_:_:)"),
    ("-[View layout:(in)]", "-[View layout:(in)]"),
    ("Cache.evict() + 0xa4", "Cache.evict()"),
    ("Cache.evict() + 12 + 4", "Cache.evict()"),
    ("Cache.add(_:) +12", "Cache.add(_:) +12"),
    ("Cache.add(_:) + 0x", "Cache.add(_:) + 0x"),
    ("Cache.add(_:) + 12a", "Cache.add(_:) + 12a"),
    ("Cache.add(_:) + 0xg1", "Cache.add(_:) + 0xg1"),
    ("+ 12", "+ 12"),
    ("naïve_café + 8", "naïve_café"),
    ("Model.save() (Model.swift:12)", "Model.save()"),
    ("Model.save() (in )", "Model.save() (in )"),
    ("Model.save()(in App)", "Model.save()(in App)"),
  ])
  func atosAndRustSpellingsKeyAsOne(name: String, expected: String) {
    #expect(SignatureFrame.key(name) == expected)
  }

  @Test func aDeduplicatedSymbolIsNoName() {
    #expect(SignatureFrame.key("<deduplicated_symbol>") == nil)
    #expect(SignatureFrame.key("<deduplicated_symbol> + 12") == nil)
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
    #expect(baseline.ids == [try #require(current.symbolID)])
    #expect(baseline.known.knows(current))
    // Written again, it says which version made its ids, and reads back unchanged.
    let rewritten = JSONWriter.string(baseline.json)
    #expect(rewritten.contains("\"signatureVersion\""))
    #expect(try Baseline.parse(Array(rewritten.utf8)).known.knows(current))
  }

  /// A baseline written by signature version 2 (by ips-doctor before this version, from one
  /// symbolicated and one unsymbolicated report) still knows both crashes, in either spelling, and
  /// keeps knowing them once written again.
  @Test func aVersion2BaselineStillMatches() throws {
    let old = """
      {"schemaVersion": 1, "signatureVersion": 2, "tool": "ips-doctor", "signatures": [
        {"id": "631d423fe667dfc4", "rule": "async-bridge-completion-off-main", "title": "t", "count": 1,
         "components": ["rule:async-bridge-completion-off-main",
           "frame:@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)"]},
        {"id": "c7c493dc703b47fb", "rule": "async-bridge-completion-off-main", "title": "t", "count": 1,
         "components": ["rule:async-bridge-completion-off-main", "frame:ChatApp+0x3e628"]}]}
      """
    let symbolicated = try Self.signature("reports/async-bridge-didreceive-simplified-symbols.ips")
    let unsymbolicated = try Self.signature("reports/async-bridge-didreceive-unsymbolicated.ips")
    // This version keys the unsymbolicated frame with its image's UUID: another id.
    #expect(!unsymbolicated.ids.contains("c7c493dc703b47fb"))
    var baseline = try Baseline.parse(Array(old.utf8))
    #expect(baseline.known.knows(symbolicated))
    #expect(baseline.known.knows(unsymbolicated))
    let rewritten = try Baseline.parse(Array(JSONWriter.string(baseline.json).utf8))
    #expect(rewritten.known.knows(unsymbolicated))
    #expect(rewritten.entries["c7c493dc703b47fb"]?.signatureVersion == 2)
    // The same frame offset in another build (another UUID) is not the version 2 entry's crash
    // once the baseline is rewritten from this run: entries of this version carry the UUID.
    var groups = CrashGroups()
    groups.add(
      ReportOutcome.diagnose(
        bytes: try Fixtures.bytes("reports/async-bridge-didreceive-unsymbolicated.ips"), index: 0, path: "a.ips",
        options: Options(), baseline: nil))
    baseline = Baseline()
    baseline.merge(groups.sorted)
    let otherBuild = CrashSignature(
      components: unsymbolicated.components.map { $0.replacingOccurrences(of: "@", with: "@F") })
    #expect(baseline.known.knows(unsymbolicated))
    #expect(!baseline.known.knows(otherBuild))
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
