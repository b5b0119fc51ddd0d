import IPSDoctorSupport

/// The generic fallback for `SIGABRT`: `abort()` was called (directly, by a C `assert`, or by a
/// library) without a language exception, Swift runtime message or dyld cause.
package struct AbortCalledRule: DiagnosisRule {
  package init() {}

  static let abortFrames: Set = [
    "abort", "__assert_rtn", "__abort_message", "abort_with_payload", "abort_with_reason",
    "__pthread_kill", "pthread_kill", "raise", "__abort_with_payload", "abort_message",
  ]
  /// Whether `symbol` is one of `abortFrames`, alone or before a space (`abort + 12`).
  static func isAbortFrame(_ symbol: String) -> Bool {
    abortFrames.contains(String(symbol.text(before: " ")))
  }
  /// Reason texts of failures that other rules explain (dispatch misuse, dyld, PushKit).
  static let excluded = ["BUG IN CLIENT OF", "Library not loaded", "Symbol not found", "never posted an incoming call"]
  static let runtimeMessages = [
    "Fatal error", "Precondition failed", "Could not cast value", "Simultaneous accesses",
    "terminating due to uncaught exception", "terminating with uncaught exception", "Assertion failed: ",
  ]
  /// Frames of a throw or a runtime's fatal error (`swift::fatalError` holds `fatalError`).
  static let throwFrames = MarkerSet([
    "objc_exception_throw", "__cxa_throw", "std::terminate", "std::__terminate", "_objc_terminate",
    "__cxa_rethrow", "swift_unexpectedError", "_assertionFailure", "fatalError",
  ])

  package static let description = RuleDescription(
    id: "abort-called",
    title: "Abort Called",
    summary:
      "The process called abort(), directly or through a C assertion or a library, without a more specific cause.",
    category: .systemTermination,
    severity: .error,
    tier: .fallback,
    outranks: [SwiftTrapUnknownRule.self],
    rationale: """
      `EXC_CRASH (SIGABRT)` with "abort() called" in the Application Specific Information means \
      code in the process called `abort()`. Most aborts have a more specific explanation — an \
      uncaught Objective-C or C++ exception, a Swift runtime error, a dyld or privacy \
      termination, a libdispatch client bug — and those rules rank first. When none applies, \
      the caller of `abort()` is the lead: a failed C `assert()` (`__assert_rtn`, with the \
      condition, function, file and line in the report), a library that aborts on a fatal \
      condition (for example "multi-threaded process forked"), or the app's own call.
      """,
    remedy: """
      Read the frames that called `abort()` (listed in the summary) and any Application Specific \
      Information lines: a failed `assert` names the condition and the source line; a library \
      abort usually prints why. Fix the condition the caller checks; symbolicate the app's \
      frames if they are unsymbolicated.
      """,
    references: ["https://developer.apple.com/documentation/xcode/understanding-the-exception-types-in-a-crash-report"],
    examples: [
      .triggers(
        "C assert",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: [
            "libsystem_c.dylib": [
              "abort() called", "Assertion failed: (buffer != NULL), function decode_frame, file decoder.c, line 212.",
            ]
          ],
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.libsystemC, "__assert_rtn"),
              .frame(.app, "decode_frame"), .frame(.app, "Decoder.next()"), .frame(.app, "main"),
            ])
          ]),
        .likely,
        summaryContains: ["Assertion failed: (buffer != NULL)", "`Example decode_frame`", "threads[0].frames[3]"]),
      .triggers(
        "library abort with a message",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: [
            "libsystem_c.dylib": ["crashed on child side of fork pre-exec", "abort() called"],
            "libsystem_kernel.dylib": ["*** multi-threaded process forked ***"],
          ], threads: [.main(ExampleReport.abortFrames(caller: .frame(.app, "Launcher.spawn()")))]),
        .likely, summaryContains: ["multi-threaded process forked", "Launcher.spawn()"]),
      .triggers(
        "Rust panic that cannot unwind: the panic and its caller, not the machinery",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [
            .main([
              .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
              .frame(.app, "std::sys::pal::unix::abort_internal::hb2eff0c11ee55adc"),
              .frame(.app, "std::process::abort::h4aa5c6a95b45c783"),
              .frame(.app, "std::panicking::panic_with_hook::h9d9f4b295fd289e2"),
              .frame(.app, "_RNvCsbgTEAFGLn1v_7___rustc17rust_begin_unwind"),
              .frame(.app, "core::panicking::panic_nounwind_fmt::h6d33e9447de094e9"),
              .frame(.app, "core::panicking::panic_null_pointer_dereference::hc6531458ea594ca3"),
              .frame(.app, "tao::platform_impl::platform::app::send_event::hee0c284e9de7c1e2"),
              .frame(.appKit, "-[NSApplication run]"),
            ])
          ]),
        .possible,
        summaryContains: [
          "A Rust panic aborted the process", "core::panicking::panic_null_pointer_dereference",
          "called from `Example tao::platform_impl::platform::app::send_event",
        ]),
      .ignores(
        "uncaught Objective-C exception",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: ["libsystem_c.dylib": ["abort() called"]],
          languageException: .objc(
            "NSInvalidArgumentException", reason: "*** -[__NSArrayM insertObject:atIndex:]: object cannot be nil"),
          threads: [.main(ExampleReport.abortFrames())])),
      .triggers(
        "Swift fatal error: recorded as the mechanism only",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: [
            "libswiftCore.dylib": [
              "Example/Store.swift:42: Fatal error: Unexpectedly found nil while unwrapping an Optional value"
            ], "libsystem_c.dylib": ["abort() called"],
          ],
          threads: [
            .main(
              ExampleReport.abortFrames(
                caller: .frame(.libswiftCore, "swift::fatalErrorv(unsigned int, char const*, char*)")))
          ]),
        .possible, summaryContains: ["only the mechanism", "Unexpectedly found nil"]),
      .ignores(
        "dyld launch failure",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          termination: ExampleReport.Termination(
            namespace: "DYLD", code: 1, indicator: "Library missing",
            reasons: ["Library not loaded: @rpath/Analytics.framework/Analytics"]),
          threads: [
            .main([.frame(.dyld, "__abort_with_payload"), .frame(.dyld, "abort_with_payload_wrapper_internal")])
          ])),
    ])

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    let report = context.report
    let signal = report.exception?.signal ?? ""
    let isAbort =
      signal.hasPrefix("SIGABRT") || report.exception?.type?.contains("SIGABRT") == true
      || (report.termination?.namespace == "SIGNAL" && report.termination?.code == 6)
    guard isAbort else { return nil }
    if let namespace = report.termination?.namespace, namespace != "SIGNAL" { return nil }
    if report.exceptionReason != nil { return nil }
    if context.lastExceptionBacktrace != nil { return nil }
    if report.exception?.subtype?.contains("LAUNCH_HANG") == true { return nil }
    let lines = context.reasonTexts
    if lines.contains(where: { line in Self.excluded.contains(where: { line.contains($0) }) }) { return nil }
    let backtrace = context.crashedBacktrace
    if let backtrace, context.firstFrameIndex(in: backtrace, containing: "objc_exception_throw") != nil { return nil }
    let cAssert = lines.first(where: {
      $0.hasPrefix("Assertion failed: (") || $0.contains(", function ") && $0.contains(", line ")
    })
    // A C++ terminate or a Swift runtime error also ends in abort(): the specific rule explains
    // it, and this finding only records the mechanism, at the lowest confidence.
    var specificCause = lines.first(where: { line in
      line != cAssert && Self.runtimeMessages.contains(where: { line.contains($0) })
    })
    if specificCause == nil, let backtrace,
      let index = context.firstFrameIndex(in: backtrace, containingAny: Self.throwFrames)
    {
      specificCause = backtrace.frames[index].symbol
    }

    var evidence: [Evidence] = []
    let abortText = context.reasonText(containing: "abort() called")
    if let abortText { evidence.append(abortText) }
    var summary = "\(context.processDisplayName) called `abort()`"
    if let cAssert, let item = context.reasonText(containing: cAssert) {
      evidence.append(item)
      summary += " after a failed C assertion: \"\(cAssert)\""
    }
    summary += "."
    let others = lines.filter { $0 != "abort() called" && $0 != cAssert && !$0.isEmpty && !$0.hasPrefix("dyld") }
    if !others.isEmpty {
      let quoted = others.prefix(3).map { "\"\($0)\"" }
      summary += " Application Specific Information: \(quoted.joined(separator: ", "))."
    }
    var confidence: Confidence = abortText != nil ? .likely : .possible
    if let backtrace {
      let frames = backtrace.frames
      if let lastAbort = frames.lastIndex(where: { $0.symbol.map(Self.isAbortFrame) == true }) {
        if abortText == nil { confidence = .possible }
        evidence.append(Evidence(backtrace.framePath(lastAbort), context.describe(frames[lastAbort])))
        let callers = frames.indices.dropFirst(lastAbort + 1).prefix(2).map {
          Evidence(backtrace.framePath($0), context.describe(frames[$0]))
        }
        if let panic = RustPanic.find(in: frames, from: lastAbort + 1, name: context.displayName) {
          let function = Evidence(
            backtrace.framePath(panic.panicFunction), context.describe(frames[panic.panicFunction]))
          summary += " A Rust panic aborted the process: \(DiagnosisContext.quote(function))"
          evidence.append(function)
          if let location = panic.location {
            let caller = Evidence(backtrace.framePath(location), context.describe(frames[location]))
            summary += " panicked, called from \(DiagnosisContext.quote(caller))"
            evidence.append(caller)
          }
          summary +=
            ". Rust's panic machinery (`std::panicking`, `rust_begin_unwind`) then called `abort()`: a panic "
            + "that cannot unwind (`panic_nounwind`, a panic in a function that must not unwind, or a "
            + "build with `panic = \"abort\"`) ends the process."
        } else if !callers.isEmpty {
          summary += " It was called from \(DiagnosisContext.frameList(callers))."
          evidence += callers
        }
      } else if abortText == nil {
        return nil
      }
      if let (index, frame) = context.firstAppFrame(in: backtrace) {
        let path = backtrace.framePath(index)
        if !evidence.contains(where: { $0.path == path }) {
          let description = context.describe(frame)
          summary += " The first frame of the app's own code is \(CodeSpan.markdown(description)) (\(path))."
          evidence.append(Evidence(path, description))
        }
      }
    } else if abortText == nil {
      return nil
    }
    if let specificCause {
      summary +=
        " The abort is only the mechanism: the runtime reported \"\(specificCause)\" first, and the "
        + "diagnosis for that message explains the crash."
      return finding(confidence: .possible, summary: summary, evidence: evidence)
    }
    summary +=
      " No language exception, Swift runtime message or launch failure explains the abort, so the caller is the lead."
    return finding(confidence: confidence, summary: summary, evidence: evidence)
  }
}
