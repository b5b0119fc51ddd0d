import IPSDoctorSupport

/// The bytes of one of `merge`'s parts, handed out a line at a time: a regular file is read
/// through a buffer of ``chunkSize`` bytes and read again by offset for each record the merge
/// writes; standard input and named pipes, which cannot be read twice, are copied as they arrive
/// to an unlinked temporary file that is read the same way (or, when none can be made, held in
/// memory).
///
/// Invariants: while a file is scanned, the source holds its buffer and the one line it hands out,
/// in an array exactly as long as that line (found first, then read whole), and nothing of a line
/// once its handler returns; so memory is the largest line plus the buffer, whatever the part's
/// size. A line is its bytes up to a line feed (or the end), without the line feed and without a
/// carriage return before it.
struct MergePartSource {
  /// A line's bytes: `range` of `bytes` (all of it for a file's line; the span in the part for
  /// bytes in memory, which are not copied).
  struct Line {
    var bytes: [UInt8]
    var range: Range<Int>
  }

  private enum Storage {
    /// The file and what it was when the scan opened it.
    case file(PathName, device: UInt64, inode: UInt64, size: Int64)
    /// A pipe's bytes, copied to a temporary file of ours.
    case copied(Copy)
    case memory([UInt8])
  }

  /// An unlinked temporary file, open for reading while a source refers to it.
  private final class Copy {
    let fd: Int32

