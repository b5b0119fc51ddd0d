import IPSDoctorJSON
import IPSDoctorSupport

/// Turns the bytes of a file into a ``CrashReport``.
///
/// The reader is lenient about framing and strict about JSON:
/// - a UTF-8 byte order mark, CRLF line endings, text pasted before the header or after the body,
///   Xcode's "Translated Report / Full Report" wrapper, a header with no body, and a body with no
///   header are all accepted (with a warning where something was skipped);
/// - a JSON body that does not parse is reported with its line, column and JSON path, and the
///   header is still returned (``CrashReport/bodyError``);
/// - a plain legacy text report, or a JSON header followed by a text body, is read by
///   ``LegacyTextParser``.
///
/// It throws only when nothing in the file can be read as a report.
public enum ReportReader {
  public static func read(_ bytes: [UInt8]) throws(ReportError) -> CrashReport {
    try read(bytes, texts: nil)
  }

  package static func read(_ text: String) throws(ReportError) -> CrashReport {
    try read(Array(text.utf8))
  }

  /// Reads one report of a batch: texts it has in common with the reports `texts` has seen (image
  /// paths and names, symbols) share their storage with them. The report equals the one `read(_:)`
  /// makes of the same bytes; it takes less time and memory when reports repeat texts.
  public static func read(_ bytes: [UInt8], sharing texts: SharedTexts) throws(ReportError) -> CrashReport {
    try read(bytes, texts: texts)
  }

  /// ``read(_:sharing:)`` when there may be no table (then it is `read(_:)`).
  package static func read(_ bytes: [UInt8], texts: SharedTexts?) throws(ReportError) -> CrashReport {
    try bytes.withUnsafeBufferPointer { buffer throws(ReportError) -> CrashReport in
      try read(buffer: buffer, texts: texts, source: bytes)
    }
  }

  /// Every report in a file: one for most, one per diagnostic of a MetricKit payload, each with
  /// its label within the file (`crashDiagnostics[0]`; `nil` for a file that is one report).
  package static func readAll(
    _ bytes: [UInt8], texts: SharedTexts?
  ) throws(ReportError) -> [(label: String?, report: CrashReport)] {
    let many = try bytes.withUnsafeBufferPointer {
      buffer throws(ReportError) -> [(label: String?, report: CrashReport)]? in
      var start = 0
      if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { start = 3 }
      guard let first = Scan.firstNonWhitespace(buffer, from: start), buffer[first] == UInt8(ascii: "{") else {
        return nil
      }
      return try ThirdPartyJSON.readAll(buffer, from: first)
    }
    if let many { return many }
    return [(nil, try read(bytes, texts: texts))]
  }

  package static func read(buffer: UnsafeBufferPointer<UInt8>) throws(ReportError) -> CrashReport {
    try read(buffer: buffer, texts: nil)
  }

  /// `source`, when there is one, is the array whose storage `buffer` is: the report's JSON
  /// documents keep it instead of copies of their bytes.
  /// The size from which a report read alone shares its repeated texts through a table of its
  /// own: a report this large is mostly frames, and a deep recursion repeats a few symbols and
  /// image names hundreds of thousands of times, and the table keeps one string of each.
  static let ownTableSize = 4 << 20

  package static func read(
    buffer: UnsafeBufferPointer<UInt8>, texts: SharedTexts?, source: [UInt8]? = nil
  ) throws(ReportError) -> CrashReport {
    let texts = texts ?? (buffer.count >= ownTableSize ? SharedTexts() : nil)
    var start = 0
    if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { start = 3 }
    guard let firstContent = Scan.firstNonWhitespace(buffer, from: start) else {
      throw ReportError(message: buffer.isEmpty ? "the file is empty" : "the file holds only white space")
    }

    // A crash reporter's JSON (KSCrash and its forks).
    if buffer[firstContent] == UInt8(ascii: "{"), let report = try ThirdPartyJSON.read(buffer, from: firstContent) {
      return report
    }
    // Quoted or fenced text, a Crashlytics trace, an excerpt of Apple's text.
    if buffer[firstContent] != UInt8(ascii: "{"),
      let pasted = try PastedText.read(buffer, from: firstContent, texts: texts)
    {
      return pasted
    }

    // Xcode's "Translated Report (Full Report Below)": prefer the full JSON report after the marker.
    if let fullStart = Scan.fullReportStart(buffer, from: firstContent) {
      if var report = try? readFraming(buffer, from: fullStart, texts: texts, source: source), report.bodyError == nil {
        report.warnings.insert(
          ReportWarning(
            location: "line \(SourceLocation(offset: fullStart, in: buffer).line)",
            message: "read the full report below Xcode's translated report"), at: 0)
        return report
      }
    }
    return try readFraming(buffer, from: firstContent, texts: texts, source: source)
  }

