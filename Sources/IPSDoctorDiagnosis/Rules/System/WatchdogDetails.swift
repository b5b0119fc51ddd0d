import IPSDoctorSupport

/// What the watchdog wrote about a `0x8badf00d` termination: the event, the time allowance and
/// the CPU statistics (from `termination.reasons`/`details` or the legacy "Termination
/// Description").
struct WatchdogDetails: Sendable, Equatable {
  /// "scene-create", "scene-update", "process-launch", "process-exit", … or `nil` when not stated.
  var event: String?
  /// Seconds of wall-clock time the watchdog allowed, e.g. "19.97".
  var wallClockAllowance: String?
  /// Seconds of CPU time the watchdog allowed (background launches), e.g. "2.32".
  var cpuAllowance: String?
  /// e.g. "15.290" and "28"
  var totalCPUSeconds: String?
  var totalCPUPercent: String?
  /// The app's own CPU time in the interval, e.g. "0.367" and "1".
  var appCPUSeconds: String?
  var appCPUPercent: String?
  /// "Foreground" or "Background"
  var visibility: String?
  /// The watchdog called the process "stuck (deadlock)".
  var stuck: Bool
  /// "Failed to terminate gracefully after 5.0s"
  var failedToTerminate: Bool

  /// The terminators of the `WatchdogEvent:` and visibility values.
  private static let separators = " |\n>,\""

  init(text: String) {
    let separators = Self.separators
    event = text.textFollowing("WatchdogEvent:", upTo: separators)
    if event == nil, let range = text.prefilteredFirstRange(of: " watchdog transgression") {
      let before = text[..<range.lowerBound]
      let word = before[Self.start(ofRunEndingIn: before) { $0.isLetter || $0 == "-" }...]
      if !word.isEmpty { event = String(word) }
    }
    failedToTerminate = text.prefilteredContains("Failed to terminate gracefully")
    if event == nil, failedToTerminate { event = "process-exit" }
    wallClockAllowance = text.numberFollowing("real (wall clock) time allowance of ")
    cpuAllowance = text.numberFollowing("CPU time allowance of ")
    visibility =
      text.textFollowing("WatchdogVisibility:", upTo: separators)
      ?? text.textFollowing("ProcessVisibility:", upTo: separators)
    stuck = text.prefilteredContains(" is stuck")
    (totalCPUSeconds, totalCPUPercent) = Self.cpu(in: text, marker: "Elapsed total CPU time (seconds): ")
    (appCPUSeconds, appCPUPercent) = Self.cpu(in: text, marker: "Elapsed application CPU time (seconds): ")
  }

  /// "0.367, 1% CPU" → ("0.367", "1"): the ASCII digits and dots after `marker`, and those just
  /// before the first "%" on the rest of its line (up to a line feed, `"` or `|`).
  static func cpu(in text: String, marker: String) -> (String?, String?) {
    guard let range = text.prefilteredFirstRange(of: marker) else { return (nil, nil) }
    let isDigitOrDot: (UInt8) -> Bool = {
      ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
    }
    let line = text.utf8[range.upperBound...].prefix(while: {
      $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "|")
    })
    let seconds = line.prefix(while: isDigitOrDot)
    var percent: String?
    if let percentSign = line.firstIndex(of: UInt8(ascii: "%")) {
      let before = line[..<percentSign]
      let start = before.lastIndex(where: { !isDigitOrDot($0) }).map(before.index(after:)) ?? before.startIndex
      if start < percentSign { percent = String(Substring(before[start...])) }
    }
    return (seconds.isEmpty ? nil : String(Substring(seconds)), percent)
  }

  /// Where the run of `Character`s that `belongs` accepts at the end of `text` starts (its end
  /// when the last one is not accepted).
  static func start(ofRunEndingIn text: Substring, where belongs: (Character) -> Bool) -> Substring.Index {
    var start = text.endIndex
    while start > text.startIndex {
      let previous = text.index(before: start)
      guard belongs(text[previous]) else { break }
      start = previous
    }
    return start
  }

  /// Whether the app itself used little CPU in the interval (≤ 10 %), i.e. it was mostly waiting.
  var appMostlyWaiting: Bool? {
    guard let appCPUPercent, let value = Double(appCPUPercent) else { return nil }
    return value <= 10
  }

  /// One sentence about the time and CPU figures, or `nil` when the report states none.
  var figuresSentence: String? {
    var sentence = ""
    if let wallClockAllowance {
      sentence = "It exhausted its \(wallClockAllowance)-second wall-clock allowance"
    } else if let cpuAllowance {
      sentence = "It exhausted its \(cpuAllowance)-second CPU time allowance"
    } else if stuck {
      sentence = "The watchdog reported it stuck (deadlocked)"
    }
    if let appCPUSeconds {
      sentence += sentence.isEmpty ? "The app itself used " : "; the app itself used "
      sentence += "\(appCPUSeconds) s of CPU"
      if let appCPUPercent { sentence += " (\(appCPUPercent)%)" }
      if let totalCPUSeconds { sentence += " of \(totalCPUSeconds) s used by the whole system" }
    }
    guard !sentence.isEmpty else { return nil }
    if let waiting = appMostlyWaiting {
      sentence +=
        waiting
        ? ", so the main thread was mostly waiting (on I/O, a lock, a semaphore or a synchronous network call) rather than computing"
        : ", so the main thread was busy computing"
    }
    return sentence + "."
  }
}
