import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorOutput
import IPSDoctorSupport

/// The output formats of `ips-doctor check`. Every text that comes from a scanned file or its path
/// goes through the escaping of its format: ``TerminalText`` for text, the JSON writer, GitHub's
/// workflow-command escaping, or XML escaping; nothing reaches a terminal or CI log raw.
package enum CheckOutput {
  package static let ruleID = "async-delegate-completion-off-main"
  static let ruleTitle = "Async completion-handler delegate method completes off the main thread"

  package static func render(_ findings: [CheckFinding], format: OutputFormat, filesScanned: Int, verbose: Bool)
    -> String
  {
    switch format {
    case .text: text(findings, filesScanned: filesScanned, verbose: verbose)
    case .json: JSONWriter.string(document(findings, filesScanned: filesScanned)) + "\n"
    case .jsonl: findings.map { JSONWriter.string(object($0), style: .compact) + "\n" }.joined()
    case .sarif: JSONWriter.string(sarif(findings)) + "\n"
    case .github: github(findings)
    case .markdown: markdown(findings, filesScanned: filesScanned)
    case .junit: junit(findings, filesScanned: filesScanned)
    }
  }

  /// Writes to `out` what ``render(_:format:filesScanned:verbose:)`` returns: text and jsonl a
  /// finding at a time, so that the output of a large tree is never held whole.
  package static func write(
    _ findings: [CheckFinding], format: OutputFormat, filesScanned: Int, verbose: Bool, to out: TextOutput
  ) {
    switch format {
    case .text:
      for finding in findings { out.write(text(finding, verbose: verbose)) }
      out.write(summary(findings, filesScanned: filesScanned) + "\n")
    case .jsonl:
      for finding in findings { out.write(JSONWriter.string(object(finding), style: .compact) + "\n") }
    case .json, .sarif, .github, .markdown, .junit:
      out.write(render(findings, format: format, filesScanned: filesScanned, verbose: verbose))
    }
  }

  // MARK: Text

  /// `path:line:column: severity: message`, as a compiler prints it, then the fix as a note.
  static func text(_ findings: [CheckFinding], filesScanned: Int, verbose: Bool) -> String {
    var out = ""
    for finding in findings { out += text(finding, verbose: verbose) }
    out += summary(findings, filesScanned: filesScanned) + "\n"
    return out
  }

  /// One finding's lines in ``text(_:filesScanned:verbose:)``.
  static func text(_ finding: CheckFinding, verbose: Bool) -> String {
    var out = TerminalText.escaped(
      "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message)")
    out += "\n"
    out += TerminalText.escaped("\(finding.file):\(finding.line):\(finding.column): note: fix: \(finding.fix)") + "\n"
    if verbose {
      out += "    " + TerminalText.escaped("reference: \(finding.method.reference)") + "\n"
    }
    return out
  }

  static func summary(_ findings: [CheckFinding], filesScanned: Int) -> String {
    let counts = Severity.allCases.reversed().compactMap { severity -> String? in
      // Counted, not filtered: a filtered array would copy every finding of the severity.
      let count = findings.reduce(0) { $1.severity == severity ? $0 + 1 : $0 }
      return count == 0 ? nil : "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
    }
    let files = "\(filesScanned) Swift file\(filesScanned == 1 ? "" : "s")"
    return counts.isEmpty
      ? "ips-doctor check: no finding in \(files)."
      : "ips-doctor check: \(counts.joined(separator: ", ")) in \(files)."
  }

  // MARK: JSON

  static func object(_ finding: CheckFinding) -> JSONValue {
    .object([
      "file": .string(finding.file),
      "line": .int(finding.line),
      "column": .int(finding.column),
      "severity": .string(finding.severity.rawValue),
      "rule": .string(ruleID),
      "type": .string(finding.typeName),
      "method": .string(finding.function.swiftName),
      "protocol": .string(finding.method.protocolName),
      "framework": .string(finding.method.framework),
      "selector": .string(finding.method.selector),
      "offMainEffect": .string(finding.method.effect.rawValue),
      "isolation": .string(finding.isolation),
      "message": .string(finding.message),
      "fix": .string(finding.fix),
      "reference": .string(finding.method.reference),
    ])
  }

  static func document(_ findings: [CheckFinding], filesScanned: Int) -> JSONValue {
    .object([
      "tool": .string("ips-doctor check"),
      "version": .string(IPSDoctor.version),
      "filesScanned": .int(filesScanned),
      "findings": .array(findings.map(object)),
    ])
  }

  // MARK: SARIF

  static func sarif(_ findings: [CheckFinding]) -> JSONValue {
    let rule = SARIFReporter.rule(
      id: ruleID, title: ruleTitle,
      summary: AsyncBridgeCompletionOffMainRule.description.summary,
      help: AsyncBridgeCompletionOffMainRule.description.remedy, severity: .error, category: "concurrency",
      helpURI: AsyncBridgeCompletionOffMainRule.description.references.first { $0.hasPrefix("https://") })
    let results: [JSONValue] = findings.map { finding in
      .object([
        "ruleId": .string(ruleID),
        "ruleIndex": .int(0),
        "level": .string(SARIFReporter.level(finding.severity)),
        "message": .object(["text": .string(finding.message + ". Fix: " + finding.fix + ".")]),
        "locations": .array([
          .object([
            "physicalLocation": .object([
              "artifactLocation": .object(["uri": .string(uri(finding.file))]),
              "region": .object(["startLine": .int(finding.line), "startColumn": .int(finding.column)]),
            ])
          ])
        ]),
      ])
    }
    return .object([
      "$schema": .string(SARIFReporter.schema),
      "version": .string("2.1.0"),
      "runs": .array([
        .object([
          "tool": .object([
            "driver": .object([
              "name": .string("ips-doctor"),
              "version": .string(IPSDoctor.version),
              "informationUri": .string(
                "https://github.com/swiftlang/swift-evolution/blob/main/proposals/0338-clarify-execution-non-actor-async.md"
              ),
              "rules": .array([rule]),
            ])
          ]),
          "results": .array(results),
        ])
      ]),
    ])
  }

  /// A relative URI reference for a path: unreserved bytes and `/` as they are, the rest
  /// percent-encoded (RFC 3986).
  static func uri(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(UnicodeScalar(byte))
      default:
        out += "%" + String.hexByte(byte)
      }
    }
    return out
  }

  // MARK: GitHub

  /// `::error file=…,line=…,col=…,title=…::message` workflow commands.
  static func github(_ findings: [CheckFinding]) -> String {
    findings.map { finding in
      let command = finding.severity == .note ? "notice" : finding.severity.rawValue
      return "::\(command) file=\(GitHubReporter.property(finding.file)),line=\(finding.line),"
        + "col=\(finding.column),title=\(GitHubReporter.property(ruleTitle))::"
        + GitHubReporter.data(finding.message + ". Fix: " + finding.fix + ".") + "\n"
    }.joined()
  }

  // MARK: Markdown

  static func markdown(_ findings: [CheckFinding], filesScanned: Int) -> String {
    var out = "# ips-doctor check\n\n" + summary(findings, filesScanned: filesScanned) + "\n"
    if findings.isEmpty { return out }
    out += "\n| Location | Severity | Method | Protocol | Selector |\n|---|---|---|---|---|\n"
    for finding in findings {
      let cells = [
        "\(finding.file):\(finding.line):\(finding.column)", finding.severity.rawValue,
        "\(finding.typeName).\(finding.function.swiftName)", finding.method.protocolName, finding.method.selector,
      ]
      out += "| " + cells.map { "`" + markdownCell($0) + "`" }.joined(separator: " | ") + " |\n"
    }
    out += "\n" + AsyncBridgeCompletionOffMainRule.description.remedy + "\n"
    return out
  }

  /// Text for a code span in a table cell: visible escapes, no backquote or pipe.
  static func markdownCell(_ text: String) -> String {
    TerminalText.escaped(text).replacing("`", with: "'").replacing("|", with: "\\|")
  }

  // MARK: JUnit

  static func junit(_ findings: [CheckFinding], filesScanned: Int) -> String {
    let failures = findings.reduce(0) { $1.severity == .error ? $0 + 1 : $0 }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuite name=\"ips-doctor check\" tests=\"\(max(findings.count, 1))\" failures=\"\(failures)\">\n"
    if findings.isEmpty {
      out += "  <testcase name=\"no finding in \(filesScanned) files\"/>\n"
    }
    for finding in findings {
      let name = "\(finding.file):\(finding.line):\(finding.column) \(finding.typeName).\(finding.function.swiftName)"
      out += "  <testcase classname=\"\(XML.attribute(finding.method.protocolName))\" name=\"\(XML.attribute(name))\""
      if finding.severity == .error {
        out +=
          ">\n    <failure message=\"\(XML.attribute(finding.message))\">"
          + XML.text(finding.fix) + "</failure>\n  </testcase>\n"
      } else {
        out += "/>\n"
      }
    }
    return out + "</testsuite>\n"
  }
}
