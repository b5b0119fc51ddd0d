import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorSupport

/// `--format sarif`: SARIF 2.1.0 for GitHub code scanning and other viewers.
///
/// `tool.driver.rules` lists the rule catalog plus the tool's own findings (unreadable report,
/// inconclusive, parse warnings); each finding is one result located at line 1 of its report file
/// (code scanning requires a `region.startLine`, and a crash report has no source line). A report
/// path inside the working directory is a URI relative to `%SRCROOT%` (the working directory);
/// others are `file://` URIs. Results carry the crash signature as a partial fingerprint.
///
/// With `--baseline`, every result has a `baselineState`: `unchanged` when its signature is in the
/// baseline, `new` otherwise, and each baseline signature this run did not see is one `absent`
/// result at the end (its rule and title from the baseline, located at line 1 of the baseline
/// file, since code scanning rejects a result without a location). Results are written as reports
/// finish.
package struct SARIFReporter: Reporter {
  package static let schema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

  let context: ReporterContext
  private var first = true
  private let ruleIndex: [String: Int]
  private let rules: [JSONValue]
  /// The working directory with a trailing `/`, which `%SRCROOT%` stands for; `nil` if unknown.
  private let workingDirectory: String?

  package init(context: ReporterContext) {
    self.context = context
    self.workingDirectory = Self.currentDirectory().map { $0.hasSuffix("/") ? $0 : $0 + "/" }
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
          severity: builtin.severity, category: "ips-doctor", helpURI: builtin.helpURI))
    }
    self.rules = rules
    self.ruleIndex = index
  }

  /// A rule's `reportingDescriptor`: `help.text` is plain text (the Markdown rendered as the
  /// text output renders it), `help.markdown` the Markdown, `helpUri` its first reference.
  package static func rule(
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

  package static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .note: "note"
    }
  }

  package mutating func begin(_ out: TextOutput) {
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

  package mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
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
    object.append("locations", .array([location(outcome.path)]))
    if let signature = outcome.result?.signature {
      object.append("partialFingerprints", .object(["crashSignature/v1": .string(signature.id)]))
    }
    if context.baseline != nil {
      object.append("baselineState", .string(outcome.baseline == .known ? "unchanged" : "new"))
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

  /// Line 1 of the file at `path`.
  func location(_ path: String) -> JSONValue {
    let (uri, isRelative) = Self.uriReference(path, workingDirectory: workingDirectory)
    var artifact: JSONObject = ["uri": .string(uri)]
    if isRelative { artifact.append("uriBaseId", .string(Self.sourceRoot)) }
    return .object([
      "physicalLocation": .object([
        "artifactLocation": .object(artifact),
        "region": .object(["startLine": .int(1)]),
      ])
    ])
  }

  /// The results for baseline signatures this run did not see (among the reports it kept: `--app`
  /// and the other filters leave reports out), by signature id. Each is the baseline's memory of a
  /// crash: its rule (inconclusive when the baseline names none), its title, and `level` `none`
  /// with `kind` `pass`, as the rule found no such crash this time.
  func absentResults(_ run: RunSummary) -> [JSONValue] {
    guard let baseline = context.baseline, let path = context.options.baseline else { return [] }
    return baseline.unseen(by: run.groups).map { entry in
      let ruleID = entry.rule ?? Finding.Builtin.inconclusive.rawValue
      var object = JSONObject()
      object.append("ruleId", .string(ruleID))
      if let index = ruleIndex[ruleID] { object.append("ruleIndex", .int(index)) }
      object.append("kind", .string("pass"))
      object.append("level", .string("none"))
      let title = entry.title ?? "Crash signature \(entry.id)"
      object.append("message", .object(["text": .string("Not seen in this run: \(title) (in the baseline)")]))
      object.append("locations", .array([location(path)]))
      object.append("partialFingerprints", .object(["crashSignature/v1": .string(entry.id)]))
      object.append("baselineState", .string("absent"))
      if let count = entry.count { object.append("properties", .object(["baselineCount": .int(count)])) }
      return .object(object)
    }
  }

  package mutating func finish(_ run: RunSummary, _ out: TextOutput) {
    for result in absentResults(run) {
      ReportJSON.write(result, indent: 4, prefix: first ? "\n        " : ",\n        ", to: out)
      first = false
    }
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
            "level": .string(notice.kind.level.rawValue),
            "message": .object(["text": .string(notice.path + ": " + notice.message)]),
          ])
        }))
    out.write("      \"invocations\": " + ReportJSON.pretty(.array([.object(invocation)]), indent: 3) + "\n")
    out.write("    }\n  ]\n}\n")
  }

  /// The `uriBaseId` of report paths relative to the working directory.
  static let sourceRoot = "%SRCROOT%"

  /// A URI reference for a path shown as ``PathName/display`` makes it: the path's own bytes (not
  /// its escaped display form), unreserved characters and `/` kept, everything else
  /// percent-encoded. A path inside `workingDirectory` (which ends in `/`) becomes relative to it,
  /// leading `./` segments dropped; any other absolute path becomes a `file://` URI.
  static func uri(_ path: String, workingDirectory: String? = nil) -> String {
    uriReference(path, workingDirectory: workingDirectory).uri
  }

  /// ``uri(_:workingDirectory:)``, and whether it is relative to ``sourceRoot``: a relative path,
  /// or an absolute one inside the working directory. `getcwd` names the working directory as the
  /// folder it is (`/private/tmp/x` on macOS, where `/tmp` is a link), so an absolute path is
  /// compared as written and then as the file it names.
  static func uriReference(_ path: String, workingDirectory: String?) -> (uri: String, isRelative: Bool) {
    var bytes = PathName(display: path)?.bytes ?? Array(path.utf8)
    var isRelative = !path.hasPrefix("/")
    if let workingDirectory, !isRelative {
      let base = Array(workingDirectory.utf8)
      if bytes.starts(with: base) {
        bytes.removeFirst(base.count)
        isRelative = true
      } else if let physical = POSIX.physicalPath(PathName(bytes: bytes))?.bytes, physical.starts(with: base) {
        bytes = Array(physical.dropFirst(base.count))
        isRelative = true
      }
    }
    while bytes.starts(with: "./".utf8) {
      bytes.removeFirst(2)
      while bytes.first == UInt8(ascii: "/") { bytes.removeFirst() }
    }
    var text = ""
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        text.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        text += "%" + String.hexByte(byte)
      }
    }
    return (isRelative ? text : "file://" + text, isRelative)
  }

  /// The working directory (`getcwd`), or `nil` when it cannot be named.
  static func currentDirectory() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(validating: bytes, as: UTF8.self)
  }
}
