import IPSDoctorReport
import IPSDoctorSupport

// Helpers for the system-termination, resource, launch and other-report rules.

/// Up to three termination codes in the value itself (no storage to share or count references
/// to), for rules' `static let`s: see `DiagnosisContext.terminationCode(in:)`.
struct TerminationCodes: Sendable {
  private let first: UInt64
  private let second: UInt64
  private let third: UInt64
  private let count: Int

  init(_ code: UInt64) {
    (first, second, third, count) = (code, code, code, 1)
  }

  init(_ first: UInt64, _ second: UInt64, _ third: UInt64) {
    (self.first, self.second, self.third, count) = (first, second, third, 3)
  }

  func contains(_ code: UInt64) -> Bool { code == first || code == second || code == third }

  /// The codes, in the order given.
  var all: [UInt64] { Array([first, second, third].prefix(count)) }
}

extension DiagnosisContext {
  /// A termination code (such as `0x8badf00d`) and where the report states it.
  package struct TerminationCodeMatch: Sendable {
    package var code: UInt64
    package var namespace: String?
    package var evidence: Evidence

    /// `0x8badf00d`
    package var hex: String { String.hex(code) }

    /// "code 0x8badf00d (namespace FRONTBOARD)"
    package var phrase: String {
      "termination code \(hex)" + (namespace.map { " (namespace \($0))" } ?? "")
    }
  }

  /// The first of `codes` that the report gives as its termination code: `termination.code`, then
  /// the exception codes (pre-iOS 13 reports write `Exception Codes: 0x000000008badf00d`), then a
  /// "Code 0x…" in the termination texts.
  package func terminationCode(in codes: Set<UInt64>) -> TerminationCodeMatch? {
    terminationCode(where: codes.contains)
  }

  /// `terminationCode(in:)` for a rule's own codes (``TerminationCodes``).
  func terminationCode(in codes: TerminationCodes) -> TerminationCodeMatch? {
    terminationCode(where: codes.contains)
  }

  private func terminationCode(where codes: (UInt64) -> Bool) -> TerminationCodeMatch? {
    // Every code the report gives is among `terminationCodeCandidates`.
    guard terminationCodeCandidates.contains(where: codes) else { return nil }
    if let code = report.termination?.code, codes(code), report.termination?.namespace != "SIGNAL" {
      let namespace = report.termination?.namespace
      return TerminationCodeMatch(
        code: code, namespace: namespace,
        evidence: Evidence(
          "termination.code", String.hex(code) + (namespace.map { " (namespace \($0))" } ?? "")))
    }
    if let text = report.exception?.codes {
      for case let value? in exceptionCodeValues where codes(value) {
        return TerminationCodeMatch(
          code: value, namespace: report.termination?.namespace,
          evidence: Evidence("exception.codes", text))
      }
    }
    for index in terminationTextNumbers.indices {
      if let value = terminationTextNumbers[index].first(where: codes) {
        let item = terminationTextList[index]
        return TerminationCodeMatch(
          code: value, namespace: report.termination?.namespace ?? Self.namespace(in: item.text),
          evidence: Evidence(item.path, item.text))
      }
    }
    return nil
  }

  /// The numbers between the commas of `text` (every comma scalar separates, also one a
  /// combining mark follows), `nil` for a part that is not one; empty parts are left out.
  static func parseCodes(_ text: String) -> [UInt64?] {
    text.unicodeScalars.split(separator: ",").map { String.parseUInt64(Substring($0)) }
  }

  /// The `0x…` numbers in `text` in order (`0X…` ones only when there is no `0x`); found once per
  /// report for every termination text, so `terminationCode(in:)` takes the first one in its set.
  static func hexNumbers(in text: String) -> [UInt64] {
    // Most texts have no hexadecimal number: a byte search rules them out cheaply.
    guard text.utf8Contains("0x") || text.utf8Contains("0X") else { return [] }
    var numbers: [UInt64] = []
    var rest = Substring(text)
    while let range = rest.prefilteredFirstRange(of: "0x") ?? rest.prefilteredFirstRange(of: "0X") {
      if let value = rest[range.upperBound...].leadingHexNumber() { numbers.append(value) }
      rest = rest[range.upperBound...]
    }
    return numbers
  }

  /// "Namespace SPRINGBOARD, Code 0x8badf00d" → "SPRINGBOARD".
  static func namespace(in text: String) -> String? {
    guard let range = text.firstRange(of: "Namespace ") else { return nil }
    let name = text[range.upperBound...].prefix(while: { $0 != "," && $0 != " " })
    return name.isEmpty ? nil : String(name)
  }

  /// The termination's reasons, details and indicator, each with its path. Legacy text reports
  /// have their "Termination Description" among the reasons.
  package var terminationTexts: [(path: String, text: String)] { terminationTextList }

  static func makeTerminationTexts(_ report: CrashReport) -> [(path: String, text: String)] {
    var texts: [(path: String, text: String)] = []
    if let termination = report.termination {
      for (index, reason) in termination.reasons.enumerated() {
        texts.append(("termination.reasons[\(index)]", reason))
      }
      for (index, detail) in termination.details.enumerated() {
        texts.append(("termination.details[\(index)]", detail))
      }
      if let indicator = termination.indicator { texts.append(("termination.indicator", indicator)) }
    }
    return texts
  }

  /// All termination texts joined by newlines (watchdog reasons are split over several strings).
  package var terminationDescription: String {
    terminationTexts.map(\.text).joined(separator: "\n")
  }

