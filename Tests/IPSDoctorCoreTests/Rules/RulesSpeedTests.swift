import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The rules' cheaper first tests and text shortcuts (`Rules/RuleFastPaths.swift` and the rules
/// that use them) must answer exactly as the code they stand in for.
struct RulesSpeedTests {
  /// Every fixture report's context.
  static let contexts: [(path: String, context: DiagnosisContext)] = Fixtures.files(
    in: "reports", extensions: ["ips", "crash"]
  ).compactMap { path in
    guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { return nil }
    return (path, DiagnosisContext(report: report))
  }

  static let texts = [
    "", "'", "''", "a'b", "tried: '/a/b' (no such file), '/c/d' (no such file, not in dyld cache)",
    "'/x' '/y", "'\u{301}/a' (no such file), '/b'", "café '/é/p' (x)", "line\r\n'/a'\r\n'/b'",
    "'unterminated", String(repeating: "é", count: 150), String(repeating: "a", count: 300),
    String(repeating: "a", count: 301), String(repeating: "é", count: 300),
    "e\u{301}" + String(repeating: "b", count: 299),
  ]

  @Test func quotedPartsAgreeWithCharacterLoop() {
    for text in Self.texts {
      let fast = DyldLines.asciiQuotedParts(text)
      if text.utf8.allSatisfy({ $0 < 0x80 }) {
        #expect(fast == DyldLines.quotedParts(text), "\(text)")
      } else {
        #expect(fast == nil, "\(text)")
      }
    }
  }

  /// The fixtures' contexts and those of the dyld rules' examples.
  static let dyldContexts: [(path: String, context: DiagnosisContext)] = {
    var all = Self.contexts
    for rule in [DyldMissingLibraryRule.self, DyldMissingSymbolRule.self] as [any DiagnosisRule.Type] {
      for example in rule.description.examples {
        guard case .inline(let text) = example.input, let report = try? ReportReader.read(text) else { continue }
        all.append((example.name, DiagnosisContext(report: report)))
      }
    }
    return all
  }()

  @Test func dyldLinesAgreeWithDyldError() {
    var found = 0
    for (path, context) in Self.dyldContexts {
      let dyld = DyldError(context)
      let lines = DyldLines(dyld)
      #expect(lines.triedPaths == dyld.triedPaths, "\(path)")
      #expect(lines.referencedFrom == dyld.referencedFrom, "\(path)")
      #expect(lines.expectedIn == dyld.expectedIn, "\(path)")
      #expect(lines.missingLibrary?.evidence == dyld.missingLibrary?.evidence, "\(path)")
      #expect(lines.missingLibrary?.path == dyld.missingLibrary?.path, "\(path)")
      #expect(lines.missingSymbol?.evidence == dyld.missingSymbol?.evidence, "\(path)")
      #expect(lines.missingSymbol?.symbol == dyld.missingSymbol?.symbol, "\(path)")
      for marker in ["Expected in: ", "Library not loaded: ", "tried: ", "é", "", "dyld"] {
        #expect(lines.value(after: marker)?.evidence == dyld.value(after: marker)?.evidence, "\(path) \(marker)")
        #expect(lines.value(after: marker)?.value == dyld.value(after: marker)?.value, "\(path) \(marker)")
      }
      if !dyld.triedPaths.isEmpty || dyld.missingSymbol != nil || dyld.referencedFrom != nil { found += 1 }
    }
    #expect(found > 2)
  }
}

extension RulesSpeedTests {
  @Test func throwSiteSentenceAgreesGivenTheAppFrame() {
    var checked = 0
    for (path, context) in Self.contexts {
      guard let exception = LanguageException.find(in: context) else { continue }
      #expect(
        exception.throwSiteSentence(appFrame: exception.appFrame(in: context))
          == exception.throwSiteSentence(in: context), "\(path)")
      checked += 1
    }
    #expect(checked > 10)
  }
}

extension RulesSpeedTests {
  @Test func abortFrameTestAgreesOnFixtureSymbols() {
    var symbols = 0
    for (_, context) in Self.contexts {
      for thread in context.report.threads {
        for frame in thread.frames {
          guard let symbol = frame.symbol else { continue }
          let reference = zip(AbortCalledRule.abortFrames, AbortCalledRule.abortFramePrefixes).contains {
            symbol == $0 || symbol.hasPrefix($1)
          }
          #expect(AbortCalledRule.isAbortFrame(symbol) == reference, "\(symbol)")
          symbols += 1
        }
      }
    }
    #expect(symbols > 1000)
  }
}
