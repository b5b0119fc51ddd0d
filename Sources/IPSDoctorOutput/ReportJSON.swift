import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport

/// The JSON shapes shared by `--format json` and `jsonl` (documented in
/// docs/ips-doctor-output.schema.json). Every key is always present, `null` when unknown, and keys
/// come in a fixed order.
enum ReportJSON {
  static func report(_ outcome: ReportOutcome) -> JSONValue {
    let facts = outcome.facts
    let result = outcome.result
    let summary = result?.summary
    var object = JSONObject()
    object.append("path", .string(outcome.path))
    object.append("kind", .optional(facts?.kind.rawValue))
    object.append("format", .optional(facts?.format.rawValue))
    object.append("source", .optional(facts?.source.rawValue))
    object.append("missing", facts.map { .array($0.missing.map { .string($0.rawValue) }) } ?? .null)
    object.append("bugType", .optional(facts?.bugType))
    if let facts {
      let app: JSONObject = [
        "name": .optional(facts.appName), "bundleID": .optional(facts.bundleID),
        "version": .optional(facts.appVersion), "build": .optional(facts.buildVersion),
      ]
      let os: JSONObject = ["train": .optional(facts.osTrain), "build": .optional(facts.osBuild)]
      let device: JSONObject = ["model": .optional(facts.device), "cpuType": .optional(facts.cpuType)]
      object.append("app", .object(app))
      object.append("os", .object(os))
      object.append("device", .object(device))
    } else {
      object.append("app", .null)
      object.append("os", .null)
      object.append("device", .null)
    }
    object.append("time", .optional(facts?.time))
    object.append("incidentID", .optional(facts?.incidentID))
    if let facts {
      var exception = JSONObject()
      exception.append("type", .optional(facts.exceptionType))
      exception.append("signal", .optional(facts.exceptionSignal))
      exception.append("codes", .optional(facts.exceptionCodes))
      exception.append("subtype", .optional(facts.exceptionSubtype))
      exception.append("summary", .optional(summary?.exception))
      exception.append("reason", .optional(summary?.reason))
      exception.append("termination", .optional(summary?.termination))
      object.append("exception", .object(exception))
    } else {
      object.append("exception", .null)
    }
    if let summary, let index = summary.crashedThread {
      let frames: [JSONValue] = summary.topFrames.map { frame in
        .object(["index": .int(frame.index), "description": .string(frame.text), "app": .bool(frame.isApp)])
      }
      let thread: JSONObject = [
        "index": .int(index), "name": .optional(summary.crashedThreadName),
        "queue": .optional(summary.crashedQueue), "topFrames": .array(frames),
        "topFramesFrom": .string(summary.topFramesSource.rawValue),
      ]
      object.append("crashedThread", .object(thread))
    } else {
      object.append("crashedThread", .null)
    }
    if let summary, let frame = summary.firstAppFrame {
      let appFrame: JSONObject = ["description": .string(frame), "path": .optional(summary.firstAppFramePath)]
      object.append("firstAppFrame", .object(appFrame))
    } else {
      object.append("firstAppFrame", .null)
    }
    object.append("headline", .optional(summary?.headline))
    object.append("severity", .optional(outcome.severity?.rawValue))
    object.append("baseline", .optional(outcome.baseline?.rawValue))
    object.append("diagnoses", .array(outcome.diagnoses.map(diagnosis)))
    object.append("signature", result.map { signature($0.signature) } ?? .null)
    object.append("symbolication", result?.symbolication.map(symbolication) ?? .null)
    let warnings: [JSONValue] = outcome.warnings.map { warning in
      let item: JSONObject = ["location": .string(warning.location), "message": .string(warning.message)]
      return .object(item)
    }
    object.append("warnings", .array(warnings))
    object.append("error", outcome.error.map { error($0, strict: outcome.refusedByStrict) } ?? .null)
    return .object(object)
  }

  static func diagnosis(_ diagnosis: Diagnosis) -> JSONValue {
    .object([
      "rule": .string(diagnosis.ruleID),
      "title": .string(diagnosis.title),
      "confidence": .string(diagnosis.confidence.rawValue),
      "severity": .string(diagnosis.severity.rawValue),
      "summary": .string(diagnosis.summary),
      "evidence": .array(diagnosis.evidence.map { .object(["path": .string($0.path), "detail": .string($0.detail)]) }),
      "remedy": .string(diagnosis.remedy),
      "verification": .strings(diagnosis.verification),
      "references": .strings(diagnosis.references),
    ])
  }

  static func signature(_ signature: CrashSignature) -> JSONValue {
    .object([
      "id": .string(signature.id), "components": .strings(signature.components),
      "symbolComponents": signature.symbolComponents.map(JSONValue.strings) ?? .null,
    ])
  }

