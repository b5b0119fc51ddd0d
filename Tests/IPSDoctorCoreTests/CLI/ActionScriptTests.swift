import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// The GitHub Action (`action.yml`): its gate step, taken from action.yml as written, run under
/// GitHub's `bash -eo pipefail` on fixture reports with the built binary standing in for the one
/// the build step installs, with temporary `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files.
/// Needs bash and jq (as the action does), skipped without them, and the built executable (which
/// CI must have; see ``ProcessTest/available``).
@Suite(
  "GitHub Action gate step",
  .enabled(if: ShellStep.tool("bash") != nil && ShellStep.tool("jq") != nil))
struct ActionScriptTests {
  static let actionURL = Fixtures.root.appendingPathComponent("action.yml")
  static let reports = [CLITest.diagnosed, CLITest.otherCrash, CLITest.inconclusive, CLITest.jetsam]

  static func action() throws -> String { try String(contentsOf: actionURL, encoding: .utf8) }

  struct StepRun {
    var result: ShellStep.Result
    var outputs: [String: String]
    var summary: String
    var sarif: JSONValue?
    /// What is left in RUNNER_TEMP after the step.
    var leftovers: [String]
  }

  /// Runs the action's "Diagnose crash reports" step in `workspace` with these inputs.
  static func runGate(
    in workspace: URL, path: String = "crash-reports", failOn: String = "error", baseline: String = "",
    sarifFile: String = "ips-doctor.sarif"
  ) throws -> StepRun {
    let script = try #require(ShellStep.runText(ofStep: "Diagnose crash reports", in: try action()))
    let runnerTemp = workspace.appendingPathComponent("runner-temp")
    try FileManager.default.createDirectory(at: runnerTemp, withIntermediateDirectories: true)
    let output = workspace.appendingPathComponent("github-output")
    let summary = workspace.appendingPathComponent("step-summary.md")
    let sarifFile = workspace.appendingPathComponent(sarifFile)
    try? FileManager.default.removeItem(at: output)
    try? FileManager.default.removeItem(at: summary)
    try? FileManager.default.removeItem(at: sarifFile)
    let result = try ShellStep.runBash(
      script, in: workspace,
      environment: [
        "GITHUB_ACTION_PATH": Fixtures.root.path,
        "IPS_DOCTOR": try #require(ProcessTest.executable),
        "INPUT_PATH": path, "INPUT_FAIL_ON": failOn, "INPUT_BASELINE": baseline,
        "INPUT_SARIF_FILE": sarifFile.lastPathComponent,
        "GITHUB_OUTPUT": output.path, "GITHUB_STEP_SUMMARY": summary.path, "RUNNER_TEMP": runnerTemp.path,
      ])
    let sarif = (try? Data(contentsOf: sarifFile)).flatMap { try? JSONParser.parse([UInt8]($0)) }
    return StepRun(
      result: result, outputs: ShellStep.outputs(output),
      summary: (try? String(contentsOf: summary, encoding: .utf8)) ?? "", sarif: sarif,
      leftovers: (try? FileManager.default.contentsOfDirectory(atPath: runnerTemp.path)) ?? [])
  }

  /// The crash groups of the fixture batch, counted by the CLI in process.
  static func groupCount() throws -> Int {
    let run = CLITest.run(reports + ["--format", "json"])
    return try #require(try JSONParser.parse(run.stdout)["groups"]?.arrayValue?.count)
  }

  static func baselineStates(_ sarif: JSONValue?) -> Set<String> {
    Set(SARIFOutputTests.results(sarif ?? .null).map { $0["baselineState"]?.stringValue ?? "-" })
  }

  @Test("action.yml declares the inputs and outputs, and the gate step gets every input")
  func declarations() throws {
    let action = try Self.action()
    for input in ["path", "fail-on", "baseline", "sarif-file", "version"] {
      #expect(action.contains("\n  \(input):\n"), "input \(input)")
    }
    for input in ["path", "fail-on", "baseline", "sarif-file"] {
      let variable = "INPUT_" + input.uppercased().replacing("-", with: "_")
      #expect(action.contains("\(variable): ${{ inputs.\(input) }}"), "\(variable)")
    }
    for output in ["groups", "new-groups", "exit-code"] {
      #expect(action.contains("\n  \(output):\n"), "output \(output)")
      #expect(action.contains("value: ${{ steps.diagnose.outputs.\(output) }}"), "output \(output)")
    }
    #expect(action.contains("make -C \"$SOURCE\" install PREFIX="))
  }

  @Test("First run, no baseline: the gate fails after writing the outputs, SARIF and summary")
  func withoutBaseline() throws {
    guard ProcessTest.available else { return }
    let workspace = try ShellStep.workspace(reports: Self.reports)
    defer { CLITest.cleanUp(workspace) }
    let groups = try Self.groupCount()
    #expect(groups == 4)
    let run = try Self.runGate(in: workspace)
    #expect(run.result.status == 1, "\(run.result.stderr)")
    #expect(run.outputs == ["exit-code": "1", "groups": "\(groups)", "new-groups": "\(groups)"])
    #expect(run.result.stdout.contains("::error "))
    #expect(run.summary.contains("ips-doctor"))
    #expect(SARIFOutputTests.results(run.sarif ?? .null).count == Self.reports.count)
    #expect(Self.baselineStates(run.sarif) == ["-"])
    #expect(run.leftovers.isEmpty)
  }

