/// `--format sarif`: SARIF 2.1.0 for GitHub code scanning and other viewers.
///
/// `tool.driver.rules` lists the rule catalog plus the tool's own findings (unreadable report,
/// inconclusive, parse warnings); each finding is one result located at line 1 of its report file
/// (code scanning requires a `region.startLine`, and a crash report has no source line). Results
/// carry the crash signature as a partial fingerprint, and `baselineState` when `--baseline` is
/// used. Results are written as reports finish.
struct SARIFReporter: Reporter {
  static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

  let context: ReporterContext
  private var first = true
  private let ruleIndex: [String: Int]
  private let rules: [JSONValue]

  init(context: ReporterContext) {
    self.context = context
    var rules: [JSONValue] = []
    var index: [String: Int] = [:]
    for rule in RuleCatalog.all.map({ $0.description }) {
      index[rule.id] = rules.count
      rules.append(
        Self.rule(
          id: rule.id, title: rule.title, summary: rule.summary, help: rule.remedy,
          severity: rule.severity, category: rule.category.rawValue,
          helpURI: rule.references.first { $0.hasPrefix("https://") }))
    }
    for builtin in Finding.Builtin.allCases {
      index[builtin.rawValue] = rules.count
      rules.append(
        Self.rule(
          id: builtin.rawValue, title: builtin.title, summary: builtin.summary, help: builtin.help,
          severity: builtin.severity, category: "ips-doctor"))
    }
    self.rules = rules
    self.ruleIndex = index
  }

  /// A rule's `reportingDescriptor`: `help.text` is plain text (the Markdown rendered as the
  /// text output renders it), `help.markdown` the Markdown, `helpUri` its first reference.
  static func rule(
    id: String, title: String, summary: String, help: String, severity: Severity, category: String,
    helpURI: String? = nil
  ) -> JSONValue {
    var object = JSONObject()
    object.append("id", .string(id))
    object.append("name", .string(title.split(separator: " ").joined()))
    object.append("shortDescription", .object(["text": .string(title)]))
    object.append("fullDescription", .object(["text": .string(summary)]))
    let plain = PlainText.renderMarkdown(help, width: 100, indent: "").joined(separator: "\n")
    object.append("help", .object(["text": .string(plain), "markdown": .string(help)]))
    if let helpURI { object.append("helpUri", .string(helpURI)) }
    object.append("defaultConfiguration", .object(["level": .string(level(severity))]))
    object.append("properties", .object(["category": .string(category), "tags": .strings(["crash", category])]))
    return .object(object)
  }

  static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .note: "note"
    }
  }

  mutating func begin(_ out: TextOutput) {
    var driver = JSONObject()
    driver.append("name", .string("ips-doctor"))
    driver.append("semanticVersion", .string(IPSDoctor.version))
    driver.append("version", .string(IPSDoctor.version))
    driver.append("rules", .array(rules))
    let tool: JSONValue = .object(["driver": .object(driver)])
    out.write("{\n  \"$schema\": \"\(Self.schema)\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n")
    out.write("      \"tool\": " + ReportJSON.pretty(tool, indent: 3) + ",\n")
    out.write("      \"results\": [")
  }

  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
    for finding in Finding.reported(for: outcome) {
      ReportJSON.write(result(finding, outcome), indent: 4, prefix: first ? "\n        " : ",\n        ", to: out)
      first = false
    }
  }

  func result(_ finding: Finding, _ outcome: ReportOutcome) -> JSONValue {
    var object = JSONObject()
    object.append("ruleId", .string(finding.ruleID))
    if let index = ruleIndex[finding.ruleID] { object.append("ruleIndex", .int(index)) }
    object.append("level", .string(Self.level(finding.severity)))
    object.append("message", .object(["text": .string(finding.title + ": " + finding.message)]))
    let location: JSONObject = [
      "physicalLocation": .object([
        "artifactLocation": .object(["uri": .string(Self.uri(outcome.path))]),
        "region": .object(["startLine": .int(1)]),
      ])
    ]
    object.append("locations", .array([.object(location)]))
    if let signature = outcome.result?.signature {
      object.append("partialFingerprints", .object(["crashSignature/v1": .string(signature.id)]))
    }
    if let baseline = outcome.baseline {
      object.append("baselineState", .string(baseline == .known ? "unchanged" : "new"))
    }
    var properties = JSONObject()
    if let confidence = finding.confidence { properties.append("confidence", .string(confidence.rawValue)) }
    if let kind = outcome.facts?.kind { properties.append("kind", .string(kind.rawValue)) }
    if let app = outcome.facts?.appDescription { properties.append("app", .string(app)) }
    if let os = outcome.facts?.osDescription { properties.append("os", .string(os)) }
    if !finding.evidence.isEmpty {
      properties.append("evidence", .strings(finding.evidence.map(\.description)))
    }
    let alternatives = Finding.alternatives(for: outcome)
    if !alternatives.isEmpty {
      properties.append(
        "alsoConsistentWith",
        .strings(alternatives.map { "\($0.ruleID) (\($0.severity.rawValue), \($0.confidence.rawValue))" }))
    }
    object.append("properties", .object(properties))
    return .object(object)
  }

  mutating func finish(_ run: RunSummary, _ out: TextOutput) {
    out.write(first ? "],\n" : "\n      ],\n")
    var invocation = JSONObject()
    // Successful as the exit status says: every input read and the run complete (0 or 1).
    invocation.append("executionSuccessful", .bool(run.exitCode == .success || run.exitCode == .findings))
    invocation.append("exitCode", .int(Int(run.exitCode.rawValue)))
    invocation.append(
      "toolExecutionNotifications",
      .array(
        run.notices.map { notice in
          .object([
            "level": .string(notice.kind == .skipped ? "warning" : "error"),
            "message": .object(["text": .string(notice.path + ": " + notice.message)]),
          ])
        }))
    out.write("      \"invocations\": " + ReportJSON.pretty(.array([.object(invocation)]), indent: 3) + "\n")
    out.write("    }\n  ]\n}\n")
  }

  /// A relative URI reference for a path shown as ``PathName/display`` makes it: the path's own
  /// bytes (not its escaped display form), unreserved characters and `/` kept, everything else
  /// percent-encoded; absolute paths become `file://` URIs.
  static func uri(_ path: String) -> String {
    var text = ""
    for byte in PathName(display: path)?.bytes ?? Array(path.utf8) {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        text.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        text += "%" + String.hexByte(byte)
      }
    }
    return path.hasPrefix("/") ? "file://" + text : text
  }
}
