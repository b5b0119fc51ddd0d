import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorOutput
import IPSDoctorSupport

/// `triage`: a folder of reports (or a list of paths) with the filters of `diagnose`; the crash
/// groups of `--format json`, largest first, and for the top groups the diagnosis of the group's
/// first report.
enum MCPTriageTool {
  static let name = "triage"
  static let argumentNames = [
    "paths", "app", "appVersion", "since", "rule", "severity", "top", "dsym", "strict", "follow",
  ]

  static var definition: JSONValue {
    .object([
      "name": .string(name),
      "title": .string("Triage a folder of crash reports"),
      "description": .string(
        "Read every crash report in folders or files, group them by crash signature and return the group table "
          + "(count, severity, rule, exception, first and last seen, app and OS versions, examples), largest "
          + "first, with the full diagnosis of the first report of the top groups. Filters as on the command "
          + "line. Sends progress notifications when the request carries a progressToken."),
      "inputSchema": MCPSchema.object(
        [
          ("paths", MCPSchema.strings("Folders (searched recursively) and report files.")),
          ("app", MCPSchema.string("Keep only reports of this app (name or bundle identifier).")),
          ("appVersion", MCPSchema.string("Keep only this app version or build (\"2.4\", \"118\", \"2.4 (118)\").")),
          ("since", MCPSchema.string("Keep only reports from this date on (2026-09-01 or 2026-09-01 12:30, UTC).")),
          (
            "rule",
            MCPSchema.string(
              "Keep only reports whose top diagnosis is this rule or starts with it; 'inconclusive' for none.")
          ),
          ("severity", MCPSchema.choice(["error", "warning", "note"], "Keep only reports at or above this severity.")),
          ("top", MCPSchema.integer(minimum: 0, "How many of the largest groups to diagnose in full. Default: 5.")),
          (
            "dsym",
            MCPSchema.strings("dSYMs or folders to symbolicate with. Default: the .dSYM bundles beside the reports.")
          ),
          ("strict", MCPSchema.boolean("Count reports with parse warnings as unreadable.")),
          ("follow", MCPSchema.boolean("Follow symbolic links to folders inside the scanned folders.")),
        ], required: ["paths"]),
      "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
    ])
  }

  static func call(_ arguments: MCPArguments, context: MCPToolContext) throws(JSONRPCError) -> MCPToolResult {
    let paths = try arguments.strings("paths")
    guard !paths.isEmpty else { throw JSONRPCError(.invalidParams, "triage: 'paths' needs at least one path") }
    var options = Options()
    options.filter.app = try arguments.string("app")
    options.filter.appVersion = try arguments.string("appVersion")
    if let since = try arguments.string("since") {
      guard let instant = ReportFilter.instant(since) else {
        throw JSONRPCError(.invalidParams, "triage: 'since' must be a date such as 2026-09-01 or 2026-09-01 12:30")
      }
      options.filter.since = instant
    }
    options.filter.rule = try arguments.string("rule")
    options.filter.severity = try arguments.choice("severity", ["error", "warning", "note"]).flatMap(
      Severity.init(rawValue:))
    let top = try arguments.integer("top", in: 0...10_000) ?? 5
    options.strict = try arguments.bool("strict") ?? false
    options.followLinks = try arguments.bool("follow") ?? false
    let dsyms = try arguments.strings("dsym")
    do throws(MCPToolFailure) {
      return try triage(paths: paths, dsyms: dsyms, options: options, top: top, context: context)
    } catch {
      return .failure(error)
    }
  }

