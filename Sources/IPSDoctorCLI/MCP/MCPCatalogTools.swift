import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorOutput
import IPSDoctorSupport

/// `explain_rule` and `list_rules`: the rule catalog of `ips-doctor explain` and `rules`.
enum MCPCatalogTools {
  static let explainName = "explain_rule"
  static let listName = "list_rules"

  static var explainDefinition: JSONValue {
    .object([
      "name": .string(explainName),
      "title": .string("Explain a diagnosis rule"),
      "description": .string(
        "Explain one rule of ips-doctor (the 'rule' of a diagnosis): what it detects, why it happens, how to fix "
          + "it, references and example reports. Also explains inconclusive, unreadable-report and "
          + "report-parse-warnings."),
      "inputSchema": MCPSchema.object(
        [("id", MCPSchema.string("The rule id, e.g. async-bridge-completion-off-main."))], required: ["id"]),
      "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
    ])
  }

  static var listDefinition: JSONValue {
    .object([
      "name": .string(listName),
      "title": .string("List the diagnosis rules"),
      "description": .string("List ips-doctor's diagnosis rules: id, title, category, default severity and summary."),
      "inputSchema": MCPSchema.object([
        ("category", MCPSchema.choice(RuleCategory.allCases.map(\.rawValue), "Only the rules of this category."))
      ]),
      "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
    ])
  }

  static func explain(_ arguments: MCPArguments) throws(JSONRPCError) -> MCPToolResult {
    let id = try arguments.requiredString("id")
    if let builtin = Finding.Builtin(rawValue: id) {
      let structured: JSONValue = .object([
        "id": .string(builtin.rawValue), "title": .string(builtin.title),
        "severity": .string(builtin.severity.rawValue),
        "summary": .string(builtin.summary), "remedy": .string(builtin.help),
      ])
      return MCPToolResult(text: "\(builtin.rawValue): \(builtin.title). \(builtin.summary)", structured: structured)
    }
    guard let rule = RuleCatalog.rule(id: id) else {
      let suggestion = Suggest.best(id, among: RuleCatalog.ids).map { " Did you mean '\($0)'?" } ?? ""
      return .failure(MCPToolFailure("no rule '\(id)'.\(suggestion) list_rules lists them."))
    }
    let description = rule.description
    return MCPToolResult(
      text: "\(description.id): \(description.title) (\(description.severity.rawValue)). \(description.summary)",
      structured: CatalogRendering.json(description))
  }

  static func list(_ arguments: MCPArguments) throws(JSONRPCError) -> MCPToolResult {
    let category = try arguments.choice("category", RuleCategory.allCases.map(\.rawValue))
    let rules = RuleCatalog.all.map { $0.description }.filter { category == nil || $0.category.rawValue == category }
    let structured: JSONValue = .object([
      "rules": .array(
        rules.map { rule in
          .object([
            "id": .string(rule.id), "title": .string(rule.title), "category": .string(rule.category.rawValue),
            "severity": .string(rule.severity.rawValue), "summary": .string(rule.summary),
          ])
        })
    ])
    let text = "\(rules.count) rule\(rules.count == 1 ? "" : "s"): " + rules.map(\.id).joined(separator: ", ")
    return MCPToolResult(text: text, structured: structured)
  }
}
