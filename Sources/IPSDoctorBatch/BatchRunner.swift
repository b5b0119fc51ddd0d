import IPSDoctorReport
import IPSDoctorSupport

/// Reads and diagnoses a list of inputs in parallel, handing the outcomes to the caller in input
/// order, a window at a time. Memory stays flat: at most two windows of outcomes (never a parsed
/// report) are alive at a time, and output is byte-for-byte the same for any `--jobs`.
package struct BatchRunner {
  var items: InputList
  var options: Options
  var baseline: KnownSignatures?
  var standardInput: Result<[UInt8], FileError>?
  var jobs: Int
  /// ``windowSize`` when set (the tests use small windows).
  var windowSizeOverride: Int? = nil

  package init(
    items: InputList, options: Options, baseline: KnownSignatures? = nil,
    standardInput: Result<[UInt8], FileError>? = nil,
    jobs: Int, windowSizeOverride: Int? = nil
  ) {
    self.items = items
    self.options = options
    self.baseline = baseline
    self.standardInput = standardInput
    self.jobs = jobs
    self.windowSizeOverride = windowSizeOverride
  }

  /// How many outcomes are handed on at a time; with more than one job, the workers may run one
  /// window ahead of the caller.
  package var windowSize: Int { max(1, windowSizeOverride ?? max(32, jobs * 8)) }

  /// Calls `handle` once per window with the outcomes (files that turned out not to be reports are
  /// left out) and the messages for inputs skipped while reading, both in input order.
  ///
  /// With more than one job the workers run for the whole batch, each taking the next input as it
  /// finishes one, up to a window ahead of `handle`, which renders on the calling thread. There
  /// are at most as many workers as processors online.
  package func run(_ handle: (_ outcomes: [ReportOutcome], _ skipped: [InputNotice], _ done: Int) -> Void) {
    guard items.count > 0 else { return }
    let work = Work(
      items: items, options: options, baseline: baseline, standardInput: standardInput,
      // One report shares little with itself: a single input skips the tables' set-up.
      texts: items.count > 1 ? SharedTextsPool(count: max(1, jobs)) : nil)
    let window = windowSize
    // The outcomes are moved out of the results: `results` is not used after `deliver`.
    func deliver(_ results: consuming [Work.Output], from start: Int) {
      var outcomes: [ReportOutcome] = []
      outcomes.reserveCapacity(results.count)
      var skipped: [InputNotice] = []
      for offset in results.indices {
        outcomes.append(contentsOf: results[offset].outcomes)
        results[offset].outcomes = []
        if let notice = results[offset].skipped {
          skipped.append(notice)
        }
      }
      handle(outcomes, skipped, start + results.count)
    }
    func runHere() {
      var start = 0
      while start < items.count {
        let end = min(items.count, start + window)
        deliver((start..<end).map { work.result($0, worker: 0) }, from: start)
        start = end
      }
    }
    let workers = min(jobs, items.count, Self.processorCount)
    guard workers > 1 else { return runHere() }
    let queue = ResultQueue<Work.Output>(count: items.count, capacity: 2 * window)
    // The workers run on threads of their own (``WorkerThreads``) while this one hands the results
    // on.
    let running = WorkerThreads.start(count: workers) { worker in
      while let index = queue.nextIndex() {
        queue.store(work.result(index, worker: worker), at: index)
      }
    }
    guard let running else { return runHere() }
    var start = 0
    while start < items.count {
      let results = queue.take(from: start, count: min(window, items.count - start))
      deliver(results, from: start)
      start += results.count
    }
    running.join()
  }

  /// The processors online: more workers than that would only take turns.
  private static let processorCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

  /// What the workers need.
  private struct Work: Sendable {
    /// One input's result: an outcome, or the notice of an input that was skipped (at most one
    /// of them is set).
    struct Output: Sendable {
      /// None for a file that is not a report, one for most, one per diagnostic of a MetricKit
      /// payload.
      var outcomes: [ReportOutcome]
      var skipped: InputNotice?
    }

    var items: InputList
    var options: Options
    var baseline: KnownSignatures?
    var standardInput: Result<[UInt8], FileError>?
    /// One table of shared texts per worker, kept for the whole batch.
    let texts: SharedTextsPool?

    func result(_ index: Int, worker: Int) -> Output {
      let (outcomes, skipped) = ReportOutcome.make(
        item: items[index], index: index, standardInput: standardInput, options: options, baseline: baseline,
        texts: texts?[worker])
      return Output(outcomes: outcomes, skipped: skipped)
    }
  }
}

