import IPSDoctorSupport

/// A message to, or a retain/release of, an object that was already deallocated.
package struct ZombieObjectRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "zombie-object",
    title: "Message To A Deallocated Object",
    summary: "The app used an Objective-C or Swift object after it was deallocated (a zombie).",
    category: .memory,
    severity: .error,
    tier: .specific,
    outranks: [MisalignedAccessRule.self, ObjCUnrecognizedSelectorRule.self, PointerAuthenticationFailureRule.self],
    rationale: """
      `objc_msgSend`, `objc_retain` and `objc_release` read the object's class pointer first. \
      When the object has been freed, that memory holds garbage or another object, so the crash \
      is an `EXC_BAD_ACCESS` with frame 0 in `libobjc.A.dylib` (or `swift_retain`/`swift_release` \
      for Swift objects), or an "unrecognized selector" whose receiver's class has nothing to do \
      with the message (another object now lives at the address). The object was over-released \
      or referenced without ownership: an `unowned(unsafe)`/`assign`/`__unsafe_unretained` \
      reference, a delegate or observer that outlived its target, `Unmanaged` misuse, or two \
      threads racing on a property. Apple notes that memory corruption and races produce the same \
      frames, so this is a likely cause, not a proof.
      """,
    remedy: """
      Reproduce with Zombie Objects enabled (Scheme → Run → Diagnostics) or the Zombies template \
      in Instruments: the message then stops at the deallocated object and shows its class and \
      retain/release history. Make delegates and back-references `weak`, remove observers and \
      cancel callbacks in `deinit`, avoid `unowned(unsafe)` and `Unmanaged.takeRetainedValue` on \
      +0 objects, and run the Thread Sanitizer if the object is shared between threads.
      """,
    references: [
      "https://developer.apple.com/documentation/xcode/investigating-crashes-for-zombie-objects",
      "https://developer.apple.com/documentation/xcode/investigating-memory-access-crashes",
    ],
    examples: examples)

  /// Runtime functions that touch an object's class pointer or reference count first.
  static let runtimeSymbols = [
    "objc_msgSend", "objc_retain", "objc_release", "objc_autorelease", "AutoreleasePoolPage::pop",
    "objc_storeStrong", "objc_loadWeak", "objc_destructInstance", "objc_object::release",
    "objc_object::sidetable", "lookUpImpOrForward", "_objc_msgSend", "_objc_release", "_objc_retain",
    "swift_release", "swift_retain", "swift_unknownObjectRelease", "swift_unknownObjectRetain",
    "swift_bridgeObjectRelease", "swift_bridgeObjectRetain",
  ]

  /// Frame 0 of the crashed thread when it is one of ``runtimeSymbols`` in libobjc or the Swift
  /// runtime.
  static func runtimeFrame(in context: DiagnosisContext) -> (name: String, evidence: Evidence, isSwift: Bool)? {
    // `context.crashingFrame`, when its image is the Objective-C or Swift runtime (or unknown).
    guard let backtrace = context.crashedBacktrace, let frame = backtrace.frames.first else { return nil }
    let image = frame.imageName ?? ""
    guard image.hasPrefix("libobjc") || image.hasPrefix("libswiftCore") || image.isEmpty else {
      return nil
    }
    guard let name = context.symbol(frame)?.display, runtimeSymbols.contains(where: { name.hasPrefix($0) })
    else { return nil }
    return (name, context.frameEvidence(backtrace, 0), name.hasPrefix("swift_"))
  }

  /// "objc_msgSend() selector name: …" in the report's reason text: the crash reporter says the
  /// fault happened while `objc_msgSend` was sending that message, whatever the backtrace shows (a
  /// nil receiver never faults in `objc_msgSend`, so the receiver's class pointer was garbage).
  ///
  /// The reporter writes the line when the crashed PC is in `objc_msgSend`, so a symbolicated
  /// frame 0 outside libobjc contradicts it and the line is not taken.
  static func messageSendLine(in context: DiagnosisContext) -> Evidence? {
    if let top = context.crashedBacktrace?.frames.first, context.symbol(top) != nil,
      !(top.imageName ?? "").hasPrefix("libobjc")
    {
      return nil
    }
    return context.reasonText(containing: "objc_msgSend() selector name:")
  }

  /// Frame 0 in the runtime (``runtimeFrame(in:)``), or the reason text's message-send line.
  static func runtimeFault(in context: DiagnosisContext)
    -> (name: String, evidence: Evidence, isSwift: Bool, isFrame: Bool)?
  {
    if let frame = runtimeFrame(in: context) { return (frame.name, frame.evidence, frame.isSwift, true) }
    if let line = messageSendLine(in: context) { return ("objc_msgSend", line, false, false) }
    return nil
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    if let fault = context.memoryFault, !fault.isBad0, let runtime = Self.runtimeFault(in: context),
      !StackOverflowEvidence.isPresent(in: context)
    {
      var evidence = [fault.subtypeEvidence].compactMap { $0 }
      evidence.append(runtime.evidence)
      var summary =
        "The app crashed with \(context.exceptionDisplay) at \(fault.addressDisplay) inside \(CodeSpan.markdown(runtime.name)) (\(runtime.evidence.path)): "
      if runtime.isSwift {
        summary +=
          "the Swift runtime touched the reference count of an object whose memory had been freed, so the object was used after it was deallocated (often a data race on a reference or an `unowned(unsafe)`/`Unmanaged` reference)."
      } else if runtime.name.hasPrefix("objc_msgSend") {
        summary +=
          "a message was sent to an object whose memory had been freed or overwritten, so its class pointer was garbage."
      } else {
        summary +=
          "the Objective-C runtime retained or released an object that had already been deallocated (over-released, or released by two threads)."
      }
      if let selector = Self.selector(in: context) {
        summary += " The selector was \(CodeSpan.markdown(selector.detail))."
        evidence.append(selector)
      }
      if runtime.isFrame, let backtrace = context.crashedBacktrace, backtrace.frames.count > 1 {
        let caller = backtrace.frames[1]
        if context.isAppFrame(caller) {
          let app = context.appFrameEvidence(in: backtrace, from: 1) ?? context.frameEvidence(backtrace, 1)
          summary += " The app frame that used the object is \(DiagnosisContext.quote(app))."
          evidence.append(app)
        } else {
          let sender = context.frameEvidence(backtrace, 1)
          summary +=
            " The caller is \(DiagnosisContext.quote(sender)): the framework still pointed to an object the app gave it (a delegate, data source, target or observer) after that object was deallocated."
          evidence.append(sender)
          if let app = context.appFrameEvidence(in: backtrace, from: 2) { evidence.append(app) }
        }
      }
      if let thread = context.crashedThreadDisplay { summary += " It happened on \(thread)." }
      return finding(confidence: runtime.isSwift ? .possible : .likely, summary: summary, evidence: evidence)
    }
    if let hit = UnrecognizedSelector.find(in: context), hit.receiverLooksUnrelated {
      var summary =
        "\(CodeSpan.markdown(hit.method.display)): an object of class \(CodeSpan.markdown(hit.receiver)) received \(CodeSpan.markdown(hit.selector)), a message it has nothing to do with. The object the code meant was probably deallocated and a \(CodeSpan.markdown(hit.receiver)) now occupies its memory."
      var evidence = [hit.evidence]
      if let exception = LanguageException.find(in: context), let app = exception.appFrame(in: context) {
        summary += " The sender is \(DiagnosisContext.quote(app))."
        evidence.append(app)
      }
      return finding(confidence: .possible, summary: summary, evidence: evidence)
    }
    return nil
  }

  /// "objc_msgSend() selector name: didUnlockScreen:" (older macOS reports), or the selector
  /// register annotation.
  static func selector(in context: DiagnosisContext) -> Evidence? {
    if let line = context.reasonText(containing: "selector name: "),
      let marker = line.detail.firstRange(of: "selector name: ")
    {
      let name = line.detail[marker.upperBound...].trimmingWhitespace()
      if !name.isEmpty { return Evidence(line.path, name) }
    }
    if let thread = context.crashedThread, let x1 = thread.state?.registers.first(where: { $0.name == "x1" }),
      let symbol = x1.symbol, symbol.hasSuffix(":") || !symbol.contains(" ")
    {
      return Evidence("threads[\(thread.index)].threadState.x[1]", symbol)
    }
    return nil
  }

  private static let examples: [RuleExample] = [
    .triggers(
      "objc_msgSend on a freed object",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x00000008e1a2b3c0",
        frames: [.frame(.libobjc, "objc_msgSend"), .frame(.app, "ChatCell.configure(with:)")],
        registers: ExampleReport.Registers(x: [(1, nil), (7000000000, "didUnlockScreen:")])),
      .likely,
      summaryContains: [
        "objc_msgSend", "threads[0].frames[0]", "freed", "didUnlockScreen:", "ChatCell.configure(with:)",
      ]),
    .triggers(
      "objc_release with a PAC-flagged isa",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x0021000103f2a8c0 -> 0x0000000103f2a8c0 (possible pointer authentication failure)",
        frames: [.frame(.libobjc, "objc_release"), .frame(.app, "Downloader.deinit")]),
      .likely, summaryContains: ["objc_release", "already been deallocated"]),
    .triggers(
      "unrelated receiver of an unrecognized selector",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason: "-[NSNumberFormatter playSound]: unrecognized selector sent to instance 0x283f1c0a0"),
      .possible, summaryContains: ["NSNumberFormatter", "playSound", "deallocated"]),
    .ignores(
      "NSNull from JSON is not a zombie",
      ExampleReport.uncaughtException(
        name: "NSInvalidArgumentException",
        reason: "-[NSNull length]: unrecognized selector sent to instance 0x206db76c0")),
    .triggers(
      "a framework messaging a freed delegate",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x0000003dd2a8c3e8",
        frames: [
          .frame(.libobjc, "objc_msgSend"), .frame(.uiKit, "-[UIScrollView(UIScrollViewInternal) _notifyDidScroll]"),
          .frame(.uiKit, "-[UIScrollView setContentOffset:]"),
        ]),
      .likely, summaryContains: ["_notifyDidScroll", "delegate"]),
    .ignores(
      "swift_retain at the stack guard (stack-overflow)",
      ExampleReport.badAccess(
        "KERN_PROTECTION_FAILURE at 0x000000016b1cbff0",
        frames: [.frame(.libswiftCore, "swift_retain"), .frame(.app, "CommentNode.flatten(into:depth:)")],
        signal: "SIGBUS",
        vmRegionInfo:
          "0x16b1cbff0 is in 0x16b1c8000-0x16b1cc000\n--->  STACK GUARD  16b1c8000-16b1cc000 [ 16K] ---/rwx SM=NUL  stack guard for thread 0"
      )),
    .triggers(
      "the reporter names the message being sent when the fault happened",
      ExampleReport(
        exception: ExampleReport.Exception(
          "EXC_BAD_ACCESS", signal: "SIGSEGV", subtype: "KERN_INVALID_ADDRESS at 0x0000000000000088"),
        asi: ["libobjc.A.dylib": ["objc_msgSend() selector name: respondsToSelector:"]],
        threads: [.main([.frame(.libsystemKernel), .frame(.app, "-[Inbox refresh]")])]),
      .likely, summaryContains: ["objc_msgSend", "respondsToSelector:"]),
    .ignores(
      "crash in app code",
      ExampleReport.badAccess("KERN_INVALID_ADDRESS at 0x00000004cdfaf798")),
    .ignores(
      "0xbad0 in objc_release (objc-concurrent-property-access)",
      ExampleReport.badAccess(
        "KERN_INVALID_ADDRESS at 0x400000000000bad0 -> 0x000000000000bad0 (possible pointer authentication failure)",
        frames: [.frame(.libobjc, "objc_release")])),
  ]
}
