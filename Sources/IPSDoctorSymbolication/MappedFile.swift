import IPSDoctorSupport

/// A file mapped read-only into memory. The bytes stay valid for the object's lifetime; every
/// reader built on them holds the object, so nothing outlives the mapping.
final class MappedFile {
  /// The whole file; empty (and unmapped) for an empty file.
  let bytes: UnsafeRawBufferPointer

  /// Maps `path`, or returns `nil` when it cannot be opened, is not a regular file, or is larger
  /// than `limit` bytes.
  init?(path: PathName, limit: Int = 4 << 30) {
    let descriptor = POSIX.openFile(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    let size = Int(status.st_size)
    guard size >= 0, size <= limit else { return nil }
    if size == 0 {
      bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      return
    }
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != UnsafeMutableRawPointer(bitPattern: -1)
    else { return nil }
    bytes = UnsafeRawBufferPointer(start: address, count: size)
  }

  deinit {
    if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
  }
}
