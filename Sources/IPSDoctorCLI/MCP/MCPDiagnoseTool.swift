import IPSDoctorBatch
import IPSDoctorJSON
import IPSDoctorSupport

/// `diagnose`: one report, by path or pasted text, with optional dSYMs; the result is the report's
/// object of `ips-doctor --format json`.
enum MCPDiagnoseTool {
  static let name = "diagnose"

  static var definition: JSONValue {
    .object([
      "name": .string(name),
      "title": .string("Diagnose a crash report"),
      "description": .string(
        "Diagnose one Apple crash report (.ips, .crash, or any format ips-doctor reads: jetsam, hang, panic, "
          + "legacy text) given by path or pasted as text. Returns ranked diagnoses (rule, confidence, severity, "
          + "summary, evidence with the report paths it rests on, remedy, references), the crashed thread's top "
          + "frames and what is still unsymbolicated (with the dSYM to look for). Same data as "
          + "'ips-doctor --format json'."),
      "inputSchema": MCPSchema.object([
        ("path", MCPSchema.string("The report's path, absolute or relative to the server's working directory.")),
        ("text", MCPSchema.string("The report's text, when the user pasted it (give path or text, not both).")),
        (
          "dsym",
          MCPSchema.strings(
            "dSYM bundles, DWARF or Mach-O files, or folders (.xcarchive) to symbolicate with. Default: the .dSYM bundles beside the report."
          )
        ),
        ("strict", MCPSchema.boolean("Refuse a report with parse warnings instead of diagnosing what could be read.")),
      ]),
      "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
    ])
  }

  static func call(_ arguments: MCPArguments, context: MCPToolContext) throws(JSONRPCError) -> MCPToolResult {
    let path = try arguments.string("path")
    let text = try arguments.string("text")
    let dsyms = try arguments.strings("dsym")
    let strict = try arguments.bool("strict") ?? false
    switch (path, text) {
    case (nil, nil): throw JSONRPCError(.invalidParams, "diagnose: give 'path' or 'text'")
    case (.some, .some): throw JSONRPCError(.invalidParams, "diagnose: give 'path' or 'text', not both")
    default: break
    }
    do throws(MCPToolFailure) {
      return try diagnose(path: path, text: text, dsyms: dsyms, strict: strict, context: context)
    } catch {
      return .failure(error)
    }
  }

  private static func diagnose(path: String?, text: String?, dsyms: [String], strict: Bool, context: MCPToolContext)
    throws(MCPToolFailure) -> MCPToolResult
  {
    var options = Options()
    options.strict = strict
    let items: InputList
    var standardInput: Result<[UInt8], FileError>?
    var reportPath: PathName?
    if let path {
      let physical = try MCPTools.regularFile(
        path, context: context, purpose: "diagnose takes one report; call triage for a folder")
      reportPath = physical
      items = InputDiscovery(paths: [PathName.commandLineArgument(physical.bytes)]).inputs
    } else {
      let bytes = Array((text ?? "").utf8)
      guard bytes.count <= options.maxSize else {
        throw MCPToolFailure("the text is \(ByteCount.describe(Int64(bytes.count))), over the limit of 64 MiB")
      }
      standardInput = .success(bytes)
      items = InputDiscovery(paths: ["-"]).inputs
    }
    switch MCPReports.debugFiles(dsyms, besideReports: reportPath.map { [$0] } ?? [], files: context.files) {
    case .success(let found): options.debugFiles = found.index
    case .failure(let failure): throw failure
    }
    var found: ReportOutcome?
    var notices: [InputNotice] = []
    let finished = MCPReports.run(
      items, options: options, standardInput: standardInput, context: context,
      outcome: { found = $0 }, notice: { notices.append($0) })
    guard finished else { throw MCPToolFailure("cancelled") }
    guard var outcome = found else {
      throw MCPToolFailure(notices.first.map { "\($0.path): \($0.message)" } ?? "no report was read")
    }
    if text != nil { outcome.path = "<text>" }
    if outcome.isUnreadable, let error = outcome.error {
      throw MCPToolFailure(error.diagnostic(file: outcome.path))
    }
    return MCPToolResult(text: summary(outcome), structured: try MCPReports.json(outcome))
  }

  /// "ChatApp crashed: … — async-bridge-completion-off-main (definite, error): …".
  static func summary(_ outcome: ReportOutcome) -> String {
    var lines: [String] = []
    if let headline = outcome.result?.summary.headline { lines.append(headline) }
    if outcome.diagnoses.isEmpty {
      lines.append("Inconclusive: no rule matched; see the crashed thread's frames in the structured result.")
    }
    for diagnosis in outcome.diagnoses.prefix(3) {
      lines.append(
        "\(diagnosis.ruleID) (\(diagnosis.confidence.rawValue), \(diagnosis.severity.rawValue)): \(diagnosis.summary)")
    }
    if let images = outcome.result?.symbolication?.images, !images.isEmpty {
      lines.append(
        "Unsymbolicated app frames in " + images.map(\.imageName).joined(separator: ", ")
          + ": pass the matching dSYM in 'dsym'.")
    }
    if let error = outcome.error { lines.append("Note: " + error.diagnostic(file: outcome.path)) }
    return lines.joined(separator: "\n")
  }
}
