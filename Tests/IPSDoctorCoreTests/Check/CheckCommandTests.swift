import Foundation
import Testing

@testable import IPSDoctorDiagnosis

@Suite struct CheckCommandTests {
  static let positive = "Fixtures/swift/founding-crash-plain-class.swift"

  @Test func textIsACompilerDiagnosticAndFindingsExitOne() {
    let run = CLITest.run(["check", Self.positive])
    #expect(run.status == .findings)
    #expect(
      run.stdout.hasPrefix(
        "\(Self.positive):5:5: error: async 'PushNotificationDelegate.userNotificationCenter(_:didReceive:)'"))
    #expect(run.stdout.contains("userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"))
    #expect(run.stdout.contains("note: fix: implement"))
    #expect(run.stdout.hasSuffix("ips-doctor check: 2 errors in 1 Swift file.\n"))
  }

  @Test func failOnAndDefaultIsolation() {
    #expect(CLITest.run(["check", Self.positive, "--fail-on", "never"]).status == .success)
    let isolated = CLITest.run(["check", Self.positive, "--default-isolation", "main-actor"])
    #expect(isolated.status == .success)
    #expect(isolated.stdout == "ips-doctor check: no finding in 1 Swift file.\n")
    // A warning fails only with --fail-on warning.
    let warnings = "Fixtures/swift/same-name-non-conforming-type.swift"
    #expect(CLITest.run(["check", warnings]).status == .success)
    #expect(CLITest.run(["check", warnings, "--fail-on", "warning"]).status == .findings)
  }

  @Test func usageAndMissingInput() {
    #expect(CLITest.run(["check"]).status == .usage)
    #expect(CLITest.run(["check", "--default-isolation", "global"]).status == .usage)
    #expect(CLITest.run(["check", "Fixtures/no-such-folder"]).status == .noInput)
    #expect(CLITest.run(["check", "Fixtures/golden"]).status == .noInput)
  }

  @Test func folderScanSkipsBuildFoldersAndExcludes() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    for sub in ["Sources/App", ".build/x", "Pods/P", "DerivedData/D", ".hidden"] {
      try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
      try CLITest.copyFixture(Self.positive, to: folder.appendingPathComponent(sub), as: "Push.swift")
    }
    let run = CLITest.run(["check", folder.path, "--format", "json"])
    #expect(run.status == .findings)
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    #expect(json?["filesScanned"] as? Int == 1)
    let excluded = CLITest.run(["check", folder.path, "--exclude", "*/App/*"])
    #expect(excluded.status == .noInput)
  }

  @Test func sarifHasRegionsAndGitHubHasAnnotations() throws {
    let sarif = CLITest.run(["check", Self.positive, "--format", "sarif"])
    let document = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
    let runs = try #require(document["runs"] as? [[String: Any]])
    let results = try #require(runs.first?["results"] as? [[String: Any]])
    #expect(results.count == 2)
    let location = try #require(
      (results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
    let region = try #require(location["region"] as? [String: Any])
    #expect(region["startLine"] as? Int == 5)
    #expect(region["startColumn"] as? Int == 5)

    let github = CLITest.run(["check", Self.positive, "--format", "github"])
    #expect(github.stdout.hasPrefix("::error file=\(Self.positive),line=5,col=5,title="))
    #expect(github.stdout.split(separator: "\n").count == 2)

    for format in ["markdown", "junit", "jsonl"] {
      #expect(CLITest.run(["check", Self.positive, "--format", format]).status == .findings)
    }
  }

  @Test func hostileFileNamesNeverReachTheOutputRaw() throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let name = "x\u{1B}[31m\n::error::forged,%0A.swift"
    try CLITest.copyFixture(Self.positive, to: folder, as: name)
    for format in ["text", "github", "markdown", "junit"] {
      let run = CLITest.run(["check", folder.path, "--format", format])
      #expect(run.status == .findings)
      #expect(!run.stdout.contains("\u{1B}"), "\(format)")
      #expect(!run.stdout.split(separator: "\n").contains { $0.hasPrefix("::error::forged") }, "\(format)")
    }
  }
}

@Suite struct CheckReportLinkTests {
  @Test func theBridgeFrameNamesTheDeclaration() {
    let run = CLITest.run([
      "check", "Fixtures/swift", "--report", "Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips",
      "--fail-on", "never",
    ])
    #expect(run.status == .success)
    #expect(
      run.stderr.contains(
        "Fixtures/swift/founding-crash-plain-class.swift:5:5: note: the crash in Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips was called by the bridge"
      ))
  }

  @Test func aReportWithoutBridgeFrameOrNotAReport() {
    let none = CLITest.run([
      "check", "Fixtures/swift", "--report", "Fixtures/reports/async-delegate-unrelated-exception.ips", "--fail-on",
      "never",
    ])
    #expect(none.status == .success)
    let notReport = CLITest.run([
      "check", "Fixtures/swift", "--report", "Fixtures/swift/founding-crash-plain-class.swift", "--fail-on", "never",
    ])
    #expect(notReport.status == .dataError)
  }
}

@Suite struct CheckDefaultIsolationSettingTests {
  @Test(arguments: [
    ("Package.swift", "swiftSettings: [\n  .defaultIsolation( MainActor.self )\n]"),
    ("App.xcodeproj/project.pbxproj", "\t\tSWIFT_DEFAULT_ACTOR_ISOLATION = MainActor;\n"),
  ])
  func aProjectSettingLowersPlainTypesUnlessStated(_ settingFile: String, _ setting: String) throws {
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let url = folder.appendingPathComponent(settingFile)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try setting.write(to: url, atomically: true, encoding: .utf8)
    try CLITest.copyFixture(CheckCommandTests.positive, to: folder, as: "Push.swift")

    let unstated = CLITest.run(["check", folder.path, "--fail-on", "warning"])
    #expect(unstated.status == .findings)
    #expect(unstated.stdout.contains(": warning: "))
    #expect(!unstated.stdout.contains(": error: "))
    #expect(unstated.stdout.contains("makes some module's default isolation MainActor"))
    #expect(CLITest.run(["check", folder.path, "--default-isolation", "nonisolated"]).status == .findings)
    #expect(CLITest.run(["check", folder.path, "--default-isolation", "main-actor"]).status == .success)
  }
}
