import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorSupport

/// A crash keeps its group whether, and by whom, it was symbolicated: a baseline written from the
/// unsymbolicated reports of `../shared/symbolication` knows every crash again when the run has
/// their dSYMs, when it reads `symbolicate`'s copies (JSON and text), and when it reads copies of
/// the JSON re-serialised with other spacing and key order. Skipped without `../shared`.
@Suite(.serialized) struct BaselineAcrossSymbolicationTests {
  static let folder: URL? = Fixtures.shared.map { $0.appendingPathComponent("symbolication") }
  static let available =
    folder.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent("README.md").path) }
    ?? false

  static let reports = [
    "ios-crash.ips", "ios-crash.crash", "single-target-crash.ips", "single-target-crash.crash",
    "multi-target-crash.ips", "multi-target-crash.crash",
  ]
  static let dSYMs = [
    "iOSCrashingTest.app.dSYM", "CrashingTest.dSYM", "CrashingInAnotherTargetTest.dSYM",
    "AnotherTarget.framework.dSYM",
  ]

  /// The groups of a `--format json` run: (signature, baseline state, count).
  static func groups(_ run: CLIRun) throws -> [(signature: String, baseline: String?, count: Int)] {
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let groups = try #require(object?["groups"] as? [[String: Any]], "no groups in: \(run.stdout.prefix(500))")
    return groups.map { ($0["signature"] as? String ?? "", $0["baseline"] as? String, $0["count"] as? Int ?? 0) }
  }

  /// jq's `jq . report.ips`: each of the two documents pretty-printed, keys reordered.
  static func reserialised(_ data: Data) throws -> Data {
    let text = String(decoding: data, as: UTF8.self)
    let newline = try #require(text.firstIndex(of: "\n"))
    var output = Data()
    for part in [text[..<newline], text[text.index(after: newline)...]] {
      let value = try JSONSerialization.jsonObject(with: Data(part.utf8))
      output += try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])
      output += Data("\n".utf8)
    }
    return output
  }

  @Test(.enabled(if: available)) func aBaselineKnowsEveryCrashHoweverItIsSymbolicated() throws {
    let shared = try #require(Self.folder)
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let manager = FileManager.default
    let plain = directory.appendingPathComponent("plain")
    let symbolicated = directory.appendingPathComponent("symbolicated")
    let rewritten = directory.appendingPathComponent("rewritten")
    for folder in [plain, symbolicated, rewritten] {
      try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    for name in Self.reports {
      try manager.copyItem(at: shared.appendingPathComponent(name), to: plain.appendingPathComponent(name))
    }
    let dsymArguments = Self.dSYMs.flatMap { ["--dsym", shared.appendingPathComponent($0).path] }
    let baseline = directory.appendingPathComponent("baseline.json").path

    // Written without symbols: the three crashes, each in `.ips` and `.crash` form, are three groups.
    let written = CLITest.run([
      "diagnose", plain.path, "--format", "json", "--fail-on", "never", "--write-baseline", baseline,
    ])
    #expect(written.status == .success, "\(written.stderr)")
    let plainGroups = try Self.groups(written)
    #expect(plainGroups.count == 3, "\(plainGroups)")
    #expect(plainGroups.allSatisfy { $0.count == 2 }, "\(plainGroups)")

    // `symbolicate`'s copies: JSON for `.ips`, atos's text for `.crash`.
    for name in Self.reports {
      let run = CLITest.run(
        ["symbolicate", plain.appendingPathComponent(name).path, "-o", symbolicated.appendingPathComponent(name).path]
          + dsymArguments)
      #expect(run.status == .success, "\(name): \(run.stderr)")
    }
    let symbolicatedText = try String(
      contentsOf: symbolicated.appendingPathComponent("ios-crash.crash"), encoding: .utf8)
    #expect(symbolicatedText.contains("(in iOSCrashingTest)"))
    // jq-style copies of the JSON reports.
    for name in Self.reports where name.hasSuffix(".ips") {
      try Self.reserialised(try Data(contentsOf: plain.appendingPathComponent(name)))
        .write(to: rewritten.appendingPathComponent(name))
    }

    let runs: [(String, [String])] = [
      ("with the dSYMs", [plain.path] + dsymArguments),
      ("symbolicated copies", [symbolicated.path]),
      ("symbolicated copies with the dSYMs", [symbolicated.path] + dsymArguments),
      ("re-serialised copies", [rewritten.path]),
      ("all of them together", [plain.path, symbolicated.path, rewritten.path]),
    ]
    for (label, arguments) in runs {
      let run = CLITest.run(["diagnose"] + arguments + ["--format", "json", "--baseline", baseline])
      let groups = try Self.groups(run)
      #expect(run.status == .success, "\(label): \(run.stderr)")
      #expect(groups.count == 3, "\(label): \(groups)")
      #expect(groups.allSatisfy { $0.baseline == "known" }, "\(label): \(groups)")
      // The group's id is the same one: it comes from the frames' images and offsets.
      #expect(Set(groups.map(\.signature)) == Set(plainGroups.map(\.signature)), "\(label)")
    }

    // A baseline written from the symbolicated copies knows the unsymbolicated reports too.
    let fromSymbols = directory.appendingPathComponent("baseline-symbols.json").path
    _ = CLITest.run([
      "diagnose", symbolicated.path, "--format", "json", "--fail-on", "never", "--write-baseline", fromSymbols,
    ])
    let plainAgainstSymbols = CLITest.run(["diagnose", plain.path, "--format", "json", "--baseline", fromSymbols])
    #expect(plainAgainstSymbols.status == .success, "\(plainAgainstSymbols.stderr)")
    #expect(try Self.groups(plainAgainstSymbols).allSatisfy { $0.baseline == "known" })
  }
}
