import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Which images are the app's, decided from the report: the process's own bundle, never Apple's
/// code wherever it is installed.
@Suite("App images")
struct AppImageTests {
  static let simulatorApp =
    "/Users/dev/Library/Developer/CoreSimulator/Devices/1E74D418/data/Containers/Bundle/Application/4FEB872A/Transit.app/Transit"

  @Test("Apple's code in simulator runtimes, Xcode, cryptexes and redacted volumes is not the app's")
  func applePaths() {
    for path in [
      "/Library/Developer/CoreSimulator/Volumes/iOS_22C150/Library/Developer/CoreSimulator/Profiles/Runtimes/iOS 18.2.simruntime/Contents/Resources/RuntimeRoot/usr/lib/libc++.1.dylib",
      "/Volumes/VOLUME/*/iOS.simruntime/Contents/Resources/RuntimeRoot/System/Library/Frameworks/UIKit.framework/UIKit",
      "/Applications/Xcode-16.2.0.app/Contents/Developer/Platforms/iPhoneSimulator.platform/Developer/Library/Frameworks/XCTest.framework/XCTest",
      "/System/Cryptexes/OS/System/Library/Frameworks/WebKit.framework/WebKit",
      "/Users/dev/Library/Developer/CoreSimulator/Profiles/Runtimes/iOS 18.2.simruntime/Contents/Resources/RuntimeRoot/usr/lib/libobjc.A.dylib",
      "/private/preboot/Cryptexes/OS/usr/lib/libSystem.B.dylib",
    ] {
      #expect(BinaryImage.pathKind(path) == .system, "\(path)")
      #expect(
        !BinaryImage.isAppImage(
          name: "x", path: path, source: "P", bundle: BinaryImage.appBundle(ofProcessPath: Self.simulatorApp)),
        "\(path)")
    }
  }

  @Test("The app's executable, its debug dylib and its frameworks are the app's")
  func bundleImages() {
    #expect(BinaryImage.bundleComponent(ofProcessPath: Self.simulatorApp) == "/Transit.app/")
    let bundle = BinaryImage.appBundle(ofProcessPath: Self.simulatorApp)
    for path in [
      Self.simulatorApp, Self.simulatorApp + ".debug.dylib",
      "/Users/dev/Library/Developer/CoreSimulator/Devices/1E74D418/data/Containers/Bundle/Application/4FEB872A/Transit.app/Frameworks/Core.framework/Core",
    ] {
      #expect(BinaryImage.isAppImage(name: "x", path: path, source: "P", bundle: bundle), "\(path)")
    }
    // Spelled without "/private" or redacted, the bundle is still the app's.
    let device = BinaryImage.appBundle(
      ofProcessPath: "/private/var/containers/Bundle/Application/0C7E/Example.app/Example")
    #expect(
      BinaryImage.isAppImage(
        name: "x", path: "/var/containers/Bundle/Application/0C7E/Example.app/Frameworks/A.framework/A", source: "P",
        bundle: device))
    #expect(BinaryImage.isAppImage(name: "x", path: "Example.app/Example.debug.dylib", source: "P", bundle: device))
    // Another app's bundle is not this app's.
    #expect(
      !BinaryImage.isAppImage(
        name: "x", path: "/Applications/Other.app/Contents/Frameworks/O.framework/O", source: "P", bundle: bundle))
    // An extension runs inside its app's bundle.
    #expect(
      BinaryImage.bundleComponent(
        ofProcessPath: "/private/var/containers/Bundle/Application/0C7E/Example.app/PlugIns/Share.appex/Share")
        == "/Example.app/")
    #expect(BinaryImage.bundleComponent(ofProcessPath: "/usr/local/bin/tool") == nil)
  }
}
