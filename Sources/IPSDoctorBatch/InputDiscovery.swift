import IPSDoctorDiagnosis
import IPSDoctorSupport

/// One file to read: a path found on the command line or in a scanned folder, or standard input.
package struct InputItem: Sendable, Equatable {
  package enum Source: Sendable, Equatable {
    case file(PathName)
    case standardInput
  }

  package var source: Source
  /// The path as the user wrote it (joined with the names found below a folder), printable.
  package var display: String
  /// Found in a folder under a name that is not `.ips`/`.crash`: read it only if its first bytes
  /// look like a crash report.
  package var mustSniff: Bool
  /// A FIFO named on the command line (`ips-doctor <(pbpaste)`): read to its end, as `cat` would.
  package var isStream = false
  /// Found in a scanned folder, not named on the command line.
  package var inFolder = false
}

/// The files to read, in input order, packed so that memory grows by a file's name and 8 bytes,
/// not by an ``InputItem`` with its path and display strings (≈ 400 bytes): a folder's sorted
/// listing is kept as it was read (one byte buffer) with the folder's path stored once, and an
/// ``InputItem`` is built only when its file is about to be read.
package struct InputList: Sendable {
  /// Folders files were found in (`nil` for paths named on the command line), with their names.
  private var groups: [(directory: PathName?, names: DirectoryListing)] = []
  private var entries: [Entry] = []

  /// A name in a group; the top bit of `name` says whether the file must be sniffed.
  private struct Entry: Sendable {
    var group: Int32
    var name: UInt32
  }

  private static let standardInput: Int32 = -1
  private static let sniffBit: UInt32 = 1 << 31
  private static let streamBit: UInt32 = 1 << 30

  package init() {}

  package var count: Int { entries.count }
  package var isEmpty: Bool { entries.isEmpty }
  package private(set) var containsStandardInput = false

  package subscript(index: Int) -> InputItem {
    let entry = entries[index]
    guard entry.group != Self.standardInput else {
      return InputItem(source: .standardInput, display: "<stdin>", mustSniff: false)
    }
    let group = groups[Int(entry.group)]
    let name = group.names[Int(entry.name & ~(Self.sniffBit | Self.streamBit))]
    let path = group.directory?.appending(name) ?? PathName(bytes: Array(name))
    return InputItem(
      source: .file(path), display: path.display, mustSniff: entry.name & Self.sniffBit != 0,
      isStream: entry.name & Self.streamBit != 0, inFolder: group.directory != nil)
  }

  /// All the items, built at once (for tests and small lists).
  package var items: [InputItem] { (0..<count).map { self[$0] } }

  mutating func appendStandardInput() {
    containsStandardInput = true
    entries.append(Entry(group: Self.standardInput, name: 0))
  }

  /// Adds a file named on the command line; `isStream` for a FIFO.
  mutating func append(path: PathName, isStream: Bool = false) {
    if groups.last.map({ $0.directory != nil }) ?? true {
      groups.append((nil, DirectoryListing()))
    }
    let group = groups.count - 1
    groups[group].names.append(path.bytes)
    let name = UInt32(groups[group].names.count - 1)
    precondition(name < Self.streamBit, "more than a billion paths on the command line")
    entries.append(Entry(group: Int32(group), name: name | (isStream ? Self.streamBit : 0)))
  }

  /// Registers a folder and its listing, whose files ``append(name:inGroup:mustSniff:)`` adds.
  mutating func addDirectory(_ path: PathName, names: DirectoryListing) -> Int32 {
    groups.append((path, names))
    return Int32(groups.count - 1)
  }

  /// Adds the `name`th file of a folder registered with ``addDirectory(_:names:)``.
  mutating func append(name: Int, inGroup group: Int32, mustSniff: Bool) {
    precondition(name < Int(Self.streamBit), "more than a billion files in one folder")
    entries.append(Entry(group: group, name: UInt32(name) | (mustSniff ? Self.sniffBit : 0)))
  }
}

/// Something about an input that is not a report result: a missing path, a skipped FIFO, a
/// symbolic link loop, an unreadable folder.
package struct InputNotice: Sendable, Equatable {
  package enum Kind: String, Sendable, Equatable {
    /// A named path does not exist (exit 66).
    case missing
    /// Skipped on purpose (not a regular file, a symbolic link loop); not an error.
    case skipped
    /// A folder could not be read (exit 65).
    case unreadable
    /// Found in a folder, but not an Apple crash report (another tool's report, `leaks` output):
    /// passed over, counted in one line (each one listed with `--verbose`).
    case notAReport
    /// Reports were read and the filters (`--since`, `--app`, …) left every one out: not an
    /// error (exit 0), said so that an empty output is not taken for a run that found nothing.
    case filteredOut
    /// A debug file named like an image of a report has another UUID, or none of the `--dsym`
    /// files matches an image of any report: a warning, the run goes on without those symbols.
    case dsymMismatch = "dsym-mismatch"
    /// `--require-symbols`: a report's app frames have no symbols (exit 65).
    case unsymbolicated

    /// How the formats that grade a notice (SARIF, GitHub annotations) grade it.
    package var level: Severity {
      switch self {
      case .filteredOut: .note
      case .skipped, .dsymMismatch: .warning
      case .missing, .unreadable, .notAReport, .unsymbolicated: .error
      }
    }

    /// Whether the notice is about symbols, not about reading an input.
    package var isAboutSymbols: Bool { self == .dsymMismatch || self == .unsymbolicated }
  }

  package var kind: Kind
  package var path: String
  package var message: String

  package init(
    kind: Kind, path: String, message: String
  ) {
    self.kind = kind
    self.path = path
    self.message = message
  }
}

