import Foundation
import Testing

/// The GitHub workflows and the action's download step cannot run here; what can be checked
/// offline is: the YAML parses, CI runs the README's commands on Linux and macOS, the release
/// makes the assets the action downloads, and the download step installs a binary only when its
/// checksum matches.
@Suite struct WorkflowTests {
  static let root = Fixtures.root

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// A Python with PyYAML, to parse the workflows as GitHub's YAML 1.2 loader would.
  static let yamlPython: String? = {
    guard let python = ShellStep.tool("python3") else { return nil }
    let probe = try? ShellStep.runBash(
      "\(python) -c 'import yaml'", in: FileManager.default.temporaryDirectory, environment: [:])
    return probe?.status == 0 ? python : nil
  }()

  @Test(
    .enabled(if: yamlPython != nil, "no python3 with PyYAML here"),
    arguments: [".github/workflows/ci.yml", ".github/workflows/release.yml", "action.yml"])
  func theYAMLParses(path: String) throws {
    let python = try #require(Self.yamlPython)
    let file = Self.root.appendingPathComponent(path).path
    let run = try ShellStep.runBash(
      "\(python) -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert isinstance(d, dict) and d' '\(file)'",
      in: FileManager.default.temporaryDirectory, environment: [:])
    #expect(run.status == 0, "\(run.stderr)")
  }

  /// The README's two commands: the bundled report, then the tests.
  static func readmeCommands() throws -> (run: String, test: String) {
    let readme = try text("README.md")
    let block = try #require(
      readme.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
    let lines = block.split(separator: "\n").map(String.init)
    return (
      try #require(lines.first { $0.hasPrefix("swift run") }), try #require(lines.first { $0.hasPrefix("swift test") })
    )
  }

  @Test func ciRunsTheREADMECommandsOnLinuxAndMacOS() throws {
    let ci = try Self.text(".github/workflows/ci.yml")
    let (run, test) = try Self.readmeCommands()
    let jobs = try #require(ci.components(separatedBy: "\njobs:\n").last)
    let (linux, macOS) = (
      jobs.components(separatedBy: "\n  macos:").first ?? "", jobs.components(separatedBy: "\n  macos:").last ?? ""
    )
    for (name, job) in [("linux", linux), ("macos", macOS)] {
      #expect(job.contains("run: \(run)"), "the \(name) job does not run \(run)")
      #expect(job.contains("run: \(test)\n"), "the \(name) job does not run \(test)")
      #expect(job.contains("make install PREFIX="), "the \(name) job does not install")
    }
    #expect(ci.contains("runs-on: macos-"))
    #expect(ci.contains("container: swift:${{ matrix.swift }}"))
    // .ci/run runs exactly the README's test command.
    #expect(try Self.text(".ci/run").contains(test))
  }

