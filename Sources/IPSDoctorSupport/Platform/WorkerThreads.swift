/// Threads this tool starts itself, with a stack of a size it chose, so that how deep the work
/// may go is the same on every platform: Dispatch's worker threads have 512 KiB stacks on macOS
/// and 8 MiB on Linux; a main thread has 8 MiB on both.
package final class WorkerThreads: @unchecked Sendable {
  /// The stack of every worker thread: that of a main thread on Linux and macOS.
  package static let stackSize = 8 << 20

  /// The threads started, each joined once by ``join()``.
  private var threads: [pthread_t]

  private init(threads: [pthread_t]) {
    self.threads = threads
  }

  /// Starts `body(0)`, …, `body(count - 1)`, each on a thread of its own with a stack of
  /// `stackSize` bytes; ``join()`` waits for them. `nil`, with nothing started, when the system
  /// would not start every one.
  package static func start(
    count: Int, stackSize: Int = WorkerThreads.stackSize, _ body: @escaping @Sendable (Int) -> Void
  ) -> WorkerThreads? {
    var threads: [pthread_t] = []
    for index in 0..<max(0, count) {
      guard let thread = startThread(stackSize: stackSize, { body(index) }) else {
        // Those started already run to their end; the caller runs the work some other way.
        for thread in threads { pthread_join(thread, nil) }
        return nil
      }
      threads.append(thread)
    }
    return WorkerThreads(threads: threads)
  }

  /// Runs `body(0)`, …, `body(count - 1)` as ``start(count:stackSize:_:)`` does and waits for
  /// them; when threads cannot be started, runs them one after another on the calling thread.
  package static func run(
    count: Int, stackSize: Int = WorkerThreads.stackSize, _ body: @escaping @Sendable (Int) -> Void
  ) {
    if let threads = start(count: count, stackSize: stackSize, body) {
      threads.join()
    } else {
      for index in 0..<max(0, count) { body(index) }
    }
  }

  /// Waits until every thread has returned.
  package func join() {
    for thread in threads { pthread_join(thread, nil) }
    threads = []
  }

  /// A boxed closure, handed to the new thread through pthread's one pointer argument.
  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  private static func startThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return nil }
    defer { pthread_attr_destroy(&attributes) }
    guard pthread_attr_setstacksize(&attributes, stackSize) == 0 else { return nil }
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    // pthread_t is an opaque pointer on Darwin (so `pthread_create` fills a `pthread_t?`) and an
    // integer on Linux. The start routine's argument is optional on Linux and, depending on the
    // SDK's nullability (`_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT` in <pthread.h>), optional
    // or not on Darwin: `as UnsafeMutableRawPointer?` reads it either way.
    #if canImport(Darwin)
      var thread: pthread_t? = nil
    #else
      var thread = pthread_t()
    #endif
    let status = pthread_create(
      &thread, &attributes,
      { argument in
        guard let pointer = argument as UnsafeMutableRawPointer? else { return nil }
        Unmanaged<Work>.fromOpaque(pointer).takeRetainedValue().body()
        return nil
      }, work)
    guard status == 0 else {
      Unmanaged<Work>.fromOpaque(work).release()
      return nil
    }
    return thread
  }
}
