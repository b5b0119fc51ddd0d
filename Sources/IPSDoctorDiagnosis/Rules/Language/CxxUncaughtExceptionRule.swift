import IPSDoctorSupport

/// An uncaught C++ exception: `std::terminate` after `__cxa_throw`, with no Objective-C exception.
package struct CxxUncaughtExceptionRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "cxx-uncaught-exception",
    title: "Uncaught C++ Exception",
    summary: "A C++ exception was thrown and not caught, so std::terminate aborted the app.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    rationale: """
      A C++ `throw` with no matching `catch` (or one that escapes a `noexcept` function, a \
      destructor, or a callback from C or Objective-C code) ends in `std::terminate`, which calls \
      `abort()`. Unlike Objective-C exceptions, C++ exceptions leave no "last exception \
      backtrace": the crashed thread itself shows `__cxa_throw` (or `__cxa_rethrow`) under \
      `std::__terminate` and `demangling_terminate_handler`, and the frame under `__cxa_throw` is \
      the throw site. libc++abi writes the exception's type and `what()` into Application \
      Specific Information: "terminating due to uncaught exception of type std::out_of_range: vector".
      """,
    remedy: """
      Catch the exception at the boundary where C++ code is called from Swift, Objective-C or a \
      callback (`try { … } catch (const std::exception &e) { … }`), and fix the condition that \
      throws (the type and message tell which: `std::out_of_range` from `.at()`, \
      `std::bad_alloc`, `std::system_error` from a mutex or thread, a JSON or parsing library's \
      error). Swift cannot catch C++ exceptions: wrap the call in an Objective-C++ or C++ \
      function that catches and returns an error.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-language-exception-crashes",
      "https://en.cppreference.com/w/cpp/error/terminate",
    ],
    examples: examples)

  static let throwFrames = ["__cxa_throw", "__cxa_rethrow", "__clang_call_terminate", "std::terminate()"]
  static let terminateFrames = ["std::__terminate", "demangling_terminate_handler", "std::terminate"]
  static let objCExceptionFrames = ["objc_exception", "NSException", "_objc_exception"]

  /// The first frame found for the first of `fragments` that any frame holds.
  static func firstFrame(
    containingAny fragments: [String], in backtrace: DiagnosisContext.Backtrace, _ context: DiagnosisContext
  ) -> (index: Int, evidence: Evidence)? {
    for fragment in fragments {
      if let found = context.firstFrame(in: backtrace, containing: fragment) { return found }
    }
    return nil
  }

  /// Whether a frame of the crashed thread holds one of `terminateFrames`.
  static func hasTerminateFrame(_ context: DiagnosisContext) -> Bool {
    guard let backtrace = context.crashedBacktrace else { return false }
    return terminateFrames.contains { context.firstFrameIndex(in: backtrace, containing: $0) != nil }
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.isAbort || Self.hasTerminateFrame(context) else { return nil }
    // An Objective-C exception also passes through __cxa_throw: rule it out.
    if context.languageException?.isObjC == true { return nil }
    if context.reasonText(containing: "of type NSException") != nil { return nil }
    guard let crashed = context.crashedBacktrace else { return nil }
    for fragment in Self.objCExceptionFrames {
      if context.firstFrameIndex(in: crashed, containing: fragment) != nil { return nil }
    }

    let message =
      context.reasonText(containing: "uncaught exception of type")
      ?? context.reasonText(containing: "uncaught foreign exception")
    // Without the message both frames must be there.
    if message == nil, !Self.hasTerminateFrame(context) { return nil }
    let throwHit = Self.firstFrame(containingAny: Self.throwFrames, in: crashed, context)
    if message == nil, throwHit == nil { return nil }
    let terminateHit = Self.firstFrame(containingAny: Self.terminateFrames, in: crashed, context)
    guard message != nil || (throwHit != nil && terminateHit != nil) else { return nil }

    var summary = "An uncaught C++ exception ended the app"
    if let message, let range = message.detail.firstRange(of: "uncaught exception of type ") {
      let tail = message.detail[range.upperBound...]
      let (type, what) = Self.typeAndWhat(String(tail))
      summary += ": an exception of type \(CodeSpan.markdown(type))"
      summary += what.map { " with `what()` \"\(TextScan.clip($0))\"" } ?? ""
      summary += " reached `std::terminate`."
    } else {
      summary += ": `std::terminate` was called after a C++ throw with no matching `catch`."
    }
    var evidence = [message, throwHit?.evidence, terminateHit?.evidence].compactMap { $0 }
    if let throwHit {
      var start = throwHit.index + 1
      while start < crashed.frames.count, let raw = crashed.frames[start].symbol,
        raw.hasPrefix("std::") || raw.hasPrefix("void std::") || raw.hasPrefix("__cxa")
      {
        start += 1
      }
      if let site = context.appFrameEvidence(in: crashed, from: start) {
        summary += " It was thrown from \(DiagnosisContext.quote(site))"
        summary += site.detail.hasSuffix("(unsymbolicated)") ? "; symbolicate it to see the throw." : "."
        evidence.append(site)
      } else if throwHit.index + 1 < crashed.frames.count {
        let caller = context.frameEvidence(crashed, throwHit.index + 1)
        summary +=
          " It was thrown by \(DiagnosisContext.quote(caller)); find the app's call into that library further down the thread."
        evidence.append(caller)
      }
    }
    if let thread = context.crashedThreadDisplay { summary += " The thread was \(thread)." }
    let confidence: Confidence = message != nil && throwHit != nil ? .definite : .likely
    return finding(confidence: confidence, summary: summary, evidence: evidence)
  }

  /// Splits "std::out_of_range: vector" at the first ": " that is not part of "::".
  static func typeAndWhat(_ text: String) -> (String, String?) {
    guard let range = text.firstRange(of: ": ") else { return (text.trimmingWhitespace(), nil) }
    let type = text[..<range.lowerBound].trimmingWhitespace()
    let what = text[range.upperBound...].trimmingWhitespace()
    return (type, what.isEmpty ? nil : what)
  }

  private static let examples: [RuleExample] = {
    let cxxFrames: [ExampleReport.Frame] = [
      .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"), .frame(.libcxxabi, "__abort_message"),
      .frame(.libcxxabi, "demangling_terminate_handler()"), .frame(.libobjc, "_objc_terminate()"),
      .frame(.libcxxabi, "std::__terminate(void (*)())"),
      .frame(.libcxxabi, "__cxxabiv1::failed_throw(__cxxabiv1::__cxa_exception*)"),
      .frame(.libcxxabi, "__cxa_throw"),
      .frame(.app, "std::__1::__throw_out_of_range[abi:ne180100](char const*)", inline: true),
      .frame(.app, "RouteTable::lookup(int) const"), .frame(.app, "RouteBridge.route(for:)"),
    ]
    return [
      .triggers(
        "std::out_of_range with the libc++abi message",
        ExampleReport.uncaughtException(
          name: nil, reason: nil, hasBacktrace: false,
          asi: ["libc++abi.dylib": ["terminating due to uncaught exception of type std::out_of_range: vector"]],
          crashedFrames: cxxFrames),
        .definite,
        summaryContains: ["std::out_of_range", "vector", "RouteTable::lookup(int) const", "threads[0].frames[9]"]),
      .triggers(
        "frames only",
        ExampleReport.uncaughtException(name: nil, reason: nil, hasBacktrace: false, crashedFrames: cxxFrames), .likely,
        summaryContains: ["std::terminate"]),
      .ignores(
        "Objective-C exception (the same terminate frames plus objc_exception_throw)",
        ExampleReport.uncaughtException(
          name: "NSGenericException", reason: "Collection was mutated while being enumerated.")),
      .ignores(
        "Objective-C exception with the reason elided",
        ExampleReport.uncaughtException(name: nil, reason: nil)),
    ]
  }()
}
