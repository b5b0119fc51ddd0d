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
  private static let separators: Set<Character> = [" ", "|", "\n", ">", ",", "\""]

  init(text: String) {
    let separators = Self.separators
    event = text.textFollowing("WatchdogEvent:", upTo: separators)
    if event == nil, let range = text.firstRange(of: " watchdog transgression") {
      let word = text[..<range.lowerBound].reversed().prefix(while: { $0.isLetter || $0 == "-" })
      if !word.isEmpty { event = String(word.reversed()) }
    }
    failedToTerminate = text.contains("Failed to terminate gracefully")
    if event == nil, failedToTerminate { event = "process-exit" }
    wallClockAllowance = text.numberFollowing("real (wall clock) time allowance of ")
    cpuAllowance = text.numberFollowing("CPU time allowance of ")
    visibility =
      text.textFollowing("WatchdogVisibility:", upTo: separators)
      ?? text.textFollowing("ProcessVisibility:", upTo: separators)
    stuck = text.contains(" is stuck")
    (totalCPUSeconds, totalCPUPercent) = Self.cpu(in: text, marker: "Elapsed total CPU time (seconds): ")
    (appCPUSeconds, appCPUPercent) = Self.cpu(in: text, marker: "Elapsed application CPU time (seconds): ")
  }

  /// "0.367, 1% CPU" → ("0.367", "1"): the number after `marker`, and the number before the first
  /// "%" on the rest of its line (up to a line feed, `"` or `|`).
  static func cpu(in text: String, marker: String) -> (String?, String?) {
    guard let range = text.firstRange(of: marker) else { return (nil, nil) }
    let line = text[range.upperBound...].prefix(while: { $0 != "\n" && $0 != "\"" && $0 != "|" })
    let seconds = line.prefix(while: { $0.isNumber || $0 == "." })
    var percent: String?
    if let percentSign = line.firstIndex(of: "%") {
      let digits = line[..<percentSign].reversed().prefix(while: { $0.isNumber || $0 == "." })
      if !digits.isEmpty { percent = String(digits.reversed()) }
    }
    return (seconds.isEmpty ? nil : String(seconds), percent)
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
