#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file written atomically: the text goes to a temporary file in the same directory, which is
/// renamed over the destination only when everything was written. Readers never see half a file,
/// and a failed run leaves the old file alone.
final class AtomicFile {
  let destination: PathName
  private let temporary: PathName
  private var fd: Int32
  private(set) var failure: String?

  /// Creates the temporary file now, so that an unwritable destination fails before any work.
  init(_ path: String) throws(FileError) {
    destination = PathName(path)
    let name = destination.lastComponent
    let directory = destination.directory
    var template = directory.appending([UInt8(ascii: ".")] + Array(name) + Array(".tmp-XXXXXX".utf8)).bytes
    template.append(0)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
    }
    guard descriptor >= 0 else { throw POSIX.error(errno) }
    template.removeLast()
    temporary = PathName(bytes: template)
    fd = descriptor
    // mkstemp creates the file 0600; give it the mode a plain create would have.
    let mask = umask(0o022)
    umask(mask)
    fchmod(fd, 0o666 & ~mask)
  }

  deinit {
    if fd >= 0 {
      close(fd)
      temporary.withCString { _ = unlink($0) }
    }
  }

  /// Appends text; returns false (and remembers why) on failure.
  func write(_ text: String) -> Bool {
    text.withBorrowedUTF8 { write(utf8: UnsafeRawBufferPointer($0)) }
  }

  /// Appends UTF-8 text already in bytes; returns false (and remembers why) on failure.
  func write(utf8 bytes: UnsafeRawBufferPointer) -> Bool {
    guard failure == nil, fd >= 0 else { return false }
    if !POSIX.writeAll(fd, bytes) {
      failure = POSIX.message(errno)
      return false
    }
    return true
  }

  /// Renames the temporary file over the destination.
  func commit() throws(FileError) {
    guard fd >= 0 else { throw FileError(.other, "already closed") }
    if let failure {
      abandon()
      throw FileError(.other, failure)
    }
    let closed = close(fd)
    fd = -1
    let renamed =
      closed == 0
      && temporary.withCString { from in destination.withCString { to in rename(from, to) } } == 0
    if !renamed {
      let code = errno
      temporary.withCString { _ = unlink($0) }
      throw POSIX.error(code)
    }
  }

  /// Deletes the temporary file and leaves the destination untouched.
  func abandon() {
    guard fd >= 0 else { return }
    close(fd)
    fd = -1
    temporary.withCString { _ = unlink($0) }
  }
}
