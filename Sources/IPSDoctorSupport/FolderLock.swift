#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive advisory lock (`flock`, on Linux and the BSDs alike) on a folder, held while a
/// read-modify-write of a file in it runs, so that processes that update the same file one after
/// another each see the other's result. The folder is locked rather than the file: the file is
/// replaced by a rename, and a lock on the replaced inode would lock nothing.
package enum FolderLock {
  /// Runs `body` holding the lock on `folder`, waiting for it as long as another process holds
  /// it. When the folder cannot be opened or locked (no permission, a file system without locks)
  /// `body` runs unlocked: the lock orders writers, it is not needed for a single one.
  package static func withExclusiveLock<T>(on folder: PathName, _ body: () throws -> T) rethrows -> T {
    let descriptor = POSIX.openFile(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
    guard descriptor >= 0 else { return try body() }
    defer { close(descriptor) }  // closing releases the lock
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { return try body() }
    }
    return try body()
  }
}
