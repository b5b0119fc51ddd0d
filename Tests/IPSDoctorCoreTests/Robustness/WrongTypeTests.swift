import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

@Suite("Hostile input: wrong types, nulls and bad indexes")
struct WrongTypeTests {
  static let replacements: [JSONValue] = [
    .null, .string("x\u{1B}[2J"), .number(.negative(-1)), .number(.other("18446744073709551616")),
    .number(.other("1e400")), .array([]), .object(JSONObject()), .bool(true),
  ]

  /// Every value in the body, replaced in turn by every wrong type, never crashes the reader or the
  /// engine, and the header is always still read.
  @Test("Every field of a report replaced by every wrong type")
  func everyField() throws {
    let text = try String(
      contentsOf: Fixtures.url("reports/async-bridge-didreceive-simplified-symbols.ips"), encoding: .utf8)
    let newline = try #require(text.firstIndex(of: "\n"))
    let header = String(text[..<newline])
    let body = try JSONParser.parse(String(text[text.index(after: newline)...]))
    var paths: [[JSONPath.Component]] = []
    collect(body, path: [], into: &paths)
    #expect(paths.count > 100)
    // Every field in a full sweep; every 7th otherwise (see `Sweeps`).
    paths = Sweeps.sample(paths, every: 7)
    var runs = 0
    for path in paths {
      for replacement in Self.replacements {
        let mutated = replacing(body, at: path[...], with: replacement)
        let bytes = Array((header + "\n" + JSONWriter.string(mutated, style: .compact)).utf8)
        let report = try ReportReader.read(bytes)
        #expect(report.header.bugType == "309")
        _ = Doctor.diagnose(report)
        runs += 1
      }
    }
    #expect(runs == paths.count * Self.replacements.count)
  }

  @Test("Out-of-range and negative indexes become warnings with their JSON path")
  func indexes() throws {
    let report = try ReportReader.read(
      ExampleReport.ips(
        #"""
        {"faultingThread":42,"threads":[{"frames":[{"imageIndex":99,"imageOffset":1},{"imageIndex":-1,"imageOffset":2}]}],
         "lastExceptionBacktrace":[{"imageIndex":18446744073709551615,"imageOffset":3}],
         "usedImages":[]}
        """#))
    #expect(report.faultingThread == nil)
    let locations = report.warnings.map(\.location)
    #expect(locations.contains("faultingThread"))
    #expect(locations.contains("threads[0].frames[0].imageIndex"))
    #expect(locations.contains("threads[0].frames[1].imageIndex"))
    #expect(locations.contains("lastExceptionBacktrace[0].imageIndex"))
    _ = Doctor.diagnose(report)
  }

  @Test("Null everywhere, empty arrays and duplicate keys")
  func nullsAndDuplicates() throws {
    let report = try ReportReader.read(
      ExampleReport.ips(
        #"""
        {"exception":null,"exceptionReason":null,"termination":null,"asi":null,"threads":null,
         "usedImages":null,"lastExceptionBacktrace":[],"faultingThread":null,"pid":1,"pid":2,
         "procName":"first","procName":"second"}
        """#))
    #expect(report.pid == 2)
    #expect(report.processName == "second")
    #expect(report.threads.isEmpty)
    let result = Doctor.diagnose(report)
    #expect(result.isInconclusive)
  }
}

private func collect(_ value: JSONValue, path: [JSONPath.Component], into paths: inout [[JSONPath.Component]]) {
  paths.append(path)
  switch value {
  case .array(let elements):
    for (index, element) in elements.enumerated() { collect(element, path: path + [.index(index)], into: &paths) }
  case .object(let object):
    for member in object.members { collect(member.value, path: path + [.key(member.key)], into: &paths) }
  default:
    break
  }
}

private func replacing(_ value: JSONValue, at path: ArraySlice<JSONPath.Component>, with replacement: JSONValue)
  -> JSONValue
{
  guard let first = path.first else { return replacement }
  switch (value, first) {
  case (.array(var elements), .index(let index)):
    elements[index] = replacing(elements[index], at: path.dropFirst(), with: replacement)
    return .array(elements)
  case (.object(var object), .key(let key)):
    if let position = object.members.lastIndex(where: { $0.key == key }) {
      object.members[position].value = replacing(
        object.members[position].value, at: path.dropFirst(), with: replacement)
    }
    return .object(object)
  default:
    return value
  }
}
