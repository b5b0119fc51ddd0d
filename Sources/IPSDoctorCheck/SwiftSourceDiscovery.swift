import IPSDoctorSupport

/// Finds the `.swift` files that `check` scans: named files as they are, folders recursively in
/// byte order of their names. Folders named `.build`, `DerivedData`, `Pods` or `Carthage`, hidden
/// files and folders, and anything matching an `--exclude` glob are skipped. Symbolic links inside
/// a folder are not followed (a link named on the command line is).
package struct SwiftSourceDiscovery {
  static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", "Carthage"]

  var excludes: [String] = []
  package private(set) var files: [PathName] = []
  /// Paths that could not be read, with the reason (exit 66 when a named path is missing).
  package private(set) var problems: [(path: PathName, error: FileError)] = []
  /// What was skipped (for `-v`).
  package private(set) var skipped: [String] = []
  /// The first `Package.swift` or `project.pbxproj` found that sets a main-actor default
  /// isolation (see ``DefaultIsolationSetting``).
  package private(set) var mainActorDefaultIsolation: PathName?

  package init(excludes: [String]) {
    self.excludes = excludes
  }

  func isExcluded(_ path: PathName, name: String) -> Bool {
    let display = path.display
    return excludes.contains { Glob.matches($0, display) || Glob.matches($0, name) }
  }

  package mutating func add(_ argument: String) {
    let path = PathName(argument)
    switch POSIX.status(path) {
    case .failure(let error):
      problems.append((path, error))
    case .success(let status) where status.kind == .directory:
      walk(path, depth: 0)
    case .success:
      files.append(path)
      noteBuildSettings(path, name: String(decoding: path.lastComponent, as: UTF8.self))
    }
  }

  /// Records `path` when it is a manifest or Xcode project that sets MainActor default isolation.
  private mutating func noteBuildSettings(_ path: PathName, name: String) {
    guard mainActorDefaultIsolation == nil, name == "Package.swift" || name == "project.pbxproj",
      case .success(let bytes) = POSIX.readFile(path, limit: 16 << 20, expectedToExist: false),
      DefaultIsolationSetting.setsMainActor(bytes)
    else { return }
    mainActorDefaultIsolation = path
  }

  private mutating func walk(_ folder: PathName, depth: Int) {
    guard depth < 64 else {
      skipped.append("\(folder.display): skipped: nested more than 64 folders deep")
      return
    }
    let listing: DirectoryListing
    switch POSIX.directoryEntries(folder) {
    case .failure(let error):
      problems.append((folder, error))
      return
    case .success(let read): listing = read
    }
    for position in 0..<listing.count {
      let nameBytes = listing[position]
      let name = String(decoding: nameBytes, as: UTF8.self)
      let path = folder.appending(nameBytes)
      if name.hasPrefix(".") || Self.skippedFolders.contains(name) || isExcluded(path, name: name) {
        skipped.append("\(path.display): skipped")
        continue
      }
      guard case .success(let status) = POSIX.lstatus(path) else { continue }
      switch status.kind {
      case .directory: walk(path, depth: depth + 1)
      case .regular where name.hasSuffix(".swift"):
        files.append(path)
        noteBuildSettings(path, name: name)
      case .regular where name == "project.pbxproj": noteBuildSettings(path, name: name)
      default: break
      }
    }
  }
}

/// Shell-style globs for `--exclude`: `*` matches any run of characters (`/` included, so
/// `*/Generated/*` excludes a folder at any depth), `?` one character; the rest literally.
enum Glob {
  static func matches(_ pattern: String, _ text: String) -> Bool {
    let pattern = Array(pattern.unicodeScalars)
    let text = Array(text.unicodeScalars)
    // Iterative matching with one backtrack point for the last `*` (linear in practice).
    var p = 0
    var t = 0
    var star: Int?
    var starText = 0
    while t < text.count {
      if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) && pattern[p] != "*" {
        p += 1
        t += 1
      } else if p < pattern.count && pattern[p] == "*" {
        star = p
        starText = t
        p += 1
      } else if let star {
        p = star + 1
        starText += 1
        t = starText
      } else {
        return false
      }
    }
    while p < pattern.count && pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
