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
    // ASCII text is read over its bytes (see `ASCIIText`), not by walking `Character`s backwards
    // and forwards through the description; other text takes that walk.
    let ascii = ASCIIText(text)
    event = text.textFollowing("WatchdogEvent:", upTo: separators)
    if event == nil, let range = text.firstRange(of: " watchdog transgression") {
      if let ascii {
        event = ascii.wordBefore(range.lowerBound)
      } else {
        let before = text[..<range.lowerBound]
        let word = before.reversed().prefix(while: { $0.isLetter || $0 == "-" })
        if !word.isEmpty { event = String(word.reversed()) }
      }
    }
    failedToTerminate =
      ascii?.contains("Failed to terminate gracefully") ?? text.contains("Failed to terminate gracefully")
    if event == nil, failedToTerminate { event = "process-exit" }
    if let ascii {
      wallClockAllowance = ascii.number(following: "real (wall clock) time allowance of ")
      cpuAllowance = ascii.number(following: "CPU time allowance of ")
    } else {
      wallClockAllowance = text.numberFollowing("real (wall clock) time allowance of ")
      cpuAllowance = text.numberFollowing("CPU time allowance of ")
    }
    visibility =
      text.textFollowing("WatchdogVisibility:", upTo: separators)
      ?? text.textFollowing("ProcessVisibility:", upTo: separators)
    stuck = ascii?.contains(" is stuck") ?? text.contains(" is stuck")
    (totalCPUSeconds, totalCPUPercent) = Self.cpu(in: text, ascii: ascii, marker: "Elapsed total CPU time (seconds): ")
    (appCPUSeconds, appCPUPercent) = Self.cpu(
      in: text, ascii: ascii, marker: "Elapsed application CPU time (seconds): ")
  }

  /// "0.367, 1% CPU" → ("0.367", "1")
  static func cpu(in text: String, ascii: ASCIIText? = nil, marker: String) -> (String?, String?) {
    guard let range = text.firstRange(of: marker) else { return (nil, nil) }
    if let ascii { return ascii.cpu(from: range.upperBound) }
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

extension WatchdogDetails {
  /// Text whose bytes are all ASCII and hold no carriage return: there every byte is one `Character`
  /// (only "\r\n" pairs and non-ASCII scalars join bytes), `isLetter` is an ASCII letter and
  /// `isNumber` an ASCII digit, so `WatchdogDetails` can answer over the bytes what it answers over
  /// `Character`s.
  struct ASCIIText {
    let text: String
    let bytes: [UInt8]

    init?(_ text: String) {
      let bytes = text.withBorrowedUTF8 { utf8 -> [UInt8]? in
        guard ByteSearch.isASCII(utf8), ByteSearch.firstIndex(of: UInt8(ascii: "\r"), in: utf8, from: 0) == nil else {
          return nil
        }
        return Array(utf8)
      }
      guard let bytes else { return nil }
      self.text = text
      self.bytes = bytes
    }

    /// `text.contains(marker)` for an ASCII `marker` without line breaks (where the
    /// bytes decide it), searched from the marker's rarest byte: markers such as " is stuck"
    /// start with a byte the text is full of.
    func contains(_ marker: String) -> Bool {
      marker.withBorrowedUTF8 { needle in
        bytes.withUnsafeBytes { FrameSymbolText.firstIndex(of: UnsafeRawBufferPointer(needle), in: $0) != nil }
      }
    }

    /// `text.numberFollowing(marker)` over the bytes: the digits and dots after the first
    /// `marker`, or `nil` when there are none (an ASCII `Character` is a number exactly when it
    /// is a digit).
    func number(following marker: String) -> String? {
      guard let range = text.firstRange(of: marker) else { return nil }
      let lower = offset(range.upperBound)
      var upper = lower
      while upper < bytes.count && Self.isDigitOrDot(bytes[upper]) { upper += 1 }
      return upper > lower ? string(lower..<upper) : nil
    }

    private func offset(_ index: String.Index) -> Int { text.utf8.distance(from: text.utf8.startIndex, to: index) }

    private func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private static func isLetterOrHyphen(_ byte: UInt8) -> Bool {
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || byte == UInt8(ascii: "-")
    }

    private static func isDigitOrDot(_ byte: UInt8) -> Bool {
      (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
    }

    /// The letters and hyphens just before `end`, or `nil` when there are none.
    func wordBefore(_ end: String.Index) -> String? {
      let upper = offset(end)
      var lower = upper
      while lower > 0 && Self.isLetterOrHyphen(bytes[lower - 1]) { lower -= 1 }
      return lower < upper ? string(lower..<upper) : nil
    }

    /// `WatchdogDetails.cpu(in:marker:)` for the text after the marker, which ends at `start`.
    func cpu(from start: String.Index) -> (String?, String?) {
      let lower = offset(start)
      var end = lower
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\""),
        bytes[end] != UInt8(ascii: "|")
      {
        end += 1
      }
      var secondsEnd = lower
      while secondsEnd < end && Self.isDigitOrDot(bytes[secondsEnd]) { secondsEnd += 1 }
      var percent: String?
      if let sign = bytes[lower..<end].firstIndex(of: UInt8(ascii: "%")) {
        var first = sign
        while first > lower && Self.isDigitOrDot(bytes[first - 1]) { first -= 1 }
        if first < sign { percent = string(first..<sign) }
      }
      return (secondsEnd > lower ? string(lower..<secondsEnd) : nil, percent)
    }
  }
}
