import Testing

@testable import IPSDoctorCore

/// The shortcuts of the memory and Swift rules that fire most (null-pointer-dereference,
/// invalid-address, swift-trap-unknown, swift-fatal-error and the Swift failures they read) must
/// answer exactly as the code they replaced.
struct FiringMemorySwiftFastPathTests {
  typealias E = LanguageRuntimeExamples

  /// A trap whose crashed thread has `count` app frames and `marker` as the symbol of each frame
  /// in `at` (an inlined frame, as optimised builds write "Swift runtime failure: …").
  static func trap(count: Int, marker: String, at indexes: [Int]) -> String {
    let frames = (0..<count).map { index in
      indexes.contains(index)
        ? E.F(.app, marker, inline: true) : E.F(.app, "Worker.step\(index)()", offset: 4096 + index * 16)
    }
    return E.trap(frames: frames)
  }

  /// Reports with markers just inside and just outside the frame limits the rules search (6 and
  /// 12), deep in the backtrace, in several frames, and in none.
  static var reportTexts: [String] {
    var texts: [String] = []
    let markers = SwiftTrapUnknownRule.otherTrapFrames + ["Swift runtime failure: Index out of range"]
    for marker in markers {
      for indexes in [[0], [5], [6], [7], [11], [12], [13], [30], [3, 30], [], [12, 40]] {
        texts.append(trap(count: 45, marker: marker, at: indexes))
      }
    }
    // Short backtraces: the byte search takes its short-text path there.
    texts.append(trap(count: 3, marker: "objc_exception_rethrow", at: [2]))
    texts.append(trap(count: 8, marker: "Swift runtime failure: x", at: [7]))
    return texts
  }

  /// The contexts of the reports above and of every fixture report.
  static func contexts() throws -> [(name: String, context: DiagnosisContext)] {
    var result: [(String, DiagnosisContext)] = []
    for (index, text) in reportTexts.enumerated() {
      result.append(("generated \(index)", DiagnosisContext(report: try ReportReader.read(Array(text.utf8)))))
    }
    for path in Fixtures.files(in: "reports", extensions: ["ips", "crash"]) {
      guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { continue }
      result.append((path, DiagnosisContext(report: report)))
    }
    return result
  }

  /// The old test, on the whole backtrace's bytes: absent, or first found at or past `limit`.
  static func absentBeforeOnWholeText(_ backtrace: DiagnosisContext.Backtrace, _ fragment: String, _ limit: Int) -> Bool {
    switch backtrace.symbolText?.firstFrame(containing: fragment) {
    case .absent?: return true
    case .found(let index)? where index >= limit: return true
    default: return false
    }
  }

  /// What the searches bounded to the top frames answer agrees with the whole-text search they
  /// replaced, and both agree with the frame walk where they decide.
  @Test func topFrameSearchesAgreeWithWholeBacktraceSearch() throws {
    var decided = 0
    let fragments = SwiftTrapUnknownRule.otherTrapFrames + ["Swift runtime failure: "]
    for (name, context) in try Self.contexts() {
      context.forEachBacktrace { backtrace in
        for fragment in fragments {
          for limit in [6, 12] {
            let bounded = backtrace.symbolText?.firstFrame(containing: fragment, before: limit)
            var boundedAbsent = false
            if case .absent? = bounded { boundedAbsent = true }
            #expect(boundedAbsent == Self.absentBeforeOnWholeText(backtrace, fragment, limit), "\(name) \(fragment) \(limit)")
            if boundedAbsent {
              decided += 1
              let walked = backtrace.frames.prefix(limit).contains { $0.symbol?.prefilteredContains(fragment) == true }
              #expect(!walked, "\(name) \(fragment) \(limit)")
            }
          }
        }
      }
    }
    #expect(decided > 1000)
  }

  /// The marker of an inlined failure frame counts in the top 12 frames only, wherever else the
  /// backtrace holds it.
  @Test func failureFramesAreTakenFromTheTopTwelve() throws {
    let marker = "Swift runtime failure: Index out of range"
    for indexes in [[0], [11], [12], [30], [3, 30], [12, 40], []] {
      let report = try ReportReader.read(Array(Self.trap(count: 45, marker: marker, at: indexes).utf8))
      let failures = SwiftFailure.all(in: DiagnosisContext(report: report))
      #expect(failures.map(\.frameIndex) == indexes.filter { $0 < 12 }, "\(indexes)")
    }
  }

  /// swift-trap-unknown defers to the other trap rules for their frames in the top six only.
  @Test func trapRuleIgnoresOtherTrapFramesBelowTheTopSix() throws {
    for fragment in SwiftTrapUnknownRule.otherTrapFrames {
      for (indexes, fires) in [([0], false), ([5], false), ([6], true), ([30], true), ([3, 30], false)] {
        let report = try ReportReader.read(Array(Self.trap(count: 45, marker: "x " + fragment + " y", at: indexes).utf8))
        let diagnosis = SwiftTrapUnknownRule().diagnose(DiagnosisContext(report: report))
        // The dispatch assertion anywhere is the isolation trap (swift-isolation-trap's).
        let expected = fires && fragment != SwiftIsolationTrap.dispatchAssert
        #expect((diagnosis != nil) == expected, "\(fragment) \(indexes)")
      }
    }
  }

  /// `firstFrameIndex(…dispatchAssert…) != nil` is `SwiftIsolationTrap.evidence(in:) != nil`.
  @Test func isolationTrapTestAgreesWithItsEvidence() throws {
    var present = 0
    for (name, context) in try Self.contexts() {
      guard let backtrace = context.crashedBacktrace else { continue }
      let fast = context.firstFrameIndex(in: backtrace, containing: SwiftIsolationTrap.dispatchAssert) != nil
      #expect(fast == (SwiftIsolationTrap.evidence(in: context) != nil), "\(name)")
      if fast { present += 1 }
    }
    #expect(present > 0)
  }

  /// `indexedAppFrame(in:from:)` is `appFrameEvidence(in:from:)` with the index its path names
  /// (which `crashSiteSentence` parsed back out of the path).
  @Test func indexedAppFrameAgreesWithAppFrameEvidence() throws {
    var found = 0
    for (name, context) in try Self.contexts() {
      context.forEachBacktrace { backtrace in
        for start in [0, 1, 2, 7, backtrace.frames.count - 1, backtrace.frames.count, backtrace.frames.count + 3] {
          let plain = context.appFrameEvidence(in: backtrace, from: max(0, start))
          let indexed = context.indexedAppFrame(in: backtrace, from: max(0, start))
          #expect(indexed?.evidence == plain, "\(name) \(start)")
          if let plain, let indexed {
            #expect(Int(plain.path.split(separator: "[").last?.dropLast() ?? "") == indexed.index, "\(name)")
            found += 1
          }
        }
      }
    }
    #expect(found > 100)
  }
}
