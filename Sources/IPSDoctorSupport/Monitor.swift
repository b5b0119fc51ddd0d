/// A pthread mutex and condition variables waited on with it held (no Foundation, and
/// `Synchronization.Mutex` needs macOS 15).
package final class Monitor: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let conditions: UnsafeMutablePointer<pthread_cond_t>
  private let conditionCount: Int

  package init(conditions count: Int) {
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    conditionCount = count
    conditions = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: max(1, count))
    conditions.initialize(repeating: pthread_cond_t(), count: count)
    for index in 0..<count { pthread_cond_init(conditions + index, nil) }
  }

  deinit {
    for index in 0..<conditionCount { pthread_cond_destroy(conditions + index) }
    conditions.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  package func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Within ``locked(_:)``: releases the mutex until condition `index` is signalled, then holds it
  /// again. Callers wait in a loop on what they wait for: a wait may also end without a signal.
  package func wait(_ index: Int) { pthread_cond_wait(conditions + index, mutex) }

  package func signal(_ index: Int) { pthread_cond_signal(conditions + index) }

  package func broadcast(_ index: Int) { pthread_cond_broadcast(conditions + index) }
}