  @Test("A baseline of every group passes; one of some groups fails on the others")
  func withBaseline() throws {
    guard ProcessTest.available else { return }
    let workspace = try ShellStep.workspace(reports: Self.reports)
    defer { CLITest.cleanUp(workspace) }
    let groups = try Self.groupCount()
    let executable = try #require(ProcessTest.executable)
    let all = workspace.appendingPathComponent("all.json").path
    let write = try ShellStep.runBash(
      "\"$IPS_DOCTOR\" crash-reports --write-baseline all.json --fail-on never", in: workspace,
      environment: ["IPS_DOCTOR": executable])
    #expect(write.status == 0, "\(write.stderr)")

    let known = try Self.runGate(in: workspace, baseline: all)
    #expect(known.result.status == 0, "\(known.result.stderr)")
    #expect(known.outputs == ["exit-code": "0", "groups": "\(groups)", "new-groups": "0"])
    #expect(Self.baselineStates(known.sarif) == ["unchanged"])

    // A baseline of the founding crash only: the other crash is new and an error.
    let one = workspace.appendingPathComponent("one.json").path
    let single = try ShellStep.runBash(
      "\"$IPS_DOCTOR\" crash-reports/\((CLITest.diagnosed as NSString).lastPathComponent) --write-baseline one.json --fail-on never",
      in: workspace, environment: ["IPS_DOCTOR": executable])
    #expect(single.status == 0, "\(single.stderr)")
    let partial = try Self.runGate(in: workspace, baseline: one)
    #expect(partial.result.status == 1)
    #expect(partial.outputs == ["exit-code": "1", "groups": "\(groups)", "new-groups": "\(groups - 1)"])
    #expect(Self.baselineStates(partial.sarif) == ["unchanged", "new"])

    // A baseline file that does not exist yet: every group is new.
    let missing = try Self.runGate(in: workspace, baseline: "no-baseline-yet.json")
    #expect(missing.result.status == 1)
    #expect(missing.outputs == ["exit-code": "1", "groups": "\(groups)", "new-groups": "\(groups)"])
    #expect(missing.result.stderr.contains("does not exist yet"))
  }

  @Test("A sarif-file named .json gets SARIF, and annotations stay on standard output")
  func sarifWhateverTheExtension() throws {
    guard ProcessTest.available else { return }
    let workspace = try ShellStep.workspace(reports: Self.reports)
    defer { CLITest.cleanUp(workspace) }
    for name in ["results.json", "results.md", "sarif"] {
      let run = try Self.runGate(in: workspace, sarifFile: name)
      #expect(run.result.status == 1, "\(run.result.stderr)")
      #expect(run.sarif?["version"]?.stringValue == "2.1.0", "\(name)")
      #expect(SARIFOutputTests.results(run.sarif ?? .null).count == Self.reports.count, "\(name)")
      #expect(run.result.stdout.contains("::error "), "\(name)")
      #expect(run.outputs["groups"] == "4", "\(name)")
    }
  }

  @Test("The path input is a path, whatever it looks like")
  func pathIsNeverAnOption() throws {
    guard ProcessTest.available else { return }
    let workspace = try ShellStep.workspace(reports: Self.reports)
    defer { CLITest.cleanUp(workspace) }
    try FileManager.default.moveItem(
      at: workspace.appendingPathComponent("crash-reports"), to: workspace.appendingPathComponent("--version"))
    let version = try Self.runGate(in: workspace, path: "--version")
    #expect(version.result.status == 1, "\(version.result.stderr)")
    #expect(!version.result.stdout.contains("ips-doctor 0."))
    #expect(version.outputs["groups"] == "4")

    let output = try Self.runGate(in: workspace, path: "--output=written")
    #expect(output.result.status == 66, "\(output.result.stderr)")
    #expect(output.result.stderr.contains("--output=written"))
    #expect(!FileManager.default.fileExists(atPath: workspace.appendingPathComponent("written").path))
  }

  @Test("Failures other than findings are passed on: no input (66), a bad fail-on (64)")
  func otherFailures() throws {
    guard ProcessTest.available else { return }
    let workspace = try ShellStep.workspace(reports: [])
    defer { CLITest.cleanUp(workspace) }
    let empty = try Self.runGate(in: workspace, path: "no-such-folder")
    #expect(empty.result.status == 66)
    #expect(empty.outputs == ["exit-code": "66", "groups": "0", "new-groups": "0"])
    #expect(empty.sarif != nil)

    let usage = try Self.runGate(in: workspace, failOn: "sometimes")
    #expect(usage.result.status == 64)
    #expect(usage.outputs == ["exit-code": "64"])
    #expect(usage.leftovers.isEmpty)
  }
}
