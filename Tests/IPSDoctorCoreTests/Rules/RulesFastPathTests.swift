import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The shortcuts the rules and the engine take (byte paths for ASCII text, cheap tests before
/// dear ones) must answer exactly as the code they stand in for.
struct RulesFastPathTests {
  static let texts = [
    "", " ", "abc", "NSCameraUsageDescription", "key: NSPhotoLibraryAddUsageDescription, privacy-sensitive",
    "café NSCameraUsageDescription", "x\u{301}UsageDescription", "line\r\nNSMicrophoneUsageDescription",
    "The app's Info.plist must contain an NSLocationWhenInUseUsageDescription key",
    "scene-update watchdog transgression: app exhausted real (wall clock) time allowance of 10.00 seconds",
    "Elapsed total CPU time (seconds): 15.290 (user 10.310, system 4.980), 28% CPU\nElapsed application CPU time (seconds): 0.367, 1% CPU",
    "Elapsed total CPU time (seconds): 2.5, 12.5% CPU | next", "Elapsed application CPU time (seconds): , 3%\"",
    "process-launch watchdog transgression", " watchdog transgression", "x- watchdog transgression",
    "Élan watchdog transgression", "a\r\nb watchdog transgression", "Elapsed total CPU time (seconds): 1.0, é 5% CPU",
  ]

  @Test func hexDigitsAgreeWithRadixConversion() {
    var values: [UInt64] = [0, 1, 0xF, 0x10, 0xcbf2_9ce4_8422_2325, .max, 1 << 63]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<200 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(state >> (state & 63))
    }
    for value in values {
      let digits = String(value, radix: 16)
      #expect(CrashSignature.hexDigits(value) == String(repeating: "0", count: 16 - digits.count) + digits)
    }
  }

  @Test func lacksSymbolAgreesWithContextSymbol() throws {
    var checked = 0
    for path in Fixtures.files(in: "reports", extensions: ["ips", "crash"]) {
      guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { continue }
      let context = DiagnosisContext(report: report)
      for backtrace in context.backtraces {
        for frame in backtrace.frames {
          #expect(SymbolicationHint.lacksSymbol(frame) == (context.symbol(frame) == nil), "\(path)")
          checked += 1
        }
      }
    }
    for symbol in [nil, "", "???", "?", "????", "_$s4main3FooV3baryyF", "main"] {
      let frame = Frame(symbol: symbol)
      let context = DiagnosisContext(report: CrashReport(format: .json))
      #expect(SymbolicationHint.lacksSymbol(frame) == (context.symbol(frame) == nil), "\(String(describing: symbol))")
    }
    #expect(checked > 1000)
  }

  @Test func allThreadSymbolsAgreeWithFrameWalk() throws {
    let lists = [
      PrivacyUsageDescriptionMissingRule.apiFragments, FileLockHeldInBackgroundRule.lockFrames,
      ["sqlite3", "NSSQLite"], ["main", "UIApplicationMain"], ["", "é", "objc_msgSend"], ["no such symbol"],
    ]
    var found = 0
    for path in Fixtures.files(in: "reports", extensions: ["ips", "crash"]) {
      guard let report = try? ReportReader.read(Fixtures.bytes(path)) else { continue }
      let context = DiagnosisContext(report: report)
      let symbols = AllThreadSymbols(context)
      for fragments in lists {
        var reference: (Int, Evidence)?
        for (offset, fragment) in fragments.enumerated() {
          if let evidence = context.firstFrameInAnyThread(containing: [fragment]) {
            reference = (offset, evidence)
            break
          }
        }
        let fast = symbols.firstFrame(containingFirstOf: fragments, in: context)
        #expect(fast?.fragment == reference?.0 && fast?.evidence == reference?.1, "\(path) \(fragments)")
        if fast != nil { found += 1 }
      }
    }
    #expect(found > 20)
  }

  @Test func shellSafetyIsASCIIWordsOnly() {
    let safe = ["ChatApp.app.dSYM/Contents/Resources/DWARF/ChatApp", "Kit+x@2_-.", "plain/path.dSYM"]
    let unsafe = ["", "My App.app.dSYM/x", "a'b", "é", "tab\there", "cr\r\nlf", "ünïcode/path", "$HOME", "a;b", "~/x"]
    for path in safe { #expect(SymbolicationHint.isASCIIShellSafe(path), "\(path)") }
    for path in unsafe { #expect(!SymbolicationHint.isASCIIShellSafe(path), "\(path)") }
  }

  @Test func watchdogByteReadingAgreesWithCharacters() {
    for text in Self.texts {
      let ascii = WatchdogDetails.ASCIIText(text)
      if let range = text.prefilteredFirstRange(of: " watchdog transgression"), let ascii {
        let word = text[..<range.lowerBound].reversed().prefix(while: { $0.isLetter || $0 == "-" })
        #expect(ascii.wordBefore(range.lowerBound) == (word.isEmpty ? nil : String(word.reversed())), "\(text)")
      }
      for marker in ["Elapsed total CPU time (seconds): ", "Elapsed application CPU time (seconds): "] {
        let reference = WatchdogDetails.cpu(in: text, marker: marker)
        let fast = WatchdogDetails.cpu(in: text, ascii: ascii, marker: marker)
        #expect(fast.0 == reference.0 && fast.1 == reference.1, "\(text)")
      }
    }
    #expect(WatchdogDetails.ASCIIText("ascii only") != nil)
    #expect(WatchdogDetails.ASCIIText("é") == nil)
    #expect(WatchdogDetails.ASCIIText("a\r\nb") == nil)
    #expect(WatchdogDetails(text: "app watchdog transgression").event == "app")
  }

  @Test func usageKeyByteReadingAgreesWithCharacters() {
    for text in Self.texts {
      guard let range = text.prefilteredFirstRange(of: "UsageDescription") else { continue }
      let before = text[..<range.lowerBound].reversed().prefix(while: { $0.isLetter || $0.isNumber })
      let reference = before.isEmpty ? nil : String(before.reversed()) + "UsageDescription"
      #expect(PrivacyUsageDescriptionMissingRule.usageKey(in: text) == reference, "\(text)")
    }
    #expect(PrivacyUsageDescriptionMissingRule.asciiLettersAndDigits(before: "é".endIndex, in: "é") == nil)
  }

  @Test func abortFrameTestAgreesWithStrings() {
    let symbols = [
      "", "a", "abort", "abort ", "abort + 12", "abortx", "abort\u{301}", "abort \u{301}x", "abort\t1", "Abort",
      "raise", "raise ", "__pthread_kill + 8", "pthread_kill", "abort_with_payload", "abort_with_payload2",
      "abort_message extra", "__abort_with_payload", "__assert_rtn ", "é abort", "abort\r\n",
    ]
    for symbol in symbols {
      let reference = zip(AbortCalledRule.abortFrames, AbortCalledRule.abortFramePrefixes).contains {
        symbol == $0 || symbol.hasPrefix($1)
      }
      #expect(AbortCalledRule.isAbortFrame(symbol) == reference, "\(symbol)")
      if reference, let initial = symbol.utf8.first { #expect(AbortCalledRule.abortFrameInitials.contains(initial)) }
    }
  }

  @Test func signalPrefilterKeepsEveryNamedSignal() {
    let signals = [
      "SIGTERM", "SIGQUIT", "SIGHUP", "SIGINT", "SIGTERM (Terminated)", "SIGINTX", "SIGILL", "SIGSEGV", "SIGKILL",
      "SIGABRT", "SIGHUP\u{301}", "SIG", "", "sigterm", "ÉSIGTERM", "SIGTER",
    ]
    for signal in signals {
      let named = TerminatedBySignalRule.signals.keys.contains { signal.hasPrefix($0) }
      if named { #expect(TerminatedBySignalRule.mayStartWithName(signal), "\(signal)") }
    }
    #expect(!TerminatedBySignalRule.mayStartWithName("SIGSEGV"))
  }

  @Test func panicReplacingAgreesWithReplacing() {
    let texts = [
      "", "\" \"", "\"a\" \"b\"  c", "   ", "\"\" \"\" \"", "x  y   z", "é \" \" x", "a\r\n\" \"",
    ]
    for text in texts {
      for target in ["\" \"", "  "] {
        if let fast = KernelPanicRule.asciiReplacing(Array(target.utf8), in: text) {
          #expect(fast == text.replacing(target, with: " "), "\(text)")
        }
      }
    }
    #expect(KernelPanicRule.asciiReplacing(Array("  ".utf8), in: "é  ") == nil)
  }
}
