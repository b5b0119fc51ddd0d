import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import IPSDoctorCLI

/// The JUnit output holds to the structure of the JUnit XML schema Jenkins and GitLab read
/// (`testsuites` > `testsuite` > `testcase`, each with its required attributes and at most one
/// `failure` or `error`), and its counts agree with its test cases.
@Suite struct JUnitStructureTests {
  /// A strict reading of the document into its elements, failing on anything the schema forbids.
  final class Checker: NSObject, XMLParserDelegate {
    var problems: [String] = []
    var stack: [String] = []
    var suites: [[String: String]] = []
    var cases = 0
    var failures = 0
    var errors = 0
    var outcomesInCase = 0
    var root: [String: String] = [:]

    static let allowedChildren: [String: Set<String>] = [
      "": ["testsuites"],
      "testsuites": ["testsuite"],
      "testsuite": ["properties", "testcase", "system-out", "system-err"],
      "properties": ["property"],
      "testcase": ["failure", "error", "skipped", "system-out", "system-err"],
    ]
    static let requiredAttributes: [String: [String]] = [
      "testsuite": ["name", "tests", "failures", "errors", "time"],
      "testcase": ["name", "classname", "time"],
      "failure": ["message", "type"],
      "error": ["message", "type"],
      "property": ["name", "value"],
    ]

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      let parent = stack.last ?? ""
      if let allowed = Self.allowedChildren[parent], !allowed.contains(name) {
        problems.append("<\(name)> inside <\(parent)>")
      } else if Self.allowedChildren[parent] == nil {
        problems.append("<\(name)> inside <\(parent)>, which takes only text")
      }
      for attribute in Self.requiredAttributes[name] ?? [] where attributes[attribute] == nil {
        problems.append("<\(name)> without \(attribute)")
      }
      for attribute in ["tests", "failures", "errors", "skipped"] {
        if let value = attributes[attribute], Int(value) == nil { problems.append("\(name) \(attribute)=\(value)") }
      }
      if let time = attributes["time"], Double(time) == nil { problems.append("\(name) time=\(time)") }
      switch name {
      case "testsuites": root = attributes
      case "testsuite": suites.append(attributes)
      case "testcase":
        cases += 1
        outcomesInCase = 0
      case "failure", "error":
        outcomesInCase += 1
        if outcomesInCase > 1 { problems.append("a testcase with more than one failure or error") }
        if name == "failure" { failures += 1 } else { errors += 1 }
      default: break
      }
      stack.append(name)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      stack.removeLast()
    }
  }

  static func check(_ arguments: [String]) throws -> Checker {
    let run = CLITest.run(arguments + ["--format", "junit"])
    let checker = Checker()
    let parser = XMLParser(data: Data(run.stdout.utf8))
    parser.delegate = checker
    #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
    return checker
  }

  @Test(arguments: [GoldenTests.batch, ["Fixtures/reports"], ["Fixtures/cli"]])
  func validatesAndCountsAgree(arguments: [String]) throws {
    let checker = try Self.check(arguments)
    #expect(checker.problems.isEmpty, "\(checker.problems.prefix(5))")
    let suite = try #require(checker.suites.first)
    #expect(Int(suite["tests"] ?? "") == checker.cases)
    #expect(Int(suite["failures"] ?? "") == checker.failures)
    #expect(Int(suite["errors"] ?? "") == checker.errors)
    #expect(Int(checker.root["tests"] ?? "") == checker.cases)
  }
}
