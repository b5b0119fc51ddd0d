import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// The facts the rules now read stored or found with shorter searches (the memory fault's `0x…bad0`
/// marker, the crashed thread's top frames, the main-thread assertion's presence, every thread's
/// symbols, clipped texts) must answer exactly what the plain computations answered, over every
/// fixture report and every rule example.
struct RuleFactsTests {
  /// Every fixture report's context and every inline rule example's.
  static let contexts: [(path: String, context: DiagnosisContext)] = {
    var all: [(path: String, context: DiagnosisContext)] = Fixtures.files(
      in: "reports", extensions: ["ips", "crash"]
    ).compactMap { path in
      guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { return nil }
      return (path, DiagnosisContext(report: report))
    }
    for rule in RuleCatalog.all {
      for example in rule.description.examples {
        guard case .inline(let text) = example.input, let report = try? ReportReader.read(text) else { continue }
        all.append((rule.description.id + ": " + example.name, DiagnosisContext(report: report)))
      }
    }
    return all
  }()

  /// The plain `0x…bad0` test (it built an array of the addresses) that `isBad0` replaces.
  static func plainIsBad0(kind: MemoryFault.Kind, address: UInt64?, strippedAddress: UInt64?) -> Bool {
    guard kind == .invalidAddress || kind == .other else { return false }
    for value in [address, strippedAddress].compactMap({ $0 }) where value & 0x0000_FFFF_FFFF_FFFF == 0xbad0 {
      return true
    }
    return false
  }

