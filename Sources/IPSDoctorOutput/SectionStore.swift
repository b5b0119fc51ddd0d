import IPSDoctorSupport

/// Rendered text kept by key until the end of a batch (the first report's section of each crash
/// group), in an unlinked temporary file so that memory does not grow with the number of groups;
/// in memory when no temporary file can be made or written.
final class SectionStore {
  private var fd: Int32 = -1
  private var fileFailed = false
  private var end: off_t = 0
  private var places: [String: (offset: off_t, count: Int)] = [:]
  private var memory: [String: [UInt8]] = [:]
  private let openFile: (String) -> Int32

  init(openFile: @escaping (String) -> Int32 = Spool.openTemporaryFile) {
    self.openFile = openFile
  }

  deinit { if fd >= 0 { close(fd) } }

  func contains(_ key: String) -> Bool { places[key] != nil || memory[key] != nil }

  /// Keeps `text` for `key`, unless a text is already kept for it.
  func keep(_ text: String, for key: String) {
    guard !contains(key) else { return }
    let count = text.utf8.count
    if fd < 0 && !fileFailed {
      fd = openFile(Spool.temporaryDirectory())
      fileFailed = fd < 0
    }
    if fd >= 0 && !fileFailed {
      // Written from the text's own UTF-8: a long section is not copied to be stored.
      let written = text.withBorrowedUTF8 { utf8 in
        let buffer = UnsafeRawBufferPointer(utf8)
        var offset = 0
        while offset < buffer.count {
          let result = pwrite(fd, buffer.baseAddress! + offset, buffer.count - offset, end + off_t(offset))
          if result < 0 {
            if errno == EINTR { continue }
            return false
          }
          offset += result
        }
        return true
      }
      if written {
        places[key] = (end, count)
        end += off_t(count)
        return
      }
      fileFailed = true
    }
    memory[key] = Array(text.utf8)
  }

  /// The text kept for `key`; `nil` when none was, or it cannot be read back.
  func text(for key: String) -> String? {
    if let bytes = memory[key] { return String(decoding: bytes, as: UTF8.self) }
    guard let place = places[key], fd >= 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: place.count)
    let complete = bytes.withUnsafeMutableBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let result = pread(fd, buffer.baseAddress! + offset, buffer.count - offset, place.offset + off_t(offset))
        if result < 0 && errno == EINTR { continue }
        if result <= 0 { return false }
        offset += result
      }
      return true
    }
    return complete ? String(decoding: bytes, as: UTF8.self) : nil
  }
}
