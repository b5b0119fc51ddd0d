import IPSDoctorJSON
import IPSDoctorSupport

/// The server's tools: their definitions for `tools/list`, and `tools/call` by name.
enum MCPTools {
  static var definitions: [JSONValue] {
    [
      MCPDiagnoseTool.definition, MCPTriageTool.definition, MCPSymbolicateTool.definition,
      MCPCheckSourceTool.definition, MCPCatalogTools.explainDefinition, MCPCatalogTools.listDefinition,
    ]
  }

  static let names = [
    MCPDiagnoseTool.name, MCPTriageTool.name, MCPSymbolicateTool.name, MCPCheckSourceTool.name,
    MCPCatalogTools.explainName, MCPCatalogTools.listName,
  ]

  /// Whether the tool reads files (and must wait for the client's roots).
  static func readsFiles(_ name: String) -> Bool {
    name != MCPCatalogTools.explainName && name != MCPCatalogTools.listName
  }

  /// Runs the tool `name`. Wrong arguments are a protocol error (`-32602`); anything that goes
  /// wrong while the tool runs is a result with `isError: true`.
  static func call(name: String, arguments: JSONValue?, context: MCPToolContext) throws(JSONRPCError)
    -> MCPToolResult
  {
    switch name {
    case MCPDiagnoseTool.name:
      return try MCPDiagnoseTool.call(
        MCPArguments(tool: name, arguments, allowed: ["path", "text", "dsym", "strict"]), context: context)
    case MCPTriageTool.name:
      return try MCPTriageTool.call(
        MCPArguments(tool: name, arguments, allowed: MCPTriageTool.argumentNames), context: context)
    case MCPSymbolicateTool.name:
      return try MCPSymbolicateTool.call(
        MCPArguments(tool: name, arguments, allowed: ["path", "text", "dsym"]), context: context)
    case MCPCheckSourceTool.name:
      return try MCPCheckSourceTool.call(
        MCPArguments(tool: name, arguments, allowed: ["paths", "exclude", "defaultIsolation"]), context: context)
    case MCPCatalogTools.explainName:
      return try MCPCatalogTools.explain(MCPArguments(tool: name, arguments, allowed: ["id"]))
    case MCPCatalogTools.listName:
      return try MCPCatalogTools.list(MCPArguments(tool: name, arguments, allowed: ["category"]))
    default:
      throw JSONRPCError(
        .invalidParams, "unknown tool '\(name)' (the tools are \(names.joined(separator: ", ")))")
    }
  }

  /// The physical path of `argument`, when it is an allowed regular file; `purpose` says what to do
  /// instead when it is a folder.
  static func regularFile(_ argument: String, context: MCPToolContext, purpose: String) throws(MCPToolFailure)
    -> PathName
  {
    let physical: PathName
    switch context.files.resolve(argument) {
    case .success(let resolved): physical = resolved
    case .failure(let failure): throw failure
    }
    switch POSIX.status(physical) {
    case .failure(let error): throw MCPToolFailure("'\(PathName(argument).display)': \(error.message)")
    case .success(let status) where status.kind == .directory:
      throw MCPToolFailure("'\(PathName(argument).display)' is a folder: \(purpose)")
    case .success(let status) where status.kind != .regular:
      // A FIFO or a device would block the server or never end.
      throw MCPToolFailure("'\(PathName(argument).display)': \(status.kind.phrase), not a regular file")
    case .success: return physical
    }
  }
}
