import IPSDoctorReport
import IPSDoctorSupport

/// A trap instruction in the app's (or the Swift runtime's) code with no message: a Swift runtime
/// check whose message the build dropped. The generic fallback under the specific Swift rules.
package struct SwiftTrapUnknownRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "swift-trap-unknown",
    title: "Swift Runtime Trap Without A Message",
    summary: "The app stopped on a trap in its own code with no message; symbolicate to see which check failed.",
    category: .swiftRuntime,
    severity: .error,
    tier: .fallback,
    rationale: """
      Swift turns failed runtime checks into a trap instruction: `EXC_BREAKPOINT (SIGTRAP)` on \
      ARM, `EXC_BAD_INSTRUCTION (SIGILL)` on Intel and in the simulator. Force unwraps of `nil`, \
      out-of-range indexes, arithmetic overflow, failed `as!` casts, `precondition` and \
      `fatalError` all look the same here. Debug builds write a message into Application \
      Specific Information; optimised (Release, App Store, TestFlight) builds do not, so the report \
      only shows where the trap happened. Symbolicating with the build's dSYM names the line, and \
      the inlined frame then reads "Swift runtime failure: <reason>". Traps in libdispatch, the \
      Objective-C runtime or Core Data have their own signatures and are not reported here.
      """,
    remedy: """
      Symbolicate the report with the dSYM of this build: `ips-doctor crash.ips --dsym \
      MyApp.app.dSYM` (or, on a Mac, Xcode Organizer for App Store and TestFlight builds, or \
      `atos -arch arm64 -o MyApp.app.dSYM/Contents/Resources/DWARF/MyApp -l <load address> \
      <address>`). The top app frame then points at the line, usually with a \
      "Swift runtime failure: …" frame that names the check. Look there for `!`, `as!`, \
      subscripts, integer arithmetic, `try!`, `precondition` and `fatalError`.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/addressing-crashes-from-swift-runtime-errors",
      "https://developer.apple.com/documentation/xcode/sigtrap_sigill",
      "https://developer.apple.com/documentation/xcode/adding-identifiable-symbol-names-to-a-crash-report",
    ],
    examples: examples)

  /// Signatures of traps that other rules own.
  static let otherTrapFrames = [
    "_dispatch_assert_queue_fail", "dispatch_assert_queue", "__Multithreading_Violation",
    "_os_unfair_lock", "__BUG_IN_CLIENT", "CheckedContinuation", "swift_task_isCurrentExecutor",
    "_swift_task_checkIsolated", "swift_task_checkIsolated", "objc_exception", "_crashOnException",
  ]

  /// The standard library's functions that end `fatalError`, `precondition` and its own checks.
  static let assertionFunctions = ["_assertionFailure", "_fatalErrorMessage", "fatalError", "_preconditionFailure"]

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.isTrap, let backtrace = context.crashedBacktrace, let top = backtrace.frames.first
    else { return nil }
    // A message anywhere means a more specific rule (or none) applies.
    if !SwiftFailure.all(in: context).isEmpty { return nil }
    if !context.informativeApplicationSpecificLines.isEmpty { return nil }
    if context.exceptionMessage != nil || context.languageException != nil { return nil }
    // The dispatch assertion's frame: swift-isolation-check-failed.
    if context.firstFrameIndex(in: backtrace, containing: SwiftIsolationTrap.dispatchAssert) != nil { return nil }
    for frame in backtrace.frames.prefix(6) {
      if let symbol = frame.symbol, Self.otherTrapFrames.contains(where: { symbol.contains($0) }) { return nil }
    }
    // An assertion message in a frame symbol (libc++ hardening: "vector:1393: assertion … failed").
    for frame in backtrace.frames.prefix(3) {
      if let symbol = frame.symbol, symbol.contains("assertion ") || symbol.contains(" failed: ") {
        return nil
      }
    }

    var summary: String
    let topEvidence: Evidence
    if let name = context.symbol(top)?.display, (top.imageName ?? "").hasPrefix("libswift") {
      // The standard library's assertion machinery, called by the app.
      // Also "closure #1 in closure #1 in _assertionFailure(…)", the inlined message printer.
      guard Self.assertionFunctions.contains(where: { name.contains($0) }) else { return nil }
      topEvidence = context.frameEvidence(backtrace, 0)
      summary = """
        The Swift standard library stopped the app in `\(name)` (\(topEvidence.path)) with \
        \(context.exceptionDisplay), but the report records no message. `\(name)` is where `fatalError`, \
        `precondition`, `assert` and the library's own checks (force unwrap of nil, with `!` or through an \
        implicitly unwrapped optional, index out of range, failed cast) end.
        """
    } else if context.symbol(top) == nil, (top.imageName ?? "").hasPrefix("libswiftCore"),
      backtrace.frames.count > 1, context.isAppFrame(backtrace.frames[1])
    {
      // Unsymbolicated, the standard library's frame called straight from the app is still one
      // of its checks: the library traps only in its assertion machinery.
      topEvidence = context.frameEvidence(backtrace, 0)
      summary = """
        The app stopped on a trap (\(context.exceptionDisplay)) inside the Swift standard library at \
        \(DiagnosisContext.quote(topEvidence)), called from the app, and the report records no message: a \
        failed runtime check — a force unwrap of nil (`!` or an implicitly unwrapped optional), an index out of \
        range, an arithmetic overflow, a failed `as!`, `try!`, a `precondition` or `fatalError`.
        """
    } else if context.isAppFrame(top) {
      if let name = context.symbol(top)?.display {
        // Objective-C, C and C++ code trap too (__builtin_trap); only Swift-looking names here.
        guard Self.looksLikeSwift(name) else { return nil }
      } else if Self.namedFramesAreNotSwift(of: top.imageName, in: backtrace.frames, context: context) {
        // Unnamed, the frame is in an image whose named frames are C++, Objective-C or C
        // (`hermes::vm::…`): a trap there is theirs, not a Swift runtime check.
        return nil
      }
      topEvidence = context.frameEvidence(backtrace, 0)
      summary = """
        The app stopped on a trap instruction (\(context.exceptionDisplay)) in its own code at \
        \(DiagnosisContext.quote(topEvidence)), and the report records no message. In Swift this is a failed \
        runtime check — a force unwrap of nil (`!` or an implicitly unwrapped optional), an index out of range, \
        an arithmetic overflow, a failed `as!`, `try!`, a `precondition` or `fatalError` — whose message an \
        optimised build drops.
        """
    } else {
      return nil
    }
    var evidence = [context.exceptionEvidence].compactMap { $0 }
    evidence.append(topEvidence)
    // The top frame's evidence has the path of index 0: an app frame there is not repeated (and
    // not described again).
    if let index = context.firstAppFrameIndex(in: backtrace.frames, from: 0), index != 0 {
      let app = context.appFrameEvidence(in: backtrace, at: index)
      summary += " The app frame that called it is \(DiagnosisContext.quote(app))."
      evidence.append(app)
    }
    if context.hasUnsymbolicatedAppFrames {
      summary +=
        " Symbolicate the report with this build's dSYM (`ips-doctor … --dsym MyApp.app.dSYM`): the frame then names the line and usually the check (\"Swift runtime failure: …\")."
    } else {
      summary +=
        " Look at that line for `!`, `as!`, subscripts, integer arithmetic, `try!`, `precondition` and `fatalError`."
    }
    if let thread = context.crashedThreadDisplay {
      summary += " It happened on \(thread)."
    }
    // Symbolicated (by the report or by --dsym), the line is already there to read.
    return finding(
      confidence: .likely, summary: summary, evidence: evidence,
      remedy: context.hasUnsymbolicatedAppFrames ? nil : Self.symbolicatedRemedy)
  }

  /// The remedy once the app's frames have symbols.
  static let symbolicatedRemedy = """
    The top app frame points at the line, usually with a "Swift runtime failure: …" frame that \
    names the check. Look there for `!`, `as!`, subscripts, integer arithmetic, `try!`, \
    `precondition` and `fatalError`.
    """

  /// Whether at least two frames of `image` in `frames` are named and none of those names looks
  /// like Swift: the image's code is C++, Objective-C or C.
  static func namedFramesAreNotSwift(of image: String?, in frames: [Frame], context: DiagnosisContext) -> Bool {
    guard let image else { return false }
    let names = frames.prefix(64).filter { $0.imageName == image }.compactMap { context.symbol($0)?.display }
    return names.count >= 2 && !names.contains(where: looksLikeSwift)
  }

  static func looksLikeSwift(_ name: String) -> Bool {
    if name.hasPrefix("-[") || name.hasPrefix("+[") || name.contains("::") { return false }
    if SwiftDemangler.isMangled(name) { return true }
    return name.contains("closure #") || name.contains(".") || name.contains("(_:")
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "unsymbolicated app frame",
      ExampleReport.trap(frames: [
        .frame(.app, offset: 0x1c2f4), .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
      ]),
      .likely, summaryContains: ["Example + 0x1c2f4", "threads[0].frames[0]", "Symbolicate", "dSYM"]),
    .triggers(
      "_assertionFailure called from an unsymbolicated frame (no message)",
      ExampleReport.trap(frames: [
        .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(.app),
        .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
      ]),
      .likely, summaryContains: ["_assertionFailure", "threads[0].frames[1]"]),
    .triggers(
      "unsymbolicated libswiftCore frame called from the app",
      ExampleReport.trap(frames: [
        .frame(.libswiftCore, offset: 0x137d20), .frame(.app, offset: 0xc4c), .frame(.app, offset: 0x9dc),
      ]),
      .likely, summaryContains: ["Swift standard library", "libswiftCore.dylib + 0x137d20", "threads[0].frames[1]"]),
    .ignores(
      "unsymbolicated frame in an app image whose named frames are C++",
      ExampleReport.trap(frames: [
        .frame(.app, offset: 0x1c2f4),
        .frame(.app, "hermes::vm::Interpreter::interpretFunction(hermes::vm::Runtime&)"),
        .frame(.app, "hermes::vm::Runtime::interpretFunctionImpl(hermes::vm::CodeBlock*)"),
        .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
      ])),
    .triggers(
      "unsymbolicated frame in an app image whose named frames are Swift",
      ExampleReport.trap(frames: [
        .frame(.app, offset: 0x1c2f4), .frame(.app, "CartViewModel.total.getter"),
        .frame(.app, "CartView.body.getter"),
      ]),
      .likely, summaryContains: ["Example + 0x1c2f4"]),
    .ignores(
      "unsymbolicated libswiftCore frame called from a system framework",
      ExampleReport.trap(frames: [
        .frame(.libswiftCore, offset: 0x137d20), .frame(.uiKit, "-[UIViewController loadViewIfRequired]"),
      ])),
    .triggers(
      "Intel: EXC_BAD_INSTRUCTION",
      ExampleReport.trap(frames: [.frame(.app, "Parser.next()")], type: "EXC_BAD_INSTRUCTION", signal: "SIGILL"),
      .likely, summaryContains: ["EXC_BAD_INSTRUCTION", "Parser.next()"]),
    .ignores(
      "message present (swift-fatal-error)",
      ExampleReport.trap(
        frames: [.frame(.app)], asi: ["libswiftCore.dylib": ["Example/Router.swift:88: Fatal error: Unknown route"]])),
    .ignores(
      "libdispatch client bug",
      ExampleReport.trap(
        frames: [
          .frame(.libdispatch, "_dispatch_assert_queue_fail"), .frame(.libdispatch, "dispatch_assert_queue"),
          .frame(.app),
        ],
        asi: [
          "libdispatch.dylib": [
            "BUG IN CLIENT OF LIBDISPATCH: Assertion failed: Block was expected to execute on queue [com.apple.main-thread]"
          ]
        ])),
    .ignores(
      "Swift 6 isolation check without a message",
      ExampleReport.trap(frames: [
        .frame(.libdispatch, "_dispatch_assert_queue_fail"),
        .frame(
          .libswiftCore,
          "swift_task_isCurrentExecutorWithFlagsImpl(swift::SerialExecutorRef, swift::swift_task_is_current_executor_flag)"
        ),
        .frame(.app),
      ])),
    .triggers(
      "unsymbolicated app frames called from a dispatch block",
      ExampleReport.trap(frames: [
        .frame(.app, offset: 0x7d38), .frame(.app, offset: 0x7a10),
        .frame(.libdispatch, "_dispatch_call_block_and_release"),
        .frame(.libdispatch, "_dispatch_client_callout"),
      ]),
      .likely, summaryContains: ["Example + 0x7d38"]),
    .ignores(
      "Core Data concurrency debugging trap",
      ExampleReport.trap(frames: [
        .frame(.coreData, "+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]"),
        .frame(.app),
      ])),
    .ignores(
      "continuation misuse",
      ExampleReport.trap(
        frames: [
          .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"),
          .frame(.libswiftCore, "CheckedContinuation.resume(returning:)"), .frame(.app),
        ],
        asi: [
          "libswiftCore.dylib": [
            "_Concurrency/CheckedContinuation.swift:167: Fatal error: SWIFT TASK CONTINUATION MISUSE: load() tried to resume its continuation more than once, returning ()!"
          ]
        ])),
    .ignores(
      "Objective-C __builtin_trap in a test",
      ExampleReport.trap(frames: [
        .frame(.app, "-[TpxUnitTests testExample1]"), .frame(.coreFoundation, "__invoking___"),
      ])),
    .ignores(
      "libc++ hardening assertion",
      ExampleReport.trap(frames: [
        .frame(
          .app, "*/usr/include/c++/v1/vector:1393: assertion __n < size() failed: vector[] index out of bounds",
          inline: true),
        .frame(.app, "std::__1::vector<int>::operator[](unsigned long)"),
      ])),
  ]
}
