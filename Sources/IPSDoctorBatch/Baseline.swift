import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport

/// A committed file of known crash signatures, so that CI fails only on crash groups it has not
/// seen before (`--baseline`, `--write-baseline`).
///
/// ```json
/// {
///   "schemaVersion": 1,
///   "signatureVersion": 2,
///   "tool": "ips-doctor",
///   "signatures": [
///     {"id": "9f2c…", "rule": "async-bridge-completion-off-main", "title": "…", "count": 3}
///   ]
/// }
/// ```
/// Entries are sorted by id and carry no timestamps, so rewriting an unchanged baseline changes
/// no bytes.
package struct Baseline: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package var id: String
    package var rule: String?
    package var title: String?
    package var count: Int?
    package var components: [String]
  }

  package var entries: [String: Entry] = [:]

  package init() {}

  package var ids: Set<String> { Set(entries.keys) }

  /// Reads a baseline file; `signatures` may also be a plain list of ids.
  package static func parse(_ bytes: [UInt8]) throws(ReportError) -> Baseline {
    let value: JSONValue
    do throws(JSONError) {
      value = try JSONParser.parse(bytes)
    } catch {
      throw ReportError(error, context: "the baseline is not valid JSON")
    }
    guard let signatures = value["signatures"]?.arrayValue else {
      throw ReportError(message: "the baseline has no \"signatures\" array")
    }
    // A baseline from before signature version 2 keeps each signature's components: its ids are
    // made again from them, upgraded, so the crashes it knows stay known.
    let version = value["signatureVersion"]?.numberValue?.int ?? 1
    var baseline = Baseline()
    for (index, element) in signatures.enumerated() {
      if let id = element.stringValue {
        baseline.entries[id] = Entry(id: id, components: [])
      } else if let written = element["id"]?.stringValue {
        var components = element["components"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var id = written
        if version < CrashSignature.version && !components.isEmpty {
          components = CrashSignature.upgraded(components)
          id = CrashSignature(components: components).id
        }
        baseline.entries[id] = Entry(
          id: id, rule: element["rule"]?.stringValue, title: element["title"]?.stringValue,
          count: element["count"]?.numberValue?.int, components: components)
      } else {
        throw ReportError(message: "signatures[\(index)] has no \"id\" string", path: "signatures[\(index)]")
      }
    }
    return baseline
  }

  /// Adds this run's groups (their counts replace older counts).
  package mutating func merge(_ groups: [CrashGroup]) {
    for group in groups {
      entries[group.signature.id] = Entry(
        id: group.signature.id, rule: group.rule, title: group.title, count: group.count,
        components: group.signature.components)
    }
  }

  package var json: JSONValue {
    let sorted = entries.values.sorted { $0.id < $1.id }
    return .object([
      "schemaVersion": .int(IPSDoctor.outputSchemaVersion),
      "signatureVersion": .int(CrashSignature.version),
      "tool": .string("ips-doctor"),
      "signatures": .array(
        sorted.map { entry in
          .object([
            "id": .string(entry.id),
            "rule": entry.rule.map(JSONValue.string) ?? .null,
            "title": entry.title.map(JSONValue.string) ?? .null,
            "count": entry.count.map(JSONValue.int) ?? .null,
            "components": .array(entry.components.map(JSONValue.string)),
          ])
        }),
    ])
  }
}
