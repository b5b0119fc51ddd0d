import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput

/// The batch's fast paths against the plain code they replace: the text reporter's cache of
/// rendered remedies and verification steps, and the runner that reads the next window while the
/// current one is rendered.
@Suite struct BatchPipelineTests {
  /// Every rule's remedy, through the cache (a miss, then a hit), is what `renderMarkdown` gives.
  @Test func cachedRemediesMatchRendering() {
    for width in [40, 80, 100] {
      for color in [false, true] {
        let style = Style(enabled: color)
        let cache = RenderCache()
        for rule in RuleCatalog.all {
          let remedy = rule.description.remedy
          let plain = PlainText.renderMarkdown(remedy, width: width, indent: "    ", style: style)
          for _ in 0..<2 {
            let cached = cache.lines(for: remedy, kind: .remedy) {
              PlainText.renderMarkdown(remedy, width: width, indent: "    ", style: style)
            }
            #expect(cached == plain, "\(rule.description.id), width \(width), colour \(color)")
          }
        }
      }
    }
  }

  /// The cache keeps remedies and verification steps apart and stays bounded.
  @Test func cacheSeparatesKindsAndStaysBounded() {
    let cache = RenderCache()
    let text = "Run **`atos`** — see [the guide](https://example.com)."
    let remedy = cache.lines(for: text, kind: .remedy) { ["remedy"] }
    let step = cache.lines(for: text, kind: .verification) { ["step"] }
    #expect(remedy == ["remedy"])
    #expect(step == ["step"])
    #expect(cache.lines(for: text, kind: .remedy) { ["again"] } == ["remedy"])
    for number in 0..<(RenderCache.limit * 2 + 7) {
      let lines = cache.lines(for: "text \(number)", kind: .verification) { ["\(number)"] }
      #expect(lines == ["\(number)"])
      #expect(cache.count <= RenderCache.limit)
    }
  }

  /// A folder of more than one window gives the same output and status with the read-ahead
  /// (`-j 2`, `-j 3`) as without it (`-j 1`), in text, verbose text and JSON.
  @Test func readAheadMatchesSerialRun() {
    let folder = "Fixtures/reports"
    for format in [[], ["-v"], ["--format", "json"], ["--format", "markdown"]] {
      let serial = CLITest.run(["--no-progress", "-j", "1"] + format + [folder])
      #expect(!serial.stdout.isEmpty)
      for jobs in ["2", "3"] {
        let parallel = CLITest.run(["--no-progress", "-j", jobs] + format + [folder])
        #expect(parallel.stdout == serial.stdout, "\(format) -j \(jobs)")
        #expect(parallel.stderr == serial.stderr, "\(format) -j \(jobs)")
        #expect(parallel.status == serial.status, "\(format) -j \(jobs)")
      }
    }
  }

  /// The workers run ahead of the caller through a queue of results that wraps around every two
  /// windows: with windows of 1 to 7 reports, 2 and 3 jobs hand on the same outcomes, skipped
  /// inputs and progress counts, window by window, as one job does.
  @Test func parallelRunMatchesSerialRunWindowByWindow() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let reports = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("reports").path).sorted()
      .filter { $0.hasSuffix(".ips") || $0.hasSuffix(".crash") }.prefix(20)
    for name in reports {
      try FileManager.default.copyItem(
        at: Fixtures.url("reports").appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
    try Data().write(to: folder.appendingPathComponent("empty.ips"))
    try Data("hello".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    try Data("{\"bug_type\":".utf8).write(to: folder.appendingPathComponent("cut.ips"))
    let inputs = InputDiscovery(paths: [folder.path]).inputs

    typealias Window = (outcomes: [ReportOutcome], skipped: [InputNotice], done: Int)
    func windows(jobs: Int, size: Int) -> [Window] {
      var runner = BatchRunner(items: inputs, options: Options(), baseline: nil, standardInput: nil, jobs: jobs)
      runner.windowSizeOverride = size
      var seen: [Window] = []
      runner.run { seen.append(($0, $1, $2)) }
      return seen
    }
    for size in [1, 2, 3, 7] {
      let serial = windows(jobs: 1, size: size)
      #expect(serial.map(\.done) == Array(stride(from: size, to: inputs.count, by: size)) + [inputs.count])
      let indexes = serial.flatMap(\.outcomes).map(\.index)
      #expect(indexes.count >= reports.count && indexes == indexes.sorted())
      for jobs in [2, 3] {
        let parallel = windows(jobs: jobs, size: size)
        #expect(parallel.map(\.done) == serial.map(\.done), "window \(size), \(jobs) jobs")
        #expect(parallel.map(\.outcomes) == serial.map(\.outcomes), "window \(size), \(jobs) jobs")
        #expect(parallel.map(\.skipped) == serial.map(\.skipped), "window \(size), \(jobs) jobs")
      }
    }
  }

  /// A worker's table of shared texts is made when it first asks for it, once: `-j 1024` makes no
  /// table for a worker that never runs.
  @Test func sharedTextTablesAreMadeWhenFirstAskedFor() {
    let pool = SharedTextsPool(count: 1024)
    #expect(pool.madeCount == 0)
    let table = pool[3]
    #expect(pool.madeCount == 1)
    #expect(pool[3] === table)
    #expect(pool[1023] !== table)
    #expect(pool.madeCount == 2)
  }
}
