import IPSDoctorReport
import IPSDoctorSupport

/// An uncaught Objective-C exception, wherever the report recorded it: `exceptionReason`, the
/// "Terminating app due to uncaught exception" line of older reports, the last exception backtrace
/// or `objc_exception_throw` on the crashed thread.
struct LanguageException: Sendable {
  /// e.g. "NSInvalidArgumentException"
  var name: String?
  /// The reason text (`exceptionReason.composed_message` or the Application Specific line).
  var reason: String?
  var nameEvidence: Evidence?
  var reasonEvidence: Evidence?
  /// Whether the report recorded it as an Objective-C exception (not a C++ one).
  var isObjC: Bool
  /// Where it was thrown: the last exception backtrace, else the crashed thread when it shows the
  /// throw.
  var throwBacktrace: DiagnosisContext.Backtrace?
  /// The throw machinery frame (`objc_exception_throw`, `__exceptionPreprocess`).
  var throwFrame: Evidence?

  /// The reason, or a placeholder for summaries.
  /// A reason with a backtick is a ``CodeSpan``: in quotes, its backtick could pair with one of the
  /// rule's own code spans.
  var reasonDisplay: String {
    guard let reason else { return "(no reason recorded)" }
    let clipped = TextScan.clip(reason)
    return clipped.utf8.contains(UInt8(ascii: "`")) ? CodeSpan.markdown(clipped) : "\"\(clipped)\""
  }
  /// The name, or a placeholder for summaries.
  var nameDisplay: String { name.map(CodeSpan.markdown) ?? "an Objective-C exception" }

  /// Evidence: name, reason and the throw frame.
  var evidence: [Evidence] { evidence(reservingCapacityFor: 0) }

  /// `evidence`, with room for `extra` more that the caller appends: appended one by one, without
  /// the array of optionals `compactMap` makes, and without moving to larger storage.
  func evidence(reservingCapacityFor extra: Int) -> [Evidence] {
    var evidence: [Evidence] = []
    evidence.reserveCapacity(3 + extra)
    if let nameEvidence { evidence.append(nameEvidence) }
    if let reasonEvidence { evidence.append(reasonEvidence) }
    if let throwFrame { evidence.append(throwFrame) }
    return evidence
  }

  static let throwFrames = ["objc_exception_throw", "__exceptionPreprocess", "objc_exception_rethrow"]

  /// The report's language exception (found once per report, by `DiagnosisContext`).
  static func find(in context: DiagnosisContext) -> LanguageException? { context.languageException }

  /// Finds `find(in:)`; called once per report by `DiagnosisContext.init`.
  static func collect(in context: DiagnosisContext) -> LanguageException? {
    var result = LanguageException(isObjC: false)
    if let reason = context.report.exceptionReason, reason.name != nil || reason.composedMessage != nil {
      result.name = reason.name
      result.reason = reason.composedMessage
      if let name = reason.name { result.nameEvidence = Evidence("exceptionReason.name", name) }
      if let message = reason.composedMessage {
        result.reasonEvidence = Evidence("exceptionReason.composed_message", message)
      }
      let type = reason.type ?? ""
      result.isObjC =
        type.isEmpty || type.prefilteredContains("objc") || reason.className == "NSException"
        || reason.className == nil && (reason.name ?? "").hasPrefix("NS")
    } else if let (evidence, name, text) = terminatingLine(in: context) {
      result.name = name
      result.reason = text
      result.nameEvidence = Evidence(evidence.path, name)
      result.reasonEvidence = evidence
      result.isObjC = true
    }

    if let backtrace = context.lastExceptionBacktrace {
      // The frame of the first throw fragment found is the throw frame, for the test and the
      // evidence.
      var throwIndex: Int?
      for fragment in throwFrames {
        throwIndex = context.firstFrameIndex(in: backtrace, containing: fragment)
        if throwIndex != nil { break }
      }
      let hasThrow = throwIndex != nil
      // Whether any frame is symbolicated matters only without a throw frame.
      if hasThrow || (result.reason != nil && !hasSymbolicatedFrame(backtrace.frames)) {
        result.throwBacktrace = backtrace
        if let throwIndex { result.throwFrame = context.frameEvidence(backtrace, throwIndex) }
        if hasThrow { result.isObjC = result.isObjC || result.name == nil }
      }
    }
    if result.throwBacktrace == nil, let crashed = context.crashedBacktrace {
      for fragment in ["objc_exception_throw", "objc_exception_rethrow"] {
        if let hit = context.firstFrame(in: crashed, containing: fragment) {
          result.throwBacktrace = crashed
          result.throwFrame = hit.evidence
          if result.name == nil { result.isObjC = true }
          break
        }
      }
    }
    guard result.name != nil || result.reason != nil || result.throwBacktrace != nil else {
      return nil
    }
    // Without the reason, the reason lines UIKit and Foundation write into Application Specific
    // Information (an assertion's description) stand in for it.
    if result.reason == nil, result.throwBacktrace != nil {
      let lines = context.informativeApplicationSpecificLines
      if let line = lines.last(where: { !$0.detail.hasPrefix("*** Assertion failure in") })
        ?? lines.last
      {
        result.reason = line.detail
        result.reasonEvidence = line
      }
    }
    return result
  }

