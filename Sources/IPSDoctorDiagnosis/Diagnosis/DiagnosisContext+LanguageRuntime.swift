import IPSDoctorReport
import IPSDoctorSupport

// Shared recognisers for the language-exception, Swift-runtime and memory-access rules
// (Rules/Language, Rules/Swift, Rules/Memory).

extension DiagnosisContext {
  /// The Mach exception as Apple writes it: `EXC_BAD_ACCESS (SIGSEGV)`.
  var exceptionDisplay: String {
    switch (exceptionType, signal) {
    case (let type?, let signal?): "\(type) (\(signal))"
    case (let type?, nil): type
    case (nil, let signal?): signal
    case (nil, nil): "the exception"
    }
  }

  /// `exception.type` (or the signal) as evidence.
  var exceptionEvidence: Evidence? {
    if let type = exceptionType {
      return Evidence("exception.type", signal.map { "\(type) (\($0))" } ?? type)
    }
    if let signal { return Evidence("exception.signal", signal) }
    return nil
  }

  /// `isTrap`, found once by `init(facts:)`: the gating traits and several rules ask.
  static func isTrap(_ exception: ExceptionInfo?) -> Bool {
    let type = exception?.type ?? ""
    let signal = exception?.signal ?? ""
    return type.hasPrefix("EXC_BREAKPOINT") || type.hasPrefix("EXC_BAD_INSTRUCTION")
      || signal.hasPrefix("SIGTRAP") || signal.hasPrefix("SIGILL")
  }

  /// `isAbort`, found once by `init(facts:)`.
  static func isAbort(_ exception: ExceptionInfo?) -> Bool {
    (exception?.signal ?? "").hasPrefix("SIGABRT") || (exception?.type ?? "").prefilteredContains("SIGABRT")
  }

  /// The frame that crashed: frame 0 of the crashed thread.
  var crashingFrame: (index: Int, frame: Frame, evidence: Evidence)? {
    guard let backtrace = crashedBacktrace, let frame = backtrace.frames.first else { return nil }
    return (0, frame, Evidence(backtrace.framePath(0), describe(frame)))
  }

  /// Evidence for frame `index` of `backtrace`.
  func frameEvidence(_ backtrace: Backtrace, _ index: Int) -> Evidence {
    Evidence(backtrace.framePath(index), describe(backtrace.frames[index]))
  }

  /// The first app frame of `backtrace` as evidence, marked when it lacks a symbol.
  func appFrameEvidence(in backtrace: Backtrace, from start: Int = 0) -> Evidence? {
    indexedAppFrame(in: backtrace, from: start)?.evidence
  }

  /// The first app frame of `backtrace` at or after `start`, with its index.
  func indexedAppFrame(in backtrace: Backtrace, from start: Int = 0) -> (index: Int, evidence: Evidence)? {
    guard start < backtrace.frames.count, let index = firstAppFrameIndex(in: backtrace.frames, from: start)
    else { return nil }
    return (index, appFrameEvidence(in: backtrace, at: index))
  }

  /// The app frame at `index` as evidence, marked when it lacks a symbol.
  func appFrameEvidence(in backtrace: Backtrace, at index: Int) -> Evidence {
    var text = describe(backtrace.frames[index])
    // Only mangled names are in `demangledSymbols`, so `symbol(frame)` is nil exactly when the
    // frame has no symbol text of its own.
    if !backtrace.frames[index].hasSymbolText { text += " (unsymbolicated)" }
    return Evidence(backtrace.framePath(index), text)
  }

  /// "`Example + 0x1f40` (threads[3].frames[2])" for summaries.
  /// The detail is report text: a ``CodeSpan``, whose fence no backtick in it can close.
  static func quote(_ evidence: Evidence) -> String {
    "\(CodeSpan.markdown(evidence.detail)) (\(evidence.path))"
  }

  /// The crashed thread's name for summaries: "thread 3 (queue `com.example.sync`)".
  var crashedThreadDisplay: String? {
    guard let thread = crashedThread else { return nil }
    if thread.isMainThread { return "the main thread" }
    if let queue = thread.queue { return "thread \(thread.index) (queue \(CodeSpan.markdown(queue)))" }
    if let name = thread.name { return "thread \(thread.index) (\(CodeSpan.markdown(name)))" }
    return "thread \(thread.index)"
  }

