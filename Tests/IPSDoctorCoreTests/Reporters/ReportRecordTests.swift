import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput
@testable import IPSDoctorReport

/// `ReportRecord` reads a `--format jsonl` line back as the outcome it was written from: writing
/// that outcome again gives the same line, byte for byte, for every fixture and shared report
/// (with and without `--strict` and `--baseline`); and a line that is not such a record is refused
/// with the key that is wrong.
@Suite("Report records read back")
struct ReportRecordTests {
  /// Folders whose every report is written and read back.
  static var folders: [String] {
    var folders = ["Fixtures/reports", "Fixtures/cli"]
    if let shared = Fixtures.shared {
      folders += [shared.appendingPathComponent("corpus").path, shared.appendingPathComponent("corpus-peers").path]
    }
    return folders
  }

  static func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  static func rewritten(_ line: String, index: Int = 0) throws -> String {
    let value = try JSONParser.parse(line)
    let outcome = try ReportRecord.outcome(value, index: index)
    return JSONWriter.string(ReportJSON.report(outcome), style: .compact)
  }

  @Test("Every record is written again byte for byte", arguments: ["plain", "strict", "baseline"])
  func roundTrip(variant: String) throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    var options: [String] = []
    if variant == "strict" { options = ["--strict"] }
    if variant == "baseline" {
      let baseline = directory.appendingPathComponent("baseline.json").path
      _ = CLITest.run(["Fixtures/reports", "--write-baseline", baseline, "--format", "jsonl"])
      options = ["--baseline", baseline]
    }
    var records = 0
    var strict = 0
    var known = 0
    for folder in Self.folders {
      let run = CLITest.run([folder, "--format", "jsonl"] + options)
      for line in Self.lines(run.stdout) {
        #expect(try Self.rewritten(line) == line)
        records += 1
        if line.contains("\"strict\":true") { strict += 1 }
        if line.contains("\"baseline\":\"known\"") { known += 1 }
      }
    }
    #expect(records >= 80)
    // The runs exercise what only a record can carry back.
    if variant == "strict" { #expect(strict > 0) }
    if variant == "baseline" { #expect(known > 0) }
  }

  @Test("The outcome read back is the outcome written, for what reporters show")
  func outcomeFields() throws {
    let run = CLITest.run([CLITest.jetsam, "--format", "jsonl", "--strict"])
    let line = try #require(Self.lines(run.stdout).first)
    let outcome = try ReportRecord.outcome(try JSONParser.parse(line), index: 7)
    #expect(outcome.index == 7)
    #expect(outcome.path == CLITest.jetsam)
    #expect(outcome.refusedByStrict)
    #expect(outcome.isUnreadable)
    #expect(outcome.facts?.kind == .jetsam)
    #expect(outcome.facts?.bugTypeName == "jetsam event")
    #expect(outcome.result?.summary.headline?.hasPrefix("largest process") == true)
  }

  /// One valid record, to be broken one key at a time.
  static func validRecord() throws -> JSONObject {
    let run = CLITest.run([CLITest.unsymbolicated, "--format", "jsonl"])
    let line = try #require(Self.lines(run.stdout).first)
    return try #require(try JSONParser.parse(line).objectValue)
  }

  struct Breakage: Sendable, CustomTestStringConvertible {
    var name: String
    var expected: String
    var edit: @Sendable (inout JSONObject) -> Void
    var testDescription: String { name }
  }

  static func replacing(_ key: String, with value: JSONValue) -> @Sendable (inout JSONObject) -> Void {
    { object in
      for index in object.members.indices where object.members[index].key == key { object.members[index].value = value }
    }
  }

  static let breakages: [Breakage] = [
    Breakage(name: "missing key", expected: "headline: missing") { object in
      object.members.removeAll { $0.key == "headline" }
    },
    Breakage(
      name: "wrong type", expected: "path: expected a string, found number", edit: replacing("path", with: .int(3))),
    Breakage(
      name: "unknown kind", expected: "kind: expected one of crash", edit: replacing("kind", with: .string("crashy"))),
    Breakage(
      name: "severity that does not follow", expected: "severity: \"note\" does not follow",
      edit: replacing("severity", with: .string("note"))),
    Breakage(
      name: "diagnoses without a signature", expected: "a record without a signature has no diagnoses",
      edit: replacing("signature", with: .null)),
    Breakage(
      name: "signature id of other components", expected: "signature.id: \"0000000000000000\" is not the signature",
      edit: { object in
        for index in object.members.indices where object.members[index].key == "signature" {
          guard case .object(var signature) = object.members[index].value else { continue }
          for member in signature.members.indices where signature.members[member].key == "id" {
            signature.members[member].value = .string("0000000000000000")
          }
          object.members[index].value = .object(signature)
        }
      }),
    Breakage(
      name: "address that is not hexadecimal", expected: "symbolication[0].loadAddress: expected an address",
      edit: { object in
        for index in object.members.indices where object.members[index].key == "symbolication" {
          guard case .array(var images) = object.members[index].value, case .object(var image) = images[0] else {
            continue
          }
          for member in image.members.indices where image.members[member].key == "loadAddress" {
            image.members[member].value = .string("4096")
          }
          images[0] = .object(image)
          object.members[index].value = .array(images)
        }
      }),
  ]

  @Test("A broken record is refused, naming the key", arguments: breakages)
  func refused(_ breakage: Breakage) throws {
    var object = try Self.validRecord()
    breakage.edit(&object)
    do {
      _ = try ReportRecord.outcome(.object(object), index: 0)
      Issue.record("accepted a record with \(breakage.name)")
    } catch {
      #expect(error.message.contains(breakage.expected), "\(error.message)")
    }
  }

  @Test("Values that are not records are refused")
  func notRecords() {
    for value: JSONValue in [.array([]), .string("x"), .null, .object(JSONObject())] {
      #expect(throws: ReportRecord.Problem.self) { try ReportRecord.outcome(value, index: 0) }
    }
  }
}
