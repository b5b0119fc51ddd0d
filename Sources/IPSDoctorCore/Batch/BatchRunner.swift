import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads and diagnoses a list of inputs in parallel, in bounded windows, handing the outcomes of
/// each window to the caller in input order. Memory stays flat: only one window of outcomes (never
/// a parsed report) is alive at a time, and output is byte-for-byte the same for any `--jobs`.
struct BatchRunner {
  var items: InputList
  var options: Options
  var baseline: Set<String>?
  var standardInput: Result<[UInt8], FileError>?
  var jobs: Int

  /// How many reports are read before their results are handed on.
  var windowSize: Int { max(32, jobs * 8) }

  /// Calls `handle` once per window with the outcomes (files that turned out not to be reports are
  /// left out) and the messages for inputs skipped while reading, both in input order. With more
  /// than one job, the next window is read and diagnosed while `handle` renders this one (the
  /// rendering is serial: it used to leave the workers idle for about a third of a batch).
  func run(_ handle: (_ outcomes: [ReportOutcome], _ skipped: [InputNotice], _ done: Int) -> Void) {
    guard items.count > 0 else { return }
    let work = Work(
      options: options, baseline: baseline, standardInput: standardInput, jobs: jobs,
      // One report shares little with itself: a single input skips the tables' set-up.
      texts: items.count > 1 ? SharedTextsPool(count: max(1, jobs)) : nil)
    var end = min(items.count, windowSize)
    var window = (0..<end).map { items[$0] }  // items are built a window at a time
    var results = work.process(window, firstIndex: 0)
    while true {
      let nextStart = end
      let nextEnd = min(items.count, nextStart + windowSize)
      let nextWindow = (nextStart..<nextEnd).map { items[$0] }
      let ahead = jobs > 1 && !nextWindow.isEmpty
        ? Background { work.process(nextWindow, firstIndex: nextStart) } : nil
      var outcomes: [ReportOutcome] = []
      var skipped: [InputNotice] = []
      for (offset, result) in results.enumerated() {
        if let outcome = result.outcome { outcomes.append(outcome) }
        if let message = result.skipped {
          skipped.append(InputNotice(kind: .skipped, path: window[offset].display, message: message))
        }
      }
      handle(outcomes, skipped, end)
      guard !nextWindow.isEmpty else { return }
      results = ahead?.wait() ?? work.process(nextWindow, firstIndex: nextStart)
      window = nextWindow
      end = nextEnd
    }
  }

  /// What the workers need, without the input list (which stays on the calling thread).
  private struct Work: Sendable {
    var options: Options
    var baseline: Set<String>?
    var standardInput: Result<[UInt8], FileError>?
    var jobs: Int
    /// One table of shared texts per worker, kept from window to window.
    let texts: SharedTextsPool?

    func process(_ window: [InputItem], firstIndex: Int) -> [(outcome: ReportOutcome?, skipped: String?)] {
      let count = window.count
      let options = self.options
      let baseline = self.baseline
      let standardInput = self.standardInput
      let texts = self.texts
      let work: @Sendable (Int, Int) -> (ReportOutcome?, String?) = { offset, worker in
        ReportOutcome.make(
          item: window[offset], index: firstIndex + offset, standardInput: standardInput,
          options: options, baseline: baseline, texts: texts?[worker])
      }
      if jobs <= 1 || count == 1 {
        return (0..<count).map { work($0, 0) }
      }
      let slots = ResultSlots<(ReportOutcome?, String?)>(count: count)
      let counter = WorkCounter()
      DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { worker in
        while true {
          let offset = counter.next()
          guard offset < count else { return }
          slots.store(work(offset, worker), at: offset)
        }
      }
      return slots.take().map { ($0.0, $0.1) }
    }
  }
}

/// A computation started on another thread at once; ``wait()`` returns its value.
private final class Background<Value: Sendable>: @unchecked Sendable {
  private var value: Value?
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Value) {
    DispatchQueue.global().async {
      self.value = body()
      self.done.signal()
    }
  }

  /// The value, once computed (the semaphore orders the write before this read).
  func wait() -> Value {
    done.wait()
    return value!
  }
}

/// A ``SharedTexts`` table per worker. Worker `i` of a ``BatchRunner/Work/process(_:firstIndex:)``
/// call is the only user of table `i` while the call runs (`concurrentPerform` runs each iteration
/// once, on one thread), and the calls never overlap: `run` waits for each before it starts the
/// next. That is what makes handing the non-`Sendable` tables to the workers safe.
final class SharedTextsPool: @unchecked Sendable {
  private let tables: [SharedTexts]

  init(count: Int) { tables = (0..<count).map { _ in SharedTexts() } }

  subscript(worker: Int) -> SharedTexts { tables[worker] }
}

/// Slots that workers fill, each index exactly once; read after every worker has finished.
private final class ResultSlots<Value: Sendable>: @unchecked Sendable {
  private var values: [Value?]
  private let lock = Lock()

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func store(_ value: Value, at index: Int) {
    lock.locked { values[index] = value }
  }

  func take() -> [Value] {
    lock.locked { values.map { $0! } }
  }
}

/// Hands out 0, 1, 2, … to workers.
private final class WorkCounter: @unchecked Sendable {
  private var value = 0
  private let lock = Lock()

  func next() -> Int {
    lock.locked {
      defer { value += 1 }
      return value
    }
  }
}

/// A pthread mutex (no Foundation, and `Synchronization.Mutex` needs macOS 15).
final class Lock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