  static func readFraming(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, texts: SharedTexts?, source: [UInt8]? = nil
  ) throws(ReportError)
    -> CrashReport
  {
    guard let jsonStart = Scan.firstLineStartingWithBrace(buffer, from: start) else {
      return try readLegacyText(buffer, from: start, header: nil, headerDocument: nil, warnings: [], texts: texts)
    }
    // A legacy text report that merely contains a line starting with "{" (inside
    // Application Specific Information, say) is still a text report.
    if jsonStart > start,
      LegacyTextParser.looksLikeTextReport(UnsafeBufferPointer(rebasing: buffer[start..<jsonStart]))
    {
      return try readLegacyText(buffer, from: start, header: nil, headerDocument: nil, warnings: [], texts: texts)
    }

    var warnings: [ReportWarning] = []
    if jsonStart > start {
      warnings.append(
        ReportWarning(
          location: "line \(SourceLocation(offset: start, in: buffer).line)",
          message: "skipped text before the JSON header"))
    }

    // The header is one line: its tape is sized for that line, not for the whole file.
    let lineEnd = ByteSearch.firstIndex(of: 0x0A, in: buffer, from: jsonStart) ?? buffer.count
    // A file without a header line starts with its body, which may be large.
    let (parsed, firstEnd, failure) = JSONParser.documentPrefix(
      buffer, from: jsonStart, source: source, expectedBytes: lineEnd - jsonStart,
      budget: BodyBudget.forBody(bytes: buffer.count - jsonStart))
    if let error = failure {
      let firstLineEnd = Scan.endOfLine(buffer, from: jsonStart)
      let damage = ReportWarning(
        location: "line \(error.location.line)",
        message: "the header line is not valid JSON (\(error.message)); read the body alone")
      // The header line itself is damaged: if a body follows on a later line, read it alone.
      if error.location.offset < firstLineEnd,
        let bodyStart = Scan.firstLineStartingWithBrace(buffer, from: firstLineEnd),
        var salvaged = try? readBody(
          buffer, from: bodyStart, header: nil, headerDocument: nil, warnings: warnings + [damage], texts: texts,
          source: source)
      {
        salvaged.apply(header: Scan.salvageHeader(buffer, before: bodyStart))
        return salvaged
      }
      // Braces in text pasted around a text report (code in a forum question, say).
      if LegacyTextParser.looksLikeTextReport(UnsafeBufferPointer(rebasing: buffer[start...])) {
        return try readLegacyText(
          buffer, from: start, header: nil, headerDocument: nil, warnings: warnings, texts: texts)
      }
      // A multi-line value that breaks: a body whose header line is missing or cut. Keep whatever
      // the damaged header text says and report the body's error.
      guard error.location.offset >= firstLineEnd else {
        throw ReportError(error, context: "the JSON header is not valid")
      }
      let header = Scan.salvageHeader(buffer, before: jsonStart)
      let bodyError = ReportError(error, context: "the report body is not valid JSON")
      if var salvaged = salvage(
        buffer, partial: parsed, failure: error, header: nil, headerDocument: nil, warnings: warnings,
        texts: texts)
      {
        salvaged.apply(header: header)
        salvaged.bodyError = bodyError
        return salvaged
      }
      var report = damaged(header: header, headerDocument: nil, warnings: warnings, error: bodyError)
      if report.bugType == nil { report.kind = .crash }
      return report
    }
    // Without an error the parser always returns a value.
    guard let first = parsed else { throw ReportError(message: "the file holds no JSON value") }

    enum FirstValue {
      case notAnObject(String)
      case body
      case header(IPSHeader)
    }
    var decoder = FieldDecoder(texts: texts)
    let firstValue = first.withRoot { root -> FirstValue in
      guard root.kind == .object else { return .notAnObject(root.typeName) }
      if Scan.looksLikeBody(root) { return .body }
      return .header(IPSHeader(json: root, decoder: &decoder))
    }
    let header: IPSHeader
    switch firstValue {
    case .notAnObject(let typeName):
      throw ReportError(
        message: "expected a JSON object as the report header, found \(typeName)",
        line: SourceLocation(offset: jsonStart, in: buffer).line, column: 1)
    case .body:
      // No header line: someone saved the body alone (or the header was cut off above it).
      var report = try readBody(
        buffer, parsed: first, end: firstEnd, header: nil, headerDocument: nil,
        warnings: warnings + [
          ReportWarning(location: "line 1", message: "the report has no JSON header line")
        ], texts: texts)
      report.apply(header: Scan.salvageHeader(buffer, before: jsonStart))
      return report
    case .header(let decoded):
      header = decoded
    }
    warnings += decoder.warnings

    guard let next = Scan.firstNonWhitespace(buffer, from: firstEnd) else {
      var report = CrashReport(format: .headerOnly)
      report.apply(header: header)
      report.kind = report.bugType?.kind ?? .unknown
      report.headerDocument = first
      report.warnings =
        warnings + [
          ReportWarning(location: "line 2", message: "the report has a header but no body")
        ]
      return report
    }
    if buffer[next] == UInt8(ascii: "{") {
      return try readBody(
        buffer, from: next, header: header, headerDocument: first, warnings: warnings, texts: texts, source: source)
    }
    if let bugType = header.bugType, BugType(bugType).promisesJSONBody,
      !LegacyTextParser.looksLikeTextReport(UnsafeBufferPointer(rebasing: buffer[next...]))
    {
      let error = unreadableBody(buffer, from: next, source: source)
      return damaged(header: header, headerDocument: first, warnings: warnings, error: error)
    }
    return try readLegacyText(
      buffer, from: next, header: header, headerDocument: first, warnings: warnings, texts: texts)
  }