  static func symbolication(_ hint: SymbolicationHint) -> JSONValue {
    .array(
      hint.images.map { image in
        .object([
          "image": .string(image.imageName),
          "uuid": .optional(image.uuid),
          "arch": .string(image.arch),
          "loadAddress": .string(String.hex(image.loadAddress)),
          "addresses": .strings(image.addresses.map { String.hex($0) }),
          "findDSYM": .optional(image.findDSYM),
          "atos": .string(image.atos),
        ])
      })
  }

  /// `strict`: `--strict` refused the report for its warnings (the error says which).
  static func error(_ error: ReportError, strict: Bool) -> JSONValue {
    .object([
      "message": .string(error.message),
      "line": .optional(error.line),
      "column": .optional(error.column),
      "path": .optional(error.path),
      "strict": .bool(strict),
    ])
  }

  static func group(_ group: CrashGroup) -> JSONValue {
    .object([
      "signature": .string(group.signature.id),
      "rule": .optional(group.rule),
      "title": .optional(group.title),
      "kind": .optional(group.kind?.rawValue),
      "severity": .optional(group.severity?.rawValue),
      "exception": .optional(group.exception),
      "count": .int(group.count),
      "firstSeen": .optional(group.firstSeen),
      "lastSeen": .optional(group.lastSeen),
      "appVersions": .strings(group.appVersions),
      "osVersions": .strings(group.osVersions),
      "examples": .strings(group.examples),
      "baseline": .optional(group.baseline?.rawValue),
      "components": .strings(group.signature.components),
      "symbolComponents": group.signature.symbolComponents.map(JSONValue.strings) ?? .null,
    ])
  }

  static func notice(_ notice: InputNotice) -> JSONValue {
    .object([
      "path": .string(notice.path), "kind": .string(notice.kind.rawValue),
      "message": .string(notice.message),
    ])
  }

  static func summary(_ run: RunSummary) -> JSONValue {
    .object([
      "reports": .int(run.reports),
      "diagnosed": .int(run.diagnosed),
      "inconclusive": .int(run.inconclusive),
      "unreadable": .int(run.unreadable),
      "withWarnings": .int(run.withWarnings),
      "known": .int(run.known),
      "bySeverity": .object(["error": .int(run.errors), "warning": .int(run.warnings), "note": .int(run.notes)]),
      "groups": .int(run.groups.count),
      "failOn": .string(run.failOn.rawValue),
      "failing": .int(run.failing),
      "exitCode": .int(Int(run.exitCode.rawValue)),
    ])
  }

  static func pretty(_ value: JSONValue, indent: Int) -> String {
    var writer = JSONWriter(style: .pretty)
    writer.write(value, indent: indent)
    return writer.output
  }

  /// Writes `prefix`, `value` and `suffix` to `out` as the writer's bytes, as they are written
  /// (a record's JSON is never held whole, however long).
  static func write(
    _ value: JSONValue, style: JSONWriter.Style = .pretty, indent: Int = 0, prefix: StaticString = "",
    suffix: StaticString = "", to out: TextOutput
  ) {
    var writer = JSONWriter(style: style, sink: { out.write(utf8: $0) })
    writer.append(prefix)
    writer.write(value, indent: indent)
    writer.append(suffix)
    writer.flush()
  }
}

/// `--format json`: one document. Reports are written as they finish; groups, skipped inputs and
/// the summary follow once the batch is done.
struct JSONReporter: Reporter {
  private var first = true

  init(context: ReporterContext) {}

  mutating func begin(_ out: TextOutput) {
    out.write(
      "{\n  \"schemaVersion\": \(IPSDoctor.outputSchemaVersion),\n  \"tool\": "
        + ReportJSON.pretty(.object(["name": .string("ips-doctor"), "version": .string(IPSDoctor.version)]), indent: 1)
        + ",\n  \"reports\": [")
  }

  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
    ReportJSON.write(ReportJSON.report(outcome), indent: 2, prefix: first ? "\n    " : ",\n    ", to: out)
    first = false
  }

  mutating func finish(_ run: RunSummary, _ out: TextOutput) {
    out.write(first ? "],\n" : "\n  ],\n")
    out.write("  \"groups\": " + ReportJSON.pretty(.array(run.groups.map(ReportJSON.group)), indent: 1) + ",\n")
    out.write("  \"notices\": " + ReportJSON.pretty(.array(run.notices.map(ReportJSON.notice)), indent: 1) + ",\n")
    out.write("  \"summary\": " + ReportJSON.pretty(ReportJSON.summary(run), indent: 1) + "\n}\n")
  }
}

/// `--format jsonl`: one report object per line (the `reports[]` element of `--format json`),
/// written as soon as its window of the batch is done.
struct JSONLinesReporter: Reporter {
  init(context: ReporterContext) {}
  mutating func begin(_ out: TextOutput) {}

  mutating func report(_ outcome: ReportOutcome, _ out: TextOutput) {
    ReportJSON.write(ReportJSON.report(outcome), style: .compact, suffix: "\n", to: out)
    out.flush()
  }

  mutating func finish(_ run: RunSummary, _ out: TextOutput) {}
}
