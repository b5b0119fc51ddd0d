import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The byte-level shortcuts of the "legacy" speed round against the `String` code they replace.
@Suite("Legacy round: byte tests match String tests")
struct LegacyRoundTests {
  /// `isAppImage` as it was before the byte tests: the reference.
  static func referenceIsAppImage(_ image: BinaryImage) -> Bool {
    if let name = image.name, name.hasPrefix("libswift") && name.hasSuffix(".dylib") { return false }
    guard let path = image.path else { return image.source == "P" && image.name != nil }
    if path.hasPrefix("/System/") || path.hasPrefix("/usr/lib/") || path.hasPrefix("/usr/libexec/")
      || path.hasPrefix("/Library/Apple/") || path.hasPrefix("/sbin/") || path.hasPrefix("/bin/")
    {
      return false
    }
    if path.hasPrefix("/private/var/containers/Bundle/Application/")
      || path.hasPrefix("/var/containers/Bundle/Application/") || path.contains(".app/")
      || path.hasSuffix(".app") || path.contains("/Developer/CoreSimulator/")
    {
      return true
    }
    return !path.hasPrefix("/System") && image.source != "S" && image.source != "C" && image.source != "K"
  }

  static let pathStems = [
    "", "/", "/System", "/System/", "/SystemX/a", "/Syste", "/usr/lib/", "/usr/lib", "/usr/libexec/x",
    "/Library/Apple/x", "/sbin/launchd", "/bin/sh", "/private/var/containers/Bundle/Application/A/B.app/B",
    "/var/containers/Bundle/Application/A/B", "/Users/me/Developer/CoreSimulator/x", "/Applications/My.app",
    "/Applications/My.app/", "/Applications/My.app/Contents/MacOS/My", ".app", "app", "/opt/x.appx",
    "/Volumes/X/My.App/x", "/usr/local/lib/libfoo.dylib", "/System/Library/Frameworks/UIKit.framework/UIKit",
  ]
  /// Non-ASCII and awkward pieces: combining marks that join the previous character, the Kelvin
  /// sign (canonically "K"), a precomposed letter, "\r\n", and a lone CR or LF.
  static let oddPieces = ["", "\u{301}", "\u{212A}", "é", "e\u{301}", "\r\n", "\r", "\n", "ü", "/", "\u{0338}"]

  static var paths: [String] {
    var paths: [String] = []
    for stem in pathStems {
      paths.append(stem)
      for piece in oddPieces {
        paths.append(piece + stem)
        paths.append(stem + piece)
        if stem.count > 2 {
          let middle = stem.index(stem.startIndex, offsetBy: stem.count / 2)
          paths.append(String(stem[..<middle]) + piece + String(stem[middle...]))
        }
      }
    }
    return paths
  }

  @Test func pathKindMatchesTheStringTests() {
    var byteDecided = 0
    for path in Self.paths {
      #expect(BinaryImage.pathKind(path) == BinaryImage.pathKindByCharacters(path), "\(path.debugDescription)")
      if path.utf8.allSatisfy({ $0 < 0x80 }) { byteDecided += 1 }
    }
    #expect(byteDecided > 50)
  }

  @Test func isAppImageMatchesTheReference() {
    let names: [String?] = [
      nil, "", "libswiftCore.dylib", "libswiftCore.dylib\u{301}", "libswift", "l", "\u{301}libswiftCore.dylib",
      "libswiftFoundation.dylib", "libSwiftCore.dylib", "MyApp", "ḷibswift.dylib", "libswiftCore.dylib\r\n",
    ]
    let sources: [String?] = [nil, "P", "S", "C", "K", "A", ""]
    for path in [nil] + Self.paths {
      for name in names {
        for source in sources {
          var image = BinaryImage(name: name, path: path)
          image.source = source
          #expect(image.isAppImage == Self.referenceIsAppImage(image), "\(String(describing: image))")
        }
      }
    }
  }
}