  static func readBody(
    _ buffer: UnsafeBufferPointer<UInt8>, from bodyStart: Int, header: IPSHeader?,
    headerDocument: JSONDocument?, warnings: [ReportWarning], texts: SharedTexts?, source: [UInt8]? = nil
  ) throws(ReportError) -> CrashReport {
    let (parsed, end, failure) = JSONParser.documentPrefix(
      buffer, from: bodyStart, source: source, budget: BodyBudget.forBody(bytes: buffer.count - bodyStart))
    if let failure {
      let bodyError = ReportError(failure, context: "the report body is not valid JSON")
      if var salvaged = salvage(
        buffer, partial: parsed, failure: failure, header: header, headerDocument: headerDocument,
        warnings: warnings, texts: texts)
      {
        salvaged.bodyError = bodyError
        return salvaged
      }
      guard let header else { throw bodyError }
      return damaged(header: header, headerDocument: headerDocument, warnings: warnings, error: bodyError)
    }
    guard let body = parsed else {
      throw ReportError(message: "the report body is empty", line: SourceLocation(offset: bodyStart, in: buffer).line)
    }
    if let typeName = body.withRoot({ $0.kind == .object ? nil : $0.typeName }) {
      throw ReportError(
        message: "expected a JSON object as the report body, found \(typeName)",
        line: SourceLocation(offset: bodyStart, in: buffer).line, column: 1)
    }
    return try readBody(
      buffer, parsed: body, end: end, header: header, headerDocument: headerDocument, warnings: warnings,
      texts: texts)
  }