/// A ``SharedTexts`` table per worker, made when the worker first asks for it. Worker `i` (the
/// thread ``WorkerThreads`` runs `body(i)` on) is the only user of slot `i`. That is what makes
/// handing the non-`Sendable` tables to the workers, and filling the slots without a lock, safe.
/// A table is made only when its worker takes an input.
final class SharedTextsPool: @unchecked Sendable {
  private let tables: UnsafeMutablePointer<SharedTexts?>
  let count: Int

  init(count: Int) {
    self.count = count
    tables = UnsafeMutablePointer<SharedTexts?>.allocate(capacity: count)
    tables.initialize(repeating: nil, count: count)
  }

  deinit {
    tables.deinitialize(count: count)
    tables.deallocate()
  }

  subscript(worker: Int) -> SharedTexts {
    precondition(worker >= 0 && worker < count, "worker \(worker) of \(count)")
    if let table = tables[worker] { return table }
    let table = SharedTexts()
    tables[worker] = table
    return table
  }

  /// How many workers have asked for their table.
  var madeCount: Int { (0..<count).count { tables[$0] != nil } }
}

/// The inputs' results between the workers and the caller: workers take input indexes in order
/// and store each result; the caller takes them back in order, a run at a time. Workers wait when
/// they are `capacity` inputs ahead of the caller, so memory holds at most `capacity` results.
private final class ResultQueue<Value: Sendable>: @unchecked Sendable {
  private let count: Int
  private let capacity: Int
  /// Results by input index modulo `capacity`.
  private var slots: [Value?]
  /// The next input to hand a worker.
  private var next = 0
  /// Inputs before this one are taken by the caller.
  private var taken = 0
  /// The first input, from `taken` on, whose result is not stored yet.
  private var readyEnd = 0
  /// How many results from `taken` on the caller is waiting for (0: it is not waiting).
  private var wanted = 0
  private let monitor = Monitor(conditions: 2)
  /// The condition workers wait on for room, and the one the caller waits on for its results.
  private static var room: Int { 0 }
  private static var ready: Int { 1 }

  init(count: Int, capacity: Int) {
    self.count = count
    self.capacity = max(1, capacity)
    slots = Array(repeating: nil, count: self.capacity)
  }

  /// The next input for a worker, once it is less than `capacity` ahead of the caller; `nil` when
  /// every input has been handed out.
  func nextIndex() -> Int? {
    monitor.locked {
      while next < count && next - taken >= capacity { monitor.wait(Self.room) }
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func store(_ value: Value, at index: Int) {
    monitor.locked {
      slots[index % capacity] = value
      while readyEnd < count && readyEnd - taken < capacity && slots[readyEnd % capacity] != nil { readyEnd += 1 }
      if wanted > 0 && readyEnd - taken >= wanted { monitor.signal(Self.ready) }
    }
  }

  /// The results of inputs `start..<start + count` (`start` is where the last call ended), once all
  /// are stored.
  func take(from start: Int, count wantedCount: Int) -> [Value] {
    monitor.locked {
      wanted = wantedCount
      while readyEnd - start < wantedCount { monitor.wait(Self.ready) }
      wanted = 0
      var values: [Value] = []
      values.reserveCapacity(wantedCount)
      for index in start..<start + wantedCount {
        values.append(slots[index % capacity].take()!)
      }
      taken = start + wantedCount
      monitor.broadcast(Self.room)
      return values
    }
  }
}
