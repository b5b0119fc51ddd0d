import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI

/// Frames that give only an offset into their image (Crashlytics, MetricKit) print as
/// `Image + 0xOFFSET` in `show` and in every diagnosis output, never as a zero address.
@Suite("Offset-only frames in the outputs")
struct OffsetFrameOutputTests {
  static let crashlytics = "Fixtures/pasted/crashlytics-async-bridge-willpresent.txt"
  static let metricKit = "Fixtures/thirdparty/metrickit-hang-cpu-disk-writes.json"
  static let unsymbolicated = "Fixtures/pasted/crashlytics-bad-access-unsymbolicated.txt"

  @Test("show prints the offset in place of the address, with the symbol after it")
  func show() {
    let run = CLITest.run(["show", Self.crashlytics])
    #expect(run.status == .success)
    let lines = run.stdout.split(separator: "\n").map(String.init)
    let appFrame = lines.first { $0.hasPrefix("6   ChatApp") }
    #expect(
      appFrame?.hasSuffix(
        "ChatApp + 0x7954c @objc closure #1 in NotificationRouter.userNotificationCenter(_:willPresent:) + 72 (<compiler-generated>)"
      ) == true, "\(appFrame ?? "no frame 6")")
    #expect(!run.stdout.contains("0x0000000000000000"))
  }

  @Test("A hang's main thread is shown as sampled, not crashed")
  func showHang() {
    let run = CLITest.run(["show", Self.metricKit])
    #expect(run.stdout.contains("Thread 0 name:  Dispatch queue: com.apple.main-thread\nThread 0:\n"))
    #expect(!run.stdout.contains("Crashed"))
  }

  @Test("Text, JSON and Markdown describe an offset-only frame the same way", arguments: ["text", "json", "markdown"])
  func diagnosisOutputs(format: String) {
    let run = CLITest.run([Self.unsymbolicated, "--format", format, "--fail-on", "never"])
    #expect(run.stdout.contains("TrailMap + 0x3a1f4"))
    #expect(!run.stdout.contains("0x0000000000000000 "))
  }

  @Test("show prints an unsymbolicated offset-only frame as its image and offset alone")
  func showUnsymbolicated() {
    let run = CLITest.run(["show", Self.unsymbolicated])
    let lines = run.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first { $0.hasPrefix("0   TrailMap") }?.hasSuffix("TrailMap + 0x3a1f4") == true)
  }
}
