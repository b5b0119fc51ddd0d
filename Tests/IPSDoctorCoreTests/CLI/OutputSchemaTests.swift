import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorOutput
@testable import IPSDoctorSupport

/// The machine-readable outputs, parsed with Foundation and checked structurally: JSON and JSON
/// Lines against docs/ips-doctor-output.schema.json, SARIF against the fields SARIF 2.1.0 and
/// GitHub code scanning require, JUnit as well-formed XML.
@Suite("Output structure")
struct OutputSchemaTests {
  static func schema() throws -> [String: Any] {
    let data = try Data(contentsOf: Fixtures.root.appendingPathComponent("docs/ips-doctor-output.schema.json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
  }

  @Test("--format json matches the documented schema")
  func jsonMatchesSchema() throws {
    let schema = try Self.schema()
    let run = CLITest.run(
      GoldenTests.batch + ["Fixtures/reports", "--format", "json", "--baseline", "Fixtures/cli/baseline.json"])
    let document = try Self.json(run.stdout)
    var validator = SchemaValidator(root: schema)
    validator.validate(document, against: schema, at: "$")
    #expect(validator.problems.isEmpty, "\(validator.problems.prefix(10).joined(separator: "\n"))")
    let object = try #require(document as? [String: Any])
    let summary = try #require(object["summary"] as? [String: Any])
    #expect(summary["exitCode"] as? Int == Int(run.status.rawValue))
  }

  @Test("--format jsonl writes one schema-valid report per line")
  func jsonLinesMatchSchema() throws {
    let schema = try Self.schema()
    let definitions = try #require(schema["$defs"] as? [String: Any])
    let report = try #require(definitions["report"] as? [String: Any])
    let run = CLITest.run(GoldenTests.batch + ["--format", "jsonl"])
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == GoldenTests.batch.count)
    for line in lines {
      var validator = SchemaValidator(root: schema)
      validator.validate(try Self.json(String(line)), against: report, at: "$")
      #expect(validator.problems.isEmpty, "\(validator.problems.prefix(5).joined(separator: "\n"))")
    }
  }

  @Test("--format sarif has the SARIF 2.1.0 fields GitHub code scanning requires")
  func sarifStructure() throws {
    let run = CLITest.run(GoldenTests.batch + ["--format", "sarif"])
    let log = try #require(try Self.json(run.stdout) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    #expect((log["$schema"] as? String)?.contains("sarif-schema-2.1.0") == true)
    let runs = try #require(log["runs"] as? [[String: Any]])
    #expect(runs.count == 1)
    let tool = try #require(runs[0]["tool"] as? [String: Any])
    let driver = try #require(tool["driver"] as? [String: Any])
    #expect(driver["name"] as? String == "ips-doctor")
    #expect(driver["semanticVersion"] as? String == IPSDoctor.version)
    let rules = try #require(driver["rules"] as? [[String: Any]])
    let ruleIDs = rules.compactMap { $0["id"] as? String }
    #expect(ruleIDs.count == rules.count)
    #expect(Set(ruleIDs).count == ruleIDs.count, "rule ids are not unique")
    for id in RuleCatalog.ids { #expect(ruleIDs.contains(id), "catalog rule \(id) missing from tool.driver.rules") }
    for rule in rules {
      #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
      #expect(((rule["fullDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
    }
    let results = try #require(runs[0]["results"] as? [[String: Any]])
    #expect(!results.isEmpty)
    for result in results {
      let ruleID = try #require(result["ruleId"] as? String)
      let index = try #require(result["ruleIndex"] as? Int)
      #expect(ruleIDs.indices.contains(index) && ruleIDs[index] == ruleID)
      #expect(["error", "warning", "note", "none"].contains(result["level"] as? String ?? ""))
      #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
      let locations = try #require(result["locations"] as? [[String: Any]])
      let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
      let artifact = try #require(physical["artifactLocation"] as? [String: Any])
      let uri = try #require(artifact["uri"] as? String)
      #expect(GoldenTests.batch.contains(uri), "unexpected uri \(uri)")
      let region = try #require(physical["region"] as? [String: Any])
      #expect((region["startLine"] as? Int ?? 0) >= 1)
    }
  }

  @Test("SARIF URIs are percent-encoded relative references")
  func sarifURIs() {
    #expect(SARIFReporter.uri("crashes/My App 2.ips") == "crashes/My%20App%202.ips")
    #expect(SARIFReporter.uri("/tmp/a#b.ips") == "file:///tmp/a%23b.ips")
    #expect(SARIFReporter.uri("é.ips") == "%C3%A9.ips")
  }

  @Test("--format junit is well-formed XML with one test case per report")
  func junitIsWellFormed() throws {
    let run = CLITest.run(GoldenTests.batch + ["--format", "junit"])
    let delegate = CountingXMLDelegate()
    let parser = XMLParser(data: Data(run.stdout.utf8))
    parser.delegate = delegate
    #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
    #expect(delegate.counts["testcase"] == GoldenTests.batch.count)
    // One finding per report: the damaged report was diagnosed (a failure, not an error), and no
    // test case has more than one failure (3 failing reports, 3 failures).
    #expect(delegate.counts["error"] == nil)
    #expect(delegate.counts["failure"] == 3)
  }

  @Test("Hostile report text cannot escape any format")
  func hostileText() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let evil = "\u{1B}[31mRED\u{07}\r\n::error::forged\u{202E}</failure><x>|*`"
    let header =
      "{\"bug_type\":\"309\",\"app_name\":\"\(evil.jsonEscaped)\",\"os_version\":\"iPhone OS 26.6 (23G80)\"}\n"
    let body =
      "{\"exception\":{\"type\":\"EXC_BAD_ACCESS\",\"signal\":\"SIGSEGV\"},\"threads\":[{\"triggered\":true,\"frames\":[]}],\"asi\":{\"x\":[\"\(evil.jsonEscaped)\"]},\"procName\":\"\(evil.jsonEscaped)\"}"
    let path = directory.appendingPathComponent("evil.ips")
    try (header + body).write(to: path, atomically: true, encoding: .utf8)
    for format in OutputFormat.allCases {
      let run = CLITest.run([path.path, "--format", format.rawValue, "--color", "never", "--verbose"])
      #expect(!run.stdout.contains("\u{1B}"), "\(format): raw escape character")
      #expect(!run.stdout.contains("\u{07}"), "\(format): raw bell")
      #expect(!run.stdout.contains("\u{202E}"), "\(format): raw bidi override")
      #expect(!run.stdout.contains("\r"), "\(format): raw carriage return")
      if format == .github {
        #expect(!run.stdout.contains("\n::error::forged"), "a report forged a workflow command")
      }
      if format == .junit {
        let parser = XMLParser(data: Data(run.stdout.utf8))
        #expect(parser.parse(), "hostile text broke the XML")
      }
      if format == .json || format == .sarif {
        #expect((try? Self.json(run.stdout)) != nil, "hostile text broke the JSON")
      }
    }
  }
}

extension String {
  var jsonEscaped: String {
    var result = ""
    for scalar in unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      default:
        if scalar.value < 0x20 {
          result += String(format: "\\u%04x", scalar.value)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}

final class CountingXMLDelegate: NSObject, XMLParserDelegate {
  var counts: [String: Int] = [:]

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    counts[elementName, default: 0] += 1
  }
}

/// Enough of JSON Schema 2020-12 for our own schema: type, const, enum, properties, required,
/// additionalProperties: false, items, oneOf and local $ref.
struct SchemaValidator {
  let root: [String: Any]
  var problems: [String] = []

