/// Why a file could not be read or written. Messages are lowercase phrases without a trailing
/// period, like compiler diagnostics.
package struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Reason: Sendable, Equatable {
    case notFound
    case permissionDenied
    case tooLarge
    case notRegularFile
    case vanished
    case other
  }

  package var reason: Reason
  package var message: String

  package init(_ reason: Reason, _ message: String) {
    self.reason = reason
    self.message = message
  }

  package var description: String { message }
}

/// The kind of a file system entry, from `st_mode`.
package enum FileKind: Sendable, Equatable {
  case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

  package init(mode: UInt32) {
    switch mode & 0o170000 {
    case 0o100000: self = .regular
    case 0o040000: self = .directory
    case 0o120000: self = .symbolicLink
    case 0o010000: self = .fifo
    case 0o020000: self = .characterDevice
    case 0o060000: self = .blockDevice
    case 0o140000: self = .socket
    default: self = .unknown
    }
  }

  package var phrase: String {
    switch self {
    case .regular: "a regular file"
    case .directory: "a directory"
    case .symbolicLink: "a symbolic link"
    case .fifo: "a FIFO (named pipe)"
    case .characterDevice: "a character device"
    case .blockDevice: "a block device"
    case .socket: "a socket"
    case .unknown: "not a regular file"
    }
  }
}

/// What `stat`/`lstat` says about a path.
package struct FileStatus: Sendable, Equatable {
  package var kind: FileKind
  package var size: Int64
  package var device: UInt64
  package var inode: UInt64
  /// The permission bits (`st_mode & 0o7777`).
  package var permissions: UInt32

  package init(_ info: stat) {
    kind = FileKind(mode: UInt32(info.st_mode))
    permissions = UInt32(info.st_mode) & 0o7777
    size = Int64(info.st_size)
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
  }
}

/// A path as the bytes the kernel sees, plus a printable form. File names need not be UTF-8: the
/// bytes are kept for opening and only the display form is decoded.
package struct PathName: Sendable, Hashable, Comparable {
  package var bytes: [UInt8]

  package init(bytes: [UInt8]) { self.bytes = bytes }

  /// The path a command-line argument names. Arguments reach the CLI as strings made by
  /// ``commandLineArgument(_:)``, whose escaped bytes (U+10FF00 + byte) turn back into the bytes
  /// the user typed here, so a file name that is not UTF-8 opens the file it names.
  package init(_ string: String) {
    guard string.utf8.contains(0xF4) else {
      self.bytes = Array(string.utf8)
      return
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(string.utf8.count)
    for scalar in string.unicodeScalars {
      if Self.escapedBytes.contains(scalar.value) {
        bytes.append(UInt8(truncatingIfNeeded: scalar.value - Self.escapedBytes.lowerBound))
      } else {
        bytes += String(scalar).utf8
      }
    }
    self.bytes = bytes
  }

  /// The scalars that stand for one raw byte each in a command-line argument (in plane 16's
  /// private use area; a real one in an argument is escaped too, so the mapping is one to one).
  package static let escapedBytes: ClosedRange<UInt32> = 0x10_FF00...0x10_FFFF

  /// A command-line argument's bytes as a string that ``init(_:)`` turns back into the same bytes:
  /// valid UTF-8 is kept as it is; every byte of an invalid sequence, and of a scalar in
  /// ``escapedBytes``, becomes the scalar U+10FF00 + byte.
  package static func commandLineArgument(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    if let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0xF4) { return text }
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      var decoded: Unicode.Scalar?
      var length = 1
      for candidate in 1...4 where index + candidate <= bytes.count {
        if let text = String(validating: bytes[index..<index + candidate], as: UTF8.self) {
          decoded = text.unicodeScalars.first
          length = candidate
          break
        }
      }
      if let decoded, !escapedBytes.contains(decoded.value) {
        scalars.append(decoded)
        index += length
      } else {
        scalars.append(Unicode.Scalar(escapedBytes.lowerBound + UInt32(bytes[index]))!)
        index += 1
      }
    }
    return String(scalars)
  }

  /// The path with invalid UTF-8 bytes shown as `\xFF`, backslashes doubled and the rest made
  /// safe by ``TerminalText/escaped(_:)``: safe for a terminal and unambiguous, since `\\`,
  /// `\xFF`, `\u{…}`, `\n`, `\r` and `\t` are its only escapes (``init(display:)`` reverses it).
  package var display: String {
    if let text = String(validating: bytes, as: UTF8.self) { return Self.displayText(text) }
    var output = ""
    var runStart = 0
    var index = 0
    while index < bytes.count {
      // The valid UTF-8 sequence starting here (1 to 4 bytes), if any, joins the run.
      var length = 0
      for candidate in 1...4 where index + candidate <= bytes.count {
        if String(validating: bytes[index..<index + candidate], as: UTF8.self) != nil {
          length = candidate
          break
        }
      }
      if length > 0 {
        index += length
        continue
      }
      if runStart < index { output += Self.displayText(String(decoding: bytes[runStart..<index], as: UTF8.self)) }
      output += "\\x" + String.hexByte(bytes[index])
      index += 1
      runStart = index
    }
    if runStart < bytes.count { output += Self.displayText(String(decoding: bytes[runStart...], as: UTF8.self)) }
    return output
  }

  package func appending(_ name: some Collection<UInt8>) -> PathName {
    if bytes.isEmpty { return PathName(bytes: Array(name)) }
    var joined: [UInt8] = []
    joined.reserveCapacity(bytes.count + 1 + name.count)
    joined += bytes
    if bytes.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
    joined += name
    return PathName(bytes: joined)
  }

  /// The last path component.
  package var lastComponent: ArraySlice<UInt8> {
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    let start = bytes[..<end].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? bytes.startIndex
    return bytes[start..<end]
  }

  /// The lowercased extension of the last component, without the dot.
  package var pathExtension: String {
    let name = lastComponent
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return "" }
    return String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
  }

  /// The directory part ("." when there is none).
  package var directory: PathName {
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return PathName(".") }
    if slash == 0 { return PathName("/") }
    return PathName(bytes: Array(bytes[..<slash]))
  }

  package func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }

  package static func < (lhs: PathName, rhs: PathName) -> Bool {
    lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
  }
}

