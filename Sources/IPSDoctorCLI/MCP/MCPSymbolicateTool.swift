import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport
import IPSDoctorSymbolication

/// `symbolicate`: a report and dSYMs; the frames that got a symbol (function, file, line, inlined
/// code) and what is still unsymbolicated, with the dSYM each image needs. Nothing is written: the
/// rewritten report is `ips-doctor symbolicate`'s job.
enum MCPSymbolicateTool {
  static let name = "symbolicate"
  /// The most frames listed; the counts cover them all.
  static let frameLimit = 300

  static var definition: JSONValue {
    .object([
      "name": .string(name),
      "title": .string("Symbolicate a crash report"),
      "description": .string(
        "Symbolicate a report's frames from dSYMs whose UUIDs match its images, as Xcode does. Returns the "
          + "frames that got a symbol (function, source file and line, inlined calls) and, per app image still "
          + "unsymbolicated, its UUID and the dSYM to ask the user for. Writes no file."),
      "inputSchema": MCPSchema.object([
        ("path", MCPSchema.string("The report's path.")),
        ("text", MCPSchema.string("The report's text, when pasted (give path or text).")),
        (
          "dsym",
          MCPSchema.strings(
            "dSYM bundles, DWARF or Mach-O files, or folders (.xcarchive). Default: the .dSYM bundles beside the report."
          )
        ),
      ]),
      "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
    ])
  }

  static func call(_ arguments: MCPArguments, context: MCPToolContext) throws(JSONRPCError) -> MCPToolResult {
    let path = try arguments.string("path")
    let text = try arguments.string("text")
    let dsyms = try arguments.strings("dsym")
    switch (path, text) {
    case (nil, nil): throw JSONRPCError(.invalidParams, "symbolicate: give 'path' or 'text'")
    case (.some, .some): throw JSONRPCError(.invalidParams, "symbolicate: give 'path' or 'text', not both")
    default: break
    }
    do throws(MCPToolFailure) {
      return try symbolicate(path: path, text: text, dsyms: dsyms, context: context)
    } catch {
      return .failure(error)
    }
  }

  private static func symbolicate(path: String?, text: String?, dsyms: [String], context: MCPToolContext)
    throws(MCPToolFailure) -> MCPToolResult
  {
    let bytes: [UInt8]
    let display: String
    var reportPath: PathName?
    if let path {
      let physical = try MCPTools.regularFile(path, context: context, purpose: "symbolicate takes one report")
      switch POSIX.readFile(physical, limit: Options.defaultMaxSize, expectedToExist: false) {
      case .success(let read): bytes = read
      case .failure(let error): throw MCPToolFailure("'\(PathName(path).display)': \(error.message)")
      }
      display = physical.display
      reportPath = physical
    } else {
      bytes = Array((text ?? "").utf8)
      guard bytes.count <= Options.defaultMaxSize else {
        throw MCPToolFailure("the text is \(ByteCount.describe(Int64(bytes.count))), over the limit of 64 MiB")
      }
      display = "<text>"
    }
    let report: CrashReport
    do throws(ReportError) {
      report = try ReportReader.read(bytes)
    } catch {
      throw MCPToolFailure(error.diagnostic(file: display))
    }
    let debug: (index: DebugFileIndex, paths: [PathName])
    switch MCPReports.debugFiles(dsyms, besideReports: reportPath.map { [$0] } ?? [], files: context.files) {
    case .success(let found): debug = found
    case .failure(let failure): throw failure
    }
    if context.isCancelled() { throw MCPToolFailure("cancelled") }
    let (symbolicated, summary) = debug.index.symbolicate(report)

    var frames: [JSONValue] = []
    var listed = 0
    func collect(_ before: [Frame], _ after: [Frame], thread: Int?) {
      var next = 0
      for original in before {
        guard next < after.count else { return }
        // An unsymbolicated frame that got symbols became its inlined frames, then itself.
        guard !original.hasSymbolText, after[next].hasSymbolText else {
          next += 1
          continue
        }
        var group: [Frame] = []
        while next < after.count, after[next].isInline {
          group.append(after[next])
          next += 1
        }
        if next < after.count {
          group.append(after[next])
          next += 1
        }
        for frame in group {
          listed += 1
          guard frames.count < frameLimit else { continue }
          frames.append(json(frame, thread: thread))
        }
      }
    }
    for (before, after) in zip(report.threads, symbolicated.threads) {
      collect(before.frames, after.frames, thread: before.index)
    }
    collect(report.lastExceptionBacktrace ?? [], symbolicated.lastExceptionBacktrace ?? [], thread: nil)

    var unsymbolicatedFrames = 0
    for thread in symbolicated.threads { unsymbolicatedFrames += thread.frames.count { !$0.hasSymbolText } }
    let hint = Doctor.diagnose(symbolicated).symbolication
    let missing: [JSONValue] = (hint?.images ?? []).map { image in
      .object([
        "image": .string(image.imageName), "uuid": .optional(image.uuid), "arch": .string(image.arch),
        "loadAddress": .string(String.hex(image.loadAddress)),
        "addresses": .strings(image.addresses.map { String.hex($0) }),
        "findDSYM": .optional(image.findDSYM), "atos": .string(image.atos),
      ])
    }
    let structured: JSONValue = .object([
      "report": .string(display),
      "debugFiles": .strings(debug.paths.map(\.display)),
      "symbolicatedFrames": .int(summary.symbolicatedFrames),
      "inlinedFrames": .int(summary.inlinedFrames),
      "matchedImages": .strings(summary.matchedImages),
      "mismatches": .strings(summary.mismatches),
      "frames": .array(frames),
      "framesOmitted": .int(max(0, listed - frames.count)),
      "unsymbolicatedFrames": .int(unsymbolicatedFrames),
      "unsymbolicatedAppImages": .array(missing),
    ])
    var lines: [String] = []
    if summary.symbolicatedFrames == 0 {
      lines.append(
        debug.paths.isEmpty
          ? "No frame symbolicated: no dSYM given and none beside the report."
          : "No frame symbolicated: none of the \(debug.index.count) debug images has the UUID of one of the report's images."
      )
    } else {
      lines.append(
        "Symbolicated \(summary.symbolicatedFrames) frame\(summary.symbolicatedFrames == 1 ? "" : "s") of "
          + summary.matchedImages.joined(separator: ", ") + ".")
    }
    lines += summary.mismatches
    if let images = hint?.images, !images.isEmpty {
      lines.append(
        "Still unsymbolicated app images: "
          + images.map { "\($0.imageName) (UUID \($0.uuid ?? "unknown"))" }.joined(separator: ", ") + ".")
    }
    return MCPToolResult(text: lines.joined(separator: "\n"), structured: structured)
  }

  private static func json(_ frame: Frame, thread: Int?) -> JSONValue {
    .object([
      "thread": .optional(thread),
      "image": .optional(frame.imageName),
      "address": frame.address.map { .string(String.hex($0)) } ?? .null,
      "symbol": .optional(frame.symbol),
      "offset": frame.symbolLocation.map { .int(Int(clamping: $0)) } ?? .null,
      "file": .optional(frame.sourceFile),
      "line": .optional(frame.sourceLine),
      "inline": .bool(frame.isInline),
    ])
  }
}