  /// What is wrong with the body at `bodyStart` of a report whose header promises a JSON object
  /// body, when the body does not start with `{`: the JSON error at the first byte that cannot
  /// start or continue a JSON value, or the kind of value found instead of an object.
  static func unreadableBody(
    _ buffer: UnsafeBufferPointer<UInt8>, from bodyStart: Int, source: [UInt8]?
  ) -> ReportError {
    let (parsed, _, failure) = JSONParser.documentPrefix(buffer, from: bodyStart, source: source)
    if let failure { return ReportError(failure, context: "the report body is not valid JSON") }
    let location = SourceLocation(offset: bodyStart, in: buffer)
    let typeName = parsed?.withRoot { $0.typeName } ?? "nothing"
    return ReportError(
      message: "the report body is not a JSON object: found \(typeName)", line: location.line,
      column: location.column)
  }

  /// A report of which only the header could be read.
  static func damaged(
    header: IPSHeader, headerDocument: JSONDocument?, warnings: [ReportWarning], error: ReportError
  ) -> CrashReport {
    var report = CrashReport(format: .json)
    report.apply(header: header)
    report.kind = report.bugType?.kind ?? .unknown
    report.headerDocument = headerDocument
    report.warnings = warnings
    report.bodyError = error
    return report
  }

  /// Reads the part of a broken body that came before the break, when it is recognisably a report
  /// body. The caller keeps the error as ``CrashReport/bodyError``; ``Doctor`` caps the confidence
  /// of anything diagnosed from a partial body.
  static func salvage(
    _ buffer: UnsafeBufferPointer<UInt8>, partial: JSONDocument?, failure: JSONError, header: IPSHeader?,
    headerDocument: JSONDocument?, warnings: [ReportWarning], texts: SharedTexts?
  ) -> CrashReport? {
    guard let partial,
      let fieldCount = partial.withRoot({ root in
        root.kind == .object && Scan.looksLikeBody(root) ? root.count : nil
      })
    else { return nil }
    let note = ReportWarning(
      location: "line \(failure.location.line)",
      message: "the body breaks here (\(failure.message)); read the \(fieldCount) top-level fields before it")
    // The text after the break is not the report's: do not warn about it as trailing text.
    return try? readBody(
      buffer, parsed: partial, end: buffer.count, header: header, headerDocument: headerDocument,
      warnings: warnings + [note], texts: texts)
  }

  static func readBody(
    _ buffer: UnsafeBufferPointer<UInt8>, parsed body: JSONDocument, end: Int, header: IPSHeader?,
    headerDocument: JSONDocument?, warnings: [ReportWarning], texts: SharedTexts?
  ) throws(ReportError) -> CrashReport {
    // Every change to the report is made by one call (see `read(body:…)`).
    var report = CrashReport(format: .json)
    report.read(
      body: body, header: header, headerDocument: headerDocument, warnings: warnings, trailingFrom: end, in: buffer,
      texts: texts)
    return report
  }

  static func readLegacyText(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, header: IPSHeader?,
    headerDocument: JSONDocument?, warnings: [ReportWarning], texts: SharedTexts?
  ) throws(ReportError) -> CrashReport {
    let body = UnsafeBufferPointer(rebasing: buffer[start...])
    let firstLine = SourceLocation(offset: start, in: buffer).line
    var report = CrashReport(format: header == nil ? .legacyText : .jsonHeaderTextBody)
    if let header { report.apply(header: header) }
    report.headerDocument = headerDocument
    report.warnings = warnings
    // A kernel panic saved as plain text. Its bytes start with those of "panic(" whenever its
    // characters do, so most bodies are told apart without making the text.
    if header?.bugType == "210" || body.hasPrefix("panic(", in: body.indices),
      case let text = Scan.text(buffer, start..<buffer.count),
      header?.bugType == "210" || text.hasPrefix("panic(")
    {
      var summary = PanicSummary()
      summary.panicString = text
      PanicSummary.fill(&summary, fromPanicString: text)
      report.panic = summary
      report.kind = .panic
      return report
    }
    if header == nil && !LegacyTextParser.looksLikeTextReport(body) {
      throw ReportError(
        message: "not a crash report: no JSON header and none of the fields of a text crash report",
        line: firstLine, column: 1)
    }
    LegacyTextParser.parse(bytes: body, firstLine: firstLine, into: &report, texts: texts)
    if header == nil && report.kind == .crash && report.lacksAppleHeader { report.markAsExcerpt() }
    return report
  }
}