extension String {
  package static func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }
}

/// Thin wrappers over the C library, so no Foundation is needed.
package enum POSIX {
  /// Appends `text` to the file at `path`, creating it (mode 0644) when missing; whether all of
  /// it was written. (GitHub's step summary file is appended to this way.)
  package static func append(_ text: String, toFile path: String) -> Bool {
    let fd = openFile(PathName(path), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return writeAll(fd, text)
  }

  static func currentErrno() -> Int32 { errno }

  package static func message(_ code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file or directory"
    case EACCES: return "permission denied"
    case EPERM: return "operation not permitted"
    case EISDIR: return "is a directory"
    case ENOTDIR: return "not a directory"
    case ELOOP: return "too many levels of symbolic links"
    case ENAMETOOLONG: return "file name too long"
    case EIO: return "input/output error"
    case ENOSPC: return "no space left on device"
    case EROFS: return "read-only file system"
    case EMFILE, ENFILE: return "too many open files"
    default:
      guard let text = strerror(code) else { return "error \(code)" }
      return String(cString: text).lowercased()
    }
  }

  package static func error(_ code: Int32, vanishedIfMissing: Bool = false) -> FileError {
    switch code {
    case ENOENT:
      vanishedIfMissing
        ? FileError(.vanished, "the file disappeared while it was being read")
        : FileError(.notFound, message(code))
    case EACCES, EPERM: FileError(.permissionDenied, message(code))
    default: FileError(.other, message(code))
    }
  }

  package static func lstatus(_ path: PathName) -> Result<FileStatus, FileError> {
    statAt(path, flags: AT_SYMLINK_NOFOLLOW)
  }

  package static func status(_ path: PathName) -> Result<FileStatus, FileError> {
    statAt(path, flags: 0)
  }

  private static func statAt(_ path: PathName, flags: Int32) -> Result<FileStatus, FileError> {
    at(path, failure: { .failure(error($0)) }) { directory, name in
      var info = stat()
      return fstatat(directory, name, &info, flags) == 0 ? .success(FileStatus(info)) : .failure(error(errno))
    }
  }

  /// The file `path` names, as an absolute path through no symbolic link and no `.` or `..`
  /// (`realpath(3)`), or `nil` when it does not exist or cannot be resolved.
  package static func physicalPath(_ path: PathName) -> PathName? {
    guard let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return PathName(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
  }

  /// The longest path the kernel takes in one call, terminating NUL included.
  package static let pathLimit = Int(PATH_MAX)

  /// Calls `body` with a folder descriptor and a path relative to it that together name `path`.
  /// A path the kernel takes whole goes as it is, relative to the working directory; a longer one
  /// (a deep folder tree) is reached by opening its leading folders a piece at a time, each piece
  /// shorter than ``pathLimit``. `failure` gets the `errno` of a piece that cannot be opened.
  package static func at<R>(
    _ path: PathName, failure: (Int32) -> R, _ body: (Int32, UnsafePointer<CChar>) -> R
  ) -> R {
    if path.bytes.count < pathLimit { return path.withCString { body(AT_FDCWD, $0) } }
    var directory = AT_FDCWD
    defer { if directory != AT_FDCWD { close(directory) } }
    var rest = path.bytes[...]
    while rest.count >= pathLimit {
      let window = rest.prefix(pathLimit - 1)
      guard let slash = window.lastIndex(of: UInt8(ascii: "/")), slash > rest.startIndex
      else { return failure(ENAMETOOLONG) }
      let piece = PathName(bytes: Array(rest[..<slash]))
      let next = piece.withCString { openat(directory, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
      guard next >= 0 else { return failure(errno) }
      if directory != AT_FDCWD { close(directory) }
      directory = next
      rest = rest[(slash + 1)...]
      while rest.first == UInt8(ascii: "/") { rest = rest.dropFirst() }
    }
    return PathName(bytes: Array(rest)).withCString { body(directory, $0) }
  }

  /// Removes a file, ignoring failure (a temporary file already gone).
  package static func unlink(_ path: PathName) {
    _ = at(path, failure: { _ in 0 }) { directory, name in unlinkat(directory, name, 0) }
  }

  /// Opens `path` (of any length; see ``at(_:failure:_:)``), or returns -1 with `errno` set.
  package static func openFile(_ path: PathName, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    at(
      path,
      failure: { code in
        errno = code
        return -1
      }
    ) { directory, name in openat(directory, name, flags, mode) }
  }

  /// The folder's entries (without `.` and `..`), sorted by bytes. The folder is read twice, first
  /// to size the listing exactly, so that it is held once, at its size.
  package static func directoryEntries(_ path: PathName) -> Result<DirectoryListing, FileError> {
    let descriptor = openFile(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(error(errno)) }
    guard let directory = fdopendir(descriptor) else {
      let code = errno
      close(descriptor)
      return .failure(error(code))
    }
    defer { closedir(directory) }
    let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    func forEachName(_ body: (UnsafeRawBufferPointer.SubSequence) -> Void) -> FileError? {
      while true {
        errno = 0
        guard let entry = readdir(directory) else {
          return errno != 0 ? error(errno) : nil
        }
        // The name read in place, up to its NUL: a record is only as long as its name needs
        // (`d_reclen`), so copying the whole `dirent` (`entry.pointee`) could read past the last
        // record of the C library's buffer.
        let start = UnsafeRawPointer(entry) + nameOffset
        let name = UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))[...]
        if name.isEmpty || (name.count <= 2 && name.allSatisfy { $0 == 0x2E }) { continue }
        body(name)
      }
    }
    var count = 0
    var bytes = 0
    if let failure = forEachName({ name in
      count += 1
      bytes += name.count
    }) {
      return .failure(failure)
    }
    rewinddir(directory)
    var listing = DirectoryListing()
    listing.reserveCapacity(names: count, bytes: bytes)
    if let failure = forEachName({ listing.append($0) }) { return .failure(failure) }
    listing.sort()
    return .success(listing)
  }

  /// Reads a whole file, refusing anything but a regular file and anything larger than `limit`.
  /// Opens with `O_NONBLOCK` so that a FIFO swapped in after the type check cannot block.
  /// A missing file is reported as having vanished (it was there when the folder was scanned)
  /// unless `expectedToExist` is false.
  package static func readFile(
    _ path: PathName, limit: Int, prefixOnly: Int? = nil, expectedToExist: Bool = true
  ) -> Result<[UInt8], FileError> {
    let fd = openFile(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return .failure(error(errno, vanishedIfMissing: expectedToExist)) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .failure(error(errno)) }
    let status = FileStatus(info)
    guard status.kind == .regular else {
      return .failure(FileError(.notRegularFile, "skipped: \(status.kind.phrase), not a regular file"))
    }
    if let prefixOnly {
      return readAll(
        fd: fd, sizeHint: min(prefixOnly, Int(status.size)), limit: prefixOnly,
        truncate: true)
    }
    if status.size > Int64(limit) {
      return .failure(tooLarge(size: status.size, limit: limit))
    }
    return readAll(fd: fd, sizeHint: Int(status.size), limit: limit)
  }

  /// Reads a FIFO (or anything else that streams) to its end, waiting for its writer, and refuses
  /// more than `limit` bytes.
  package static func readStream(_ path: PathName, limit: Int) -> Result<[UInt8], FileError> {
    let fd = openFile(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .failure(error(errno)) }
    defer { close(fd) }
    return readAll(fd: fd, sizeHint: 0, limit: limit, waitForData: true).flatMap { bytes in
      bytes.count > limit ? .failure(tooLarge(size: nil, limit: limit)) : .success(bytes)
    }
  }

  package static func tooLarge(size: Int64?, limit: Int) -> FileError {
    let what = size.map { "the file is \(ByteCount.describe($0))" } ?? "the input is"
    return FileError(
      .tooLarge,
      "\(what) larger than the --max-size limit of \(ByteCount.describe(Int64(limit)))")
  }

  /// Reads until end of file. Fails with `tooLarge` past `limit` bytes unless `truncate` is set, in
  /// which case it returns the first `limit` bytes.
  ///
  /// The bytes are read into uninitialized memory: one byte more than `sizeHint` (so that a file of
  /// the size `fstat` gave is read in one array, its end seen by one more `read`); only the bytes
  /// `read` wrote are ever part of the result. Input longer than that (a pipe) is read in pieces of up to 4 MiB and joined once at its end,
  /// each piece freed as it is copied, so that it is held about once.
  ///
  /// With `waitForData`, a non-blocking descriptor with nothing to read yet (`EAGAIN`) is polled
  /// until data or end of file arrives, as for a pipe on standard input that its writer left
  /// `O_NONBLOCK`; without it, `EAGAIN` ends the read (a FIFO swapped in for a file never blocks).
  package static func readAll(
    fd: Int32, sizeHint: Int, limit: Int, truncate: Bool = false, waitForData: Bool = false
  ) -> Result<
    [UInt8], FileError
  > {
    var pieces: [[UInt8]] = []
    var total = 0
    var capacity = max(max(0, min(sizeHint, limit)) + 1, 4096)
    reading: while true {
      var outcome = ReadOutcome.full
      // `fill` stops once a piece holds more than what is left of the limit.
      let left = limit - total
      let piece = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
        initialized = 0
        outcome = fill(buffer, from: fd, count: &initialized, limit: left, waitForData: waitForData)
      }
      total += piece.count
      switch outcome {
      case .ended where pieces.isEmpty: return limited(piece, limit: limit, truncate: truncate)
      case .ended:
        pieces.append(piece)
        break reading
      case .failed(let code): return .failure(error(code))
      case .full:
        pieces.append(piece)
        capacity = min(max(65536, total), 4 << 20)
      }
    }
    let joined = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      initialized = 0
      for index in pieces.indices {
        pieces[index].withUnsafeBufferPointer { piece in
          guard let source = piece.baseAddress, let target = buffer.baseAddress else { return }
          (target + initialized).initialize(from: source, count: piece.count)
        }
        initialized += pieces[index].count
        pieces[index] = []
      }
    }
    return limited(joined, limit: limit, truncate: truncate)
  }

  /// `bytes`, or its first `limit` bytes with `truncate`, or `tooLarge` past the limit.
  private static func limited(_ bytes: [UInt8], limit: Int, truncate: Bool) -> Result<[UInt8], FileError> {
    guard bytes.count > limit else { return .success(bytes) }
    guard truncate else { return .failure(tooLarge(size: nil, limit: limit)) }
    var bytes = bytes
    bytes.removeSubrange(limit...)
    return .success(bytes)
  }

  /// How ``fill(_:from:count:limit:waitForData:)`` stopped.
  private enum ReadOutcome {
    /// End of file, no data yet from a non-blocking pipe, or more than the limit read.
    case ended
    /// The buffer is full, with no more than the limit in it, and the input may go on.
    case full
    case failed(Int32)
  }

  /// Reads from `fd` into `buffer` after its first `count` bytes, until the buffer is full, the
  /// input ends or more than `limit` bytes are in; `count` is kept up to date as bytes arrive.
  private static func fill(
    _ buffer: UnsafeMutableBufferPointer<UInt8>, from fd: Int32, count: inout Int, limit: Int,
    waitForData: Bool
  ) -> ReadOutcome {
    guard let base = buffer.baseAddress else { return .full }
    while count < buffer.count {
      let result = read(fd, base + count, buffer.count - count)
      if result < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          // A non-blocking pipe with no data from its writer yet.
          guard waitForData else { return .ended }
          var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
          if poll(&request, 1, -1) < 0 && errno != EINTR { return .failed(errno) }
          continue
        }
        return .failed(code)
      }
      if result == 0 { return .ended }
      count += result
      if count > limit { return .ended }
    }
    return .full
  }

  /// Writes every byte of `text` to `fd`, retrying short writes. Returns false on error.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ text: String) -> Bool {
    text.withBorrowedUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
  }

  /// A descriptor left `O_NONBLOCK` by whoever opened it (a pipe shared with another program) is
  /// polled until it takes more, so a full pipe is not mistaken for a failure. `errno` tells why a
  /// write failed.
  @discardableResult
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let result = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if result < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          if poll(&request, 1, -1) >= 0 || errno == EINTR { continue }
        }
        errno = code
        return false
      }
      offset += result
    }
    return true
  }
}

