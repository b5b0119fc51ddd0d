import IPSDoctorSupport

/// Where an output file really is: a descriptor the process already has (`/dev/stdout`,
/// `/dev/fd/N`), a device or FIFO to write through, or a regular file (existing or new) to replace
/// atomically. Symbolic links are followed to their target, so the link itself stays.
struct OutputTarget {
  enum Kind: Equatable {
    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: written through a duplicate
    /// of descriptor N, at its offset and in its mode (`>>` appends).
    case descriptor(Int32)
    /// A character device or a FIFO: opened for writing and written through, never replaced.
    case device(PathName)
    /// A regular file, or a name that does not exist yet: a temporary file beside it, renamed over
    /// it when everything was written.
    case file(PathName, existing: FileStatus?)
  }

  /// What the user named, for messages.
  let named: PathName
  let kind: Kind
  /// The file's identity, to tell when two paths are one file.
  let identity: Identity
  /// Whether the output lands in a regular file (or a new one), where a second output to the same
  /// identity would replace the first.
  let isFile: Bool

  enum Identity: Hashable {
    /// An existing file: its device and inode.
    case file(device: UInt64, inode: UInt64)
    /// A name that does not exist yet: its folder's device and inode, and the name as
    /// ``foldedName(_:)`` folds it.
    case new(device: UInt64, inode: UInt64, name: String)

    /// `name` as a case-insensitive, normalisation-insensitive volume compares it (APFS and HFS+
    /// as macOS formats them): lowercased, and equal for every Unicode normalisation (Swift's
    /// `String` compares and hashes canonical equivalents as one). Two new outputs whose names
    /// differ only so would be one file there, and are refused as one everywhere. A name that is
    /// not UTF-8 stays its bytes.
    static func foldedName(_ name: [UInt8]) -> String {
      guard let text = String(validating: name, as: UTF8.self) else {
        return "\u{0}" + name.map { String($0, radix: 16) }.joined(separator: ",")
      }
      return text.lowercased()
    }
  }

  /// Resolves `path`; throws when it cannot be written at all (a folder, a block device, a socket,
  /// a missing folder, a closed descriptor).
  init(_ path: PathName) throws(FileError) {
    named = path
    var current = path
    for _ in 0..<40 {
      if let descriptor = Self.descriptorNumber(current) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIX.error(errno) }
        let status = FileStatus(info)
        kind = .descriptor(descriptor)
        identity = .file(device: status.device, inode: status.inode)
        isFile = status.kind == .regular
        return
      }
      switch POSIX.lstatus(current) {
      case .success(let status) where status.kind == .symbolicLink:
        current = try Self.linkTarget(current)
        continue
      case .success(let status):
        identity = .file(device: status.device, inode: status.inode)
        isFile = status.kind == .regular
        switch status.kind {
        case .regular: kind = .file(current, existing: status)
        case .characterDevice, .fifo: kind = .device(current)
        case .directory: throw FileError(.notRegularFile, "is a directory")
        default: throw FileError(.notRegularFile, "\(status.kind.phrase), not a file that can be written")
        }
        return
      case .failure(let error) where error.reason == .notFound:
        let folder = current.directory
        guard case .success(let status) = POSIX.status(folder) else {
          throw FileError(.notFound, "no such folder '\(folder.display)'")
        }
        guard status.kind == .directory else { throw FileError(.other, "'\(folder.display)' is not a folder") }
        kind = .file(current, existing: nil)
        isFile = true
        identity = .new(
          device: status.device, inode: status.inode, name: Identity.foldedName(Array(current.lastComponent)))
        return
      case .failure(let error):
        throw error
      }
    }
    throw POSIX.error(ELOOP)
  }

  /// The descriptor a path names by number, as the shells and the kernel read it.
  static func descriptorNumber(_ path: PathName) -> Int32? {
    let text = String(decoding: path.bytes, as: UTF8.self)
    switch text {
    case "/dev/stdout": return 1
    case "/dev/stderr": return 2
    default: break
    }
    for prefix in Platform.descriptorPathPrefixes where text.hasPrefix(prefix) {
      let digits = text.dropFirst(prefix.count)
      guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), let number = Int32(digits)
      else { return nil }
      return number
    }
    return nil
  }

  /// The path a symbolic link points to, relative to the link's folder when the link is relative.
  private static func linkTarget(_ link: PathName) throws(FileError) -> PathName {
    var buffer = [UInt8](repeating: 0, count: POSIX.pathLimit)
    let count = POSIX.at(
      link,
      failure: { code in
        errno = code
        return -1
      }
    ) { directory, name in
      buffer.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { readlinkat(directory, name, $0.baseAddress!, $0.count) }
      }
    }
    guard count > 0 else { throw POSIX.error(errno) }
    let target = Array(buffer[..<count])
    if target.first == UInt8(ascii: "/") { return PathName(bytes: target) }
    return link.directory.appending(target)
  }
}

