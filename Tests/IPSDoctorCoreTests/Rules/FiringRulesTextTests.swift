import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The rules' finding texts must stay exactly what they were when they were first written plainly
/// (some now use texts built once and byte searches over a backtrace's symbols): that plain code
/// is kept here, as it was, and each rule's text is compared with it.
struct FiringRulesTextTests {
  /// Fixture reports and the rules' own example reports, with their contexts.
  static let contexts: [(name: String, context: DiagnosisContext)] = {
    var result: [(String, DiagnosisContext)] = []
    for path in Fixtures.files(in: "reports", extensions: ["ips", "crash"]) {
      guard let bytes = try? Fixtures.bytes(path), let report = try? ReportReader.read(bytes) else { continue }
      result.append((path, DiagnosisContext(report: report)))
    }
    var texts: [(String, String)] = []
    for example in AsyncBridgeCompletionOffMainRule.description.examples
      + CompletionHandlerCalledOffMainRule.description.examples
      + ObjCUncaughtExceptionRule.description.examples
    {
      if case .inline(let text) = example.input { texts.append((example.name, text)) }
    }
    // The concurrency runtime both above and below the app frame, and in the crashed thread only.
    let runtimeAbove = AsyncBridgeCompletionOffMainRule.Examples.report(appSymbol: nil)
      .replacingOccurrences(of: "__exceptionPreprocess", with: "swift::runJobInEstablishedExecutorContext")
    texts.append(("runtime above and below", runtimeAbove))
    texts.append(
      (
        "runtime in the crashed thread only",
        AsyncBridgeCompletionOffMainRule.Examples.report(appSymbol: nil, concurrencyFrames: false)
          .replacingOccurrences(of: #""symbol":"__pthread_kill""#, with: #""symbol":"swift_job_run""#)
      ))
    // A symbol holding a NUL: no symbol text, so the frame walk answers.
    texts.append(
      (
        "NUL in a symbol",
        AsyncBridgeCompletionOffMainRule.Examples.report(appSymbol: #"caf\u0000é swift_job_run"#)
      ))
    for (name, text) in texts {
      guard let report = try? ReportReader.read(text) else { continue }
      result.append((name, DiagnosisContext(report: report)))
    }
    return result
  }()

  // MARK: MainThreadAssertion

  /// `concurrencyEvidence` as it was: every frame of the given backtrace and of all the report's
  /// backtraces, tested against every marker.
  static func plainConcurrencyEvidence(
    in context: DiagnosisContext, below index: Int?, of backtrace: DiagnosisContext.Backtrace?
  ) -> [Evidence] {
    var evidence: [Evidence] = []
    if let thread = context.crashedThread, thread.isOnCooperativeQueue, let queue = thread.queue {
      evidence.append(Evidence("threads[\(thread.index)].queue", queue))
    }
    let candidates = [backtrace].compactMap { $0 } + context.backtraces
    for candidate in candidates {
      let start = candidate.path == backtrace?.path ? (index ?? 0) : 0
      for (offset, frame) in candidate.frames.enumerated() where offset >= start {
        guard let symbol = frame.symbol else { continue }
        if MainThreadAssertion.concurrencyRuntimeFrames.contains(where: { symbol.utf8Contains($0) }) {
          evidence.append(Evidence(candidate.framePath(offset), context.describe(frame)))
          return evidence
        }
      }
    }
    return evidence
  }

  @Test func concurrencyEvidenceAgreesWithFrameWalk() {
    var found = 0
    var skippedEarlierHit = 0
    var unsearchable = 0
    for (name, context) in Self.contexts {
      let backtraces: [DiagnosisContext.Backtrace?] = [nil] + context.backtraces.map { $0 }
      for backtrace in backtraces {
        if let backtrace, backtrace.symbolText == nil { unsearchable += 1 }
        let count = backtrace?.frames.count ?? 0
        for index in [nil, 0, 1, 2, 3, 5, 6, count - 1, count, count + 3] as [Int?] {
          let fast = MainThreadAssertion.concurrencyEvidence(in: context, below: index, of: backtrace)
          let plain = Self.plainConcurrencyEvidence(in: context, below: index, of: backtrace)
          #expect(fast == plain, "\(name) \(backtrace?.path ?? "nil") \(String(describing: index))")
          if fast.contains(where: { $0.path.contains("frames") || $0.path.hasPrefix("last") }) { found += 1 }
          if let backtrace, let index, index > 0,
            MainThreadAssertion.firstRuntimeFrame(in: backtrace, from: 0).map({ $0 < index }) == true
          {
            skippedEarlierHit += 1
          }
        }
      }
    }
    #expect(found > 20)
    #expect(skippedEarlierHit > 0)
    #expect(unsearchable > 0)
  }

  @Test func searchedRuntimeFramesCoverEveryMarker() {
    for marker in MainThreadAssertion.concurrencyRuntimeFrames {
      #expect(MainThreadAssertion.searchedRuntimeFrames.contains { marker.utf8Contains($0) }, "\(marker)")
    }
    #expect(MainThreadAssertion.searchedRuntimeFrames.count < MainThreadAssertion.concurrencyRuntimeFrames.count)
  }

  @Test func assertionTextAgreesWithCharacterCount() {
    let texts = [
      "", "Call must be made on main thread", String(repeating: "a", count: 160),
      String(repeating: "a", count: 161), String(repeating: "é", count: 80), String(repeating: "é", count: 81),
      String(repeating: "é", count: 161), String(repeating: "e\u{301}", count: 100),
      String(repeating: "x", count: 159) + "é", String(repeating: "👩‍👩‍👧", count: 30),
    ]
    for text in texts {
      let assertion = MainThreadAssertion.Assertion(reason: Evidence("r", text), assertingFrames: [])
      let plain = text.count > 160 ? String(text.prefix(157)) + "…" : text
      #expect(assertion.text == plain, "\(text.utf8.count) bytes")
    }
    #expect(MainThreadAssertion.Assertion(reason: nil, assertingFrames: []).text == MainThreadAssertion.message)
  }

  // MARK: AsyncBridgeCompletionOffMain

  /// `remedy(typeName:method:methodName:)` as it was, joined by `+=`.
  static func plainRemedy(typeName: String?, method: CompletionHandlerMethod?, methodName: String?) -> String {
    var text = AsyncBridgeCompletionOffMainRule.description.remedy
    if let method {
      text += "\n\nReplace the `async` method with:\n\n```swift\n"
      text += method.fixedImplementation(typeName: typeName ?? "YourDelegate")
      text += "\n```"
    } else if let methodName {
      text +=
        "\n\nReplace `\(methodName) async` with the variant that takes a completion handler, and "
        + "call the handler on the main thread:\n\n```swift\n" + CompletionHandlerMethod.onMainHelper
        + "\n```"
    } else {
      text +=
        "\n\nFor a notification tap, implement:\n\n```swift\n"
        + CompletionHandlerMethod.didReceive.fixedImplementation(typeName: "YourDelegate") + "\n```"
    }
    text +=
      "\n\nNeither `await MainActor.run { … }` inside the async method nor `@MainActor` on the "
      + "class fixes this when the method is `nonisolated`: the bridge calls the handler after "
      + "your method returns, on the thread it resumed on. (Making the method itself main-actor "
      + "isolated also works, but the completion-handler variant states the contract plainly.)"
    return text
  }

  static func plainVerification(method: CompletionHandlerMethod?) -> [String] {
    let name = method?.swiftName ?? "the delegate method"
    return [
      "A unit test that calls the handler path of \(name) from `DispatchQueue.global()` and asserts the completion ran on the main thread, exactly once, after the app's work was done; a second test calls it on main and checks the completion ran synchronously.",
      "On a device: trigger the callback (tap a notification) with the app in the background, then again in the foreground.",
      "If it still crashes, pull the device's reports with `uvx pymobiledevice3 crash pull ./crashes` and run `ips-doctor ./crashes`.",
    ]
  }

  @Test func asyncBridgeRemedyAgreesWithPlainText() {
    let rule = AsyncBridgeCompletionOffMainRule()
    let methods: [CompletionHandlerMethod?] = [nil] + CompletionHandlerMethod.all.map { $0 }
    for method in methods {
      for typeName in [nil, "PushNotificationDelegate", "Café", ""] as [String?] {
        for methodName in [nil, "userNotificationCenter(_:didReceive:)", "é(_:)"] as [String?] {
          #expect(
            rule.remedy(typeName: typeName, method: method, methodName: methodName)
              == Self.plainRemedy(typeName: typeName, method: method, methodName: methodName),
            "\(method?.swiftName ?? "nil") \(typeName ?? "nil") \(methodName ?? "nil")")
        }
      }
      #expect(AsyncBridgeCompletionOffMainRule.verification(method: method) == Self.plainVerification(method: method))
    }
  }

  /// `diagnosis(...)`'s summary as it was: one interpolation, then `+=`.
  static func plainBridgeSummary(
    _ context: DiagnosisContext, bridge: MainThreadAssertion.BridgeFrame, assertion: MainThreadAssertion.Assertion,
    hasConcurrency: Bool
  ) -> String {
    let method = CompletionHandlerMethod.lookup(bridge.method)
    let thread = context.crashedThread
    let qualifiedName = bridge.qualifiedName
    var summary = """
      \(assertion.framework(in: context)) asserted "\(assertion.text)" because the completion handler \
      of `\(qualifiedName)` ran off the main thread. The frame `@objc closure #1 in \(qualifiedName)` \
      (\(bridge.evidence.path)) is the compiler's bridge for your `async` implementation of
      """
    if let method {
      summary += " `\(method.protocolName).\(method.swiftName)` (Objective-C `\(method.selector)`)"
    } else {
      summary += " an Objective-C method that takes a completion handler"
    }
    summary += "; it resumed on the Swift concurrency pool"
    if let thread, let queue = thread.queue, thread.isOnCooperativeQueue {
      summary += " (thread \(thread.index), queue `\(queue)`)"
    } else if hasConcurrency {
      summary += " (the Swift concurrency runtime ran the job)"
    }
    summary += " and called the framework's handler there."
    return summary
  }

  @Test func asyncBridgeFindingAgreesWithPlainText() {
    let rule = AsyncBridgeCompletionOffMainRule()
    var bridges = 0
    var unsymbolicated = 0
    for (name, context) in Self.contexts {
      guard let match = AsyncBridgeCompletionOffMainRule.match(context), let diagnosis = rule.diagnose(context)
      else { continue }
      switch match {
      case .bridge(let bridge, let assertion):
        let concurrency = MainThreadAssertion.concurrencyEvidence(
          in: context, below: bridge.index, of: bridge.backtrace)
        #expect(
          diagnosis.summary
            == Self.plainBridgeSummary(
              context, bridge: bridge, assertion: assertion, hasConcurrency: !concurrency.isEmpty), "\(name)")
        let method = CompletionHandlerMethod.lookup(bridge.method)
        #expect(
          diagnosis.remedy
            == Self.plainRemedy(typeName: bridge.typeName, method: method, methodName: bridge.method), "\(name)")
        #expect(diagnosis.verification == Self.plainVerification(method: method), "\(name)")
        bridges += 1
      case .unsymbolicated:
        #expect(
          diagnosis.remedy
            == Self.plainRemedy(typeName: nil, method: nil, methodName: nil)
            + "\n\nTo confirm: symbolicate the app frames listed in the evidence with `atos` (see the "
            + "symbolication commands); the frame under UIKit should read "
            + "`@objc closure #1 in <YourType>.<method>(…)`.", "\(name)")
        #expect(diagnosis.verification == Self.plainVerification(method: nil), "\(name)")
        unsymbolicated += 1
      }
    }
    #expect(bridges > 3)
    #expect(unsymbolicated > 0)
  }

  // MARK: ObjCUncaughtException

  /// `throwSiteSentence(appFrame:)` as it was.
  static func plainThrowSiteSentence(_ exception: LanguageException, appFrame: Evidence?) -> String {
    guard let path = exception.throwBacktrace?.path else {
      return "The report has no exception backtrace, so the throw site is unknown."
    }
    guard let frame = appFrame else {
      return "No frame of the app appears in \(path); the exception was raised inside "
        + "the system frameworks, so look at what the app last asked them to do."
    }
    var sentence = "The first app frame in \(path) is \(DiagnosisContext.quote(frame))"
    if frame.detail.hasSuffix("(unsymbolicated)") {
      sentence += "; symbolicate it to see the line that triggered the exception."
    } else {
      sentence += "."
    }
    return sentence
  }

  /// `ObjCUncaughtExceptionRule`'s summary and evidence as they were.
  static func plainObjCFinding(_ context: DiagnosisContext, _ exception: LanguageException) -> (String, [Evidence]) {
    var summary: String
    if let name = exception.name {
      summary = "The app was terminated by an uncaught Objective-C exception `\(name)`"
      summary += exception.reason.map { ": \"\(TextScan.clip($0))\"." } ?? " (no reason recorded)."
    } else if let reason = exception.reason {
      summary =
        "The app was terminated by an uncaught Objective-C exception whose name the report does "
        + "not record; the reason reads \"\(TextScan.clip(reason))\"."
    } else {
      summary =
        "The app was terminated by an uncaught Objective-C exception; the report records where it "
        + "was thrown (\(exception.throwBacktrace?.path ?? "the crashed thread")) but not its name "
        + "or reason."
    }
    let appFrame = exception.appFrame(in: context)
    summary += " " + plainThrowSiteSentence(exception, appFrame: appFrame)
    if let thread = context.crashedThreadDisplay { summary += " It was raised on \(thread)." }
    var evidence = [exception.nameEvidence, exception.reasonEvidence, exception.throwFrame].compactMap { $0 }
    if let appFrame { evidence.append(appFrame) }
    if let abort = context.reasonText(containing: "abort() called") { evidence.append(abort) }
    return (summary, evidence)
  }

  @Test func objCFindingAgreesWithPlainText() {
    let rule = ObjCUncaughtExceptionRule()
    var findings = 0
    var sentences = 0
    for (name, context) in Self.contexts {
      guard let exception = context.languageException else { continue }
      let frames: [Evidence?] = [
        nil, exception.appFrame(in: context), Evidence("p[1]", "App + 0x10 (unsymbolicated)"),
        Evidence("p[2]", "é"), Evidence("p[3]", "(unsymbolicated)x"),
      ]
      for frame in frames {
        #expect(exception.throwSiteSentence(appFrame: frame) == Self.plainThrowSiteSentence(exception, appFrame: frame))
        sentences += 1
      }
      #expect(
        exception.evidence
          == [exception.nameEvidence, exception.reasonEvidence, exception.throwFrame].compactMap { $0 })
      guard let diagnosis = rule.diagnose(context) else { continue }
      let (summary, evidence) = Self.plainObjCFinding(context, exception)
      #expect(diagnosis.summary == summary, "\(name)")
      #expect(diagnosis.evidence == evidence, "\(name)")
      findings += 1
    }
    // Every kind of exception the sentence and summary distinguish, on hand-made exceptions too.
    guard let context = Self.contexts.first(where: { $0.context.languageException?.throwBacktrace != nil })?.context
    else {
      Issue.record("no report with an exception backtrace")
      return
    }
    let backtrace = context.languageException?.throwBacktrace
    for name in [nil, "NSRangeException", "Ünïcode"] as [String?] {
      for reason in [nil, "short", String(repeating: "é", count: 400)] as [String?] {
        for throwBacktrace in [nil, backtrace] {
          var exception = LanguageException(isObjC: true)
          exception.name = name
          exception.reason = reason
          exception.throwBacktrace = throwBacktrace
          let appFrame = exception.appFrame(in: context)
          #expect(
            exception.throwSiteSentence(appFrame: appFrame)
              == Self.plainThrowSiteSentence(exception, appFrame: appFrame))
          sentences += 1
        }
      }
    }
    #expect(findings > 5)
    #expect(sentences > 50)
  }

  // MARK: CxxUncaughtException

  /// `diagnose` rules a report out by `hasTerminateFrame` where it looked for a terminate frame.
  @Test func hasTerminateFrameAgreesWithTerminateFrameSearch() {
    var withFrame = 0
    var cxxTexts: [(String, DiagnosisContext)] = []
    for example in CxxUncaughtExceptionRule.description.examples {
      if case .inline(let text) = example.input, let report = try? ReportReader.read(text) {
        cxxTexts.append((example.name, DiagnosisContext(report: report)))
      }
    }
    for (name, context) in Self.contexts + cxxTexts {
      guard let crashed = context.crashedBacktrace else {
        #expect(!CxxUncaughtExceptionRule.hasTerminateFrame(context), "\(name)")
        continue
      }
      let search = CxxUncaughtExceptionRule.firstFrame(
        containingAny: CxxUncaughtExceptionRule.terminateFrames, in: crashed, context)
      #expect(CxxUncaughtExceptionRule.hasTerminateFrame(context) == (search != nil), "\(name)")
      if search != nil { withFrame += 1 }
    }
    #expect(withFrame > 2)
  }

  // MARK: LanguageException

  /// The part of `LanguageException.collect(in:)` that looked for the throw frame, as it was: one
  /// loop for whether a throw frame is there, a second for the frame.
  static func plainExceptionBacktraceFacts(_ context: DiagnosisContext, reason: String?)
    -> (throwBacktrace: String?, throwFrame: Evidence?, hasThrow: Bool)
  {
    guard let backtrace = context.lastExceptionBacktrace else { return (nil, nil, false) }
    var hasThrow = false
    for fragment in LanguageException.throwFrames
    where context.firstFrameIndex(in: backtrace, containing: fragment) != nil {
      hasThrow = true
      break
    }
    let symbolicated = backtrace.frames.contains { $0.symbol != nil }
    guard hasThrow || (!symbolicated && reason != nil) else { return (nil, nil, false) }
    for fragment in LanguageException.throwFrames {
      if let hit = context.firstFrame(in: backtrace, containing: fragment) {
        return (backtrace.path, hit.evidence, hasThrow)
      }
    }
    return (backtrace.path, nil, hasThrow)
  }

  @Test func exceptionThrowFrameAgreesWithTwoLoops() {
    var withFrame = 0
    var withoutFrame = 0
    for (name, context) in Self.contexts {
      guard let backtrace = context.lastExceptionBacktrace else { continue }
      // `collect` reads the reason before the backtrace; both reasons exercise the unsymbolicated
      // fallback.
      for reason in [nil, "reason"] as [String?] {
        let plain = Self.plainExceptionBacktraceFacts(context, reason: reason)
        var throwIndex: Int?
        for fragment in LanguageException.throwFrames {
          throwIndex = context.firstFrameIndex(in: backtrace, containing: fragment)
          if throwIndex != nil { break }
        }
        #expect((throwIndex != nil) == plain.hasThrow, "\(name)")
        #expect(throwIndex.map { context.frameEvidence(backtrace, $0) } == plain.throwFrame, "\(name)")
        if plain.throwFrame != nil { withFrame += 1 } else { withoutFrame += 1 }
      }
      // And the whole of `collect` agrees with its parts.
      if let exception = LanguageException.collect(in: context), exception.throwBacktrace?.path == backtrace.path {
        let plain = Self.plainExceptionBacktraceFacts(context, reason: exception.reason)
        if plain.throwFrame != nil { #expect(exception.throwFrame == plain.throwFrame, "\(name)") }
      }
    }
    #expect(withFrame > 5)
    #expect(withoutFrame > 0)
  }
}
