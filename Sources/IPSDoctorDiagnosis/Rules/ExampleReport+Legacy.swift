import IPSDoctorSupport

// The text builders the rule examples used before ``ExampleReport`` described reports by their
// parts. Removed once every rule's examples are migrated.
extension ExampleReport {
  /// An `.ips` file: the example header line followed by `body`.
  package static func ips(_ body: String, bugType: String = "309") -> String {
    header(bugType: bugType) + "\n" + body
  }

  /// The `usedImages` entry of the example app's executable (index 0 by convention in examples).
  package static let appImage =
    #"{"source":"P","arch":"arm64","base":4294967296,"size":1048576,"#
    + #""uuid":"8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B","#
    + #""path":"/private/var/containers/Bundle/Application/0C7E/Example.app/Example","name":"Example"}"#

  /// A system image entry for `name` (e.g. "UIKitCore") at a shared-cache path.
  package static func systemImage(_ name: String, base: UInt64 = 6_442_450_944) -> String {
    let path: String
    switch name {
    case "libobjc.A.dylib", "libc++abi.dylib", "libdispatch.dylib":
      path = "/usr/lib/" + name
    case _ where name.hasSuffix(".dylib"):
      path = "/usr/lib/system/" + name
    default:
      path = "/System/Library/PrivateFrameworks/\(name).framework/\(name)"
    }
    return #"{"source":"P","arch":"arm64e","base":\#(base),"size":65536,"#
      + #""uuid":"11111111-2222-3333-4444-555555555555","path":"\#(path)","name":"\#(name)"}"#
  }

  /// An `NSInternalInconsistencyException` with `reason`, thrown on `queue` (thread 1) by
  /// `assertion` in `framework` inside `-[UIView(Hierarchy) addSubview:]`, which the app's
  /// `appSymbol` (unsymbolicated when `nil`) called.
  package static func addSubviewOffMain(
    reason: String, queue: String, assertion: String, in framework: String, appSymbol: String?
  ) -> String {
    let symbol = appSymbol.map { #","symbol":"\#($0)""# } ?? ""
    return ips(
      """
      {"exception":{"type":"EXC_CRASH","signal":"SIGABRT"},
       "exceptionReason":{"name":"NSInternalInconsistencyException","type":"objc-exception","composed_message":"\(reason)"},
       "asi":{"libsystem_c.dylib":["abort() called"]},
       "faultingThread":1,
       "threads":[{"id":1,"queue":"com.apple.main-thread","frames":[]},
         {"id":2,"triggered":true,"queue":"\(queue)","frames":[{"imageIndex":1,"imageOffset":10,"symbol":"__pthread_kill"}]}],
       "lastExceptionBacktrace":[
         {"imageIndex":1,"imageOffset":100,"symbol":"objc_exception_throw"},
         {"imageIndex":2,"imageOffset":200,"symbol":"\(assertion)"},
         {"imageIndex":3,"imageOffset":300,"symbol":"-[UIView(Hierarchy) addSubview:]"},
         {"imageIndex":0,"imageOffset":4096\(symbol)}],
       "usedImages":[\(appImage),\(systemImage("libobjc.A.dylib")),
         \(systemImage(framework)),\(systemImage("UIKitCore"))]}
      """)
  }

  /// A Swift fatal error (`message` in `asi["libswiftCore.dylib"]`) on the main thread, raised by
  /// `frameworkSymbol` in `framework`, called by the app's `appSymbol`.
  package static func swiftFatalError(
    _ message: String, from frameworkSymbol: String, in framework: String, calledBy appSymbol: String
  ) -> String {
    ips(
      """
      {"exception":{"type":"EXC_BREAKPOINT","signal":"SIGTRAP"},
       "asi":{"libswiftCore.dylib":["\(message)"]},
       "faultingThread":0,
       "threads":[{"id":1,"triggered":true,"queue":"com.apple.main-thread","frames":[
         {"imageIndex":1,"imageOffset":100,"symbol":"_assertionFailure(_:_:file:line:flags:)"},
         {"imageIndex":2,"imageOffset":200,"symbol":"\(frameworkSymbol)"},
         {"imageIndex":0,"imageOffset":4096,"symbol":"\(appSymbol)"}]}],
       "usedImages":[\(ExampleReport.appImage),\(ExampleReport.systemImage("libswiftCore.dylib")),
         \(ExampleReport.systemImage(framework))]}
      """)
  }
}