  @Test func storedIsBad0IsThePlainTest() {
    var faults = 0
    var bad0 = 0
    for (path, context) in Self.contexts {
      guard let fault = context.memoryFault else { continue }
      faults += 1
      #expect(fault.isBad0 == fault.plainIsBad0, "\(path)")
      #expect(
        fault.isBad0
          == Self.plainIsBad0(kind: fault.kind, address: fault.address, strippedAddress: fault.strippedAddress),
        "\(path)")
      if fault.isBad0 { bad0 += 1 }
    }
    #expect(faults > 20)
    #expect(bad0 > 0)
    let kinds: [MemoryFault.Kind] = [
      .invalidAddress, .protectionFailure, .memoryError, .misaligned, .generalProtection, .other,
    ]
    let values: [UInt64?] = [
      nil, 0, 0xbad0, 0x1bad0, 0xffff_0000_0000_bad0, 0x0001_0000_0000_bad0, 0xbad1, 0x8000_0000_0000_bad0,
    ]
    for kind in kinds {
      for address in values {
        for stripped in values {
          #expect(
            MemoryFault.isBad0(kind: kind, address: address, strippedAddress: stripped)
              == Self.plainIsBad0(kind: kind, address: address, strippedAddress: stripped),
            "\(kind) \(String(describing: address)) \(String(describing: stripped))")
        }
      }
    }
  }

  static let topFragments = [
    "swift_beginAccess", "swift_dynamicCastFailure", "swift_abortRetainUnowned", "gpus_ReturnNotPermittedKillClient",
    "chkstk_darwin", "main", "objc_msgSend", "abort", "_", "s", "é", "", "UIApplicationMain", "start",
  ]

  /// The frame index found, -1 for absent, -2 for undecided.
  static func code(_ outcome: ByteSearch.Outcome) -> Int {
    switch outcome {
    case .found(let index): index
    case .absent: -1
    case .undecided: -2
    }
  }

  @Test func crashedThreadTopIsThePlainPrefixSearch() {
    var found = 0
    for (path, context) in Self.contexts {
      for fragment in Self.topFragments {
        for limit in [0, 1, 2, 3, 8, 10, 40, 1000] {
          var plain: (index: Int, evidence: Evidence)?
          if let backtrace = context.crashedBacktrace {
            for (index, frame) in backtrace.frames.prefix(limit).enumerated() {
              if let raw = frame.symbol, raw.utf8Contains(fragment) {
                plain = (index, context.frameEvidence(backtrace, index))
                break
              }
            }
          }
          let fast = context.crashedThreadTop(limit, contains: fragment)
          #expect(fast?.index == plain?.index, "\(path) \(fragment) \(limit)")
          #expect(fast?.evidence == plain?.evidence, "\(path) \(fragment) \(limit)")
          if fast != nil { found += 1 }
          // The bounded byte search against the unbounded one.
          if let text = context.crashedBacktrace?.symbolText {
            let whole = text.firstFrame(containing: fragment)
            let bounded = text.firstFrame(containing: fragment, before: limit)
            switch whole {
            case .found(let index) where index < limit:
              #expect(Self.code(bounded) == index, "\(path) \(fragment) \(limit)")
            case .found, .absent: #expect(Self.code(bounded) == -1, "\(path) \(fragment) \(limit)")
            // Undecided needles stay undecided, unless no symbol lies before `limit` at all.
            case .undecided: #expect(Self.code(bounded) < 0, "\(path) \(fragment) \(limit)")
            }
          }
        }
      }
    }
    #expect(found > 100)
  }

  static let threadFragmentLists: [[String]] = [
    FileLockHeldInBackgroundRule.lockFrames, GuardFileDescriptorRule.databaseFrames,
    PrivacyUsageDescriptionMissingRule.apiFragments, ["main", "start"], ["é", "objc_msgSend"], ["", "__"],
    ["no such symbol anywhere"],
  ]

  @Test func allThreadSymbolsIsThePlainWalk() {
    var found = 0
    for (path, context) in Self.contexts {
      for fragments in Self.threadFragmentLists {
        var plain: (fragment: Int, evidence: Evidence)?
        for (offset, fragment) in fragments.enumerated() {
          if let evidence = context.firstFrameInAnyThread(containing: [fragment]) {
            plain = (offset, evidence)
            break
          }
        }
        let fast = context.firstFrameInAnyThread(containingFirstOf: fragments)
        #expect(fast?.fragment == plain?.fragment, "\(path) \(fragments)")
        #expect(fast?.evidence == plain?.evidence, "\(path) \(fragments)")
        if fast != nil { found += 1 }
      }
    }
    #expect(found > 50)
  }

  static let clipTexts = [
    "", "a", "café", String(repeating: "a", count: 299), String(repeating: "a", count: 300),
    String(repeating: "a", count: 301), String(repeating: "é", count: 150), String(repeating: "é", count: 151),
    String(repeating: "é", count: 300), String(repeating: "é", count: 301),
    "e\u{301}" + String(repeating: "b", count: 299),
    String(repeating: "e\u{301}", count: 300), String(repeating: "\r\n", count: 200), String(repeating: "👩‍👩‍👧", count: 40),
  ]

  @Test func clipIsThePlainCharacterClip() {
    var texts = Self.clipTexts
    for (_, context) in Self.contexts {
      if let reason = context.languageException?.reason { texts.append(reason) }
      if let message = context.exceptionMessage { texts.append(message) }
      texts.append(contentsOf: context.applicationSpecificLines)
    }
    for text in texts {
      for limit in [0, 1, 5, 157, 160, 299, 300, 301, 600] {
        let plain = text.count <= limit ? text : String(text.prefix(limit)) + "…"
        #expect(TextScan.clip(text, limit) == plain, "\(text) \(limit)")
      }
      let plain = text.count <= 300 ? text : String(text.prefix(300)) + "…"
      #expect(TextScan.clip(text) == plain)
    }
    for (path, context) in Self.contexts {
      guard let exception = context.languageException else { continue }
      let plain = exception.reason.map { "\"" + ($0.count <= 300 ? $0 : String($0.prefix(300)) + "…") + "\"" }
      #expect(exception.reasonDisplay == plain ?? "(no reason recorded)", "\(path)")
    }
  }
}

extension MemoryFault {
  /// The plain test of `isBad0`, on the fault's fields.
  var plainIsBad0: Bool {
    RuleFactsTests.plainIsBad0(kind: kind, address: address, strippedAddress: strippedAddress)
  }
}

/// Which signal sender a frame's name is: the function itself or one of its variants.
@Suite struct SignalSenderNameTests {
  @Test(arguments: [
    ("pthread_kill", "pthread_kill"), ("pthread_kill$VARIANT$armv81", "pthread_kill"),
    ("__pthread_kill", "__pthread_kill"),
    ("raise", "raise"), ("kill", "kill"),
  ])
  func namesASender(name: String, sender: String) {
    #expect(SelfRaisedSignalRule.signalSender(named: name) == sender)
  }

  @Test(arguments: ["pthread_killer", "raiseError", "$kill", "", "abort"])
  func namesNoSender(name: String) {
    #expect(SelfRaisedSignalRule.signalSender(named: name) == nil)
  }
}
