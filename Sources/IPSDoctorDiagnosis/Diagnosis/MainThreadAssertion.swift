import IPSDoctorReport
import IPSDoctorSupport

/// Shared recognisers for UIKit's "Call must be made on main thread" assertion and for the
/// compiler's bridge from an Objective-C completion-handler method to a Swift `async` method.
package enum MainThreadAssertion {
  package static let message = "Call must be made on main thread"

  /// Main-thread assertion texts of UIKit, WebKit and other frameworks.
  package static let messages = [
    message, "must be called on the main thread", "must be called from the main thread",
    "must be made on the main thread", "must be used from main thread only",
  ]

  /// UIKit and BaseBoard frames that assert the main thread when a completion block runs.
  static let assertingFrames = [
    "_updateSnapshotAndStateRestorationWithAction:windowScene:",
    "_updateStateRestorationArchiveForBackgroundEvent:",
    "_performBlockAfterCATransactionCommitSynchronizes:",
    "-[BSAction sendResponse:]",
    "action_sendResponse:",
  ]

  static let assertionHandler = "-[NSAssertionHandler handleFailureInMethod:"

  /// Frames of the Swift concurrency runtime that run a job on the cooperative pool.
  static let concurrencyRuntimeFrames = [
    "completeTaskWithClosure", "runJobInEstablishedExecutorContext", "swift_job_run",
    "swift::runJobInEstablishedExecutorContext",
  ]

  /// The evidence that the framework asserted the main thread: the reason text and the asserting
  /// frames, wherever the report put them.
  package struct Assertion: Sendable {
    package var reason: Evidence?
    package var assertingFrames: [Evidence]
    package var backtrace: DiagnosisContext.Backtrace?
    /// Index of the deepest asserting framework frame; app frames below it called it.
    package var deepestAssertingFrame: Int?
    /// Whether the assertion handler was known by its place alone (``handlerByPlace(in:)``), its
    /// frame named otherwise: the frames then point at the assertion without proving it.
    package var handlerIsInferred = false

    package var isPresent: Bool { reason != nil || !assertingFrames.isEmpty }

    /// The framework that asserted, from its frames ("UIKit", "BaseBoard") or its text.
    package func framework(in context: DiagnosisContext) -> String {
      if let backtrace, let deepest = deepestAssertingFrame,
        let image = backtrace.frames[deepest].imageName
      {
        return image == "UIKitCore" ? "UIKit" : image
      }
      if let text = reason?.detail,
        text.prefilteredContains("WKNavigationDelegate") || text.prefilteredContains("WKUIDelegate")
      {
        return "WebKit"
      }
      return "UIKit"
    }

    /// The assertion's text as the report wrote it, or UIKit's usual text when only frames show it.
    package var text: String {
      guard let detail = reason?.detail else { return MainThreadAssertion.message }
      // A text whose bytes fit has no more characters than bytes: counting its characters (a
      // grapheme walk) is only needed for the longer ones.
      if detail.utf8.count <= 160 { return detail }
      return detail.count > 160 ? String(detail.prefix(157)) + "…" : detail
    }
  }

  package static func find(in context: DiagnosisContext) -> Assertion {
    context.mainThreadAssertion ?? collect(in: context)
  }

  /// Finds `find(in:)`; called once per report by `DiagnosisContext.init`.
  static func collect(in context: DiagnosisContext) -> Assertion {
    var reason: Evidence?
    // Every message holds "main thread": where no reason text does, none holds a message.
    if context.reasonTextBytes?.contains("main thread") != false {
      for message in messages {
        reason = context.reasonText(containing: message)
        if reason != nil { break }
      }
    }
    var assertion = Assertion(reason: reason, assertingFrames: [], backtrace: nil)
    let found = context.firstResult(inBacktraces: { backtrace -> Assertion? in
      let namesHandler = backtrace.symbolText?.contains(assertionHandler) != false
      let placedHandler = handlerByPlace(in: backtrace)
      // Without the assertion handler, named or in its place, the backtrace adds nothing.
      if !namesHandler && placedHandler == nil { return nil }
      // Only the asserting frames some symbol contains can match a frame; with none, `deepest`
      // stays `nil` and the backtrace adds nothing.
      let markers =
        backtrace.symbolText.map { text in assertingFrames.filter { text.contains($0) != false } }
        ?? assertingFrames
      if markers.isEmpty { return nil }
      var evidence: [Evidence] = []
      var deepest: Int?
      var hasHandler = false
      for (index, isHandler) in assertionFrames(in: backtrace, markers: markers) {
        evidence.append(Evidence(backtrace.framePath(index), context.describe(backtrace.frames[index])))
        if isHandler { hasHandler = true } else { deepest = index }
      }
      let inferred = placedHandler != nil && !hasHandler
      if let placedHandler, inferred {
        let frame = backtrace.frames[placedHandler]
        evidence.insert(
          Evidence(
            backtrace.framePath(placedHandler),
            context.describe(frame) + " (Foundation's assertion handler: it threw directly for the frame above)"),
          at: 0)
        hasHandler = true
      }
      // The asserting UIKit frames without the assertion handler are an ordinary call path.
      guard hasHandler, let deepest else { return nil }
      return Assertion(
        reason: nil, assertingFrames: evidence, backtrace: backtrace, deepestAssertingFrame: deepest,
        handlerIsInferred: inferred)
    })
    if let found {
      assertion.assertingFrames = found.assertingFrames
      assertion.backtrace = found.backtrace
      assertion.deepestAssertingFrame = found.deepestAssertingFrame
      assertion.handlerIsInferred = found.handlerIsInferred
    }
    return assertion
  }

  /// The frame that is the assertion handler by its place, whatever its symbol: a Foundation frame
  /// directly under `objc_exception_throw` and directly over a frame that asserts the main thread.
  /// The simulator runtime's Foundation leaves `-[NSAssertionHandler handleFailureInMethod:…]`
  /// unnamed, and a report then names the symbol before it (`_userInfoForFileAndLine + 0`).
  static func handlerByPlace(in backtrace: DiagnosisContext.Backtrace) -> Int? {
    let frames = backtrace.frames
    guard
      let thrown = frames.prefix(8).firstIndex(where: { $0.symbol?.utf8Contains("objc_exception_throw") == true })
    else { return nil }
    let handler = thrown + 1
    let asserting = thrown + 2
    guard asserting < frames.count, frames[handler].imageName == "Foundation",
      let symbol = frames[asserting].symbol, assertingFrames.contains(where: { symbol.utf8Contains($0) })
    else { return nil }
    return handler
  }

  /// The frames of `backtrace` whose symbol holds the assertion handler, and those holding one of
  /// `markers` instead, ascending: one byte search per marker where the symbol text decides, rather
  /// than one per frame and marker.
  private static func assertionFrames(
    in backtrace: DiagnosisContext.Backtrace, markers: [String]
  ) -> [(index: Int, isHandler: Bool)] {
    if let text = backtrace.symbolText, let handler = text.frames(containing: assertionHandler) {
      // The handler's frames and the marked ones in one array, sorted by index with a handler
      // frame first among equal indexes, then each index once: a handful of frames, merged without
      // sets (hashing, a union, sorting it).
      var frames: [(index: Int, isHandler: Bool)] = handler.map { ($0, true) }
      var decided = true
      for marker in markers {
        guard let found = text.frames(containing: marker) else {
          decided = false
          break
        }
        for index in found { frames.append((index, false)) }
      }
      if decided {
        frames.sort { $0.index != $1.index ? $0.index < $1.index : $0.isHandler && !$1.isHandler }
        var unique: [(index: Int, isHandler: Bool)] = []
        unique.reserveCapacity(frames.count)
        for frame in frames where unique.last?.index != frame.index { unique.append(frame) }
        return unique
      }
    }
    var found: [(index: Int, isHandler: Bool)] = []
    for (index, frame) in backtrace.frames.enumerated() {
      guard let symbol = frame.symbol else { continue }
      if symbol.utf8Contains(assertionHandler) {
        found.append((index, true))
      } else if markers.contains(where: { symbol.utf8Contains($0) }) {
        found.append((index, false))
      }
    }
    return found
  }

  /// A frame of the compiler's `@objc` bridge closure for an `async` method.
  package struct BridgeFrame: Sendable {
    /// e.g. "PushNotificationDelegate"
    package var typeName: String
    /// e.g. "userNotificationCenter(_:didReceive:)"
    package var method: String
    package var evidence: Evidence
    package var index: Int
    package var backtrace: DiagnosisContext.Backtrace

    package var qualifiedName: String { "\(typeName).\(method)" }
  }

  /// The first `@objc closure #N in T.m(…)` frame (any symbol form) in the backtraces.
  package static func bridgeFrame(in context: DiagnosisContext) -> BridgeFrame? {
    if let known = context.assertionBridgeFrame { return known }
    return collectBridgeFrame(in: context)
  }

  /// Finds `bridgeFrame(in:)`; called once per report with an assertion by `DiagnosisContext.init`.
  static func collectBridgeFrame(in context: DiagnosisContext) -> BridgeFrame? {
    context.firstResult(inBacktraces: { backtrace -> BridgeFrame? in
      // A symbol that is not mangled has no other form, so without "@objc closure #" in any raw
      // symbol only mangled ones can name a bridge.
      let rawMayNameBridge = backtrace.symbolText?.contains("@objc closure #") ?? true
      for (index, frame) in backtrace.frames.enumerated() {
        // Likewise for each symbol that is not mangled: `parseBridge` looks for the marker in it.
        if let raw = frame.symbol, !SwiftDemangler.isMangled(raw),
          !rawMayNameBridge || !raw.utf8Contains("@objc closure #")
        {
          continue
        }
        guard let symbol = context.symbol(frame) else { continue }
        if let (typeName, method) = bridgeName(symbol) {
          return BridgeFrame(
            typeName: typeName, method: method,
            evidence: Evidence(backtrace.framePath(index), context.describe(frame)), index: index,
            backtrace: backtrace)
        }
      }
      return nil
    })
  }

  /// Type and method of a bridge closure symbol, from its simplified demangled form or its raw
  /// form, or from the mangled form's shape when it cannot be demangled. (`SymbolName` sets
  /// `simplified` to `SwiftDemangler.simplify(full)`, so the full form adds nothing to parse.)
  static func bridgeName(_ symbol: SymbolName) -> (type: String, method: String)? {
    for form in [symbol.simplified, symbol.raw].compactMap({ $0 }) {
      if let parsed = parseBridge(form) { return parsed }
    }
    if isMangledBridge(symbol.raw) {
      return ("(unknown type)", "(async method)")
    }
    return nil
  }

  /// Parses "[(N) await resume partial function for ][partial apply for ]@objc closure #N in
  /// [Module.]Type.method(labels)".
  static func parseBridge(_ text: String) -> (type: String, method: String)? {
    guard let objc = text.prefilteredFirstRange(of: "@objc closure #") else { return nil }
    let afterClosure = text[objc.upperBound...]
    guard let inRange = afterClosure.prefilteredFirstRange(of: " in ") else { return nil }
    let entity = afterClosure[inRange.upperBound...].trimmingWhitespace()
    // In ASCII text every byte is one `Character` (and none of the parentheses and dots looked for
    // is a carriage return or line feed), so the UTF-8 view finds the same indexes for far less.
    let isASCII = entity.utf8.withContiguousStorageIfAvailable(ByteSearch.isASCII) ?? false
    guard let paren = isASCII ? entity.utf8.firstIndex(of: UInt8(ascii: "(")) : entity.firstIndex(of: "(")
    else { return nil }
    let name = entity[..<paren]
    let parts = isASCII ? asciiDotParts(name) : name.split(separator: ".")
    guard parts.count >= 2 else { return nil }
    // The balanced argument list after the method name.
    let close =
      isASCII
      ? closingIndex(in: entity.utf8, from: paren, open: UInt8(ascii: "("), close: UInt8(ascii: ")"))
      : closingIndex(in: entity, from: paren, open: "(", close: ")")
    guard let close else { return nil }
    let inner = entity[entity.index(after: paren)..<close]
    let labels =
      inner.prefilteredContains(" ") || inner.prefilteredContains(",")
      ? SwiftDemangler.labels(of: inner) : String(inner)
    return (String(parts[parts.count - 2]), String(parts[parts.count - 1]) + "(" + labels + ")")
  }

  /// The index of the `close` that balances the `open` at `start`, or `nil`.
  private static func closingIndex<C: Collection>(
    in text: C, from start: C.Index, open: C.Element, close: C.Element
  ) -> C.Index? where C.Element: Equatable {
    var depth = 0
    var cursor = start
    while cursor < text.endIndex {
      if text[cursor] == open { depth += 1 }
      if text[cursor] == close {
        depth -= 1
        if depth == 0 { return cursor }
      }
      cursor = text.index(after: cursor)
    }
    return nil
  }

  /// `name.split(separator: ".")` for ASCII text, over the UTF-8 view.
  private static func asciiDotParts(_ name: Substring) -> [Substring] {
    var parts: [Substring] = []
    let utf8 = name.utf8
    var start = utf8.startIndex
    var index = start
    while index < utf8.endIndex {
      if utf8[index] == UInt8(ascii: ".") {
        if start < index { parts.append(name[start..<index]) }
        start = utf8.index(after: index)
      }
      index = utf8.index(after: index)
    }
    if start < utf8.endIndex { parts.append(name[start...]) }
    return parts
  }

  /// The mangled shape of the bridge closure: `…YaF…fU_To` optionally followed by `TA`, `TQn_`,
  /// `TYn_`, `Tu` and a `.N` merge suffix (taxonomy D.3).
  static func isMangledBridge(_ raw: String) -> Bool {
    guard SwiftDemangler.isMangled(raw), raw.prefilteredContains("Ya") else { return false }
    var text = Substring(raw)
    if let dot = text.lastIndex(of: "."), text[text.index(after: dot)...].allSatisfy(\.isNumber) {
      text = text[..<dot]
    }
    for suffix in ["Tu", "_"] where text.hasSuffix(suffix) {
      if suffix == "Tu" {
        text = text.dropLast(2)
      } else if let t = text.dropLast().lastIndex(of: "T"),
        "QY".contains(text[text.index(after: t)]),
        text[text.index(t, offsetBy: 2)..<text.index(before: text.endIndex)].allSatisfy(\.isNumber)
      {
        text = text[..<t]
      }
    }
    if text.hasSuffix("TA") { text = text.dropLast(2) }
    guard text.hasSuffix("_To"), let closure = text.dropLast(3).lastIndex(of: "f") else { return false }
    let marker = text[closure...].dropFirst()
    guard marker.first == "U" else { return false }
    return text[..<closure].prefilteredContains("YaF") || text[..<closure].prefilteredContains("YaKF")
  }

  /// Whether the Swift concurrency runtime ran the job: its frames in the backtrace or the crashed
  /// thread on a cooperative queue.
  package static func concurrencyEvidence(
    in context: DiagnosisContext, below index: Int?, of backtrace: DiagnosisContext.Backtrace?
  ) -> [Evidence] {
    var evidence: [Evidence] = []
    if let crashed = context.crashedThreadIndex, let queue = context.report.threads[crashed].queue,
      context.report.threads[crashed].isOnCooperativeQueue
    {
      evidence.append(Evidence("threads[" + String(context.report.threads[crashed].index) + "].queue", queue))
    }
    // `backtrace`, then the report's backtraces. A report's backtrace that has `backtrace`'s path
    // is `backtrace` (a path names one backtrace of the report), searched from the same frame, so
    // it is not searched again.
    let start = index ?? 0
    if let backtrace, let hit = firstRuntimeFrame(in: backtrace, from: start) {
      evidence.append(Evidence(backtrace.framePath(hit), context.describe(backtrace.frames[hit])))
      return evidence
    }
    let found = context.firstResult(inBacktraces: { candidate -> Evidence? in
      if candidate.path == backtrace?.path { return nil }
      guard let hit = firstRuntimeFrame(in: candidate, from: 0) else { return nil }
      return Evidence(candidate.framePath(hit), context.describe(candidate.frames[hit]))
    })
    if let found { evidence.append(found) }
    return evidence
  }

  /// `concurrencyRuntimeFrames` without those that contain another of them (a frame holding
  /// "swift::runJobInEstablishedExecutorContext" holds "runJobInEstablishedExecutorContext"): the
  /// byte searches that can find a frame the others do not.
  static let searchedRuntimeFrames = concurrencyRuntimeFrames.filter { marker in
    !concurrencyRuntimeFrames.contains { $0 != marker && marker.utf8Contains($0) }
  }

  /// The first frame at or after `start` whose symbol holds one of `concurrencyRuntimeFrames`:
  /// one byte search per marker where the symbol text decides, rather than one per frame and marker.
  static func firstRuntimeFrame(in backtrace: DiagnosisContext.Backtrace, from start: Int) -> Int? {
    if let text = backtrace.symbolText {
      var first: Int?
      var decided = true
      for marker in searchedRuntimeFrames {
        var hit: Int?
        switch text.firstFrame(containing: marker) {
        case .absent: continue
        case .found(let frame) where frame >= start: hit = frame
        case .found:
          // An earlier frame holds the marker: the first at or after `start` among all that do.
          guard let frames = text.frames(containing: marker) else {
            decided = false
            break
          }
          hit = frames.first { $0 >= start }
        case .undecided: decided = false
        }
        if !decided { break }
        if let hit, hit < (first ?? .max) { first = hit }
      }
      if decided { return first }
    }
    for offset in max(start, 0)..<max(start, backtrace.frames.count) {
      guard let symbol = backtrace.frames[offset].symbol else { continue }
      for marker in concurrencyRuntimeFrames where symbol.utf8Contains(marker) { return offset }
    }
    return nil
  }
}
