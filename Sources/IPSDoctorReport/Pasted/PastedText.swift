import IPSDoctorJSON
import IPSDoctorSupport

/// Crash text as people paste it into issues and chats, which Apple's readers do not take as it
/// stands: a report inside Markdown quote markers (`> `) or code fences, a Crashlytics console
/// trace, Sentry's raw stack trace text, or an excerpt of Apple's text report that starts at `Exception Type:` or at a thread.
///
/// Apple's own text, whole, is left to ``LegacyTextParser``; JSON is never looked at here.
enum PastedText {
  /// The report in text that is not Apple's report as it stands; `nil` when it is (or may be), so
  /// that the usual framing reads it.
  static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, texts: SharedTexts?
  ) throws(ReportError) -> CrashReport? {
    let text = UnsafeBufferPointer(rebasing: buffer[start...])
    if let unwrapped = unwrapped(text) {
      var report = try ReportReader.read(unwrapped, texts: texts)
      report.warnings.insert(
        ReportWarning(location: "line 1", message: "read the text inside Markdown quote markers and code fences"), at: 0
      )
      return report
    }
    if LegacyTextParser.looksLikeTextReport(text) { return nil }
    if CrashlyticsTextReader.looksLikeTrace(text) { return CrashlyticsTextReader.read(text) }
    if SentryRawTextReader.looksLikeTrace(text) { return SentryRawTextReader.read(text) }
    if looksLikeExcerpt(text) {
      var report = CrashReport(format: .legacyText)
      let firstLine = SourceLocation(offset: start, in: buffer).line
      LegacyTextParser.parse(bytes: text, firstLine: firstLine, into: &report, texts: texts)
      guard !report.threads.isEmpty || report.exception != nil || report.lastExceptionBacktrace != nil else {
        return nil
      }
      report.kind = .crash
      report.markAsExcerpt()
      return report
    }
    return nil
  }

  /// The text without Markdown code fence lines and with one level of `>` quote markers removed
  /// from the lines that have them; `nil` when there are none (the text is then as it stands).
  /// The result is shorter than the text, so reading it again ends.
  static func unwrapped(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    let quoted = startsLine(text, ">")
    let fenced = startsLine(text, "```") || startsLine(text, "~~~")
    guard quoted || fenced else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var changed = false
    for line in TextLines(text) {
      let content = TextLines.leadingTrimmed(text, line)
      if TextLines.isFence(text, content) {
        changed = true
        continue
      }
      var kept = line
      if !content.isEmpty && text[content.lowerBound] == UInt8(ascii: ">") {
        changed = true
        kept = (content.lowerBound + 1)..<line.upperBound
        if !kept.isEmpty && text[kept.lowerBound] == 0x20 { kept = (kept.lowerBound + 1)..<kept.upperBound }
      }
      result.append(contentsOf: text[kept])
      result.append(0x0A)
    }
    return changed ? result : nil
  }

  /// Whether a line of `text` starts with `prefix` after optional spaces and tabs.
  static func startsLine(_ text: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
    var from = 0
    while let found = ByteSearch.firstIndex(of: prefix, in: text, from: from) {
      var index = found
      while index > 0, text[index - 1] == 0x20 || text[index - 1] == 0x09 { index -= 1 }
      if index == 0 || text[index - 1] == 0x0A { return true }
      from = found + 1
    }
    return false
  }

  /// Whether the text holds a part of Apple's text report that the reader can use: a line that
  /// starts a thread (`Thread 3 Crashed:`, `Thread 0:`), `Last Exception Backtrace:` or
  /// `Exception Type:`.
  static func looksLikeExcerpt(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    for line in TextLines(text) {
      let content = TextLines.leadingTrimmed(text, line)
      if text.hasPrefix("Exception Type:", in: content)
        || text.hasPrefix("Last Exception Backtrace:", in: content)
      {
        return true
      }
      guard text.hasPrefix("Thread ", in: content) else { continue }
      var index = content.lowerBound + 7
      let digits = index
      while index < content.upperBound, text[index] >= 0x30 && text[index] <= 0x39 { index += 1 }
      guard index > digits, content.upperBound > index else { continue }
      if text[index] == UInt8(ascii: ":") || text.hasPrefix(" Crashed:", in: index..<content.upperBound) {
        return true
      }
    }
    return false
  }
}

extension CrashReport {
  /// Records that the report is a part of Apple's text report, and which parts it lacks.
  mutating func markAsExcerpt() {
    source = .excerpt
    missing = missingParts()
  }

  /// Whether a text report lacks all of Apple's header (process, identifier, OS): what was read
  /// is an excerpt.
  var lacksAppleHeader: Bool {
    processName == nil && incidentID == nil && osVersion == nil && bundleID == nil && modelCode == nil
  }
}