  mutating func validate(_ value: Any, against schema: [String: Any], at path: String) {
    if let reference = schema["$ref"] as? String {
      let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
      guard let definitions = root["$defs"] as? [String: Any], let target = definitions[name] as? [String: Any] else {
        problems.append("\(path): unknown $ref \(reference)")
        return
      }
      validate(value, against: target, at: path)
    }
    if let options = schema["oneOf"] as? [[String: Any]] {
      let matches = options.filter { option in
        var probe = SchemaValidator(root: root)
        probe.validate(value, against: option, at: path)
        return probe.problems.isEmpty
      }
      if matches.count != 1 { problems.append("\(path): matches \(matches.count) of oneOf") }
    }
    if let constant = schema["const"] {
      if !Self.equal(value, constant) { problems.append("\(path): expected \(constant)") }
    }
    if let allowed = schema["enum"] as? [Any] {
      if !allowed.contains(where: { Self.equal(value, $0) }) { problems.append("\(path): \(value) not in enum") }
    }
    if let type = schema["type"] {
      let types = (type as? [String]) ?? [(type as? String) ?? ""]
      if !types.contains(where: { Self.isType(value, $0) }) {
        problems.append("\(path): expected \(types.joined(separator: "|")), found \(Swift.type(of: value))")
        return
      }
    }
    if let object = value as? [String: Any], !(value is NSNull) {
      let properties = schema["properties"] as? [String: Any] ?? [:]
      for key in schema["required"] as? [String] ?? [] where object[key] == nil {
        problems.append("\(path): missing required \(key)")
      }
      for (key, member) in object {
        if let propertySchema = properties[key] as? [String: Any] {
          validate(member, against: propertySchema, at: "\(path).\(key)")
        } else if schema["additionalProperties"] as? Bool == false {
          problems.append("\(path): undocumented key \(key)")
        }
      }
    }
    if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
      for (index, element) in array.enumerated() { validate(element, against: items, at: "\(path)[\(index)]") }
    }
  }

  static func isType(_ value: Any, _ type: String) -> Bool {
    switch type {
    case "null": return value is NSNull
    case "string": return value is String
    case "array": return value is [Any]
    case "object": return value is [String: Any]
    case "boolean": return value is Bool
    case "integer", "number": return value is Int || value is Double || value is NSNumber
    default: return false
    }
  }

  static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
    if lhs is NSNull || rhs is NSNull { return lhs is NSNull && rhs is NSNull }
    if let a = lhs as? String, let b = rhs as? String { return a == b }
    if let a = lhs as? NSNumber, let b = rhs as? NSNumber { return a == b }
    return false
  }
}
