import Foundation
import Testing

@testable import IPSDoctorReport

/// The README's recipes, run for real: GNU parallel and a Dask bag split the reports into shards,
/// the built `ips-doctor` writes `--format jsonl` for each, and `merge` gives the single run's
/// output byte for byte. Each test skips when its engine is not installed (`apt-get install
/// parallel`; `python3 -m venv /tmp/venv-dask && /tmp/venv-dask/bin/pip install 'dask[bag]'`, or
/// `IPS_DOCTOR_DASK_PYTHON` naming a Python with Dask).
@Suite("Merge through parallel engines")
struct MergeEngineTests {
  /// The fixtures, and the shared corpus when it is there.
  static var folders: [String] {
    ["Fixtures/reports"] + (Fixtures.shared.map { [$0.appendingPathComponent("corpus").path] } ?? [])
  }

  static func tool(_ names: [String]) -> String? {
    names.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static let parallel = tool(["/usr/bin/parallel", "/usr/local/bin/parallel", "/opt/homebrew/bin/parallel"])

  /// A Python that imports `dask.bag`, or `nil`.
  static let daskPython: String? = {
    let candidates = [ProcessInfo.processInfo.environment["IPS_DOCTOR_DASK_PYTHON"], "/tmp/venv-dask/bin/python"]
    for case let python? in candidates where FileManager.default.isExecutableFile(atPath: python) {
      if (try? run(python, ["-c", "import dask.bag"]))?.status == 0 { return python }
    }
    return nil
  }()

  /// Runs `executable` in the repository root; its status and standard error.
  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = Fixtures.root
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Writes the paths the single run over `folder` read to a list file, one a line.
  static func list(_ folder: String, in directory: URL) throws -> (file: String, count: Int) {
    let paths = try MergeCommandTests.paths(in: folder)
    let file = directory.appendingPathComponent("list").path
    try paths.map { $0 + "\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
    return (file, paths.count)
  }

  /// `merge` of every `part.*.jsonl` in `directory` against the single run, in three formats.
  static func expectMergeEqualsSingle(_ folder: String, parts directory: URL, minimumParts: Int) throws {
    let parts = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("part.") && $0.hasSuffix(".jsonl") }.map { directory.appendingPathComponent($0).path }
    #expect(parts.count >= minimumParts)
    for format in ["text", "json", "jsonl"] {
      MergeCommandTests.expectSame(
        CLITest.run([folder, "--format", format]), CLITest.run(["merge"] + parts + ["--format", format]),
        "\(folder) \(format)")
    }
  }

  @Test("GNU parallel -X shards merge to the single run", .enabled(if: parallel != nil), arguments: folders)
  func gnuParallel(folder: String) throws {
    guard ProcessTest.available, let executable = ProcessTest.executable, let parallel = Self.parallel else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let (list, count) = try Self.list(folder, in: directory)
    let perShard = max(1, count / 4)
    // The README's recipe: parallel quotes each path it inserts for {}.
    let command =
      "'\(parallel)' --will-cite -X -j 2 -n \(perShard) '\(executable) --format jsonl --no-progress {} > \(directory.path)/part.{#}.jsonl' < '\(list)'"
    let result = try Self.run("/bin/sh", ["-c", command])
    // parallel exits with the number of shards that failed: shards with findings exit 1.
    #expect(result.status >= 0 && result.status < 100, "\(result.stderr)")
    try Self.expectMergeEqualsSingle(folder, parts: directory, minimumParts: 3)
  }

  @Test("Dask bag partitions merge to the single run", .enabled(if: daskPython != nil), arguments: folders)
  func daskBag(folder: String) throws {
    guard ProcessTest.available, let executable = ProcessTest.executable, let python = Self.daskPython else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let (list, _) = try Self.list(folder, in: directory)
    let script = Fixtures.root.appendingPathComponent("Benchmarks/tools/dask_shards.py").path
    let result = try Self.run(
      python, [script, "--list", list, "--out", directory.path, "--partitions", "3", "--ips-doctor", executable])
    #expect(result.status == 0, "\(result.stderr)")
    try Self.expectMergeEqualsSingle(folder, parts: directory, minimumParts: 3)
  }
}