extension CrashReport {
  mutating func apply(panicBody object: JSONNode, decoder: inout FieldDecoder) {
    var summary = PanicSummary()
    // Full panic logs (bug_type 151) name the field "string".
    summary.panicString =
      decoder.string(object, "panicString", at: .root) ?? decoder.string(object, "string", at: .root)
    summary.product = decoder.string(object, "product", at: .root)
    summary.build = decoder.string(object, "build", at: .root)
    if let text = summary.panicString {
      PanicSummary.fill(&summary, fromPanicString: text)
    }
    incidentID = decoder.string(object, "incident", at: .root) ?? incidentID
    panic = summary
  }

  mutating func apply(jetsamBody object: JSONNode, decoder: inout FieldDecoder) {
    var summary = JetsamSummary()
    summary.largestProcess = decoder.string(object, "largestProcess", at: .root)
    summary.product = decoder.string(object, "product", at: .root)
    summary.build = decoder.string(object, "build", at: .root)
    if let status = decoder.object(object, "memoryStatus", at: .root) {
      summary.pageSize = decoder.uint64(status, "pageSize", at: JSONPath.root.appending("memoryStatus"))
    }
    if let processes = decoder.array(object, "processes", at: .root) {
      summary.processes.reserveCapacity(processes.count)
      for (index, entry) in processes.elements.enumerated() {
        // Built only when a warning names it, not for every process.
        func path() -> JSONPath { JSONPath.root.appending("processes").appending(index) }
        guard entry.kind == .object else {
          decoder.wrongType(entry, at: path(), expected: "an object")
          continue
        }
        // One pass over the members keeping the last of each name (as the subscript answers),
        // decoded below in the order that fixes the order of warnings.
        var name, pid, reason, residentPages, states: JSONNode?
        for (key, value) in entry.members {
          let keyEntry = key.entry
          // By raw length first (a key with escapes, rare, is compared with each name).
          let length = keyEntry.flags & JSONTapeEntry.stringHasEscapes == 0 ? keyEntry.stringEnd - keyEntry.start : 0
          if (length == 0 || length == 3) && key.keyEquals("pid") {
            pid = value
          } else if (length == 0 || length == 4) && key.keyEquals("name") {
            name = value
          } else if length == 0 || length == 6 {
            if key.keyEquals("reason") {
              reason = value
            } else if key.keyEquals("rpages") {
              residentPages = value
            } else if key.keyEquals("states") {
              states = value
            }
          }
        }
        var process = JetsamSummary.Process(name: decoder.string(name, named: "name", in: path()))
        process.pid = decoder.int(pid, named: "pid", in: path())
        process.reason = decoder.string(reason, named: "reason", in: path())
        process.residentPages = decoder.uint64(residentPages, named: "rpages", in: path())
        process.states = decoder.strings(states, named: "states", in: path())
        summary.processes.append(process)
      }
    }
    incidentID = decoder.string(object, "incident", at: .root) ?? incidentID
    jetsam = summary
  }

  mutating func apply(stackshotBody object: JSONNode, decoder: inout FieldDecoder) {
    var summary = StackshotSummary()
    summary.reason = decoder.string(object, "reason", at: .root)
    summary.product = decoder.string(object, "product", at: .root)
    summary.build = decoder.string(object, "build", at: .root)
    if let processes = object["processByPid"], processes.kind == .object {
      summary.processCount = processes.count
      if let frontmost = object["frontmostPids"], frontmost.kind == .array {
        for pid in frontmost.elements {
          let key = pid.number?.description ?? pid.string ?? ""
          if let name = processes[key]?["procname"]?.string { summary.frontmostProcesses.append(name) }
        }
      }
    }
    stackshot = summary
  }

