import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

@Suite("Member names")
struct MemberNameTests {
  /// The generated constants, as `(name, key, constant)`, read from the generated file.
  static func generatedConstants() throws -> [(name: String, key: String, constant: MemberName)] {
    let url = Fixtures.root.appendingPathComponent("Sources/IPSDoctorReport/MemberName+Keys.swift")
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    let pattern =
      #/  static let (`?\w+`?) = MemberName\(length: (\d+), head: 0x([0-9a-f]{16}), tail: (0|0x[0-9a-f]{16})\)/#
    var constants: [(name: String, key: String, constant: MemberName)] = []
    for (index, line) in lines.enumerated() {
      guard let match = line.wholeMatch(of: pattern), index > 0 else { continue }
      let comment = lines[index - 1]
      #expect(comment.hasPrefix("  /// \"") && comment.hasSuffix("\""), "\(line)")
      let key = String(comment.dropFirst(7).dropLast())
      let tail = match.4 == "0" ? 0 : UInt64(match.4.dropFirst(2), radix: 16)!
      constants.append(
        (String(match.1), key, MemberName(length: Int(match.2)!, head: UInt64(match.3, radix: 16)!, tail: tail)))
    }
    return constants
  }

  @Test("Every generated constant is its key's length and words")
  func constantsMatchTheirKeys() throws {
    let constants = try Self.generatedConstants()
    #expect(constants.count >= 100)
    for (name, key, constant) in constants {
      var key = key
      #expect(key.withUTF8 { MemberName(bytes: UnsafeRawBufferPointer($0)) } == constant, "\(name)")
    }
    #expect(Set(constants.map(\.key)).count == constants.count, "a key is listed twice")
    // Spot checks that the file is the one the decoders compile against.
    #expect(constants.contains { $0.name == "symbolLocation" && $0.constant == .symbolLocation })
    #expect(constants.contains { $0.name == "x" && $0.constant == .x })
  }

  @Test("The generated file is what Tools/generate-member-names.sh writes from the key list")
  func generatedFileIsFresh() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "bash", Fixtures.root.appendingPathComponent("Tools/generate-member-names.sh").path, "--stdout",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let file = try Data(
      contentsOf: Fixtures.root.appendingPathComponent("Sources/IPSDoctorReport/MemberName+Keys.swift"))
    #expect(
      output == file,
      "Sources/IPSDoctorReport/MemberName+Keys.swift is stale: run Tools/generate-member-names.sh")
  }

  @Test("Keys read from a document match: short documents, escapes, long keys")
  func keysFromDocuments() {
    let cases: [(String, MemberName)] = [
      (#"{"x":1}"#, .x),
      (#"{"symbol":1}"#, .symbol),
      (#"{"sym\u0062ol":1}"#, .symbol),
      (#"{"symbolLocation":1}"#, .symbolLocation),
      (#"{"CFBundleIdentifier":1}"#, .CFBundleIdentifier),
      (#"{"\/":1}"#, MemberName(length: 1, head: 0x2F, tail: 0)),
    ]
    for (text, expected) in cases {
      let bytes = Array(text.utf8)
      let document = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0).document }
      let name = document?.withRoot { root in root.members.first { _ in true }.map { MemberName($0.key) } }
      #expect(name == expected, "\(text)")
    }
  }
}