  /// Whether a frame has a symbol.
  private static func hasSymbolicatedFrame(_ frames: [Frame]) -> Bool {
    frames.contains { $0.symbol != nil }
  }

  /// "*** Terminating app due to uncaught exception 'NSRangeException', reason: '…'" (Application
  /// Specific Information of older reports, and the exception message of some text reports).
  static func terminatingLine(in context: DiagnosisContext) -> (Evidence, String, String?)? {
    guard let evidence = context.reasonText(containing: "uncaught exception '") else { return nil }
    let line = evidence.detail
    guard let name = TextScan.between(line, "uncaught exception '", "'") else { return nil }
    var reason: String?
    if let start = line.prefilteredFirstRange(of: "reason: '") {
      var text = line[start.upperBound...]
      if let end = text.lastIndex(of: "'") { text = text[..<end] }
      reason = String(text)
    }
    return (evidence, name, reason)
  }

  /// The first app frame where the exception was thrown, as evidence.
  func appFrame(in context: DiagnosisContext) -> Evidence? {
    guard let backtrace = throwBacktrace else { return nil }
    return context.appFrameEvidence(in: backtrace)
  }

  /// A sentence naming where the app threw, or telling the reader to symbolicate.
  func throwSiteSentence(in context: DiagnosisContext) -> String {
    throwSiteSentence(appFrame: throwBacktrace == nil ? nil : appFrame(in: context))
  }

  /// `throwSiteSentence(in:)`, given `appFrame(in:)`: for the rules that describe the app frame
  /// in their evidence too, so that it is found and described once.
  func throwSiteSentence(appFrame: Evidence?) -> String {
    guard let path = throwBacktrace?.path else {
      return "The report has no exception backtrace, so the throw site is unknown."
    }
    guard let frame = appFrame else {
      return "No frame of the app appears in \(path); the exception was raised inside the system "
        + "frameworks, so look at what the app last asked them to do."
    }
    let sentence = "The first app frame in \(path) is \(DiagnosisContext.quote(frame))"
    if frame.detail.hasSuffix("(unsymbolicated)") {
      return sentence + "; symbolicate it to see the line that triggered the exception."
    }
    return sentence + "."
  }
}

/// An Objective-C method reference as exception messages write it: `-[NSNull length]`,
/// `+[Example sharedThing]`.
struct ObjCMethodReference: Sendable, Equatable {
  var isClassMethod: Bool
  var className: String
  var selector: String

  var display: String { "\(isClassMethod ? "+" : "-")[\(className) \(selector)]" }

  /// Parses the first `-[Class selector]` or `+[Class selector]` in `text`.
  init?(in text: some StringProtocol) {
    var rest = Substring(text)
    while let open = rest.prefilteredFirstRange(of: "[") {
      let before = rest[..<open.lowerBound].last
      let body = rest[open.upperBound...]
      rest = body
      guard before == "-" || before == "+", let close = body.firstIndex(of: "]") else { continue }
      let inside = body[..<close]
      let parts = inside.split(separator: " ", maxSplits: 1)
      guard parts.count == 2 else { continue }
      isClassMethod = before == "+"
      className = String(parts[0])
      selector = String(parts[1])
      return
    }
    return nil
  }
}
