import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Which images are the app's, from their paths, names and sources.
@Suite("App images: paths, names and sources")
struct AppImagePathTests {
  @Test(
    "An image path's kind: the OS's, an app bundle's, or neither",
    arguments: [
      ("", .other), ("/", .other), ("/System", .system), ("/System/", .system), ("/SystemX/a", .system),
      ("/Syste", .other), ("/usr/lib/", .system), ("/usr/lib", .other), ("/usr/libexec/x", .system),
      ("/Library/Apple/x", .system), ("/sbin/launchd", .system), ("/bin/sh", .system),
      ("/private/var/containers/Bundle/Application/A/B.app/B", .app), ("/var/containers/Bundle/Application/A/B", .app),
      ("/Users/me/Developer/CoreSimulator/x", .app), ("/Applications/My.app", .app), ("/Applications/My.app/", .app),
      ("/Applications/My.app/Contents/MacOS/My", .app), (".app", .app), ("app", .other), ("/opt/x.appx", .other),
      ("/Volumes/X/My.App/x", .other), ("/usr/local/lib/libfoo.dylib", .other),
      ("/System/Library/Frameworks/UIKit.framework/UIKit", .system),
      // A combining mark joins the character before it, which then no longer matches a marker's.
      ("\u{301}/System/Library/x", .other), ("/Sys\u{301}tem/x", .other), ("/System\u{301}/x", .other),
      ("/usr/lib/\u{301}x", .other), ("/Applications/My.app\u{301}", .other),
      ("/Applications/My.app/\u{301}x", .other), ("/Users/me/Developer/Core\u{338}Simulator/x", .other),
      ("/Users/me/Developer/CoreSimulator/x\u{338}", .app), ("/System/e\u{301}", .system),
      // A CR LF pair is one character of its own; a lone CR or LF too.
      ("/Applications/My.app/\r\n", .app), ("/Applications/My.app\r\n", .other), ("/Applications/My.app\n", .other),
      ("/bin/sh\r\n", .system), ("\r\n/bin/sh", .other), ("/var/containers/Bundle/Application/A/B\r", .app),
      ("\n.app", .app),
      // Other text that is not ASCII: the Kelvin sign, precomposed letters.
      ("\u{212A}/System/x", .other), ("/System/x\u{212A}", .system), ("é/System/", .other), ("/System/é", .system),
      ("ü.app", .app), ("/Applications/Mü.app/x", .app),
    ] as [(String, BinaryImage.PathKind)])
  func pathKind(path: String, expected: BinaryImage.PathKind) {
    #expect(BinaryImage.pathKind(path) == expected)
  }

  @Test(
    "An image is the app's by its name, path and source",
    arguments: [
      // Swift runtime libraries an old app embedded are Apple's, wherever they are.
      (
        "libswiftCore.dylib", "/private/var/containers/Bundle/Application/A/B.app/Frameworks/libswiftCore.dylib", "P",
        false
      ),
      ("libswiftFoundation.dylib", nil, "P", false),
      // Names that only look like one: a combining mark, a CR LF, another letter or case.
      ("libswiftCore.dylib\u{301}", nil, "P", true), ("libswiftCore.dylib\r\n", nil, "P", true),
      ("\u{301}libswiftCore.dylib", nil, "P", true), ("libSwiftCore.dylib", nil, "P", true),
      ("ḷibswift.dylib", nil, "P", true), ("libswift", nil, "P", true),
      // Without a path: a named image of the process's own.
      (nil, nil, "P", false), ("", nil, "P", true), ("MyApp", nil, "S", false), ("MyApp", nil, nil, false),
      ("MyApp", nil, "", false),
      // The path's kind decides, whatever the source; else the source.
      ("MyApp", "/System/Library/Frameworks/UIKit.framework/UIKit", "P", false),
      ("MyApp", "/Applications/My.app/My", "S", true), (nil, "/opt/x", "P", true), ("MyApp", "/opt/x", "S", false),
      ("MyApp", "/opt/x", "C", false), ("MyApp", "/opt/x", "K", false), ("MyApp", "/opt/x", "A", true),
      ("MyApp", "/opt/x", nil, true), ("MyApp", "/opt/x", "", true),
    ] as [(String?, String?, String?, Bool)])
  func isAppImage(name: String?, path: String?, source: String?, expected: Bool) {
    var image = BinaryImage(name: name, path: path)
    image.source = source
    #expect(image.isAppImage == expected)
  }
}