  /// A body of a kind we do not model in detail: keep a few well-known fields.
  mutating func apply(genericBody object: JSONNode, decoder: inout FieldDecoder) {
    processName = decoder.string(object, "procName", at: .root) ?? processName
    incidentID = decoder.string(object, "incident", at: .root) ?? incidentID
    if kind == .resource || kind == .watchdog {
      var summary = ResourceSummary()
      summary.event = decoder.string(object, "event", at: .root)
      for (key, value) in object.members {
        guard let text = value.string ?? value.number?.description else { continue }
        summary.fields.append(.init(key: key.string ?? "", value: text))
      }
      resource = summary
    }
  }
}

extension PanicSummary {
  /// Reads the headline, panicked task and panicked thread out of a panic string.
  static func fill(_ summary: inout PanicSummary, fromPanicString text: String) {
    // Each line is found by byte search: panic strings run to hundreds of lines, of which a few
    // are kept.
    text.withBorrowedUTF8 { bytes in
      let utf8 = text.utf8
      var start = 0
      var lineFeed = -1  // the first line feed at or after `start` (or the end), once passed found again
      while start < bytes.count {
        // The line is start..<end, up to the first CR or LF (runs of them are one separator).
        if lineFeed < start { lineFeed = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) ?? bytes.count }
        let end =
          ByteSearch.firstIndex(of: 0x0D, in: UnsafeBufferPointer(rebasing: bytes[..<lineFeed]), from: start)
          ?? lineFeed
        if end > start {
          let lower = utf8.index(utf8.startIndex, offsetBy: start)
          fillLine(&summary, utf8[lower..<utf8.index(lower, offsetBy: end - start)])
        }
        start = end + 1
      }
    }
  }

  /// What one line of a panic string adds to `summary` (a line without CR or LF, not empty).
  private static func fillLine(_ summary: inout PanicSummary, _ rawLine: Substring.UTF8View) {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    guard let first = rawLine.firstIndex(where: { !isSpace($0) }) else { return }
    let bytes = rawLine[first...]
    let isHeadline = summary.headline == nil
    guard isHeadline || bytes.starts(with: "Panicked ".utf8) else { return }
    let line = String(Substring(bytes)).trimmingWhitespace()
    if summary.headline == nil, !line.isEmpty { summary.headline = line }
    if line.hasPrefix("Panicked task") {
      // "Panicked task 0xffffff…: 123 pages, 5 threads: pid 0: kernel_task"
      if let start = pidOffset(in: line) {
        summary.panickedTask = String(line[start...])
      } else {
        summary.panickedTask = line
      }
    } else if line.hasPrefix("Panicked thread") {
      summary.panickedThread = line
    }
  }

  /// Where "pid " starts in `line`.
  static func pidOffset(in line: String) -> String.Index? {
    line.firstRange(of: "pid ")?.lowerBound
  }
}

extension CrashReport {
  /// Fills a new JSON report from its parsed body.
  ///
  /// Not inlined, so that the function returning the report changes it only through calls: then
  /// the report is moved on return, never copied.
  @inline(never)
  fileprivate mutating func read(
    body: JSONDocument, header: IPSHeader?, headerDocument: JSONDocument?, warnings: [ReportWarning],
    trailingFrom end: Int, in buffer: UnsafeBufferPointer<UInt8>, texts: SharedTexts?
  ) {
    // The header's OS version only where the body has none (below).
    if let header { apply(header: header, parsingOSVersion: false) }
    self.headerDocument = headerDocument
    bodyDocument = body
    let bodyWasCut = !body.omissions.isEmpty
    // The report is passed to the closure rather than captured by it.
    body.withRoot(passing: &self) { object, report in
      var decoder = FieldDecoder(texts: texts)
      if bodyWasCut { decoder.cutBody = body }
      report.kind = Scan.kind(of: object, bugType: report.bugType)
      switch report.kind {
      case .panic: report.apply(panicBody: object, decoder: &decoder)
      case .jetsam: report.apply(jetsamBody: object, decoder: &decoder)
      case .stackshot: report.apply(stackshotBody: object, decoder: &decoder)
      case .crash: report.apply(crashBody: object, decoder: &decoder)
      case .resource, .watchdog, .unknown:
        if Scan.looksLikeCrashBody(object) {
          report.apply(crashBody: object, decoder: &decoder)
        } else {
          report.apply(genericBody: object, decoder: &decoder)
        }
      }
      report.warnings = warnings + decoder.warnings
      if bodyWasCut {
        // The crashed thread's own first.
        report.warnings +=
          (decoder.reread?.warnings ?? []) + BodyBudget.warnings(for: body, except: decoder.reread?.thread)
        report.cutLists = body.omissions.count
        report.isAbridged = body.isAbridged
      }
    }
    apply(osVersionDisplay: header?.osVersion)
    if let trailing = Scan.firstNonWhitespace(buffer, from: end) {
      self.warnings.append(
        ReportWarning(
          location: "line \(SourceLocation(offset: trailing, in: buffer).line)",
          message: "ignored \(buffer.count - trailing) bytes of text after the report body"))
    }
  }
}

