import IPSDoctorReport
import IPSDoctorSupport

// Helpers for the Swift concurrency, main-thread and framework rules.

extension DiagnosisContext {
  /// An app frame found in a backtrace, with its path and the name to show.
  package struct AppFrame: Sendable {
    package var index: Int
    package var frame: Frame
    /// The symbol's display form, or `nil` when the frame is unsymbolicated.
    package var name: String?
    package var evidence: Evidence

    /// The name in backticks, or "an unsymbolicated frame of <image> (+ 0x…)".
    package var quotedName: String {
      if let name { return "\(CodeSpan.markdown(name))" }
      return "an unsymbolicated frame (\(CodeSpan.markdown(evidence.detail)))"
    }
  }

  /// The first app frame at or after `start` in `backtrace`, skipping compiler thunks (`thunk for
  /// …`, `reabstraction thunk …`, `merged …`) when a named frame follows them.
  package func appFrame(in backtrace: Backtrace, from start: Int = 0) -> AppFrame? {
    var fallback: AppFrame?
    var index = start
    while index < backtrace.frames.count {
      let frame = backtrace.frames[index]
      if isAppFrame(frame) {
        let name = displayName(frame)
        let found = AppFrame(
          index: index, frame: frame, name: name,
          evidence: Evidence(backtrace.framePath(index), describe(frame)))
        if let name, Self.isThunk(name) || name.hasPrefix("partial apply for thunk") {
          if fallback == nil { fallback = found }
        } else {
          return found
        }
      }
      index += 1
    }
    return fallback
  }

  /// The first app frame of the first backtrace that has one (exception backtrace first) and, when
  /// the frame just above it is a symbolicated framework frame, that frame: the framework call the
  /// app made (e.g. `-[UIView(Hierarchy) addSubview:]`).
  package func firstAppFrameAndCall() -> (caller: AppFrame, call: Evidence?)? {
    for backtrace in backtraces {
      guard let found = appFrame(in: backtrace) else { continue }
      var call: Evidence?
      if found.index > 0, !isAppFrame(backtrace.frames[found.index - 1]),
        let name = displayName(backtrace.frames[found.index - 1])
      {
        call = Evidence(backtrace.framePath(found.index - 1), name)
      }
      return (found, call)
    }
    return nil
  }

  /// The first frame at or after `start` that is not the app's and not a compiler thunk: the
  /// framework code that called the app (e.g. a `…_block_invoke` of the framework that ran the
  /// app's closure).
  package func frameworkCaller(in backtrace: Backtrace, from start: Int) -> (index: Int, name: String)? {
    var index = start
    while index < backtrace.frames.count {
      let frame = backtrace.frames[index]
      if !isAppFrame(frame), let name = displayName(frame) {
        return (index, name)
      }
      index += 1
    }
    return nil
  }

  /// The first reason text containing any of `fragments`.
  func reasonText(containingAny markers: MarkerSet) -> Evidence? {
    // One pass rules out the many reports that hold none of them.
    if let bytes = reasonTextBytes, bytes.firstFrame(containingAny: markers) == nil { return nil }
    return reasonText(containingAny: markers.strings)
  }

  package func reasonText(containingAny fragments: [String]) -> Evidence? {
    for fragment in fragments {
      if let evidence = reasonText(containing: fragment) { return evidence }
    }
    return nil
  }

  /// The first frame in any backtrace (exception backtrace first) whose symbol contains `fragment`.
  package func firstFrame(containing fragment: String) -> (backtrace: Backtrace, index: Int, evidence: Evidence)? {
    for backtrace in backtraces {
      if let found = firstFrame(in: backtrace, containing: fragment) {
        return (backtrace, found.index, found.evidence)
      }
    }
    return nil
  }

  /// "thread 3 (queue `com.apple.root.default-qos`)", or "thread 3" without a queue.
  package func threadDescription(_ thread: CrashThread) -> String {
    var text = "thread \(thread.index)"
    if let queue = thread.queue {
      text += " (queue \(CodeSpan.markdown(queue)))"
    } else if let name = thread.name {
      text += " (\(CodeSpan.markdown(name)))"
    }
    return text
  }

