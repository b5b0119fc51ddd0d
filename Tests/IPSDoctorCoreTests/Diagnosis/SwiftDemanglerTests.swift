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
