import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

@Suite("Swift demangler")
struct SwiftDemanglerTests {
  @Test("Recognises mangled prefixes")
  func prefixes() {
    #expect(SwiftDemangler.isMangled("$s7ChatApp3FooC"))
    #expect(SwiftDemangler.isMangled("_$s7ChatApp3FooC"))
    #expect(SwiftDemangler.isMangled("$S7ChatApp3FooC"))
    #expect(SwiftDemangler.isMangled("_T07ChatApp3FooC"))
    #expect(!SwiftDemangler.isMangled("-[UIApplication sendEvent:]"))
    #expect(!SwiftDemangler.isMangled("closure #1 in Foo.bar()"))
  }

  @Test("Demangles the async bridge closure in full and simplified style")
  func bridge() throws {
    let symbol = SymbolName(
      "$s7ChatApp24PushNotificationDelegateC04userD6Center_10didReceiveySo06UNUserdG0C_So22UNNotificationResponseCtYaFyyYacfU_ToTQ0_"
    )
    let full = try #require(symbol.full)
    #expect(full.contains("@objc closure #1"))
    #expect(full.contains("ChatApp.PushNotificationDelegate.userNotificationCenter("))
    #expect(
      symbol.simplified
        == "(1) await resume partial function for @objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)"
    )
    let leading = SymbolName(
      "_$s7ChatApp0B8DelegateC22userNotificationCenter_10didReceiveySo06UNUsereF0C_So22UNNotificationResponseCtYaFyyYacfU_ToTQ0_"
    )
    #expect(
      leading.simplified?.hasSuffix("@objc closure #1 in AppDelegate.userNotificationCenter(_:didReceive:)") == true)
  }

  @Test("Simplifies a full demangled name")
  func simplify() {
    #expect(
      SwiftDemangler.simplify(
        "(1) await resume partial function for @objc closure #1 () async -> () in ChatApp.PushNotificationDelegate.userNotificationCenter(_: __C.UNUserNotificationCenter, didReceive: __C.UNNotificationResponse) async -> ()"
      )
        == "(1) await resume partial function for @objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)"
    )
    #expect(
      SwiftDemangler.simplify("ChatApp.Store.load(from: Swift.String) throws -> ChatApp.Model") == "Store.load(from:)")
    #expect(SwiftDemangler.simplify("ChatApp.Store.reset() -> ()") == "Store.reset()")
  }

  /// Full demangled names (as `swift demangle` prints them, and malformed ones) and their
  /// simplified entity: modules dropped to `Type.member`, call arguments to their labels, the
  /// signature after a call's arguments dropped; other parentheses are kept as they are.
  static let simplifiedEntities: [(full: String, simplified: String)] = [
    (
      "ChatApp.PushNotificationDelegate.userNotificationCenter(_: __C.UNUserNotificationCenter, didReceive: __C.UNNotificationResponse) async -> ()",
      "PushNotificationDelegate.userNotificationCenter(_:didReceive:)"
    ),
    (
      "closure #1 (Swift.Int) -> Swift.Bool in App.Model.filter(items: [App.Item], where: (App.Item) throws -> Swift.Bool) throws -> [App.Item]",
      "closure #1 (Swift.Int) -> Swift.Bool in Model.filter(items:where:)"
    ),
    (
      "generic specialization <Swift.Int> of Swift.Array.append(__owned A) -> ()",
      "generic specialization <Swift.Int> of Array.append(_:)"
    ),
    (
      "partial apply for thunk for @escaping @callee_guaranteed (@guaranteed Swift.String) -> (@error @owned Swift.Error)",
      "partial apply for thunk for @escaping @callee_guaranteed (@guaranteed Swift.String) -> (@error @owned Swift.Error)"
    ),
    // Arguments after a generic parameter list are not a call's: they stay as written.
    (
      "merged Module.Type.method<A where A: Swift.Hashable>(x: A, y: Swift.Dictionary<A, Swift.Int>) -> Swift.Optional<A>",
      "merged Type.method<A where A: Swift.Hashable>(x: A, y: Swift.Dictionary<A, Swift.Int>) -> Swift.Optional<A>"
    ),
    (
      "M.f(_: (Swift.Int, Swift.Int) -> (), g: [Swift.Int: [Swift.String]]) -> (Swift.Int) -> Swift.String",
      "M.f(_:g:)"
    ),
    ("App.T.subscript.getter : (Swift.Int) -> Swift.String", "subscript.getter : (Swift.Int) -> Swift.String"),
    ("(extension in Foo):Bar.Baz.qux() -> ()", "(extension in Foo):Bar.Baz.qux()"),
    ("x.y(z: w) async throws -> Swift.Result<Swift.Int, Swift.Error>", "x.y(z:)"),
    ("x(a: (b) -> c) -> (d) async -> e", "x(a:)"),
    ("M.T.f(x: [A.B]) -> <A>", "T.f(x:)"),
    ("M.T.f(x: A) -> Swift.Result<(A) -> B, C> rest", "T.f(x:) rest"),
    ("M.T.f(x: A) -> A.B.C.D rest.of.it", "T.f(x:) of.it"),
    ("outlined copy of App.Enum", "outlined copy of App.Enum"),
    ("Module.A.B.C.D.e(f:)", "D.e(f:)"),
    ("f(a, (b, c), d: e)", "f(_:_:d:)"),
    ("M.f(a:\tB,\n c: D)", "M.f(a:c:)"),
    ("M.f( , ,)", "M.f()"),
    ("a(b)c(d)", "a(_:)c(_:)"),
    ("_.f(a: b)", "_.f(a:)"),
    ("9.f(a: b)", "9.f(a:)"),
    ("f()", "f()"),
    // A name with an empty component keeps its modules.
    ("a..b.c", "a..b.c"), (".a.b.c", ".a.b.c"), ("a.b.c.", "a.b.c."),
    // Unbalanced and bare parentheses: the text from an unmatched "(" is kept.
    ("x.y.z (unbalanced", "y.z (unbalanced"), ("A.B.C(", "B.C("), ("(((x)))", "(((x)))"),
    ("", ""), ("(", "("), (")", ")"),
    // A non-ASCII character is part of a name; CR and LF separate nothing.
    ("M.T.\u{E9}(a: b)", "T.\u{E9}(a:)"),
    ("M.T.f(a: b)\r\nM.T.g(c: d)", "T.f(a:)\r\nM.T.g(c:)"),
  ]

  @Test("Simplifies a full demangled entity name", arguments: simplifiedEntities)
  func simplifyEntity(_ row: (full: String, simplified: String)) {
    #expect(SwiftDemangler.simplifyEntity(row.full) == row.simplified)
  }

  @Test("Turns an argument list into its labels")
  func labels() {
    let table: [(arguments: Substring, labels: String)] = [
      ("_: __C.UNUserNotificationCenter, didReceive: __C.UNNotificationResponse", "_:didReceive:"),
      // The ">" of an arrow closes no bracket.
      ("x: (A, B) -> C, y: [K: V], z: Set<A>", "x:y:z:"),
      ("completion: @escaping (Swift.Bool) -> (), queue: __C.OS_dispatch_queue", "completion:queue:"),
      ("a, b", "_:_:"),
      ("", ""),
      // CRs and LFs are trimmed like spaces and tabs.
      (" \r\n , c: D", "c:"),
      ("\tfirst: A\n", "first:"),
    ]
    for row in table {
      #expect(SwiftDemangler.labels(of: row.arguments) == row.labels, "\(row.arguments.debugDescription)")
    }
  }

  @Test("Leaves unmangled and malformed symbols alone")
  func passthrough() {
    #expect(SymbolName("objc_msgSend").full == nil)
    #expect(SymbolName("$sGARBAGE!!").full == nil || SymbolName("$sGARBAGE!!").simplified != nil)
  }

  @Test("Frames resolve their image and carry the raw and demangled symbol")
  func frames() throws {
    let report = try ReportReader.read(try Fixtures.bytes("reports/async-bridge-didreceive-mangled.ips"))
    let frame = try #require(report.lastExceptionBacktrace?.first { $0.symbol?.hasPrefix("$s") == true })
    #expect(frame.imageName == "ChatApp")
    let image = try #require(report.image(at: frame.imageIndex))
    #expect(frame.address == image.base! + frame.imageOffset!)
    #expect(frame.symbolName?.raw == frame.symbol)
    #expect(
      frame.symbolName?.simplified?.contains(
        "@objc closure #1 in PushNotificationDelegate.userNotificationCenter(_:didReceive:)") == true)
    #expect(frame.symbolName?.full?.contains("ChatApp.PushNotificationDelegate") == true)
    #expect(Frame(symbol: "???").symbolName == nil)
  }
}
