import Foundation
import Testing

/// The README's shard recipes run as printed (extracted between their markers) under `bash -e`,
/// and their merge is byte for byte the single run over the folder: the text and the SARIF gate.
/// Skipped where GNU parallel, or a Python with Dask, is not installed (`IPS_DOCTOR_DASK_PYTHON`
/// names a Python to use).
@Suite(.serialized) struct ReadmeShardRecipeTests {
  static func readme() throws -> String {
    try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// A `crashes/` folder of every report fixture, a text report named `.txt` (read because it
  /// starts like one), a file that is no report and a hidden report (both passed over), and a
  /// `bin/` holding `ips-doctor`.
  static func workspace() throws -> (root: URL, path: String) {
    let root = try CLITest.temporaryDirectory()
    let crashes = root.appendingPathComponent("crashes")
    try FileManager.default.createDirectory(at: crashes, withIntermediateDirectories: true)
    for fixture in Fixtures.files(in: "reports", extensions: ["ips", "crash"])
      + GoldenTests.batch.map({
        String($0.dropFirst("Fixtures/".count))
      })
    {
      let name = fixture.split(separator: "/").last.map(String.init) ?? fixture
      let target = crashes.appendingPathComponent(name)
      if !FileManager.default.fileExists(atPath: target.path) {
        try FileManager.default.copyItem(at: Fixtures.url(fixture), to: target)
      }
    }
    let text = try #require(Fixtures.files(in: "reports", extensions: ["crash"]).first)
    try FileManager.default.copyItem(at: Fixtures.url(text), to: crashes.appendingPathComponent("from-a-mail.txt"))
    try Data("# notes\n".utf8).write(to: crashes.appendingPathComponent("notes.md"))
    try FileManager.default.copyItem(
      at: Fixtures.url("cli/inconclusive-sigusr1.ips"), to: crashes.appendingPathComponent(".hidden.ips"))
    let bin = root.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: bin.appendingPathComponent("ips-doctor").path, withDestinationPath: try #require(ProcessTest.executable))
    let inherited = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return (root, bin.path + ":" + inherited)
  }

  /// What one run over the folder prints: the text with --fail-on never, and the SARIF gate.
  static func singleRun(in root: URL, path: String) throws -> (text: String, sarif: String, status: Int32) {
    let text = try ShellStep.runBash(
      "ips-doctor crashes --fail-on never", in: root, environment: ["PATH": path])
    let sarif = try ShellStep.runBash(
      "ips-doctor crashes --format sarif --baseline .ips-doctor-baseline.json", in: root, environment: ["PATH": path])
    return (text.stdout, sarif.stdout, sarif.status)
  }

  @Test(.enabled(if: ShellStep.tool("parallel") != nil, "GNU parallel is not installed"))
  func theParallelRecipeGivesTheSingleRunsOutput() throws {
    guard ProcessTest.available else { return }
    let block = try #require(ShellStep.markedBlock("shards-parallel", in: try Self.readme()))
    let (root, path) = try Self.workspace()
    defer { CLITest.cleanUp(root) }
    let recipe = try ShellStep.runBash(block, in: root, environment: ["PATH": path])
    let single = try Self.singleRun(in: root, path: path)
    // The gate: every group is new (no baseline yet), so the last line exits 1, after writing.
    #expect(recipe.status == 1, "\(recipe.stderr)")
    #expect(single.status == 1)
    #expect(recipe.stdout == single.text)
    let sarif = try String(contentsOf: root.appendingPathComponent("crashes.sarif"), encoding: .utf8)
    #expect(sarif == single.sarif)
    #expect(!recipe.stdout.contains(".hidden.ips") && !recipe.stdout.contains("notes.md"))
  }

  /// A Python that can import Dask: `IPS_DOCTOR_DASK_PYTHON`, else `python3` on `PATH`.
  static let daskPython: String? = {
    let named = ProcessInfo.processInfo.environment["IPS_DOCTOR_DASK_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
    guard let python = named ?? ShellStep.tool("python3") else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", "import dask.bag"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? python : nil
  }()

  @Test(.enabled(if: daskPython != nil, "no Python with Dask"))
  func theDaskRecipeRunsAsAScriptAndGivesTheSingleRunsOutput() throws {
    guard ProcessTest.available, let python = Self.daskPython else { return }
    let block = try #require(ShellStep.markedBlock("shards-dask", in: try Self.readme()))
    let (root, path) = try Self.workspace()
    defer { CLITest.cleanUp(root) }
    try block.write(to: root.appendingPathComponent("shards.py"), atomically: true, encoding: .utf8)
    // As a script, which is where multiprocessing's bootstrapping broke the snippet before.
    let recipe = try ShellStep.runBash(
      "\"$DASK_PYTHON\" shards.py\nips-doctor merge parts.jsonl --fail-on never", in: root,
      environment: ["PATH": path, "DASK_PYTHON": python])
    #expect(recipe.status == 0, "\(recipe.stderr)")
    let single = try Self.singleRun(in: root, path: path)
    #expect(recipe.stdout == single.text)
  }

  /// `--shard k/n`: the n parts are every input of the folder once, in its order.
  @Test func shardsPartitionWhatTheFolderRunReads() throws {
    let (root, _) = try Self.workspace()
    defer { CLITest.cleanUp(root) }
    let folder = root.appendingPathComponent("crashes").path
    let whole = CLITest.run([folder, "--quiet", "--fail-on", "never"]).stdout
    var parts = ""
    for index in 1...3 {
      let run = CLITest.run([folder, "--shard", "\(index)/3", "--quiet", "--fail-on", "never"])
      #expect(run.status == .success, "\(run.stderr)")
      parts += run.stdout
    }
    #expect(!whole.isEmpty)
    #expect(parts == whole)
    // More shards than reports: the empty ones are no error.
    let many = CLITest.run([CLITest.diagnosed, "--shard", "2/5", "--fail-on", "never"])
    #expect(many.status == .success, "\(many.stderr)")
    #expect(!many.stderr.contains("no crash reports found"))
    for bad in ["0/3", "4/3", "1/0", "x", "1/2/3"] {
      #expect(CLITest.run([folder, "--shard", bad]).status == .usage, "\(bad)")
    }
  }
}
