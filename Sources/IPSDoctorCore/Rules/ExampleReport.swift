/// Builders for the minimal reports in rule examples.
public enum ExampleReport {
  /// A one-line `.ips` header for an example app.
  public static func header(bugType: String = "309") -> String {
    #"{"app_name":"Example","app_version":"1.0","build_version":"1","bundleID":"com.example.app","#
      + #""bug_type":"\#(bugType)","os_version":"iPhone OS 26.6 (23G80)","platform":2,"#
      + #""name":"Example","incident_id":"00000000-0000-4000-8000-000000000001"}"#
  }

  /// An `.ips` file: the example header line followed by `body`.
  public static func ips(_ body: String, bugType: String = "309") -> String {
    header(bugType: bugType) + "\n" + body
  }

  /// The `usedImages` entry of the example app's executable (index 0 by convention in examples).
  public static let appImage =
    #"{"source":"P","arch":"arm64","base":4294967296,"size":1048576,"#
    + #""uuid":"8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B","#
    + #""path":"/private/var/containers/Bundle/Application/0C7E/Example.app/Example","name":"Example"}"#

  /// A system image entry for `name` (e.g. "UIKitCore") at a shared-cache path.
  public static func systemImage(_ name: String, base: UInt64 = 6_442_450_944) -> String {
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
}
