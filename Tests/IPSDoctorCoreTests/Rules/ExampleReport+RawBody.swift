@testable import IPSDoctorDiagnosis

/// Reports whose body ``ExampleReport`` cannot describe, for the robustness tests: values of the
/// wrong type, hostile text, sizes at the limits. Rule examples use the builder instead.
extension ExampleReport {
  /// An `.ips` file: the example header line followed by `body`.
  static func ips(_ body: String, bugType: String = "309") -> String {
    header(bugType: bugType) + "\n" + body
  }

  /// The `usedImages` entry of the example app's executable (index 0 by convention).
  static let appImage =
    #"{"source":"P","arch":"arm64","base":4294967296,"size":1048576,"#
    + #""uuid":"8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B","#
    + #""path":"/private/var/containers/Bundle/Application/0C7E/Example.app/Example","name":"Example"}"#

  /// A system image entry for `name` (e.g. "UIKitCore") at a shared-cache path.
  static func systemImage(_ name: String, base: UInt64 = 6_442_450_944) -> String {
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
