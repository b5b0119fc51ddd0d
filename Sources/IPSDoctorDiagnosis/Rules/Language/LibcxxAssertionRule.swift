import IPSDoctorSupport

/// A libc++ hardening assertion failed (`vector[] index out of bounds`, …) and trapped or aborted.
package struct LibcxxAssertionRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "libcxx-assertion-failed",
    title: "C++ Standard Library Assertion Failed",
    summary:
      "A libc++ hardening check failed (an index out of bounds, a null or invalid iterator, …) and stopped the app.",
    category: .languageException,
    severity: .error,
    tier: .specific,
    rationale: """
      With libc++ hardening (the default in debug builds and in Xcode 16's hardened modes), the \
      C++ standard library checks preconditions such as `vector::operator[]`'s index, \
      `optional::value()` and iterator validity. A failed check prints \
      "<header>:<line>: assertion <condition> failed: <message>" and traps (`EXC_BREAKPOINT`) or \
      aborts. The message names the check; the first app frame below the library's inlined \
      code is the caller that broke it.
      """,
    remedy: """
      Fix the caller named in the summary: check the index against `size()` (or use `.at()` \
      where an exception is wanted), and make sure iterators and references are not used after \
      the container changed. The Address Sanitizer and the hardening mode's debug level catch \
      these at the first bad access.
      """,
    references: ["https://libcxx.llvm.org/Hardening.html"],
    examples: [
      .triggers(
        "vector index out of bounds",
        ExampleReport.trap(
          frames: [
            .frame(.app),
            .frame(.app, "Router::path(unsigned long)"),
          ],
          asi: [
            "Example": [
              "/Applications/Xcode.app/Contents/Developer/Platforms/iPhoneSimulator.platform/Developer/SDKs/iPhoneSimulator18.2.sdk/usr/include/c++/v1/vector:1393: assertion __n < size() failed: vector[] index out of bounds"
            ]
          ]),
        .definite, summaryContains: ["vector[] index out of bounds", "Router::path(unsigned long)"]),
      .triggers(
        "verbose trap: the message is the inlined top frame",
        ExampleReport.trap(frames: [
          .frame(
            .app, "/usr/include/c++/v1/vector:1393: assertion __n < size() failed: vector[] index out of bounds",
            inline: true),
          .frame(.app, "std::__1::vector<int>::operator[](unsigned long)"),
          .frame(.app, "Router::path(unsigned long)"),
        ]),
        .definite,
        summaryContains: ["vector[] index out of bounds", "threads[0].frames[0]", "Router::path(unsigned long)"]),
      .ignores(
        "a C assert (abort-called)",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          asi: [
            "libsystem_c.dylib": [
              "abort() called", "Assertion failed: (buffer != NULL), function decode_frame, file decoder.c, line 212.",
            ]
          ], threads: [.main(ExampleReport.abortFrames())])),
    ])

  /// libc++'s format: "<file>:<line>: assertion <condition> failed: <message>", the file in a
  /// "c++/v1" (or "__cxx") header directory.
  static func isAssertion(_ text: String) -> Bool {
    text.contains(" failed: ") && text.contains(": assertion ")
      && (text.contains("c++/v1/") || text.contains("/__cxx"))
  }

  /// The assertion's text: in the reason text (an abort), or as the symbol of an inlined top
  /// frame of the crashed thread (`__builtin_verbose_trap` records the message there).
  static func statement(in context: DiagnosisContext) -> Evidence? {
    if let line = context.reasonText(containing: " failed: "), isAssertion(line.detail) { return line }
    guard context.isTrap || context.isAbort, let backtrace = context.crashedBacktrace else { return nil }
    for index in backtrace.frames.prefix(3).indices {
      if let symbol = backtrace.frames[index].symbol, isAssertion(symbol) {
        return Evidence(backtrace.framePath(index), symbol.trimmingWhitespace())
      }
    }
    return nil
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard let line = Self.statement(in: context) else { return nil }
    let message =
      line.detail.firstRange(of: " failed: ").map { String(line.detail[$0.upperBound...]) } ?? line.detail
    var summary =
      "A libc++ check failed: \"\(TextScan.clip(message, 160))\" (\(line.path)). The C++ standard library stopped the app with \(context.exceptionDisplay)."
    var evidence = [line]
    // The library's check is inlined into the app's code: the first app frame with a name is
    // the caller, the unnamed ones above it the inlined check.
    if let backtrace = context.crashedBacktrace,
      let index = backtrace.frames.prefix(8).indices.first(where: { index in
        let frame = backtrace.frames[index]
        guard context.isAppFrame(frame), frame.hasSymbolText, let symbol = frame.symbol else { return false }
        // The message and the library's own inlined templates are not the caller.
        return !Self.isAssertion(symbol) && !symbol.hasPrefix("std::")
      })
    {
      let app = context.frameEvidence(backtrace, index)
      summary +=
        " The first app frame with a name is \(DiagnosisContext.quote(app)); the caller there broke the precondition."
      evidence.append(app)
    }
    return finding(confidence: .definite, summary: summary, evidence: evidence)
  }
}