/// Expands the command line's paths into a sorted, de-duplicated list of files.
///
/// Folders are searched recursively. `.ips` and `.crash` files are always taken; other files only if
/// their first bytes look like a report (checked later, by the reader). Hidden files and folders are
/// skipped unless named explicitly. Paths named on the command line are followed when they are
/// symbolic links; inside a folder, a link to a file is read, and a link to a folder is skipped
/// (with a note) unless `followLinks` (`--follow`), as ripgrep and find do: a link to `/` or
/// `/proc` must not turn a scan of one folder into a walk of the whole file system. A followed
/// link back to a folder being scanned is reported as a loop instead of being followed forever.
package struct InputDiscovery {
  package private(set) var inputs = InputList()
  package private(set) var notices: [InputNotice] = []
  private var seenFiles = Set<FileIdentity>()
  private var seenDirectories = Set<FileIdentity>()
  private var seenStandardInput = false

  struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  static let reportExtensions: Set<String> = ["ips", "crash"]

  /// All the items, built at once (for tests and small lists).
  package var items: [InputItem] { inputs.items }

  private let followLinks: Bool

  package init(paths: [String], followLinks: Bool = false) {
    self.followLinks = followLinks
    for path in paths {
      if path == "-" {
        if !seenStandardInput {
          seenStandardInput = true
          inputs.appendStandardInput()
        }
        continue
      }
      let name = PathName(path)
      switch POSIX.status(name) {
      case .failure(let error):
        if case .success(let link) = POSIX.lstatus(name), link.kind == .symbolicLink {
          notices.append(
            InputNotice(kind: .unreadable, path: name.display, message: "broken symbolic link (\(error.message))"))
        } else if error.reason == .notFound {
          notices.append(InputNotice(kind: .missing, path: name.display, message: error.message))
        } else {
          notices.append(InputNotice(kind: .unreadable, path: name.display, message: error.message))
        }
      case .success(let status):
        switch status.kind {
        case .directory:
          scan(name, display: name.display, status: status, ancestors: [])
        case .regular:
          addFile(name, status: status)
        case .fifo:
          // Named on purpose (`ips-doctor <(pbpaste)`): read it as `cat` would.
          inputs.append(path: name, isStream: true)
        default:
          notices.append(
            InputNotice(
              kind: .skipped, path: name.display, message: "skipped: \(status.kind.phrase), not a regular file"))
        }
      }
    }
  }

  /// The display name of the input with this identity, if it is one.
  package func input(device: UInt64, inode: UInt64) -> String? {
    guard seenFiles.contains(FileIdentity(device: device, inode: inode)) else { return nil }
    for index in 0..<inputs.count {
      let item = inputs[index]
      guard case .file(let path) = item.source, case .success(let status) = POSIX.status(path),
        status.device == device, status.inode == inode
      else { continue }
      return item.display
    }
    return nil
  }

  /// Adds a file named on the command line.
  private mutating func addFile(_ path: PathName, status: FileStatus) {
    let identity = FileIdentity(device: status.device, inode: status.inode)
    guard seenFiles.insert(identity).inserted else { return }
    inputs.append(path: path)
  }

  /// Adds a file found in a folder.
  private mutating func addFile(
    _ name: Int, of names: DirectoryListing, in group: inout Int32?, directory: PathName, status: FileStatus,
    mustSniff: Bool
  ) {
    let identity = FileIdentity(device: status.device, inode: status.inode)
    guard seenFiles.insert(identity).inserted else { return }
    let index: Int32
    if let group {
      index = group
    } else {
      index = inputs.addDirectory(directory, names: names)  // shares the listing's buffer, no copy
      group = index
    }
    inputs.append(name: name, inGroup: index, mustSniff: mustSniff)
  }

  private mutating func scan(
    _ directory: PathName, display: String, status: FileStatus, ancestors: Set<FileIdentity>
  ) {
    let identity = FileIdentity(device: status.device, inode: status.inode)
    if ancestors.contains(identity) {
      notices.append(
        InputNotice(
          kind: .skipped, path: display, message: "skipped: symbolic link loop (a link back to a folder being scanned)")
      )
      return
    }
    guard seenDirectories.insert(identity).inserted else { return }  // already scanned by another route
    let names: DirectoryListing
    switch POSIX.directoryEntries(directory) {
    case .success(let found): names = found
    case .failure(let error):
      notices.append(InputNotice(kind: .unreadable, path: display, message: "cannot read folder: \(error.message)"))
      return
    }
    let inner = ancestors.union([identity])
    var directoryIndex: Int32?  // registered with the first file, after any subfolders before it
    for index in 0..<names.count {
      let name = names[index]
      if name.first == UInt8(ascii: ".") { continue }
      let path = directory.appending(name)
      var entry: FileStatus
      switch POSIX.lstatus(path) {
      case .success(let status): entry = status
      case .failure(let error):
        let message =
          error.reason == .notFound ? "the file disappeared while the folder was scanned" : error.message
        notices.append(InputNotice(kind: .unreadable, path: path.display, message: message))
        continue
      }
      let isReportName = Self.reportExtensions.contains(path.pathExtension)
      if entry.kind == .symbolicLink {
        switch POSIX.status(path) {
        case .success(let target) where target.kind == .directory && !followLinks:
          notices.append(
            InputNotice(
              kind: .skipped, path: path.display, message: "skipped: a symbolic link to a folder (--follow scans it)"))
          continue
        case .success(let target): entry = target
        case .failure(let error):
          if error.reason == .notFound && !isReportName { continue }
          let message =
            error.message == "too many levels of symbolic links"
            ? "skipped: symbolic link loop" : "broken symbolic link (\(error.message))"
          notices.append(
            InputNotice(
              kind: error.message.hasPrefix("too many") ? .skipped : (isReportName ? .unreadable : .skipped),
              path: path.display, message: message))
          continue
        }
      }
      switch entry.kind {
      case .directory where isReportName:
        notices.append(
          InputNotice(kind: .skipped, path: path.display, message: "skipped: a directory named like a crash report"))
      case .directory:
        scan(path, display: path.display, status: entry, ancestors: inner)
      case .regular:
        addFile(
          index, of: names, in: &directoryIndex, directory: directory, status: entry, mustSniff: !isReportName)
      default:
        if isReportName {
          notices.append(
            InputNotice(
              kind: .skipped, path: path.display, message: "skipped: \(entry.kind.phrase), not a regular file"))
        }
      }
    }
  }

  /// Whether the first bytes of a file look like a crash report: a JSON object whose first line
  /// names a `bug_type`, a text report whose first line is one of the labels a `.crash` file
  /// starts with, or crash text pasted into a note (`.md`, `.txt`, `.log`): a line, quoted or not,
  /// that starts with a label only a crash has (`Exception Type:`, `Thread 3 Crashed:`,
  /// Crashlytics' `Fatal Exception:` and `Crashed:`), or a quoted line that starts a report. A note
  /// that mentions those labels inside its prose is not a report.
  package static func looksLikeReport(_ prefix: [UInt8]) -> Bool {
    // Named for what it is, not read (see `ForeignInput`).
    if ForeignInput.binaryRecord(prefix) != nil { return true }
    var start = 0
    if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < prefix.count, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[start]) { start += 1 }
    let text = String(decoding: prefix[start...], as: UTF8.self)
    let firstLine = text.prefix(while: { $0 != "\n" && $0 != "\r\n" })
    if firstLine.hasPrefix("{") {
      return firstLine.contains("\"bug_type\"") || text.contains("\"bug_type\"")
        || text.contains("\"binary_images\"") || (text.contains("\"crash\"") && text.contains("\"report\""))
        || text.contains("\"event_id\"") || text.contains("\"exceptions\"") || text.contains("\"callStacks\"")
        || text.contains("Diagnostics\"")
    }
    let openings = [
      "Incident Identifier:", "Process:", "Hardware Model:", "CrashReporter Key:", "Date/Time:",
      "OS Version:", "Translated Report",
    ]
    if openings.contains(where: { firstLine.hasPrefix($0) }) { return true }
    let crashLabels = [
      "Exception Type:", "Last Exception Backtrace:", "# Crashlytics - ", "Fatal Exception:", "Crashed: ",
    ]
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      let unindented = line.drop(while: { $0 == " " || $0 == "\t" })
      let content = unindented.drop(while: { $0 == " " || $0 == "\t" || $0 == ">" })
      if crashLabels.contains(where: { content.hasPrefix($0) }) { return true }
      // A report quoted whole, from its first line.
      if unindented.hasPrefix(">") && openings.contains(where: { content.hasPrefix($0) }) { return true }
      if content.hasPrefix("Thread "),
        case let rest = content.dropFirst(7).drop(while: \.isNumber),
        rest.count < content.count - 7, rest.hasPrefix(" Crashed:")
      {
        return true
      }
    }
    return false
  }
}
