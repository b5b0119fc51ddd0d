import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// The shortcuts the firing rules of the System, Launch and Resources groups take (dyld's lines,
/// the watchdog's details, the abort frames) must answer exactly as the code they stand in for.
struct FiringRulesFastPathTests {
  static let dyldTexts = [
    "", " ", "\n", "|", "a|b", " a \n b ", "\r\n", "x\r\ny", "Library not loaded: @rpath/A.framework/A",
    "dyld: Library not loaded: /usr/lib/libz.dylib | Referenced from: /a | Reason: image not found",
    "Referenced from: <8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B> /private/var/App.app/App",
    "<UUID> /a > b", "<no close", "<>", "< >  ", "<\u{301}x> /a", "<é> /p", "<x>\u{301}/p", "<x> /p\r\n",
    " <x> /p", "no uuid", "Symbol not found: _X\nExpected in: <U> /System/Library/Frameworks/UIKit.framework/UIKit",
    "dependent dylib '@rpath/A.framework/A' not found for '/a/App', tried but didn't find: '/b'",
    "Libra", "Library not loaded:", "bbbb", "b", "Symbol not found: ", "dependent dylib '",
    "café | Library not loaded: /é", "ab\u{0}Symbol not found: _Y",
    String(repeating: "b", count: 200) + "Symbol not found: _Z",
  ]

  @Test func dyldPiecesAgreeWithSplitting() {
    for text in Self.dyldTexts {
      #expect(DyldError.pieces(text) == DyldError.splitPieces(text), "\(text.debugDescription)")
    }
  }

  @Test func dyldUUIDDropAgreesWithCharacterSearch() {
    for text in Self.dyldTexts {
      #expect(DyldLines.droppingUUID(text) == DyldLines.characterDroppingUUID(text), "\(text.debugDescription)")
    }
  }

  static let watchdogTexts = [
    "", "scene-create watchdog transgression: app exhausted real (wall clock) time allowance of 19.97 seconds",
    "exhausted real (wall clock) time allowance of .5.", "exhausted real (wall clock) time allowance of x",
    "CPU time allowance of 2.32 seconds | WatchdogEvent: scene-update", "app is stuck (deadlock)", "is stuck",
    " is stucK", "Failed to terminate gracefully after 5.0s", "Failed to terminate gracefull",
    "real (wall clock) time allowance of 1\r\n", "real (wall clock) time allowance of 12é", "é is stuck",
    "WatchdogCPUStatistics: ( | \"Elapsed total CPU time (seconds): 11.480 (user 11.480, system 0.000), 57% CPU\", | \"Elapsed application CPU time (seconds): 5.812, 29% CPU\" | )",
  ]

  @Test func watchdogASCIITextAgreesWithStringSearches() {
    var ascii = 0
    for text in Self.watchdogTexts {
      let expectASCII = text.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "\r") }
      guard let bytes = WatchdogDetails.ASCIIText(text) else {
        #expect(!expectASCII, "\(text.debugDescription)")
        continue
      }
      ascii += 1
      #expect(expectASCII && bytes.bytes == Array(text.utf8), "\(text.debugDescription)")
      for marker in ["Failed to terminate gracefully", " is stuck", " is stucK", "", "stuck (", "x"] {
        #expect(bytes.contains(marker) == text.prefilteredContains(marker), "\(text.debugDescription) \(marker)")
      }
      for marker in ["real (wall clock) time allowance of ", "CPU time allowance of ", "é"] {
        #expect(bytes.number(following: marker) == text.numberFollowing(marker), "\(text.debugDescription) \(marker)")
      }
    }
    #expect(ascii > 5)
  }

  /// `figuresSentence` as it was built before (clauses joined, first character uppercased).
  static func joinedFiguresSentence(_ details: WatchdogDetails) -> String? {
    var parts: [String] = []
    if let wallClockAllowance = details.wallClockAllowance {
      parts.append("it exhausted its \(wallClockAllowance)-second wall-clock allowance")
    } else if let cpuAllowance = details.cpuAllowance {
      parts.append("it exhausted its \(cpuAllowance)-second CPU time allowance")
    } else if details.stuck {
      parts.append("the watchdog reported it stuck (deadlocked)")
    }
    if let appCPUSeconds = details.appCPUSeconds {
      var text = "the app itself used \(appCPUSeconds) s of CPU"
      if let appCPUPercent = details.appCPUPercent { text += " (\(appCPUPercent)%)" }
      if let totalCPUSeconds = details.totalCPUSeconds { text += " of \(totalCPUSeconds) s used by the whole system" }
      parts.append(text)
    }
    guard !parts.isEmpty else { return nil }
    var sentence = parts.joined(separator: "; ")
    sentence = sentence.prefix(1).uppercased() + sentence.dropFirst()
    if let waiting = details.appMostlyWaiting {
      sentence +=
        waiting
        ? ", so the main thread was mostly waiting (on I/O, a lock, a semaphore or a synchronous network call) rather than computing"
        : ", so the main thread was busy computing"
    }
    return sentence + "."
  }

  @Test func watchdogFiguresSentenceAgreesWithJoinedClauses() {
    var sentences = 0
    for text in Self.watchdogTexts {
      var details = WatchdogDetails(text: text)
      for wall in [nil, "19.97"] as [String?] {
        for cpu in [nil, "2.32"] as [String?] {
          for stuck in [false, true] {
            for app in [nil, "0.367"] as [String?] {
              for percent in [nil, "1", "57", "x"] as [String?] {
                for total in [nil, "15.290"] as [String?] {
                  (details.wallClockAllowance, details.cpuAllowance, details.stuck) = (wall, cpu, stuck)
                  (details.appCPUSeconds, details.appCPUPercent, details.totalCPUSeconds) = (app, percent, total)
                  let expected = Self.joinedFiguresSentence(details)
                  if expected != nil { sentences += 1 }
                  #expect(details.figuresSentence == expected, "\(details)")
                }
              }
            }
          }
        }
      }
    }
    #expect(sentences > 100)
  }

  @Test func jetsamDescriptionsAgreeWithInterpolation() {
    var described = 0
    let examples = (JetsamEventRule.description.examples + JetsamMemoryLimitRule.description.examples).compactMap {
      example in
      if case .inline(let text) = example.input { return text }
      return nil
    }
    let extra = ExampleReport(
      .jetsam,
      payload:
        #"{"memoryStatus":{"pageSize":4096},"processes":[{"name":"é`x","rpages":0},{"pid":-3},{"name":"","pid":0,"reason":"","rpages":281474976710655}]}"#
    ).rendered
    for text in examples + [extra] {
      guard let report = try? ReportReader.read(text), let analysis = JetsamAnalysis(DiagnosisContext(report: report))
      else {
        continue
      }
      for process in analysis.jetsam.processes {
        var details: [String] = []
        if let pid = process.pid { details.append("pid \(pid)") }
        if let bytes = analysis.jetsam.residentBytes(process) {
          let tenths = (bytes * 10 + 524_288) / 1_048_576
          details.append("\(tenths / 10).\(tenths % 10) MB")
        }
        if let reason = process.reason { details.append(reason) }
        let expected =
          "`\(process.name ?? "unnamed")`" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
        #expect(analysis.describe(process) == expected)
        described += 1
      }
    }
    #expect(described > 8)
  }
}