extension JSONDocument {
  /// ``withRoot(_:)`` with `state` passed through to `body` instead of captured by it.
  func withRoot<State>(passing state: inout State, _ body: (JSONNode, inout State) -> Void) {
    // In place: `bytes` and `entries` are copies of the document's storage.
    withView { view in body(JSONNode(view: view, index: 0), &state) }
  }
}

/// Byte-level scanning helpers for framing.
enum Scan {
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  static func firstNonWhitespace(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    while index < buffer.count {
      if !isWhitespace(buffer[index]) { return index }
      index += 1
    }
    return nil
  }

  static func endOfLine(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start
    while index < buffer.count && buffer[index] != 0x0A { index += 1 }
    return min(index + 1, buffer.count)
  }

  /// The offset of the first `{` that starts a line (after optional spaces), from `start`.
  ///
  /// `memchr` finds each `{` and only those are looked at, each by the bytes before it: a text
  /// report has few or none, and its lines are not walked one `memchr` at a time.
  static func firstLineStartingWithBrace(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int)
    -> Int?
  {
    var from = start
    while let brace = ByteSearch.firstIndex(of: UInt8(ascii: "{"), in: buffer, from: from) {
      // At a line start when only spaces, tabs and carriage returns come between it and a line
      // feed, or `start`.
      var index = brace
      while index > start {
        let byte = buffer[index - 1]
        if byte == 0x0A { return brace }
        guard byte == 0x20 || byte == 0x09 || byte == 0x0D else { break }
        index -= 1
      }
      if index == start { return brace }
      from = brace + 1
    }
    return nil
  }

  /// After Xcode's "Translated Report (Full Report Below)", the line "Full Report" between dashed
  /// lines introduces the real report; returns where it starts.
  /// The wrapper starts with its text, so text that starts with a JSON header (`{` at `start`) is
  /// not wrapped and is not searched: the search would stop at each "R" of a JSON report (see
  /// docs/performance-history.md, 'Framing').
  static func fullReportStart(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    if start < buffer.count && buffer[start] == UInt8(ascii: "{") { return nil }
    // Every other file is searched and few have the marker: a literal (no array to make and free), and
    // `memchr` anchored on its "R", which reports hold less often than "T".
    let marker: StaticString = "Translated Report"
    guard let markerStart = ByteSearch.firstIndex(of: marker, in: buffer, from: start, anchor: 11) else { return nil }
    // "Full Report" opening a line after it, found by `memchr` on its "F", not by walking the text
    // a byte at a time.
    guard
      let newline = ByteSearch.firstIndex(
        of: "\nFull Report", in: buffer, from: markerStart + marker.utf8CodeUnitCount, anchor: 1)
    else { return nil }
    // Skip the dashed line that follows.
    var next = endOfLine(buffer, from: newline + 1)
    while let content = firstNonWhitespace(buffer, from: next), buffer[content] == UInt8(ascii: "-") {
      next = endOfLine(buffer, from: content)
    }
    return next
  }