    init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }
  }

  private let storage: Storage
  /// The most bytes the part may have, as `--max-size` says.
  private let limit: Int

  /// How many bytes of a file a scan reads at a time.
  static var chunkSize: Int { 1 << 20 }

  /// Bytes already read (standard input, a named pipe).
  init(bytes: [UInt8], limit: Int) {
    storage = .memory(bytes)
    self.limit = limit
  }

  /// The regular file at `path`, as `status` found it.
  init(file path: PathName, status: FileStatus, limit: Int) {
    storage = .file(path, device: status.device, inode: status.inode, size: status.size)
    self.limit = limit
  }

  /// What `input` (a pipe) gives, to its end, copied to an unlinked temporary file as it arrives;
  /// `nil` when no temporary file can be made (nothing was read: the caller reads the input
  /// whole); an error when the input is longer than `limit` or cannot be read or copied.
  static func copying(_ input: Int32, limit: Int) -> Result<MergePartSource, FileError>? {
    let directory =
      getenv("TMPDIR").flatMap { String(validatingCString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((directory + "/ips-doctor-merge.XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return nil }
    // Unlinked at once: the file goes with the process, on every path out of it.
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    let copy = Copy(fd: fd)
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    var total = 0
    while true {
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
      if count < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          // A pipe its writer left non-blocking, with nothing in it yet.
          var request = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
          if poll(&request, 1, -1) < 0 && errno != EINTR { return .failure(POSIX.error(errno)) }
          continue
        }
        return .failure(POSIX.error(code))
      }
      if count == 0 { break }
      total += count
      if total > limit { return .failure(POSIX.tooLarge(size: nil, limit: limit)) }
      let written = chunk.withUnsafeBytes { POSIX.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      if !written {
        return .failure(FileError(.other, "cannot copy it to a temporary file: \(POSIX.message(errno))"))
      }
    }
    return .success(MergePartSource(storage: .copied(copy), limit: limit))
  }

  private init(storage: Storage, limit: Int) {
    self.storage = storage
    self.limit = limit
  }

  /// Calls `body` with each line: its number (from 1), where it starts in the part and its bytes.
  /// Returns why the part could not be read to its end, after the lines before that point.
  func forEachLine(_ body: (_ number: Int, _ offset: Int, _ line: Line) -> Void) -> FileError? {
    switch storage {
    case .memory(let bytes):
      var start = 0
      var number = 0
      while start < bytes.count {
        number += 1
        let end = Self.lineFeed(in: bytes, start..<bytes.count) ?? bytes.count
        body(number, start, Line(bytes: bytes, range: start..<Self.withoutReturn(bytes, start..<end)))
        start = end + 1
      }
      return nil
    case .file(let path, let device, let inode, _):
      switch open(path, device: device, inode: inode) {
      case .failure(let error): return error
      case .success(let fd):
        defer { close(fd) }
        return scan(fd, body)
      }
    case .copied(let copy):
      return scan(copy.fd, body)
    }
  }

  /// The line at `range` of the part (as ``forEachLine(_:)`` handed it out), read again; fails when
  /// the file is no longer the one scanned.
  func line(_ range: Range<Int>) -> Result<Line, FileError> {
    switch storage {
    case .memory(let bytes):
      return .success(Line(bytes: bytes, range: range))
    case .file(let path, let device, let inode, let size):
      switch open(path, device: device, inode: inode, size: size) {
      case .failure(let error): return .failure(error)
      case .success(let fd):
        defer { close(fd) }
        return Self.readRange(fd, range).map { Line(bytes: $0, range: 0..<$0.count) }
      }
    case .copied(let copy):
      return Self.readRange(copy.fd, range).map { Line(bytes: $0, range: 0..<$0.count) }
    }
  }

  /// Opens the file, refusing one that is not the file scanned (another device or inode, or,
  /// given `size`, another size).
  private func open(_ path: PathName, device: UInt64, inode: UInt64, size: Int64? = nil) -> Result<Int32, FileError> {
    let fd = POSIX.openFile(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return .failure(POSIX.error(errno)) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      return .failure(POSIX.error(code))
    }
    let now = FileStatus(info)
    guard now.kind == .regular, now.device == device, now.inode == inode, size == nil || now.size == size else {
      close(fd)
      return .failure(FileError(.vanished, "the part changed while it was merged"))
    }
    return .success(fd)
  }

  /// The lines of the file open at `fd`, read from its start.
  private func scan(_ fd: Int32, _ body: (_ number: Int, _ offset: Int, _ line: Line) -> Void) -> FileError? {
    var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
    var chunkStart = 0  // where `chunk[0]` is in the file
    var filled = 0  // how many bytes of `chunk` hold the file's
    var lineStart = 0  // where the current line starts in the file
    var searched = 0  // how many bytes of `chunk` are known to hold no line feed after the line's start
    var atEnd = false
    var number = 0
    while true {
      let first = lineStart - chunkStart
      if let feed = Self.lineFeed(in: chunk, (first + searched)..<filled) {
        number += 1
        let range = first..<Self.withoutReturn(chunk, first..<feed)
        body(number, lineStart, Line(bytes: Array(chunk[range]), range: 0..<range.count))
        lineStart = chunkStart + feed + 1
        searched = 0
        continue
      }
      searched = filled - first
      if atEnd {
        if filled > first {
          number += 1
          let range = first..<Self.withoutReturn(chunk, first..<filled)
          body(number, lineStart, Line(bytes: Array(chunk[range]), range: 0..<range.count))
        }
        return nil
      }
      if first > 0 {
        // Move the line's start to the front of the buffer, to read more after it.
        chunk.withUnsafeMutableBytes { buffer in
          guard let base = buffer.baseAddress else { return }
          _ = memmove(base, base + first, filled - first)
        }
        filled -= first
        chunkStart = lineStart
        continue
      }
      if filled < chunk.count {
        switch Self.readAt(fd, at: chunkStart + filled, into: &chunk, from: filled) {
        case .failure(let error): return error
        case .success(0): atEnd = true
        case .success(let count):
          filled += count
          if chunkStart + filled > limit { return POSIX.tooLarge(size: nil, limit: limit) }
        }
        continue
      }
      // A line longer than the buffer: find its end, then read it whole into an array of its size.
      var end = chunkStart + filled
      var feedFound = false
      while !feedFound {
        switch Self.readAt(fd, at: end, into: &chunk, from: 0) {
        case .failure(let error): return error
        case .success(0): atEnd = true
        case .success(let count):
          if let feed = Self.lineFeed(in: chunk, 0..<count) {
            end += feed
            feedFound = true
          } else {
            end += count
          }
          if end > limit { return POSIX.tooLarge(size: nil, limit: limit) }
        }
        if atEnd { break }
      }
      switch Self.readRange(fd, lineStart..<end) {
      case .failure(let error): return error
      case .success(let bytes):
        number += 1
        body(number, lineStart, Line(bytes: bytes, range: 0..<Self.withoutReturn(bytes, 0..<bytes.count)))
      }
      if !feedFound { return nil }
      lineStart = end + 1
      chunkStart = lineStart
      filled = 0
      searched = 0
    }
  }

  /// Where the first line feed in `range` of `bytes` is.
  private static func lineFeed(in bytes: [UInt8], _ range: Range<Int>) -> Int? {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress, !range.isEmpty,
        let found = memchr(base + range.lowerBound, 0x0A, range.count)
      else { return nil }
      return base.distance(to: UnsafeRawPointer(found))
    }
  }

  /// The end of `range` of `bytes`, less a carriage return that ends it.
  private static func withoutReturn(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
    range.upperBound > range.lowerBound && bytes[range.upperBound - 1] == UInt8(ascii: "\r")
      ? range.upperBound - 1 : range.upperBound
  }

  /// Reads at `offset` of the file into `buffer` after its first `start` bytes: how many bytes
  /// were read (0 at the end of the file).
  private static func readAt(_ fd: Int32, at offset: Int, into buffer: inout [UInt8], from start: Int) -> Result<
    Int, FileError
  > {
    buffer.withUnsafeMutableBytes { room in
      while true {
        guard let base = room.baseAddress else { return .success(0) }
        let count = pread(fd, base + start, room.count - start, off_t(offset))
        if count >= 0 { return .success(count) }
        if errno != EINTR { return .failure(POSIX.error(errno)) }
      }
    }
  }

  /// The bytes at `range` of the file, in an array of exactly that size; fails when the file ends
  /// before.
  private static func readRange(_ fd: Int32, _ range: Range<Int>) -> Result<[UInt8], FileError> {
    var failure: FileError?
    let bytes = [UInt8](unsafeUninitializedCapacity: range.count) { room, initialized in
      initialized = 0
      guard let base = room.baseAddress else { return }
      while initialized < range.count {
        let count = pread(fd, base + initialized, range.count - initialized, off_t(range.lowerBound + initialized))
        if count < 0 && errno == EINTR { continue }
        if count <= 0 {
          failure = count < 0 ? POSIX.error(errno) : FileError(.vanished, "the part changed while it was merged")
          return
        }
        initialized += count
      }
    }
    if let failure { return .failure(failure) }
    return .success(bytes)
  }
}
