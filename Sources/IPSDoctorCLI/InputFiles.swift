import IPSDoctorSupport
import IPSDoctorSymbolication

/// The files a run reads, by identity (device and inode), each with the phrase that names it in a
/// refusal ("the input 'x.ips'"): no output may be one of them, by any path.
///
/// Invariant: a file is known by the first phrase it was added with; paths that do not exist (yet)
/// are not inputs.
struct InputFiles {
  private var phrases: [OutputTarget.Identity: String] = [:]

  /// Adds the file `path` names (symbolic links followed), called `phrase` in a refusal.
  mutating func add(_ path: PathName, as phrase: String) {
    guard case .success(let status) = POSIX.status(path) else { return }
    add(status, as: phrase)
  }

  mutating func add(_ status: FileStatus, as phrase: String) {
    let identity = OutputTarget.Identity.file(device: status.device, inode: status.inode)
    if phrases[identity] == nil { phrases[identity] = phrase }
  }

  /// Adds every file the search of the debug paths examines: the dSYM bundles' DWARF files, and
  /// every other file opened to tell whether it is one.
  mutating func addDebugFiles(in paths: [PathName]) {
    DebugImageLocator.regularFiles(in: paths) { path, status in
      add(status, as: "the debug file '\(path.display)'")
    }
  }

  /// Adds each existing regular file among `outputs` whose extension is one of `extensions`: a
  /// command that never writes such a file (a Swift source, a crash report) was given one as its
  /// output only by a glob that expanded into `-o` (`check -o *.swift`), so it is an input the
  /// shell moved, not an output.
  mutating func addOutputs(_ outputs: [String], namedLike extensions: Set<String>, as phrase: String) {
    for output in outputs where output != "-" {
      let path = PathName(output)
      guard extensions.contains(path.pathExtension), case .success(let status) = POSIX.status(path),
        status.kind == .regular
      else { continue }
      add(status, as: "\(phrase) '\(path.display)'")
    }
  }

  /// The phrase of the input that `identity` is, or `nil` when it is none.
  func phrase(for identity: OutputTarget.Identity) -> String? { phrases[identity] }
}