  @Test func theOldestSwiftTestedIsTheOneTheREADMEAndPackageName() throws {
    let package = try Self.text("Package.swift")
    let tools = try #require(package.split(separator: "\n").first).replacingOccurrences(
      of: "// swift-tools-version:", with: "")
    let readme = try Self.text("README.md")
    #expect(readme.contains("Swift \(tools) or later"), "the README does not say Swift \(tools) or later")
    let ci = try Self.text(".github/workflows/ci.yml")
    #expect(ci.contains("swift: [\"\(tools)\","), "CI does not build with Swift \(tools)")
  }

  @Test func theReleaseMakesTheAssetsTheActionDownloads() throws {
    let release = try Self.text(".github/workflows/release.yml")
    let download = try Self.text(".github/action/download.sh")
    #expect(download.contains("asset=\"ips-doctor-$VERSION-$platform.tar.gz\""))
    for platform in ["macos-universal", "linux-x86_64"] {
      #expect(download.contains("platform=\(platform)"))
      #expect(release.contains("asset=\"ips-doctor-${GITHUB_REF_NAME}-\(platform).tar.gz\""))
    }
    #expect(release.contains("--arch arm64 --arch x86_64"))
    #expect(release.contains("shasum -a 256 \"$asset\" > \"$asset.sha256\""))
    #expect(release.contains("sha256sum \"$asset\" > \"$asset.sha256\""))
    let action = try Self.text("action.yml")
    #expect(action.contains("run: bash \"$GITHUB_ACTION_PATH/.github/action/download.sh\""))
    #expect(action.contains("uses: actions/cache@v4"))
  }

  /// A release folder as GitHub serves one: `<version>/<asset>` and its `.sha256`.
  static func release(in directory: URL, version: String, platform: String, binary: String, checksum: String? = nil)
    throws
  {
    let folder = directory.appendingPathComponent("releases/\(version)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let staging = directory.appendingPathComponent("staging")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    try binary.write(to: staging.appendingPathComponent("ips-doctor"), atomically: true, encoding: .utf8)
    let asset = "ips-doctor-\(version)-\(platform).tar.gz"
    let packed = try ShellStep.runBash(
      "tar -czf '\(folder.path)/\(asset)' -C '\(staging.path)' ips-doctor && cd '\(folder.path)' && (sha256sum '\(asset)' 2>/dev/null || shasum -a 256 '\(asset)') > '\(asset).sha256'",
      in: directory, environment: [:])
    try #require(packed.status == 0, "\(packed.stderr)")
    if let checksum {
      try "\(checksum)  \(asset)\n".write(
        to: folder.appendingPathComponent(asset + ".sha256"), atomically: true, encoding: .utf8)
    }
  }

  static func download(version: String, in directory: URL, os: String = "Linux", arch: String = "X64") throws -> (
    ShellStep.Result, output: String
  ) {
    let output = directory.appendingPathComponent("github-output")
    try? FileManager.default.removeItem(at: output)
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let script = Self.root.appendingPathComponent(".github/action/download.sh").path
    let run = try ShellStep.runBash(
      "bash '\(script)'", in: directory,
      environment: [
        "VERSION": version, "ACTION_REPOSITORY": "owner/ips-doctor", "RUNNER_OS": os, "RUNNER_ARCH": arch,
        "RUNNER_TEMP": directory.path, "GITHUB_OUTPUT": output.path,
        "IPS_DOCTOR_RELEASES": directory.appendingPathComponent("releases").path,
      ])
    return (run, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
  }

  @Test func theDownloadInstallsABinaryWhoseChecksumMatches() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try Self.release(in: directory, version: "v1.2.0", platform: "linux-x86_64", binary: "#!/bin/sh\necho linux\n")
    try Self.release(in: directory, version: "v1.2.0", platform: "macos-universal", binary: "#!/bin/sh\necho mac\n")
    let (run, output) = try Self.download(version: "v1.2.0", in: directory)
    #expect(run.status == 0, "\(run.stderr)")
    let binary = directory.appendingPathComponent("ips-doctor-release/ips-doctor").path
    #expect(output == "binary=\(binary)\n")
    #expect(try String(contentsOfFile: binary, encoding: .utf8) == "#!/bin/sh\necho linux\n")
    let (mac, macOutput) = try Self.download(version: "v1.2.0", in: directory, os: "macOS", arch: "ARM64")
    #expect(mac.status == 0 && macOutput == "binary=\(binary)\n")
    #expect(try String(contentsOfFile: binary, encoding: .utf8) == "#!/bin/sh\necho mac\n")
  }

  @Test func aChecksumThatDoesNotMatchFailsTheStep() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try Self.release(
      in: directory, version: "v1.2.0", platform: "linux-x86_64", binary: "tampered",
      checksum: String(repeating: "0", count: 64))
    let (run, output) = try Self.download(version: "v1.2.0", in: directory)
    #expect(run.status == 1)
    #expect(run.stderr.contains("::error::the SHA-256 of ips-doctor-v1.2.0-linux-x86_64.tar.gz is"))
    #expect(output.isEmpty)
    #expect(
      !FileManager.default.fileExists(atPath: directory.appendingPathComponent("ips-doctor-release/ips-doctor").path))
  }

  /// No release for the version (a branch, a commit, an unpublished tag, another runner): the
  /// step says so and leaves the build to the next steps.
  @Test(arguments: [
    ("main", "Linux", "X64"), ("v9.9.9", "Linux", "X64"), ("v1.2.0", "Linux", "ARM64"), ("v1.2.0", "Windows", "X64"),
    ("v1.2.0/../../x", "Linux", "X64"), ("", "Linux", "X64"),
  ])
  func noReleaseMeansABuildFromSource(version: String, os: String, arch: String) throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    try Self.release(in: directory, version: "v1.2.0", platform: "linux-x86_64", binary: "x")
    let (run, output) = try Self.download(version: version, in: directory, os: os, arch: arch)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(output.isEmpty)
    #expect(run.stdout.contains("building from source"))
  }
}