  private static func triage(
    paths: [String], dsyms: [String], options given: Options, top: Int, context: MCPToolContext
  )
    throws(MCPToolFailure) -> MCPToolResult
  {
    var options = given
    var physical: [String] = []
    for path in paths {
      switch context.files.resolve(path) {
      case .success(let resolved):
        if case .success(let status) = POSIX.status(resolved), status.kind != .directory, status.kind != .regular {
          throw MCPToolFailure("'\(PathName(path).display)': \(status.kind.phrase), not a folder or a regular file")
        }
        physical.append(PathName.commandLineArgument(resolved.bytes))
      case .failure(let failure): throw failure
      }
    }
    let discovery = InputDiscovery(paths: physical, followLinks: options.followLinks)
    var notices = discovery.notices
    // What a folder holds may be a link out of the roots: such files are never read.
    var items = discovery.inputs
    var reports: [PathName] = []
    if context.files.roots != nil {
      var kept: [Int] = []
      for index in 0..<items.count {
        guard case .file(let path) = items[index].source else { continue }
        if context.files.allowsFile(path) {
          kept.append(index)
        } else {
          notices.append(
            InputNotice(kind: .skipped, path: path.display, message: "skipped: outside the roots the client declared"))
        }
      }
      if kept.count < items.count { items = items.selecting(kept) }
    }
    if dsyms.isEmpty {
      for index in 0..<items.count {
        if case .file(let path) = items[index].source { reports.append(path) }
      }
    }
    switch MCPReports.debugFiles(dsyms, besideReports: reports, files: context.files) {
    case .success(let found): options.debugFiles = found.index
    case .failure(let failure): throw failure
    }

    var run = RunSummary()
    run.filter = options.filter.description
    var groups = CrashGroups()
    let finished = MCPReports.run(
      items, options: options, context: context,
      outcome: { outcome in
        guard options.filter.keeps(outcome) else {
          run.filteredOut += 1
          return
        }
        run.add(outcome, failOn: run.failOn)
        groups.add(outcome)
      }, notice: { notice in if notice.kind != .notAReport { notices.append(notice) } })
    guard finished else { throw MCPToolFailure("cancelled") }
    run.groups = groups.sorted
    run.notices = notices
    if run.reports == 0 && !notices.contains(where: { $0.kind == .missing }) {
      run.notices.append(
        InputNotice(
          kind: .missing, path: paths.joined(separator: " "),
          message:
            "no crash reports found (looked for .ips and .crash files, and other files that start like a crash report)")
      )
    }
    run.exitCode = BatchSession<ProcessIO>.exitCode(run)

    // The top groups' first reports, read again: a batch keeps no report, only its group.
    var diagnosed: [JSONValue] = []
    for group in run.groups.prefix(top) {
      if context.isCancelled() { throw MCPToolFailure("cancelled") }
      var again: ReportOutcome?
      _ = MCPReports.run(
        items.selecting([group.firstIndex]), options: options, context: noProgress(context),
        outcome: { again = $0 }, notice: { _ in })
      guard var outcome = again else { continue }
      outcome.index = group.firstIndex
      diagnosed.append(
        .object([
          "signature": .string(group.signature.id), "count": .int(group.count), "report": try MCPReports.json(outcome),
        ])
      )
    }
    let batch = try MCPReports.json(run)
    let structured: JSONValue = .object([
      "groups": batch.groups, "topDiagnoses": .array(diagnosed), "notices": batch.notices, "summary": batch.summary,
    ])
    return MCPToolResult(text: summary(run, top: top), structured: structured)
  }

  private static func noProgress(_ context: MCPToolContext) -> MCPToolContext {
    var quiet = context
    quiet.progress = nil
    return quiet
  }

  /// The run's sentence and a line per top group.
  static func summary(_ run: RunSummary, top: Int) -> String {
    var lines = [run.sentence + "."]
    for group in run.groups.prefix(max(top, 5)) {
      let rule = group.rule ?? "inconclusive"
      let seen = [group.firstSeen, group.lastSeen].compactMap { $0 }.joined(separator: " to ")
      lines.append(
        "\(group.count) × \(rule) (\(group.severity?.rawValue ?? "no severity"))"
          + (group.title.map { ": \($0)" } ?? "") + (seen.isEmpty ? "" : " [\(seen)]"))
    }
    if run.groups.count > max(top, 5) {
      lines.append("… \(run.groups.count - max(top, 5)) more groups in the structured result.")
    }
    return lines.joined(separator: "\n")
  }
}