/// Byte sizes for options and messages: "64 MiB", `--max-size 10M`.
package enum ByteCount {
  /// Parses "1048576", "512k", "64M", "64MiB", "1G", "2GB" (binary multiples).
  package static func parse(_ text: String) -> Int? {
    var digits = text.trimmingWhitespace()
    var multiplier = 1
    let lower = digits.lowercased()
    for (suffixes, value) in [
      (["kib", "kb", "k"], 1 << 10), (["mib", "mb", "m"], 1 << 20), (["gib", "gb", "g"], 1 << 30),
    ] {
      if let suffix = suffixes.first(where: { lower.hasSuffix($0) }) {
        digits = String(digits.dropLast(suffix.count)).trimmingWhitespace()
        multiplier = value
        break
      }
    }
    if lower.hasSuffix("b"), multiplier == 1 { digits = String(digits.dropLast()) }
    guard let number = Int(digits), number > 0 else { return nil }
    let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
    return overflow ? nil : product
  }

  package static func describe(_ bytes: Int64) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 20 {
      let tenths = (bytes * 10) >> 20
      return "\(tenths / 10).\(tenths % 10) MiB"
    }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}

/// The names in one folder, sorted by their bytes, packed into one buffer: a folder of 10,000 files
/// costs its names' bytes plus 8 bytes each, not an array per name.
package struct DirectoryListing: Sendable {
  private var bytes: [UInt8] = []
  private var spans: [Span] = []

  private struct Span: Sendable {
    var start: UInt32
    var end: UInt32
  }

  package init() {}

  package var count: Int { spans.count }

  package subscript(index: Int) -> ArraySlice<UInt8> {
    let span = spans[index]
    return bytes[Int(span.start)..<Int(span.end)]
  }

  package mutating func reserveCapacity(names: Int, bytes: Int) {
    spans.reserveCapacity(names)
    self.bytes.reserveCapacity(bytes)
  }

  package mutating func append(_ name: some Collection<UInt8>) {
    let start = bytes.count
    bytes += name
    precondition(bytes.count <= Int(UInt32.max), "more than 4 GB of file names")
    spans.append(Span(start: UInt32(start), end: UInt32(bytes.count)))
  }

  /// Sorts by bytes (`lexicographicallyPrecedes`, as a sort of `[[UInt8]]` would).
  package mutating func sort() {
    let bytes = self.bytes
    spans.sort {
      bytes[Int($0.start)..<Int($0.end)].lexicographicallyPrecedes(bytes[Int($1.start)..<Int($1.end)])
    }
  }
}