  /// Evidence for the crashed thread's queue, when it has one.
  package var crashedQueueEvidence: Evidence? {
    guard let thread = crashedThread, let queue = thread.queue else { return nil }
    return Evidence("threads[\(thread.index)].queue", queue)
  }
}

/// Pieces of symbol names that the concurrency rules show and specialise remedies with.
enum SymbolText {
  /// The text between `start` and the next `end` (or the end of the text when `end` is nil).
  static func between(_ text: String, _ start: String, _ end: String?) -> String? {
    guard let open = text.prefilteredFirstRange(of: start) else { return nil }
    let rest = text[open.upperBound...]
    guard let end else { return String(rest) }
    guard let close = rest.prefilteredFirstRange(of: end) else { return nil }
    return String(rest[..<close.lowerBound])
  }

  /// The function a closure or block belongs to: "closure #1 in NotificationService.handle(
  /// response:completion:)" → "NotificationService.handle(response:completion:)";
  /// "__58-[NotificationHandler handleResponse:completion:]_block_invoke_2" →
  /// "-[NotificationHandler handleResponse:completion:]"; a plain function name is returned as is.
  static func enclosingFunction(_ name: String) -> String {
    if let block = objcBlockMethod(name) { return block }
    var text = Substring(name)
    while let range = text.prefilteredFirstRange(of: " in ") {
      let head = text[..<range.lowerBound]
      // Only strip " in " that ends a closure or thunk prefix, not one inside an argument list.
      guard !head.prefilteredContains("(") || head.hasPrefix("(") else { break }
      text = text[range.upperBound...]
    }
    for prefix in ["partial apply for ", "@objc "] where text.hasPrefix(prefix) {
      text = text.dropFirst(prefix.count)
    }
    return String(text)
  }

  /// "__58-[NotificationHandler handleResponse:completion:]_block_invoke" →
  /// "-[NotificationHandler handleResponse:completion:]".
  static func objcBlockMethod(_ name: String) -> String? {
    guard name.hasPrefix("__"), name.prefilteredContains("_block_invoke") else { return nil }
    guard let open = name.firstIndex(where: { $0 == "[" }), let close = name.firstIndex(of: "]"),
      open < close
    else { return nil }
    let sign = name.index(before: open)
    guard name[sign] == "-" || name[sign] == "+" else { return nil }
    return String(name[sign...close])
  }

  /// What kind of code `name` is: "closure", "block" or "function".
  static func kind(_ name: String) -> String {
    if objcBlockMethod(name) != nil || name.prefilteredContains("_block_invoke") { return "block" }
    if name.prefilteredContains("closure #") { return "closure" }
    return "function"
  }

  /// The type of a Swift member name: "NotificationService.handle(response:)" →
  /// "NotificationService"; `nil` for a free function.
  static func typeName(ofFunction function: String) -> String? {
    if let method = objcMethodParts(function) { return method.className }
    let name = function.prefix(while: { $0 != "(" })
    let parts = name.split(separator: ".")
    guard parts.count >= 2 else { return nil }
    return String(parts[parts.count - 2])
  }

  /// The base name of a Swift function: "T.handle(response:completion:)" → "handle".
  static func baseName(ofFunction function: String) -> String {
    if let method = objcMethodParts(function) { return method.selector }
    let name = function.prefix(while: { $0 != "(" })
    return String(name.split(separator: ".").last ?? Substring(name))
  }

  /// "-[WebReader.ArticleWebViewController webView:decidePolicyForNavigationAction:decisionHandler:]"
  /// → ("WebReader.ArticleWebViewController", "webView:decidePolicyForNavigationAction:decisionHandler:").
  static func objcMethodParts(_ text: String) -> (className: String, selector: String)? {
    guard let open = text.firstIndex(of: "["), let close = text.lastIndex(of: "]"), open < close
    else { return nil }
    let inner = text[text.index(after: open)..<close]
    guard let space = inner.firstIndex(of: " ") else { return nil }
    let className = inner[..<space]
    let selector = inner[inner.index(after: space)...]
    guard !className.isEmpty, !selector.isEmpty else { return nil }
    return (String(className), String(selector))
  }

  /// The unqualified class name: "WebReader.ArticleWebViewController" → "ArticleWebViewController".
  static func unqualified(_ className: String) -> String {
    String(className.split(separator: ".").last ?? Substring(className))
  }
}
