import Testing

@testable import IPSDoctorDiagnosis

/// What the watchdog rules read from a termination description, and the sentence they write.
@Suite("Watchdog text")
struct WatchdogTextTests {
  @Test(
    "Whether the process was stuck or failed to terminate, and the numbers after the allowances",
    arguments: [
      ("", false, false, nil, nil),
      (
        "scene-create watchdog transgression: app exhausted real (wall clock) time allowance of 19.97 seconds", false,
        false, "19.97", nil
      ),
      ("exhausted real (wall clock) time allowance of .5.", false, false, ".5.", nil),
      ("exhausted real (wall clock) time allowance of x", false, false, nil, nil),
      ("CPU time allowance of 2.32 seconds | WatchdogEvent: scene-update", false, false, nil, "2.32"),
      ("app is stuck (deadlock)", true, false, nil, nil), ("is stuck", false, false, nil, nil),
      (" is stucK", false, false, nil, nil),
      ("Failed to terminate gracefully after 5.0s", false, true, nil, nil),
      ("Failed to terminate gracefull", false, false, nil, nil),
      // A carriage return or a letter that is not ASCII around the figures.
      ("real (wall clock) time allowance of 1\r\n", false, false, "1", nil),
      ("real (wall clock) time allowance of 12é", false, false, "12", nil), ("é is stuck", true, false, nil, nil),
      ("Failed to terminate gracefully\u{301}", false, false, nil, nil),
      (
        "WatchdogCPUStatistics: ( | \"Elapsed total CPU time (seconds): 11.480 (user 11.480, system 0.000), 57% CPU\", | \"Elapsed application CPU time (seconds): 5.812, 29% CPU\" | )",
        false, false, nil, nil
      ),
    ] as [(String, Bool, Bool, String?, String?)])
  func markersAndNumbers(text: String, stuck: Bool, failedToTerminate: Bool, wallClock: String?, cpu: String?) {
    let details = WatchdogDetails(text: text)
    #expect(details.stuck == stuck)
    #expect(details.failedToTerminate == failedToTerminate)
    #expect(details.wallClockAllowance == wallClock)
    #expect(details.cpuAllowance == cpu)
  }

  @Test(
    "The event before \"watchdog transgression\" and the CPU figures",
    arguments: [
      ("", nil, nil, nil, nil, nil), (" ", nil, nil, nil, nil, nil), ("abc", nil, nil, nil, nil, nil),
      (
        "scene-update watchdog transgression: app exhausted real (wall clock) time allowance of 10.00 seconds",
        "scene-update", nil, nil, nil, nil
      ),
      (
        "Elapsed total CPU time (seconds): 15.290 (user 10.310, system 4.980), 28% CPU\nElapsed application CPU time (seconds): 0.367, 1% CPU",
        nil, "15.290", "28", "0.367", "1"
      ),
      ("Elapsed total CPU time (seconds): 2.5, 12.5% CPU | next", nil, "2.5", "12.5", nil, nil),
      ("Elapsed application CPU time (seconds): , 3%\"", nil, nil, nil, nil, "3"),
      ("process-launch watchdog transgression", "process-launch", nil, nil, nil, nil),
      (" watchdog transgression", nil, nil, nil, nil, nil), ("x- watchdog transgression", "x-", nil, nil, nil, nil),
      ("Élan watchdog transgression", "Élan", nil, nil, nil, nil),
      ("a\r\nb watchdog transgression", "b", nil, nil, nil, nil),
      ("Elapsed total CPU time (seconds): 1.0, é 5% CPU", nil, "1.0", "5", nil, nil),
      // The figures are ASCII digits on the marker's line: a "%" on the next line is not its.
      ("Elapsed total CPU time (seconds): 1.0\r\n5% CPU", nil, "1.0", nil, nil, nil),
      ("Elapsed total CPU time (seconds): ١.٥, ٥% CPU", nil, nil, nil, nil, nil),
      ("app watchdog transgression", "app", nil, nil, nil, nil),
      ("Failed to terminate gracefully after 5.0s", "process-exit", nil, nil, nil, nil),
      ("WatchdogEvent:scene-update|Failed to terminate gracefully", "scene-update", nil, nil, nil, nil),
    ] as [(String, String?, String?, String?, String?, String?)])
  func details(
    text: String, event: String?, totalSeconds: String?, totalPercent: String?, appSeconds: String?,
    appPercent: String?
  ) {
    let details = WatchdogDetails(text: text)
    #expect(details.event == event)
    #expect(details.totalCPUSeconds == totalSeconds && details.totalCPUPercent == totalPercent)
    #expect(details.appCPUSeconds == appSeconds && details.appCPUPercent == appPercent)
  }

  static let waiting =
    ", so the main thread was mostly waiting (on I/O, a lock, a semaphore or a synchronous network call) rather than computing"

  @Test(
    "The figures sentence: the allowance (wall clock first), the app's CPU and what it says",
    arguments: [
      (nil, nil, false, nil, nil, nil, nil),
      ("19.97", nil, false, nil, nil, nil, "It exhausted its 19.97-second wall-clock allowance."),
      (nil, "2.32", false, nil, nil, nil, "It exhausted its 2.32-second CPU time allowance."),
      ("19.97", "2.32", true, nil, nil, nil, "It exhausted its 19.97-second wall-clock allowance."),
      (nil, nil, true, nil, nil, nil, "The watchdog reported it stuck (deadlocked)."),
      (nil, "2.32", true, nil, nil, nil, "It exhausted its 2.32-second CPU time allowance."),
      (nil, nil, false, "0.367", nil, nil, "The app itself used 0.367 s of CPU."),
      (nil, nil, false, "0.367", "1", nil, "The app itself used 0.367 s of CPU (1%)" + waiting + "."),
      (
        nil, nil, false, "0.367", "57", "15.290",
        "The app itself used 0.367 s of CPU (57%) of 15.290 s used by the whole system, so the main thread was busy computing."
      ),
      (nil, nil, false, "0.367", "x", nil, "The app itself used 0.367 s of CPU (x%)."),
      (
        nil, nil, false, "0.367", nil, "15.290",
        "The app itself used 0.367 s of CPU of 15.290 s used by the whole system."
      ),
      (
        "19.97", nil, false, "0.367", "1", "15.290",
        "It exhausted its 19.97-second wall-clock allowance; the app itself used 0.367 s of CPU (1%) of 15.290 s used by the whole system"
          + waiting + "."
      ),
      (
        nil, nil, true, "0.367", nil, nil,
        "The watchdog reported it stuck (deadlocked); the app itself used 0.367 s of CPU."
      ),
      // A percentage or a total without the app's seconds states no figure of its own.
      (nil, nil, false, nil, "57", nil, nil), (nil, nil, false, nil, nil, "15.290", nil),
      (
        "19.97", nil, false, nil, "57", nil,
        "It exhausted its 19.97-second wall-clock allowance, so the main thread was busy computing."
      ),
    ] as [(String?, String?, Bool, String?, String?, String?, String?)])
  func figuresSentence(
    wallClock: String?, cpu: String?, stuck: Bool, appSeconds: String?, appPercent: String?, totalSeconds: String?,
    expected: String?
  ) {
    var details = WatchdogDetails(text: "")
    (details.wallClockAllowance, details.cpuAllowance, details.stuck) = (wallClock, cpu, stuck)
    (details.appCPUSeconds, details.appCPUPercent, details.totalCPUSeconds) = (appSeconds, appPercent, totalSeconds)
    #expect(details.figuresSentence == expected)
  }
}
