// Shared by the Swift benchmark executables: load a corpus into memory, time a closure over every
// file with 1 or N jobs, take medians, print one result line per measurement.

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every file of a corpus, read into memory before anything is timed.
public struct Corpus: @unchecked Sendable {
  public var paths: [String]
  public var contents: [[UInt8]]
  public var totalBytes: Int
  /// Wall time to list and read every file (reported separately, never part of a parse figure).
  public var loadSeconds: Double

  public init(directory: String, limit: Int?) {
    let start = Clock.now()
    var paths = Corpus.listFiles(directory).sorted()
    if let limit, paths.count > limit { paths = Array(paths.prefix(limit)) }
    var contents: [[UInt8]] = []
    contents.reserveCapacity(paths.count)
    var total = 0
    for path in paths {
      guard let bytes = Corpus.readFile(path) else { fatalError("cannot read \(path)") }
      total += bytes.count
      contents.append(bytes)
    }
    self.paths = paths
    self.contents = contents
    self.totalBytes = total
    self.loadSeconds = Clock.now() - start
  }

  public var count: Int { contents.count }

  static func listFiles(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { fatalError("cannot open directory \(directory)") }
    defer { closedir(dir) }
    var result: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if name.hasPrefix(".") { continue }
      let path = directory + "/" + name
      var info = stat()
      guard stat(path, &info) == 0 else { continue }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        result += listFiles(path)
      } else if (info.st_mode & S_IFMT) == S_IFREG {
        result.append(path)
      }
    }
    return result
  }

  public static func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    let size = Int(info.st_size)
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < size {
      let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, size - filled) }
      if n <= 0 { break }
      filled += n
    }
    if filled < size { bytes.removeLast(size - filled) }
    return bytes
  }
}

public enum Clock {
  public static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}

/// Runs `body(fileIndex) -> checksum` over every file index with `jobs` workers (static interleaved
/// partition; the corpus order mixes file kinds so the shares are even). Returns wall seconds and
/// the sum of checksums (which keeps the optimiser from dropping the work).
public func timeOnce(count: Int, jobs: Int, _ body: @Sendable (Int) -> Int) -> (seconds: Double, checksum: Int) {
  timeOnce(count: count, jobs: jobs) { index, _ in body(index) }
}

/// ``timeOnce(count:jobs:_:)`` telling `body` which worker (0..<jobs) runs it, so that a worker can
/// keep state of its own from file to file, as the CLI's workers do.
public func timeOnce(count: Int, jobs: Int, _ body: @Sendable (_ index: Int, _ worker: Int) -> Int)
  -> (seconds: Double, checksum: Int)
{
  // One counter per worker, a cache line apart.
  let stride = 16
  let counters = UnsafeMutableBufferPointer<Int>.allocate(capacity: jobs * stride)
  counters.initialize(repeating: 0)
  defer { counters.deallocate() }
  nonisolated(unsafe) let shared = counters
  let start = Clock.now()
  if jobs == 1 {
    var sum = 0
    for index in 0..<count { sum &+= body(index, 0) }
    shared[0] = sum
  } else {
    DispatchQueue.concurrentPerform(iterations: jobs) { worker in
      var sum = 0
      var index = worker
      while index < count {
        sum &+= body(index, worker)
        index += jobs
      }
      shared[worker * stride] = sum
    }
  }
  let seconds = Clock.now() - start
  var checksum = 0
  for worker in 0..<jobs { checksum &+= counters[worker * stride] }
  return (seconds, checksum)
}

public func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let mid = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Command-line options shared by the Swift benchmark executables.
public struct Options {
  public var corpus = "/tmp/ips-doctor-bench-corpus/n10000"
  public var runs = 5
  public var jobs: [Int] = [1, sysconf(Int32(_SC_NPROCESSORS_ONLN))].map { Int($0) }
  public var limit: Int?
  public var modes: [String] = []

  public init(arguments: [String], usage: String) {
    var index = 1
    func value() -> String {
      index += 1
      guard index < arguments.count else { fatalError("missing value after \(arguments[index - 1])\n\(usage)") }
      return arguments[index]
    }
    while index < arguments.count {
      switch arguments[index] {
      case "--corpus": corpus = value()
      case "--runs": runs = Int(value()) ?? runs
      case "--jobs": jobs = value().split(separator: ",").compactMap { Int($0) }
      case "--limit": limit = Int(value())
      case "--mode": modes = value().split(separator: ",").map(String.init)
      case "-h", "--help":
        print(usage)
        exit(0)
      default: fatalError("unknown argument \(arguments[index])\n\(usage)")
      }
      index += 1
    }
    jobs = Array(Set(jobs)).sorted()
  }
}

/// Times `body` `runs` times with each job count of `jobs` (after one warm-up pass each) and prints
/// one tab-separated result line per job count:
/// `result <tool> <mode> <jobs> <files> <bytes> <median s> <run s,…> <checksum>`.
/// The job counts take turns run by run (1, 2, 1, 2, …), so a slow spell of this noisy machine
/// falls on all of them alike instead of on whichever ran last.
public func measure(
  tool: String, mode: String, jobs: [Int], corpus: Corpus, runs: Int,
  _ body: @Sendable (Int) -> Int
) {
  measure(tool: tool, mode: mode, jobs: jobs, corpus: corpus, runs: runs) { index, _ in body(index) }
}

/// ``measure(tool:mode:jobs:corpus:runs:_:)`` telling `body` which worker runs it.
public func measure(
  tool: String, mode: String, jobs: [Int], corpus: Corpus, runs: Int,
  _ body: @Sendable (_ index: Int, _ worker: Int) -> Int
) {
  var checksums: [Int] = []
  for count in jobs { checksums.append(timeOnce(count: corpus.count, jobs: count, body).checksum) }
  var times = [[Double]](repeating: [], count: jobs.count)
  for _ in 0..<runs {
    for (slot, count) in jobs.enumerated() {
      let (seconds, checksum) = timeOnce(count: corpus.count, jobs: count, body)
      precondition(checksum == checksums[slot], "non-deterministic checksum")
      times[slot].append(seconds)
    }
  }
  for (slot, count) in jobs.enumerated() {
    let m = median(times[slot])
    let runText = times[slot].map { String(Int(($0 * 1e6).rounded())) }.joined(separator: ",")
    print(
      "result\t\(tool)\t\(mode)\t\(count)\t\(corpus.count)\t\(corpus.totalBytes)\t\(m)\t\(runText)\t\(checksums[slot])"
    )
    let filesPerSecond = Double(corpus.count) / m
    let mbPerSecond = Double(corpus.totalBytes) / m / 1e6
    let line =
      "# \(tool) \(mode) jobs=\(count): median \(m) s, \(Int(filesPerSecond)) files/s, \(Int(mbPerSecond)) MB/s\n"
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
  }
}
