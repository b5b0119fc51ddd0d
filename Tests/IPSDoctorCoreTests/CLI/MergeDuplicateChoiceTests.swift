import Foundation
import Testing

@testable import IPSDoctorJSON

/// Which record `merge` keeps of several with one path: decided by the records' values, never by
/// how a line is spelt (spacing, escapes), so a part re-serialised by jq or Python changes
/// nothing, `merge X Y` is `merge (merge X) Y`, and a path is compared exactly (a NUL in it is
/// not a `/`).
@Suite("Merge: the record kept of one path")
struct MergeDuplicateChoiceTests {
  /// `value` as Python's `json.dumps` spells it: `", "` and `": "` between items, every byte
  /// outside printable ASCII as a `\u` escape; with `slashes`, `/` as `\/` too (as PHP writes).
  static func respelled(_ value: JSONValue, slashes: Bool = false) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let number): return number.description
    case .string(let text):
      var out = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "/" where slashes: out += "\\/"
        case " "..."~": out.unicodeScalars.append(scalar)
        default:
          for unit in String(scalar).utf16 { out += "\\u" + String(format: "%04x", unit) }
        }
      }
      return out + "\""
    case .array(let elements):
      return "[" + elements.map { respelled($0, slashes: slashes) }.joined(separator: ", ") + "]"
    case .object(let object):
      let members = object.members.map {
        respelled(.string($0.key), slashes: slashes) + ": " + respelled($0.value, slashes: slashes)
      }
      return "{" + members.joined(separator: ", ") + "}"
    }
  }

  /// The record of `CLITest.diagnosed` as ips-doctor writes it, and the same record with another
  /// incident identifier (a later one in byte order, so that the genuine record's line is least).
  static func records() throws -> (genuine: String, other: String) {
    let genuine = String(CLITest.run([CLITest.diagnosed, "--format", "jsonl"]).stdout.dropLast())
    var value = try JSONParser.parse(genuine)
    guard case .object(var object) = value else { throw CocoaError(.coderReadCorrupt) }
    let index = try #require(object.members.firstIndex { $0.key == "incidentID" })
    object.members[index].value = .string("ZZZZ-a later incident")
    value = .object(object)
    return (genuine, JSONWriter.string(value, style: .compact))
  }

  /// The incident identifiers of the records a run wrote, in order (short to compare and print).
  static func incidents(_ run: CLIRun) throws -> [String?] {
    try run.stdout.split(separator: "\n").map { try JSONParser.parse(String($0))["incidentID"]?.stringValue }
  }

  static func merge(_ parts: [String], in directory: URL) throws -> CLIRun {
    var files: [String] = []
    for (index, text) in parts.enumerated() {
      files.append(try MergeCommandTests.part(text + "\n", "part-\(index).jsonl", in: directory))
    }
    return CLITest.run(["merge"] + files + ["--format", "jsonl"])
  }

  @Test("Of two records of one path the same is kept however each is spelt and in either order")
  func spellingDoesNotDecide() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let (genuine, other) = try Self.records()
    let expected = try Self.merge([genuine, other], in: directory)
    #expect(expected.stdout == genuine + "\n" ? true : false)
    #expect(expected.stderr.contains("counted once"))
    func spellings(_ line: String) throws -> [String] {
      let value = try JSONParser.parse(line)
      return [line, Self.respelled(value), Self.respelled(value, slashes: true)]
    }
    for first in try spellings(genuine) {
      for second in try spellings(other) {
        for parts in [[first, second], [second, first], [first + "\n" + second]] {
          let merged = try Self.merge(parts, in: directory)
          #expect(try Self.incidents(merged) == Self.incidents(expected), "parts: \(parts.map { $0.prefix(12) })")
          #expect(merged.stdout == expected.stdout ? true : false)
          #expect(merged.status == expected.status)
        }
      }
    }
  }

  @Test("merge X Y is merge (merge X) Y when X holds a re-serialised record")
  func mergeOfAMerge() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let (genuine, other) = try Self.records()
    let respelledOther = Self.respelled(try JSONParser.parse(other))
    let flat = try Self.merge([respelledOther, genuine], in: directory)
    let inner = try Self.merge([respelledOther], in: directory)
    #expect(inner.stdout == other + "\n" ? true : false)
    let nested = try Self.merge([String(inner.stdout.dropLast()), genuine], in: directory)
    #expect(try Self.incidents(flat) == Self.incidents(nested))
    #expect(flat.stdout == nested.stdout ? true : false)
    #expect(flat.stdout == genuine + "\n" ? true : false)
  }

  @Test("A path with a NUL where another has a / is another path: both records are kept")
  func nulIsNotASlash() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let (genuine, _) = try Self.records()
    var value = try JSONParser.parse(genuine)
    guard case .object(var object) = value, let path = object["path"]?.stringValue else {
      throw CocoaError(.coderReadCorrupt)
    }
    let forged = path.replacingOccurrences(of: "/", with: "\u{0}")
    let index = try #require(object.members.firstIndex { $0.key == "path" })
    object.members[index].value = .string(forged)
    value = .object(object)
    let merged = try Self.merge([genuine, JSONWriter.string(value, style: .compact)], in: directory)
    let paths = try merged.stdout.split(separator: "\n").map { try JSONParser.parse(String($0))["path"]?.stringValue }
    // A NUL sorts after `/`: the genuine path's folders come first.
    #expect(paths == [path, forged])
    #expect(!merged.stderr.contains("counted once"))
  }
}
