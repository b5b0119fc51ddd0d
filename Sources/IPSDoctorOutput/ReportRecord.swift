import IPSDoctorBatch
import IPSDoctorDiagnosis
import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport

/// Reads back a `report` object that ``ReportJSON/report(_:)`` wrote (a line of `--format jsonl`,
/// an element of `--format json`'s `reports`) as the ``ReportOutcome`` it was written from, so
/// that `ips-doctor merge` renders it as the run that diagnosed it would have.
///
/// Invariant: for every outcome `o` a run makes, `ReportJSON.report(ReportRecord.outcome(
/// ReportJSON.report(o)))` equals `ReportJSON.report(o)`, and every reporter renders the two
/// outcomes alike (the tests check both over the fixtures and the shared corpora). The record
/// must hold every key the writer writes, with the writer's types; anything else is refused with
/// the key's path, never guessed.
package enum ReportRecord {
  /// Why a line is not a report record: the message names the key, e.g.
  /// `diagnoses[0].severity: expected one of error, warning, note, found "fatal"`.
  package struct Problem: Error, Sendable, Equatable {
    package var message: String

    package init(
      message: String
    ) {
      self.message = message
    }
  }

  /// The record `--format jsonl` writes for `outcome`, without its line feed: one spelling of
  /// what a record reads back as (the writer's key order, spacing and numbers; strings exact, NUL
  /// included). By the invariant above, `line(outcome(v))` is the same for every spelling `v` of
  /// one record, and for the line a merge writes of it.
  package static func line(_ outcome: ReportOutcome) -> String {
    JSONWriter.string(ReportJSON.report(outcome), style: .compact)
  }

  /// The outcome `value` records, at position `index` of the batch.
  package static func outcome(_ value: JSONValue, index: Int) throws(Problem) -> ReportOutcome {
    let bytes = Array(JSONWriter.string(value, style: .compact).utf8)
    let parsed = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0, source: bytes) }
    guard let document = parsed.document, parsed.error == nil else {
      throw Problem(message: "the line: not JSON")
    }
    return try outcome(document, index: index)
  }

  /// The outcome `document` records, at position `index` of the batch, read from its tape.
  package static func outcome(_ document: JSONDocument, index: Int) throws(Problem) -> ReportOutcome {
    let result = document.withRoot { root in
      Result { () throws(Problem) -> ReportOutcome in
        try outcome(Reader(root, in: document), index: index)
      }
    }
    return try result.get()
  }

  private static func outcome(_ record: Reader, index: Int) throws(Problem) -> ReportOutcome {
    let path = try record.string("path")
    var facts: ReportFacts?
    if try record.isNull("kind") {
      facts = nil
    } else {
      let app = try record.object("app")
      let os = try record.object("os")
      let device = try record.object("device")
      let exception = try record.object("exception")
      facts = ReportFacts(
        kind: try record.choice("kind"), format: try record.choice("format"),
        bugType: try record.optionalString("bugType"), appName: try app.optionalString("name"),
        bundleID: try app.optionalString("bundleID"), appVersion: try app.optionalString("version"),
        buildVersion: try app.optionalString("build"), osTrain: try os.optionalString("train"),
        osBuild: try os.optionalString("build"), device: try device.optionalString("model"),
        cpuType: try device.optionalString("cpuType"), time: try record.optionalString("time"),
        incidentID: try record.optionalString("incidentID"), exceptionType: try exception.optionalString("type"),
        exceptionSignal: try exception.optionalString("signal"),
        exceptionCodes: try exception.optionalString("codes"),
        exceptionSubtype: try exception.optionalString("subtype"))
      // Records written before `source` and `missing` were added read as Apple's own reports,
      // which is all that ips-doctor read then: JSON or text by their format, nothing missing.
      if record.has("source") {
        facts?.source = try record.choice("source")
      } else if let format = facts?.format {
        facts?.source = format == .json || format == .headerOnly ? .appleIPS : .appleText
      }
      if record.has("missing") {
        facts?.missing = try record.array("missing", objects: false) { (item: Reader) throws(Problem) in
          try item.choiceValue()
        }
      }
    }

    let diagnoses = try record.array("diagnoses") { (item: Reader) throws(Problem) in try diagnosis(item) }
    var result: DiagnosisResult?
    if let signature = try record.optionalObject("signature") {
      result = DiagnosisResult(
        diagnoses: diagnoses, summary: try summary(record), signature: try crashSignature(signature),
        symbolication: try symbolication(record))
    } else if !diagnoses.isEmpty {
      throw Problem(message: "diagnoses: a record without a signature has no diagnoses")
    }

    let warnings = try record.array("warnings") { (item: Reader) throws(Problem) in
      ReportWarning(location: try item.string("location"), message: try item.string("message"))
    }
    var outcome = ReportOutcome(index: index, path: path, facts: facts, result: result, warnings: warnings)
    if let error = try record.optionalObject("error") {
      outcome.error = ReportError(
        message: try error.string("message"), line: try error.optionalInt("line"),
        column: try error.optionalInt("column"), path: try error.optionalString("path"))
      outcome.refusedByStrict = try error.bool("strict")
    }
    if !(try record.isNull("baseline")) {
      outcome.baseline = try record.choice("baseline") as BaselineState
    }
    // The severity is derived; a record whose severity says otherwise was not written by this
    // version of the rules (or was edited), and would render differently from its run.
    let severity: Severity? = try record.isNull("severity") ? nil : try record.choice("severity")
    if severity != outcome.severity {
      throw Problem(
        message:
          "severity: \(severity.map { "\"\($0.rawValue)\"" } ?? "null") does not follow from the diagnoses and warnings (\(outcome.severity?.rawValue ?? "null"))"
      )
    }
    return outcome
  }

  private static func diagnosis(_ item: Reader) throws(Problem) -> Diagnosis {
    Diagnosis(
      ruleID: try item.string("rule"), title: try item.string("title"), confidence: try item.choice("confidence"),
      severity: try item.choice("severity"), summary: try item.string("summary"),
      evidence: try item.array("evidence") { (entry: Reader) throws(Problem) in
        Evidence(try entry.string("path"), try entry.string("detail"))
      },
      remedy: try item.string("remedy"), verification: try item.strings("verification"),
      references: try item.strings("references"))
  }

  private static func summary(_ record: Reader) throws(Problem) -> CrashSummary {
    var summary = CrashSummary()
    if let exception = try record.optionalObject("exception") {
      summary.exception = try exception.optionalString("summary")
      summary.reason = try exception.optionalString("reason")
      summary.termination = try exception.optionalString("termination")
    }
    if let thread = try record.optionalObject("crashedThread") {
      summary.crashedThread = try thread.int("index")
      summary.crashedThreadName = try thread.optionalString("name")
      summary.crashedQueue = try thread.optionalString("queue")
      summary.topFrames = try thread.array("topFrames") { (frame: Reader) throws(Problem) in
        CrashSummary.TopFrame(
          index: try frame.int("index"), image: nil, symbol: nil, symbolLocation: nil, imageOffset: nil,
          isApp: try frame.bool("app"), recordedText: try frame.string("description"))
      }
      // Records written before the field was added read as the crashed thread.
      if let source = try thread.optionalString("topFramesFrom") {
        summary.topFramesSource = CrashSummary.TopFramesSource(rawValue: source) ?? .crashedThread
      }
    }
    if let frame = try record.optionalObject("firstAppFrame") {
      summary.firstAppFrame = try frame.string("description")
      summary.firstAppFramePath = try frame.optionalString("path")
    }
    summary.headline = try record.optionalString("headline")
    return summary
  }

  private static func crashSignature(_ object: Reader) throws(Problem) -> CrashSignature {
    let signature = CrashSignature(
      components: try object.strings("components"),
      symbolComponents: try object.isNull("symbolComponents") ? nil : try object.strings("symbolComponents"))
    let id = try object.string("id")
    guard id == signature.id else {
      throw Problem(message: "signature.id: \"\(id)\" is not the signature of its components (\(signature.id))")
    }
    return signature
  }

  private static func symbolication(_ record: Reader) throws(Problem) -> SymbolicationHint? {
    if try record.isNull("symbolication") { return nil }
    let images = try record.array("symbolication") { (image: Reader) throws(Problem) in
      SymbolicationHint.ImageCommands(
        imageName: try image.string("image"), uuid: try image.optionalString("uuid"), arch: try image.string("arch"),
        loadAddress: try image.hex("loadAddress"),
        addresses: try image.array("addresses", objects: false) { (address: Reader) throws(Problem) in
          try address.hexValue()
        },
        findDSYM: try image.optionalString("findDSYM"), atos: try image.string("atos"))
    }
    return SymbolicationHint(images: images)
  }

  /// A value of the record, read in place on the tape of `document`. Its path (for messages) is
  /// worked out only when a message needs it.
  private struct Reader {
    let node: JSONNode
    let document: JSONDocument

    /// Requires an object (any value for an array element read with ``hexValue()``).
    init(_ node: JSONNode, in document: JSONDocument, requireObject: Bool = true) throws(Problem) {
      self.node = node
      self.document = document
      if requireObject, node.kind != .object {
        let place = node.index == 0 ? "the line" : path
        throw Problem(message: "\(place): expected an object, found \(node.typeName)")
      }
    }

    /// Where this value is in the record, e.g. `diagnoses[0]` (empty for the record itself).
    var path: String {
      node.index == 0 ? "" : document.path(to: node.index).description
    }

    private func keyPath(_ key: String) -> String {
      let path = path
      return path.isEmpty ? key : path + "." + key
    }

    private func member(_ key: String) throws(Problem) -> JSONNode {
      guard let member = node[key] else {
        throw Problem(message: "\(keyPath(key)): missing (not a report record of this ips-doctor version)")
      }
      return member
    }

    private func mismatch(_ key: String, _ expected: String, _ found: JSONNode) -> Problem {
      Problem(message: "\(keyPath(key)): expected \(expected), found \(found.typeName)")
    }

    /// Whether the object has a member `key` (of any value).
    func has(_ key: String) -> Bool { node[key] != nil }

    func isNull(_ key: String) throws(Problem) -> Bool { try member(key).kind == .null }

    func string(_ key: String) throws(Problem) -> String {
      let found = try member(key)
      guard let text = found.string else { throw mismatch(key, "a string", found) }
      return text
    }

    func optionalString(_ key: String) throws(Problem) -> String? {
      try isNull(key) ? nil : try string(key)
    }

    func int(_ key: String) throws(Problem) -> Int {
      let found = try member(key)
      guard let number = found.number?.int else { throw mismatch(key, "an integer", found) }
      return number
    }

    func optionalInt(_ key: String) throws(Problem) -> Int? {
      try isNull(key) ? nil : try int(key)
    }

    func bool(_ key: String) throws(Problem) -> Bool {
      let found = try member(key)
      switch found.kind {
      case .true: return true
      case .false: return false
      default: throw mismatch(key, "true or false", found)
      }
    }

    func object(_ key: String) throws(Problem) -> Reader {
      try Reader(try member(key), in: document)
    }

    func optionalObject(_ key: String) throws(Problem) -> Reader? {
      try isNull(key) ? nil : try object(key)
    }

    /// Each element of an array of objects (or, with `objects: false`, of any values), passed
    /// through `transform` as it is read: no reader is kept per element.
    func array<Element>(
      _ key: String, objects: Bool = true, _ transform: (Reader) throws(Problem) -> Element
    ) throws(Problem) -> [Element] {
      let found = try member(key)
      guard found.kind == .array else { throw mismatch(key, "an array", found) }
      var elements: [Element] = []
      elements.reserveCapacity(found.count)
      for element in found.elements {
        elements.append(try transform(try Reader(element, in: document, requireObject: objects)))
      }
      return elements
    }

    func strings(_ key: String) throws(Problem) -> [String] {
      try array(key, objects: false) { (element: Reader) throws(Problem) in
        guard let text = element.node.string else {
          throw Problem(message: "\(element.path): expected a string, found \(element.node.typeName)")
        }
        return text
      }
    }

    /// One of the enumeration's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String) throws(Problem) -> T where T.RawValue == String {
      let text = try string(key)
      guard let value = T(rawValue: text) else {
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        throw Problem(message: "\(keyPath(key)): expected one of \(allowed), found \"\(text)\"")
      }
      return value
    }

    /// This value as one of the enumeration's raw values.
    func choiceValue<T: RawRepresentable & CaseIterable>() throws(Problem) -> T where T.RawValue == String {
      guard let text = node.string, let value = T(rawValue: text) else {
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        throw Problem(
          message: "\(path): expected one of \(allowed), found \(node.string.map { "\"\($0)\"" } ?? node.typeName)")
      }
      return value
    }

    func hex(_ key: String) throws(Problem) -> UInt64 {
      try Reader(try member(key), in: document, requireObject: false).hexValue()
    }

    /// This value as `String.hex` writes an address: `0x` and hexadecimal digits.
    func hexValue() throws(Problem) -> UInt64 {
      guard let text = node.string, text.hasPrefix("0x"), let number = UInt64(text.dropFirst(2), radix: 16)
      else {
        let found = node.string.map { "\"\($0)\"" } ?? node.typeName
        throw Problem(message: "\(path): expected an address such as \"0x1a2b\", found \(found)")
      }
      return number
    }
  }
}
