import IPSDoctorBatch
import IPSDoctorCheck
import IPSDoctorJSON
import IPSDoctorSupport

/// `check_source`: `ips-doctor check` on Swift files and folders; the findings of
/// `check --format json` (file, line, column, message, fix).
enum MCPCheckSourceTool {
  static let name = "check_source"

  static var definition: JSONValue {
    .object([
      "name": .string(name),
      "title": .string("Check Swift source for off-main completion handlers"),
      "description": .string(
        "Scan Swift files or folders for async implementations of completion-handler delegate methods "
          + "(UNUserNotificationCenterDelegate, WKNavigationDelegate, …) that the compiler's bridge completes "
          + "off the main thread: the cause of the async-bridge-completion-off-main crash. Returns each finding "
          + "with file, line, column, message and fix."),
      "inputSchema": MCPSchema.object(
        [
          (
            "paths",
            MCPSchema.strings("Swift files, or folders searched recursively (.build, DerivedData, Pods skipped).")
          ),
          ("exclude", MCPSchema.strings("Globs (* and ?) of files and folders to skip.")),
          (
            "defaultIsolation",
            MCPSchema.choice(
              DefaultIsolation.allCases.map(\.rawValue),
              "The module's default isolation: nonisolated (the default) or main-actor (-default-isolation MainActor).")
          ),
        ], required: ["paths"]),
      "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
    ])
  }

  static func call(_ arguments: MCPArguments, context: MCPToolContext) throws(JSONRPCError) -> MCPToolResult {
    let paths = try arguments.strings("paths")
    guard !paths.isEmpty else { throw JSONRPCError(.invalidParams, "check_source: 'paths' needs at least one path") }
    let excludes = try arguments.strings("exclude")
    let isolation = try arguments.choice("defaultIsolation", DefaultIsolation.allCases.map(\.rawValue))
      .flatMap(DefaultIsolation.init(rawValue:))
    var discovery = SwiftSourceDiscovery(excludes: excludes)
    for path in paths {
      switch context.files.resolve(path) {
      case .success(let physical): discovery.add(PathName.commandLineArgument(physical.bytes))
      case .failure(let failure): return .failure(failure)
      }
    }
    var problems: [JSONValue] = discovery.problems.map { problem in
      .object(["path": .string(problem.path.display), "message": .string(problem.error.message)])
    }
    var sources: [SourceChecker.Source] = []
    for path in discovery.files {
      if context.isCancelled() { return .failure(MCPToolFailure("cancelled")) }
      guard context.files.allowsFile(path) else {
        problems.append(
          .object(["path": .string(path.display), "message": .string("outside the roots the client declared")]))
        continue
      }
      switch POSIX.readFile(path, limit: Options.defaultMaxSize, expectedToExist: false) {
      case .success(let bytes): sources.append(.init(display: path.display, bytes: bytes))
      case .failure(let error):
        problems.append(.object(["path": .string(path.display), "message": .string(error.message)]))
      }
    }
    if sources.isEmpty {
      return .failure(
        MCPToolFailure(
          "no Swift file found"
            + (problems.isEmpty
              ? "" : " (" + problems.compactMap { $0["message"]?.stringValue }.joined(separator: "; ") + ")")))
    }
    var checker = SourceChecker(defaultMainActor: isolation == .mainActor)
    if isolation == nil, let setting = discovery.mainActorDefaultIsolation {
      checker.mainActorDefaultSeenIn = setting.display
    }
    let findings = checker.check(sources).findings.sorted {
      ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column)
    }
    let document: JSONValue
    do throws(JSONError) {
      document = try JSONParser.parse(
        CheckOutput.render(findings, format: .json, filesScanned: sources.count, verbose: false))
    } catch {
      return .failure(MCPToolFailure("internal error: the check output could not be read back: \(error)"))
    }
    let structured: JSONValue = .object([
      "filesScanned": .int(sources.count), "findings": document["findings"] ?? .array([]), "problems": .array(problems),
    ])
    var lines = [
      findings.isEmpty
        ? "No finding in \(sources.count) Swift file\(sources.count == 1 ? "" : "s")."
        : "\(findings.count) finding\(findings.count == 1 ? "" : "s") in \(sources.count) Swift file\(sources.count == 1 ? "" : "s"):"
    ]
    for finding in (document["findings"]?.arrayValue ?? []).prefix(20) {
      func field(_ key: String) -> String {
        switch finding[key] {
        case .string(let text)?: text
        case .number(let number)?: number.description
        default: ""
        }
      }
      lines.append("\(field("file")):\(field("line")):\(field("column")): \(field("severity")): \(field("message"))")
      lines.append("  fix: \(field("fix"))")
    }
    return MCPToolResult(text: lines.joined(separator: "\n"), structured: structured)
  }
}