  static func text(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
  }

  /// Reads what it can of a damaged header line (cut at the start, say) in the text before `end`:
  /// `"key":"value"` pairs for the header's documented keys.
  static func salvageHeader(_ buffer: UnsafeBufferPointer<UInt8>, before end: Int) -> IPSHeader {
    let bytes = UnsafeBufferPointer(rebasing: buffer[0..<end])
    guard ByteSearch.firstIndex(of: "\":", in: bytes) != nil else { return IPSHeader() }
    var header = IPSHeader()
    header.appName = salvagedValue("app_name", in: bytes)
    header.appVersion = salvagedValue("app_version", in: bytes)
    header.buildVersion = salvagedValue("build_version", in: bytes)
    header.bundleID = salvagedValue("bundleID", in: bytes)
    header.bugType = salvagedValue("bug_type", in: bytes)
    header.osVersion = salvagedValue("os_version", in: bytes)
    header.incidentID = salvagedValue("incident_id", in: bytes)
    header.timestamp = salvagedValue("timestamp", in: bytes)
    header.name = salvagedValue("name", in: bytes)
    header.sliceUUID = salvagedValue("slice_uuid", in: bytes)
    header.platform = salvagedValue("platform", in: bytes).flatMap { Int($0) }
    return header
  }

  /// The value after the first `"key"` in the UTF-8 text `bytes` and a colon (spaces allowed
  /// around it), as JSON delimits it: a string up to its closing quote (none for one that has an
  /// escape or a line feed first; a carriage return and line feed pair is no line feed), or the
  /// ASCII digits there.
  static func salvagedValue(_ key: String, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    // Searched in place: every header key, quoted, fits in a small string (no array to make).
    var needle = "\"" + key + "\""
    let found = needle.withUTF8 {
      ByteSearch.firstIndex(of: UnsafeRawBufferPointer($0), in: UnsafeRawBufferPointer(bytes))
    }
    guard var index = found else { return nil }
    index += key.utf8.count + 2
    func skipSpaces() { while index < bytes.count && bytes[index] == 0x20 { index += 1 } }
    skipSpaces()
    guard index < bytes.count, bytes[index] == 0x3A else { return nil }
    index += 1
    skipSpaces()
    let start = index
    if index < bytes.count && bytes[index] == 0x22 {
      index += 1
      while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x22 || byte == 0x5C || (byte == 0x0A && bytes[index - 1] != 0x0D) { break }
        index += 1
      }
      guard index < bytes.count, bytes[index] == 0x22 else { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]), as: UTF8.self)
    }
    while index < bytes.count && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
    return index == start ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  /// Whether the object has a member only a report body has: threads, exception, usedImages,
  /// procName, faultingThread, panicString, memoryStatus, processByPid, largestProcess or
  /// lastExceptionBacktrace.
  static func looksLikeBody(_ object: JSONNode) -> Bool {
    object.members.contains { key, _ in
      switch MemberName(key) {
      case .threads, .exception, .usedImages, .procName, .faultingThread, .panicString, .memoryStatus,
        .processByPid, .largestProcess:
        true
      case .lastExceptionBacktrace: key.keyEquals("lastExceptionBacktrace")
      default: false
      }
    }
  }

  static func looksLikeCrashBody(_ object: JSONNode) -> Bool {
    object["threads"] != nil || object["exception"] != nil
  }

  /// The kind of a JSON body: from the header's bug_type when known, otherwise from its keys.
  static func kind(of object: JSONNode, bugType: BugType?) -> ReportKind {
    if let kind = bugType?.kind, kind != .unknown { return kind }
    if let inner = object["bug_type"]?.string ?? object["bug_type"]?.number?.description {
      let kind = BugType(inner).kind
      if kind != .unknown { return kind }
    }
    if object["panicString"] != nil { return .panic }
    if object["memoryStatus"] != nil || object["largestProcess"] != nil { return .jetsam }
    if object["processByPid"] != nil { return .stackshot }
    if looksLikeCrashBody(object) { return .crash }
    return .unknown
  }
}
