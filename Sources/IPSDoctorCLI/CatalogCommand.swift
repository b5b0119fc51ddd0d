import IPSDoctorBatch
import IPSDoctorCheck
import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorOutput
import IPSDoctorSupport

/// `ips-doctor rules` and `ips-doctor explain ID`: the rule catalog, as a table, JSON or Markdown.
struct CatalogCommand<IO: CLIIO> {
  let invocation: Invocation
  let environment: [String: String]
  let io: IO

  func run(_ command: Command) -> ExitCode {
    let options = invocation.options
    let text: String
    switch command {
    case .explain:
      let id = invocation.arguments[0]
      if let builtin = Finding.Builtin(rawValue: id) {
        // The ids the tool itself emits (SARIF results, annotations) are explained too.
        return CLI.writeOutput(explainBuiltin(builtin, format: options.catalogFormat), io: io)
      }
      // `check`'s finding is the source-side view of the crash rule it guards against.
      let ruleID = id == CheckOutput.ruleID ? AsyncBridgeCompletionOffMainRule.description.id : id
      guard let rule = RuleCatalog.rule(id: ruleID) else {
        let error = UsageError.unknownRule(id, suggestion: Suggest.best(id, among: RuleCatalog.ids))
        io.writeStandardError(error.rendered(for: .explain))
        return .usage
      }
      let description = rule.description
      if ruleID != id, options.catalogFormat == .text {
        io.writeStandardError(
          "ips-doctor: note: '\(id)' is what 'ips-doctor check' reports in Swift source for the crash rule '\(ruleID)'\n"
        )
      }
      switch options.catalogFormat {
      case .text: text = explainText(description)
      case .json: text = JSONWriter.string(CatalogRendering.json(description)) + "\n"
      case .markdown: text = CatalogRendering.markdown(description, level: 1)
      }
    default:
      let descriptions = RuleCatalog.all.map { $0.description }
      switch options.catalogFormat {
      case .text: text = table(descriptions)
      case .json:
        text =
          JSONWriter.string(
            .object([
              "schemaVersion": .int(IPSDoctor.outputSchemaVersion),
              "tool": .object(["name": .string("ips-doctor"), "version": .string(IPSDoctor.version)]),
              "rules": .array(descriptions.map(CatalogRendering.json)),
            ])) + "\n"
      case .markdown: text = CatalogRendering.markdownCatalog(descriptions)
      }
    }
    let destination: CLI.Destination
    switch CLI.Destination.open(path: options.output, io: io) {
    case .success(let opened): destination = opened
    case .failure(let refusal): return refusal.status
    }
    destination.out.write(text)
    if let message = destination.commit() {
      CLI.writeError(message, io: io)
      return .cannotCreate
    }
    return .success
  }

  var style: Style {
    let toTerminal = invocation.options.output == nil && io.standardOutputIsTerminal
    return Style(enabled: CLI.useColor(invocation.options.color, isTerminal: toTerminal, environment: environment))
  }