  /// Whether any of the first `limit` frames of the crashed thread contains `fragment`.
  func crashedThreadTop(_ limit: Int, contains fragment: String) -> (index: Int, evidence: Evidence)? {
    guard let backtrace = crashedBacktrace,
      let index = firstFrameIndex(in: backtrace, before: limit, containing: fragment)
    else { return nil }
    return (index, frameEvidence(backtrace, index))
  }

  /// The first of `markers`, in their order, that one of the first `limit` frames of the crashed
  /// thread contains, and that frame.
  func crashedThreadTop(_ limit: Int, containsAny markers: MarkerSet) -> (index: Int, evidence: Evidence)? {
    guard let backtrace = crashedBacktrace,
      let index = firstFrameIndex(in: backtrace, before: limit, containingFirstOf: markers)
    else { return nil }
    return (index, frameEvidence(backtrace, index))
  }

  /// The frame that the first of `markers`, in their order, is found in among the first `limit`
  /// frames of `backtrace` (as ``firstFrameIndex(in:before:containing:)`` finds each).
  func firstFrameIndex(in backtrace: Backtrace, before limit: Int, containingFirstOf markers: MarkerSet) -> Int? {
    // One pass rules out the many backtraces whose top frames hold none of them.
    if let text = backtrace.symbolText, text.firstFrame(containingAny: markers, before: limit) == nil { return nil }
    for marker in markers.strings {
      if let index = firstFrameIndex(in: backtrace, before: limit, containing: marker) { return index }
    }
    return nil
  }

  /// The first frame of `backtrace` whose symbol contains any of `markers`.
  func firstFrameIndex(in backtrace: Backtrace, containingAny markers: MarkerSet) -> Int? {
    if let text = backtrace.symbolText { return text.firstFrame(containingAny: markers) }
    let strings = markers.strings
    return backtrace.frames.firstIndex { frame in strings.contains { frame.symbol?.utf8Contains($0) == true } }
  }

  /// Application Specific Information lines that say something (not "abort() called", not the
  /// simulator's and dyld's configuration lines), with their paths.
  var informativeApplicationSpecificLines: [Evidence] {
    var result: [Evidence] = []
    for info in report.applicationSpecificInfo {
      if let image = info.image, image.hasPrefix("dyld") || image == "libsystem_sim_platform.dylib" {
        continue
      }
      for (index, line) in info.lines.enumerated() {
        let trimmed = line.trimmingWhitespace()
        if trimmed.isEmpty || trimmed == "abort() called" || trimmed.hasPrefix("dyld")
          || trimmed.hasPrefix("CoreSimulator ")
        {
          continue
        }
        let key = info.image.map { "asi[\"\($0)\"][\(index)]" } ?? "asi[\(index)]"
        result.append(Evidence(key, trimmed))
      }
    }
    return result
  }
}

// MARK: - Text helpers

enum TextScan {
  /// The text between the first `open` and the next `close` after it.
  static func between(_ text: some StringProtocol, _ open: String, _ close: String) -> String? {
    guard let start = text.prefilteredFirstRange(of: open) else { return nil }
    let rest = text[start.upperBound...]
    guard let end = rest.prefilteredFirstRange(of: close) else { return nil }
    return String(rest[..<end.lowerBound])
  }

  /// The first `0x…` number in `text` at or after `marker` (or anywhere when `marker` is empty).
  static func hexNumber(in text: some StringProtocol, after marker: String = "") -> UInt64? {
    var rest = Substring(text)
    if !marker.isEmpty {
      guard let range = rest.prefilteredFirstRange(of: marker) else { return nil }
      rest = rest[range.upperBound...]
    }
    guard let range = rest.prefilteredFirstRange(of: "0x") else { return nil }
    return rest[range.upperBound...].leadingHexNumber()
  }

  /// Shortens `text` to `limit` characters with an ellipsis. A text whose bytes already fit is
  /// returned without counting its characters (a character is at least one byte): most reasons
  /// are far shorter than the limit.
  static func clip(_ text: String, _ limit: Int = 300) -> String {
    text.utf8.count <= limit || text.count <= limit ? text : String(text.prefix(limit)) + "…"
  }
}
