import IPSDoctorSupport

/// Debug images loaded once for a run and lent to one report at a time: the reports of a batch
/// that share a dSYM map and parse it once per thread that uses it, not once per report.
///
/// A ``DebugImage`` keeps caches it fills as it answers (parsed units, line tables), so it is not
/// safe to use from two threads at once. The pool keeps that invariant: an image is either idle in
/// the pool or borrowed by exactly one caller, who gives it back when done; a file gets a second
/// loaded copy only while its first is borrowed. Nothing borrowed may outlive ``giveBack(_:_:)``.
final class DebugImagePool: @unchecked Sendable {
  private let monitor = Monitor(conditions: 0)
  /// The idle loaded instances of each file (each: the file's images, one per architecture).
  private var idle: [PathName: [[DebugImage]]] = [:]

  /// The images of `path`, loaded unless an idle copy is at hand.
  func borrow(_ path: PathName) -> [DebugImage] {
    let copy = monitor.locked { () -> [DebugImage]? in
      guard var copies = idle[path], let copy = copies.popLast() else { return nil }
      idle[path] = copies
      return copy
    }
    // Loaded outside the lock: another thread may load another file meanwhile.
    return copy ?? DebugImage.load(path: path)
  }

  /// Returns what ``borrow(_:)`` gave for `path`; the caller no longer uses it.
  func giveBack(_ path: PathName, _ images: [DebugImage]) {
    monitor.locked { idle[path, default: []].append(images) }
  }
}
