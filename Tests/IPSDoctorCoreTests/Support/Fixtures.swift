import Foundation

/// Locates the repository's `Fixtures/` folder and the optional shared material beside the checkout.
enum Fixtures {
  /// The repository root, found from this file's path (Tests/IPSDoctorCoreTests/Support/…).
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let directory = root.appendingPathComponent("Fixtures")

  static func url(_ relativePath: String) -> URL {
    directory.appendingPathComponent(relativePath)
  }

  static func bytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url(relativePath)))
  }

  /// Files in a fixture folder, sorted by name.
  static func files(in folder: String, extensions: Set<String>? = nil) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
    return names.filter { name in
      guard let extensions else { return !name.hasPrefix(".") }
      return extensions.contains((name as NSString).pathExtension)
    }.sorted().map { folder + "/" + $0 }
  }

  /// `../shared` beside the checkout, when it exists (it does on developer machines and in CI, but the
  /// project must pass without it).
  static let shared: URL? = {
    let candidate = root.deletingLastPathComponent().appendingPathComponent("shared")
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return nil }
    return candidate
  }()

  static func sharedFiles(in folder: String) -> [URL] {
    guard let base = shared?.appendingPathComponent(folder) else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
    return names.sorted().map { base.appendingPathComponent($0) }
  }
}
