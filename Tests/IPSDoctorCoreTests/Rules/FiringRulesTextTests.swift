import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The firing rules' searches over a backtrace's symbols answer as walking its frames, and their
/// findings hold the parts the report gives them (names, paths, threads, the fix for the method).
/// The rule's own words live in the rule; the golden files pin them for the fixtures.
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
    let runtimeAbove = AsyncBridgeCompletionOffMainRule.Examples.report(appSymbol: nil).rendered
      .replacingOccurrences(of: "__exceptionPreprocess", with: "swift::runJobInEstablishedExecutorContext")
    texts.append(("runtime above and below", runtimeAbove))
    texts.append(
      (
        "runtime in the crashed thread only",
        AsyncBridgeCompletionOffMainRule.Examples.report(appSymbol: nil, concurrencyFrames: false).rendered
          .replacingOccurrences(of: #""symbol":"__pthread_kill""#, with: #""symbol":"swift_job_run""#)
      ))
    // A symbol holding a NUL: no symbol text, so the frame walk answers.
    texts.append(
      (
        "NUL in a symbol",
        AsyncBridgeCompletionOffMainRule.Examples.report(appSymbol: "caf\u{0}é swift_job_run").rendered
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

  /// The remedy is the rule's text, then the fix for the method the report names (its corrected
  /// implementation, or the completion-handler variant and the helper that calls it on main),
  /// then why the usual fixes do not work. The words themselves are the rule's; golden files pin
  /// them for the fixtures.
  @Test func asyncBridgeRemedyHoldsTheFixForTheMethod() {
    let rule = AsyncBridgeCompletionOffMainRule()
    let methods: [CompletionHandlerMethod?] = [nil] + CompletionHandlerMethod.all.map { $0 }
    let general = AsyncBridgeCompletionOffMainRule.description.remedy
    for method in methods {
      for typeName in [nil, "PushNotificationDelegate", "Café", ""] as [String?] {
        for methodName in [nil, "userNotificationCenter(_:didReceive:)", "é(_:)"] as [String?] {
          let remedy = rule.remedy(typeName: typeName, method: method, methodName: methodName)
          let label = "\(method?.swiftName ?? "nil") \(typeName ?? "nil") \(methodName ?? "nil")"
          #expect(remedy.hasPrefix(general + "\n\n"), "\(label)")
          if let method {
            let fix = method.fixedImplementation(typeName: typeName ?? "YourDelegate")
            #expect(remedy.contains("```swift\n" + fix + "\n```"), "\(label)")
          } else if let methodName {
            #expect(remedy.contains("`\(methodName) async`"), "\(label)")
            #expect(remedy.contains("```swift\n" + CompletionHandlerMethod.onMainHelper + "\n```"), "\(label)")
          } else {
            let fix = CompletionHandlerMethod.didReceive.fixedImplementation(typeName: "YourDelegate")
            #expect(remedy.contains("```swift\n" + fix + "\n```"), "\(label)")
          }
          #expect(remedy.contains("`nonisolated`"), "\(label)")
        }
      }
      let steps = AsyncBridgeCompletionOffMainRule.verification(method: method)
      #expect(steps.count == 3)
      #expect(steps.first?.contains(method?.swiftName ?? "the delegate method") == true)
      #expect(steps.allSatisfy { !$0.isEmpty })
    }
  }

  @Test func asyncBridgeFindingNamesTheBridgeAndItsThread() {
    let rule = AsyncBridgeCompletionOffMainRule()
    var bridges = 0
    var unsymbolicated = 0
    for (name, context) in Self.contexts {
      guard let match = AsyncBridgeCompletionOffMainRule.match(context), let diagnosis = rule.diagnose(context)
      else { continue }
      switch match {
      case .bridge(let bridge, let assertion):
        let method = CompletionHandlerMethod.lookup(bridge.method)
        let summary = diagnosis.summary
        #expect(summary.contains("\"\(assertion.text)\""), "\(name)")
        #expect(summary.contains("`\(bridge.qualifiedName)`"), "\(name)")
        #expect(summary.contains("`@objc closure #1 in \(bridge.qualifiedName)` (\(bridge.evidence.path))"), "\(name)")
        if let method {
          #expect(summary.contains("`\(method.protocolName).\(method.swiftName)`"), "\(name)")
          #expect(summary.contains("`\(method.selector)`"), "\(name)")
        }
        if let thread = context.crashedThread, let queue = thread.queue, thread.isOnCooperativeQueue {
          #expect(summary.contains("(thread \(thread.index), queue `\(queue)`)"), "\(name)")
        }
        #expect(
          diagnosis.remedy == rule.remedy(typeName: bridge.typeName, method: method, methodName: bridge.method),
          "\(name)")
        #expect(diagnosis.verification == AsyncBridgeCompletionOffMainRule.verification(method: method), "\(name)")
        bridges += 1
      case .unsymbolicated:
        #expect(diagnosis.remedy.hasPrefix(rule.remedy(typeName: nil, method: nil, methodName: nil)), "\(name)")
        #expect(diagnosis.remedy.contains("`atos`"), "\(name)")
        #expect(diagnosis.verification == AsyncBridgeCompletionOffMainRule.verification(method: nil), "\(name)")
        unsymbolicated += 1
      }
    }
    #expect(bridges > 3)
    #expect(unsymbolicated > 0)
  }

  // MARK: ObjCUncaughtException

  /// The throw-site sentence names the exception backtrace and the first app frame in it, asks for
  /// symbolication when that frame is unsymbolicated, and says so when either is missing.
  static func checkThrowSiteSentence(_ exception: LanguageException, appFrame: Evidence?) {
    let sentence = exception.throwSiteSentence(appFrame: appFrame)
    #expect(!sentence.isEmpty)
    guard let path = exception.throwBacktrace?.path else {
      #expect(sentence.contains("no exception backtrace"), "\(sentence)")
      return
    }
    #expect(sentence.contains(path), "\(sentence)")
    guard let appFrame else { return }
    #expect(sentence.contains(DiagnosisContext.quote(appFrame)), "\(sentence)")
    #expect(sentence.contains("; symbolicate it") == appFrame.detail.hasSuffix("(unsymbolicated)"), "\(sentence)")
  }

  @Test func objCFindingNamesTheExceptionAndWhereItWasThrown() {
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
        Self.checkThrowSiteSentence(exception, appFrame: frame)
        sentences += 1
      }
      #expect(
        exception.evidence
          == [exception.nameEvidence, exception.reasonEvidence, exception.throwFrame].compactMap { $0 })
      guard let diagnosis = rule.diagnose(context) else { continue }
      let appFrame = exception.appFrame(in: context)
      let summary = diagnosis.summary
      if let exceptionName = exception.name { #expect(summary.contains("`\(exceptionName)`"), "\(name)") }
      if let reason = exception.reason { #expect(summary.contains("\"\(TextScan.clip(reason))\""), "\(name)") }
      #expect(summary.contains(exception.throwSiteSentence(appFrame: appFrame)), "\(name)")
      if let thread = context.crashedThreadDisplay {
        #expect(summary.hasSuffix(" It was raised on \(thread)."), "\(name)")
      }
      var evidence = exception.evidence
      if let appFrame { evidence.append(appFrame) }
      if let abort = context.reasonText(containing: "abort() called") { evidence.append(abort) }
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
          Self.checkThrowSiteSentence(exception, appFrame: exception.appFrame(in: context))
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
