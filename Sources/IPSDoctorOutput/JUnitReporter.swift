import IPSDoctorBatch
import IPSDoctorSupport

/// `--format junit`: JUnit XML for CI test reports. One test case per report; a `<failure>` per
/// finding at or above `--fail-on` (unless the report's signature is in the baseline), an
/// `<error>` for a report that could not be read. Lower findings go to `<system-out>`.
struct JUnitReporter: Reporter {
  let context: ReporterContext
  private let spool = Spool()
  private var tests = 0
  private var failures = 0
  private var errors = 0

  init(context: ReporterContext) { self.context = context }

  mutating func begin(_ out: TextOutput) {}

  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
    tests += 1
    let threshold = context.options.failOn.threshold
    var failing: [Finding] = []
    var passing: [Finding] = []
    var errorFinding: Finding?
    for finding in Finding.reported(for: outcome) {
      if finding.ruleID == Finding.Builtin.unreadable.rawValue {
        errorFinding = finding
      } else if let threshold, finding.severity >= threshold, outcome.baseline != .known {
        failing.append(finding)
      } else {
        passing.append(finding)
      }
    }
    if errorFinding != nil { errors += 1 } else if !failing.isEmpty { failures += 1 }
    let classname = "ips-doctor." + (outcome.facts?.kind.rawValue ?? "unreadable")
    var text =
      "    <testcase classname=\"\(XML.attribute(classname))\" name=\"\(XML.attribute(outcome.path))\" time=\"0\">\n"
    if let errorFinding {
      text += "      <error type=\"\(errorFinding.ruleID)\" message=\"\(XML.attribute(errorFinding.message))\"/>\n"
    }
    for finding in failing {
      text +=
        "      <failure type=\"\(XML.attribute(finding.ruleID))\" message=\"\(XML.attribute(headline(finding)))\">"
      text += XML.text(body(finding)) + "</failure>\n"
    }
    let alternatives = Finding.alternatives(for: outcome).map {
      "Also consistent with: \($0.title) [\($0.ruleID)] (\($0.severity.rawValue), \($0.confidence.rawValue))"
    }
    if !passing.isEmpty || !alternatives.isEmpty {
      let known = outcome.baseline == .known ? "Known crash (in the baseline).\n\n" : ""
      let sections = passing.map { headline($0) + "\n" + body($0) } + [alternatives.joined(separator: "\n")]
      text +=
        "      <system-out>" + XML.text(known + sections.filter { !$0.isEmpty }.joined(separator: "\n\n"))
        + "</system-out>\n"
    }
    text += "    </testcase>\n"
    spool.write(text)
  }

  func headline(_ finding: Finding) -> String {
    "\(finding.severity.rawValue): \(finding.title) [\(finding.ruleID)]"
      + (finding.confidence.map { " (\($0.rawValue))" } ?? "")
  }

  func body(_ finding: Finding) -> String {
    var text = finding.message
    if !finding.remedy.isEmpty { text += "\n\nHow to fix it:\n" + finding.remedy }
    if !finding.evidence.isEmpty {
      text += "\n\nEvidence:\n" + finding.evidence.map { "- \($0.path): \($0.detail)" }.joined(separator: "\n")
    }
    return text
  }

  mutating func finish(_ run: RunSummary, _ out: TextOutput) {
    let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\""
    out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    out.write("<testsuites name=\"ips-doctor\" \(counts) time=\"0\">\n")
    out.write("  <testsuite name=\"ips-doctor\" \(counts) skipped=\"0\" time=\"0\">\n")
    out.write("    <properties>\n")
    out.write("      <property name=\"ips-doctor.version\" value=\"\(IPSDoctor.version)\"/>\n")
    out.write("      <property name=\"fail-on\" value=\"\(run.failOn.rawValue)\"/>\n")
    out.write("    </properties>\n")
    spool.drain(into: out)
    out.write("  </testsuite>\n</testsuites>\n")
  }
}

/// XML escaping. Characters XML 1.0 cannot carry at all (most C0 controls) are first made visible
/// by ``TerminalText/escaped(_:)``.
package enum XML {
  package static func text(_ value: String) -> String {
    escape(PlainText.visibleLines(of: value).joined(separator: "\n"), attribute: false)
  }

  package static func attribute(_ value: String) -> String {
    escape(TerminalText.escaped(value), attribute: true)
  }

  /// Entities for the markup characters, `\u{FFFE}`-style escapes for the two noncharacters XML
  /// forbids; everything else as it is. XML reads scalars and every character this marks is one
  /// scalar, so this works on the UTF-8: the marked ASCII characters are single bytes no other
  /// scalar's bytes hold, and U+FFFE and U+FFFF are EF BF BE and EF BF BF.
  static func escape(_ value: String, attribute: Bool) -> String {
    value.withBorrowedUTF8 { bytes -> String in
      var result: [UInt8] = []
      result.reserveCapacity(bytes.count + 16)
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "&"): result.append(contentsOf: "&amp;".utf8)
        case UInt8(ascii: "<"): result.append(contentsOf: "&lt;".utf8)
        case UInt8(ascii: ">"): result.append(contentsOf: "&gt;".utf8)
        case UInt8(ascii: "\"") where attribute: result.append(contentsOf: "&quot;".utf8)
        case UInt8(ascii: "'") where attribute: result.append(contentsOf: "&apos;".utf8)
        case 0x0A where attribute: result.append(contentsOf: "&#10;".utf8)
        case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
          result.append(contentsOf: (bytes[index + 2] == 0xBE ? "\\u{FFFE}" : "\\u{FFFF}").utf8)
          index += 3
          continue
        default: result.append(byte)
        }
        index += 1
      }
      return String(decoding: result, as: UTF8.self)
    }
  }
}
