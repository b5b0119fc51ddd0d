import IPSDoctorSupport

/// Finds the Mach-O files with debug information that `--dsym` paths name: a `.dSYM` bundle, the
/// DWARF file inside one, a Mach-O with a symbol table, or a folder searched (an `.xcarchive`,
/// a `dSYMs/` folder). Symbolic links inside folders are not followed, so a link cycle cannot
/// make the search endless; the search is capped in files and depth.
package enum DebugImageLocator {
  static let maxFiles = 100_000
  static let maxDepth = 32

  /// Every slice of every Mach-O found under `paths`, in the order found.
  package static func images(in paths: [PathName]) -> [DebugImage] {
    machOFiles(in: paths).flatMap { DebugImage.load(path: $0) }
  }

  /// The Mach-O files under `paths`, in the order found.
  static func machOFiles(in paths: [PathName]) -> [PathName] {
    var files: [PathName] = []
    regularFiles(in: paths) { path, status in
      if status.size >= 28, isMachO(path) { files.append(path) }
    }
    return files
  }

  /// Calls `body` with every regular file the search of `paths` examines, in the order found:
  /// each is opened to tell whether it is a Mach-O, so each is an input of the run.
  package static func regularFiles(in paths: [PathName], _ body: (PathName, FileStatus) -> Void) {
    var visited = 0
    for path in paths {
      // Folders to visit, with their depth: a work list, not recursion.
      var pending: [(PathName, Int)] = [(path, 0)]
      while let (current, depth) = pending.popLast(), visited < maxFiles {
        visited += 1
        let followed = depth == 0 ? POSIX.status(current) : POSIX.lstatus(current)
        guard case .success(let status) = followed else { continue }
        switch status.kind {
        case .directory where depth < maxDepth:
          guard case .success(let listing) = POSIX.directoryEntries(current) else { continue }
          for index in (0..<listing.count).reversed() {
            pending.append((current.appending(listing[index]), depth + 1))
          }
        case .regular:
          body(current, status)
        default: continue
        }
      }
    }
  }

  /// The dSYMs beside a report when no `--dsym` is given: its folder and that folder's `dSYMs/`,
  /// looked at one level deep (the `.dSYM` bundles in them). A symbolic link named `*.dSYM` is
  /// taken only when it leads to a regular file: the scan stays inside the folders it looks in
  /// (`x.dSYM -> /` must not search the machine).
  package static func defaultPaths(forReport report: PathName) -> [PathName] {
    let folder = report.directory
    var result: [PathName] = []
    for candidate in [folder, folder.appending(Array("dSYMs".utf8))] {
      guard case .success(let listing) = POSIX.directoryEntries(candidate) else { continue }
      for index in 0..<listing.count where listing[index].reversed().starts(with: Array(".dSYM".utf8).reversed()) {
        let path = candidate.appending(listing[index])
        guard case .success(let status) = POSIX.lstatus(path) else { continue }
        if status.kind == .symbolicLink {
          guard case .success(let target) = POSIX.status(path), target.kind == .regular else { continue }
        }
        result.append(path)
      }
    }
    return result
  }

  /// Whether the file starts with a Mach-O or fat magic (read with `read`, so a folder of large
  /// non-Mach-O files is never mapped).
  static func isMachO(_ path: PathName) -> Bool {
    let descriptor = POSIX.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var magic: UInt32 = 0
    guard withUnsafeMutableBytes(of: &magic, { read(descriptor, $0.baseAddress, 4) }) == 4 else { return false }
    return [0xFEED_FACF, 0xFEED_FACE, 0xBEBA_FECA, 0xBFBA_FECA].contains(magic)
  }
}
