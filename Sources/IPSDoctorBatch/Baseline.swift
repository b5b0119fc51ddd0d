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
///   "signatureVersion": 3,
///   "tool": "ips-doctor",
///   "signatures": [
///     {"id": "9f2c…", "rule": "async-bridge-completion-off-main", "title": "…", "count": 3}
///   ]
/// }
/// ```
/// A group is written as one entry per id it answers to (``CrashGroup/signatures``, each with its
/// ``CrashSignature/symbolID``): the ids of its frames' images and offsets and the ids of its
/// frames' names, so that the crash is known whether a later run reads it symbolicated or not,
/// and, by name, in the next build. Entries are sorted by id and carry no timestamps, so rewriting
/// an unchanged baseline changes no bytes.
package struct Baseline: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package var id: String
    package var rule: String?
    package var title: String?
    package var count: Int?
    package var components: [String]
    /// The signature version its id was made by: ``CrashSignature/version``, or 2 for an entry
    /// of a version 2 baseline, whose unsymbolicated frames lack the image's UUID.
    package var signatureVersion = CrashSignature.version
    /// For another id of a group (its ``CrashSignature/symbolID``, another report's id), the id of
    /// the group's entry: one crash, however many ids.
    package var sameAs: String? = nil
  }

  package var entries: [String: Entry] = [:]

  package init() {}

  package var ids: Set<String> { Set(entries.keys) }

  /// The ids as a run matches reports against them.
  package var known: KnownSignatures {
    KnownSignatures(
      ids: ids, version2IDs: Set(entries.values.lazy.filter { $0.signatureVersion < CrashSignature.version }.map(\.id)))
  }

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
    // A baseline from before signature version 3 keeps each signature's components: its ids are
    // made again from them, upgraded, so the crashes it knows stay known. (An entry of a rule
    // whose signature now names the instance, e.g. which library is missing, cannot say which
    // instance it knew: it matches none, and the run reports the crash as new.)
    let version = value["signatureVersion"]?.numberValue?.int ?? 1
    var baseline = Baseline()
    for (index, element) in signatures.enumerated() {
      if let id = element.stringValue {
        baseline.entries[id] = Entry(id: id, components: [])
      } else if let written = element["id"]?.stringValue {
        var components = element["components"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var id = written
        let entryVersion = element["signatureVersion"]?.numberValue?.int ?? version
        if entryVersion < CrashSignature.version && !components.isEmpty {
          components = CrashSignature.upgraded(components)
          id = CrashSignature(components: components).id
        }
        baseline.entries[id] = Entry(
          id: id, rule: element["rule"]?.stringValue, title: element["title"]?.stringValue,
          count: element["count"]?.numberValue?.int, components: components,
          signatureVersion: min(entryVersion, CrashSignature.version), sameAs: element["sameAs"]?.stringValue)
      } else {
        throw ReportError(message: "signatures[\(index)] has no \"id\" string", path: "signatures[\(index)]")
      }
    }
    return baseline
  }

  /// Adds this run's groups, an entry per id (their counts replace older counts).
  package mutating func merge(_ groups: [CrashGroup]) {
    for group in groups {
      let main = group.signature.id
      for signature in group.signatures.isEmpty ? [group.signature] : group.signatures {
        entries[signature.id] = Entry(
          id: signature.id, rule: group.rule, title: group.title, count: group.count,
          components: signature.components, sameAs: signature.id == main ? nil : main)
        if let id = signature.symbolID, let components = signature.symbolComponents {
          entries[id] = Entry(
            id: id, rule: group.rule, title: group.title, count: group.count, components: components, sameAs: main)
        }
      }
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
          var object: JSONObject = [
            "id": .string(entry.id),
            "rule": entry.rule.map(JSONValue.string) ?? .null,
            "title": entry.title.map(JSONValue.string) ?? .null,
            "count": entry.count.map(JSONValue.int) ?? .null,
            "components": .array(entry.components.map(JSONValue.string)),
          ]
          if let sameAs = entry.sameAs { object.append("sameAs", .string(sameAs)) }
          if entry.signatureVersion < CrashSignature.version {
            object.append("signatureVersion", .int(entry.signatureVersion))
          }
          return .object(object)
        }),
    ])
  }
}

extension Baseline {
  /// The crashes of the baseline that none of `groups` is: one entry per crash (not its other
  /// ids), by id.
  package func unseen(by groups: [CrashGroup]) -> [Entry] {
    var seen = Set<String>()
    for group in groups {
      for signature in group.signatures.isEmpty ? [group.signature] : group.signatures {
        seen.formUnion(signature.ids)
        seen.formUnion(signature.version2IDs)
      }
    }
    for entry in entries.values where seen.contains(entry.id) {
      if let sameAs = entry.sameAs { seen.insert(sameAs) }
    }
    return entries.values.filter { $0.sameAs == nil && !seen.contains($0.id) }.sorted { $0.id < $1.id }
  }
}

/// The signatures a baseline knows, as a run matches each report against them.
package struct KnownSignatures: Sendable, Equatable {
  package var ids: Set<String>
  /// The ids of entries written by signature version 2 (``CrashSignature/version2IDs``).
  package var version2IDs: Set<String>

  package init(ids: Set<String>, version2IDs: Set<String> = []) {
    self.ids = ids
    self.version2IDs = version2IDs
  }

  /// Whether the baseline knows the crash: by any of its ids, or, for an entry of a version 2
  /// baseline, by its frames' images and offsets without the UUIDs.
  package func knows(_ signature: CrashSignature) -> Bool {
    signature.ids.contains(where: ids.contains)
      || (!version2IDs.isEmpty && signature.version2IDs.contains(where: version2IDs.contains))
  }
}