  func table(_ rules: [RuleDescription]) -> String {
    guard !rules.isEmpty else { return "No rules.\n" }
    let idWidth = max(2, rules.map(\.id.count).max()!)
    var lines: [String] = []
    for category in RuleCategory.allCases {
      let members = rules.filter { $0.category == category }
      guard !members.isEmpty else { continue }
      if !lines.isEmpty { lines.append("") }
      lines.append(style.bold(category.rawValue))
      for rule in members {
        let id = rule.id + String(repeating: " ", count: idWidth - rule.id.count)
        let severity =
          style.severity(rule.severity, rule.severity.rawValue)
          + String(repeating: " ", count: 7 - rule.severity.rawValue.count)
        lines.append("  \(id)  \(severity)  \(rule.title)")
      }
    }
    lines.append("")
    lines.append("\(rules.count) rule\(rules.count == 1 ? "" : "s"). Run 'ips-doctor explain <rule-id>' for details.")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `explain inconclusive`, `explain unreadable-report`, `explain report-parse-warnings`.
  func explainBuiltin(_ builtin: Finding.Builtin, format: CatalogFormat) -> String {
    switch format {
    case .json:
      return JSONWriter.string(
        .object([
          "id": .string(builtin.rawValue), "title": .string(builtin.title),
          "severity": .string(builtin.severity.rawValue), "summary": .string(builtin.summary),
          "remedy": .string(builtin.help),
        ])) + "\n"
    case .markdown:
      return "# \(builtin.title) (`\(builtin.rawValue)`)\n\n\(builtin.summary)\n\n## How to fix it\n\n\(builtin.help)\n"
    case .text:
      var lines = [style.bold(builtin.rawValue) + " — " + builtin.title, ""]
      lines += PlainText.renderMarkdown(builtin.summary, width: 80, indent: "")
      lines += ["", style.bold("How to fix it")]
      lines += PlainText.renderMarkdown(builtin.help, width: 80, indent: "  ")
      return lines.joined(separator: "\n") + "\n"
    }
  }

  func explainText(_ rule: RuleDescription) -> String {
    let width = 80
    var lines: [String] = []
    lines.append(style.bold(rule.id) + " — " + rule.title)
    lines.append(style.dim("Category: \(rule.category.rawValue) · Default severity: \(rule.severity.rawValue)"))
    lines.append("")
    lines += PlainText.renderMarkdown(rule.summary, width: width, indent: "")
    lines.append("")
    lines.append(style.bold("Why it happens"))
    lines += PlainText.renderMarkdown(rule.rationale, width: width, indent: "  ", style: style)
    lines.append("")
    lines.append(style.bold("How to fix it"))
    lines += PlainText.renderMarkdown(rule.remedy, width: width, indent: "  ", style: style)
    if !rule.references.isEmpty {
      lines.append("")
      lines.append(style.bold("References"))
      lines += rule.references.map { "  - " + $0 }
    }
    if !rule.examples.isEmpty {
      lines.append("")
      lines.append(style.bold("Examples"))
      for example in rule.examples {
        let verb = example.expectation == .doesNotTrigger ? "ignores" : "triggers"
        lines += PlainText.wrap(example.name, width: width, indent: "      ", hanging: "  - \(verb): ")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// The catalog as JSON and Markdown (also used for generated documentation).
enum CatalogRendering {
  static func json(_ rule: RuleDescription) -> JSONValue {
    .object([
      "id": .string(rule.id),
      "title": .string(rule.title),
      "summary": .string(rule.summary),
      "category": .string(rule.category.rawValue),
      "severity": .string(rule.severity.rawValue),
      "rationale": .string(rule.rationale),
      "remedy": .string(rule.remedy),
      "references": .strings(rule.references),
      "examples": .array(
        rule.examples.map { example in
          .object([
            "name": .string(example.name),
            "triggers": .bool(example.expectation != .doesNotTrigger),
          ])
        }),
    ])
  }

  static func markdown(_ rule: RuleDescription, level: Int) -> String {
    let hashes = String(repeating: "#", count: level)
    var text = "\(hashes) `\(rule.id)`: \(rule.title)\n\n"
    text += "*\(rule.category.rawValue) · default severity **\(rule.severity.rawValue)***\n\n"
    text += rule.summary + "\n\n"
    text += "\(hashes)# Why it happens\n\n\(rule.rationale)\n\n"
    text += "\(hashes)# How to fix it\n\n\(rule.remedy)\n"
    if !rule.references.isEmpty {
      text += "\n\(hashes)# References\n\n" + rule.references.map { "- <\($0)>\n" }.joined()
    }
    if !rule.examples.isEmpty {
      text += "\n\(hashes)# Examples\n\n"
      for example in rule.examples {
        text += "- \(example.expectation == .doesNotTrigger ? "Ignores" : "Triggers"): \(example.name)\n"
      }
    }
    return text
  }

  static func markdownCatalog(_ rules: [RuleDescription]) -> String {
    var text = "# ips-doctor rules\n\n"
    text += "Generated by `ips-doctor rules --format markdown`; do not edit by hand.\n\n"
    text += "| Rule | Title | Category | Severity |\n|---|---|---|---|\n"
    for rule in rules {
      text +=
        "| [`\(rule.id)`](#\(rule.id)) | \(rule.title) | \(rule.category.rawValue) | \(rule.severity.rawValue) |\n"
    }
    for rule in rules {
      text += "\n" + markdown(rule, level: 2)
    }
    return text
  }
}