  /// "The system killed `Example` with termination code 0xdead10cc (namespace RUNNINGBOARD)"
  package func killedSentence(_ match: TerminationCodeMatch, by killer: String = "The system") -> String {
    "\(killer) killed \(processDisplayName) with \(match.phrase)"
  }

  /// The termination description as one quoted line, shortened to `limit` characters; the
  /// `<RBSTerminateContext| … explanation:` wrapper is dropped.
  package func quotedTerminationDescription(limit: Int = 240) -> String? {
    let text = terminationTexts.map { Self.explanation($0.text) }.filter { !$0.isEmpty }
      .joined(separator: " ")
    guard !text.isEmpty else { return nil }
    return "\"" + (text.count > limit ? String(text.prefix(limit)) + "…" : text) + "\""
  }

  /// "<RBSTerminateContext| domain:10 code:0x… explanation:TEXT reportType:CrashLog …>" → "TEXT".
  package static func explanation(_ text: String) -> String {
    var value = Substring(text.trimmingWhitespace())
    if let range = value.prefilteredFirstRange(of: "explanation:") { value = value[range.upperBound...] }
    if let range = value.prefilteredFirstRange(of: " reportType:") { value = value[..<range.lowerBound] }
    if value.hasSuffix(">") && text.hasPrefix("<RBS") { value = value.dropLast() }
    return value.trimmingWhitespace()
  }

  /// The first termination text, then reason text, containing `fragment`.
  package func terminationText(containing fragment: String) -> Evidence? {
    switch terminationTextBytes?.firstFrame(containing: fragment) ?? .undecided {
    case .found(let index):
      let item = terminationTextList[index]
      return Evidence(item.path, item.text)
    case .absent:
      break
    case .undecided:
      if let item = terminationTexts.first(where: { $0.text.utf8Contains(fragment) }) {
        return Evidence(item.path, item.text)
      }
    }
    return reasonText(containing: fragment)
  }

  // MARK: Process and threads

  /// The process the report is about, for summaries: "`ChatApp`", or "the app".
  package var processDisplayName: String {
    if let name = report.processName ?? report.header.appName ?? report.header.name {
      return "\(CodeSpan.markdown(name))"
    }
    return "the app"
  }

  /// Whether the process is an app extension (its path runs through a `.appex` bundle).
  package var processIsAppExtension: Bool {
    (report.processPath ?? report.mainImage?.path ?? "").prefilteredContains(".appex/")
  }

  /// The main thread (by queue or name, else thread 0), with its index.
  package var mainOrFirstThread: CrashThread? {
    report.threads.first(where: { $0.queue == "com.apple.main-thread" || $0.name == "com.apple.main-thread" })
      ?? report.threads.first(where: { $0.index == 0 })
  }

  /// Up to `limit` top frames of `thread`, as "`symbol` (threads[0].frames[0])", skipping frames
  /// with neither symbol nor image.
  package func topFrames(of thread: CrashThread, limit: Int = 4) -> [Evidence] {
    var result: [Evidence] = []
    for (index, frame) in thread.frames.enumerated() {
      let text = describe(frame)
      if text == "???" { continue }
      result.append(Evidence("threads[\(thread.index)].frames[\(index)]", text))
      if result.count == limit { break }
    }
    return result
  }

  /// "`a` (threads[0].frames[0]), `b` (threads[0].frames[1])"
  package static func frameList(_ frames: [Evidence]) -> String {
    frames.map(quote).joined(separator: ", ")
  }

  /// The first app frame on `thread`, with its path.
  package func firstAppFrame(on thread: CrashThread) -> Evidence? {
    let backtrace = Backtrace(
      path: "threads[\(thread.index)].frames", frames: thread.frames, thread: thread)
    guard let (index, frame) = firstAppFrame(in: backtrace) else { return nil }
    return Evidence(backtrace.framePath(index), describe(frame))
  }

  /// The first frame of any thread whose symbol contains one of `fragments`.
  package func firstFrameInAnyThread(containing fragments: [String]) -> Evidence? {
    for thread in report.threads {
      for (index, frame) in thread.frames.enumerated() {
        guard let symbol = frame.symbol else { continue }
        if fragments.contains(where: { symbol.utf8Contains($0) }) {
          return Evidence("threads[\(thread.index)].frames[\(index)]", describe(frame))
        }
      }
    }
    return nil
  }

  /// Whether the exception type starts with `type`.
  package func exceptionTypeHasPrefix(_ type: String) -> Bool {
    report.exception?.type?.hasPrefix(type) ?? false
  }
}

extension String {
  /// A decimal number that follows `marker` in the text ("allowance of 19.97 seconds" with marker
  /// "allowance of " → "19.97").
  func numberFollowing(_ marker: String) -> String? {
    guard let range = firstRange(of: marker) else { return nil }
    let digits = self[range.upperBound...].prefix(while: { $0.isNumber || $0 == "." })
    return digits.isEmpty ? nil : String(digits)
  }

  /// The text after `marker` up to the first of the ASCII characters in `terminators` (or the
  /// end), trimmed; `nil` when that is empty. The terminators are found among the UTF-8 bytes: a
  /// terminator ends the text also where a combining mark follows it (as `utf8Contains` finds an
  /// ASCII match there). Non-ASCII characters in `terminators` end nothing.
  func textFollowing(_ marker: String, upTo terminators: String = "\n") -> String? {
    guard let range = firstRange(of: marker) else { return nil }
    let stops = terminators.utf8.filter { $0 < 0x80 }
    let rest = utf8[range.upperBound...]
    let end = rest.firstIndex { stops.contains($0) } ?? rest.endIndex
    let value = self[range.upperBound..<end].trimmingWhitespace()
    return value.isEmpty ? nil : value
  }
}