/// An output being written to its ``OutputTarget``. A regular file is written to a temporary file
/// in the same folder and renamed over the destination only when everything was written: readers
/// never see half a file, and a failed run leaves the old file alone. Devices, FIFOs and
/// descriptors are written through.
final class OutputFile {
  let target: OutputTarget
  private var fd: Int32
  /// The temporary file and the path it is renamed to, for a regular file.
  private let replacement: (temporary: PathName, destination: PathName)?
  /// The temporary file's entry in the table a signal handler removes it by.
  private let registration: TemporaryFiles.Registration?
  private(set) var failure: FileError?

  var destination: PathName { target.named }

  /// Opens the output now, so that an unwritable destination fails before any work.
  init(_ target: OutputTarget) throws(FileError) {
    self.target = target
    switch target.kind {
    case .descriptor(let number):
      fd = fcntl(number, F_DUPFD_CLOEXEC, 3)
      guard fd >= 0 else { throw POSIX.error(errno) }
      replacement = nil
      registration = nil
    case .device(let path):
      fd = POSIX.openFile(path, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw POSIX.error(errno) }
      replacement = nil
      registration = nil
    case .file(let path, let existing):
      var template = path.directory.appending(
        [UInt8(ascii: ".")] + Array(path.lastComponent) + Array(".tmp-XXXXXX".utf8)
      ).bytes
      template.append(0)
      let descriptor = template.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
      }
      guard descriptor >= 0 else { throw POSIX.error(errno) }
      template.removeLast()
      fd = descriptor
      replacement = (PathName(bytes: template), path)
      registration = TemporaryFiles.register(PathName(bytes: template))
      // mkstemp creates the file 0600; a replaced file keeps its mode, a new one gets the mode a
      // plain create would give it.
      if let existing {
        fchmod(fd, mode_t(existing.permissions))
      } else {
        let mask = umask(0o022)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
      }
    }
  }

  deinit { abandon() }

  /// Appends text; returns false (and remembers why) on failure.
  func write(_ text: String) -> Bool {
    text.withBorrowedUTF8 { write(utf8: UnsafeRawBufferPointer($0)) }
  }

  /// Appends UTF-8 text already in bytes; returns false (and remembers why) on failure.
  func write(utf8 bytes: UnsafeRawBufferPointer) -> Bool {
    guard failure == nil, fd >= 0 else { return false }
    if !POSIX.writeAll(fd, bytes) {
      failure = POSIX.error(errno)
      return false
    }
    return true
  }

  /// Closes the output and, for a regular file, renames it into place.
  func commit() throws(FileError) {
    guard fd >= 0 else { throw FileError(.other, "already closed") }
    if let failure {
      abandon()
      throw failure
    }
    let closed = close(fd)
    let closeError = errno
    fd = -1
    guard let replacement else {
      if closed != 0 && closeError != EINTR { throw POSIX.error(closeError) }
      return
    }
    defer { registration.map(TemporaryFiles.unregister) }
    guard closed == 0 else {
      POSIX.unlink(replacement.temporary)
      throw POSIX.error(closeError)
    }
    let renamed = replacement.temporary.withCString { from in
      replacement.destination.withCString { to in rename(from, to) }
    }
    if renamed != 0 {
      let code = errno
      POSIX.unlink(replacement.temporary)
      throw POSIX.error(code)
    }
  }

  /// Closes the output without renaming: a regular file's destination is left untouched.
  func abandon() {
    guard fd >= 0 else { return }
    close(fd)
    fd = -1
    if let replacement { POSIX.unlink(replacement.temporary) }
    registration.map(TemporaryFiles.unregister)
  }
}
