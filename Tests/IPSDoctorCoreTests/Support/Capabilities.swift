import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the machine running the tests can do, probed rather than assumed from the system's name:
/// a test that needs one of these checks it and, where it is missing, proves its promise another
/// way or is skipped with the reason.
enum Capability {
  /// `/dev/full` exists and every write to it fails with `ENOSPC` (Linux; not macOS).
  static let devFull: Bool = {
    let fd = open("/dev/full", O_WRONLY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let byte: UInt8 = 0x41
    let written = withUnsafeBytes(of: byte) { write(fd, $0.baseAddress, 1) }
    return written < 0 && errno == ENOSPC
  }()

  /// Whether the file system under `directory` keeps a file name that is not UTF-8 (ext4 and
  /// most Unix file systems do; APFS and HFS+ refuse it with `EILSEQ`).
  static func keepsNonUTF8Names(in directory: String) -> Bool {
    let name = Array((directory + "/probe-").utf8) + [0xFF, 0]
    let fd = name.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
    }
    guard fd >= 0 else { return false }
    close(fd)
    _ = name.withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
    return true
  }
}
