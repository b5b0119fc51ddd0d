import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

@Suite("Legacy text renderer")
struct LegacyTextRendererTests {
  /// Renders `report` and reads the text back.
  func roundTrip(_ report: CrashReport) -> (text: String, report: CrashReport) {
    let text = LegacyTextRenderer.render(report)
    return (text, LegacyTextSamples.parse(text))
  }

  /// The parts a person reads, compared after a render and re-parse.
  func expectSameCrash(_ again: CrashReport, _ original: CrashReport) {
    #expect(again.exception == original.exception)
    #expect(again.termination == original.termination)
    #expect(again.faultingThread == original.faultingThread)
    #expect(again.applicationSpecificLines == original.applicationSpecificLines)
    #expect(again.kernelTriage == original.kernelTriage)
    #expect(again.vmRegionInfo == original.vmRegionInfo)
    #expect(again.lastExceptionBacktrace == original.lastExceptionBacktrace)
    #expect(again.threads == original.threads)
    #expect(again.images == original.images)
    #expect(again.processName == original.processName)
    #expect(again.pid == original.pid)
    #expect(again.appVersion == original.appVersion)
    #expect(again.buildVersion == original.buildVersion)
    #expect(again.osVersion == original.osVersion)
    #expect(again.isCorpse == original.isCorpse)
    #expect(again.warnings.isEmpty, "\(again.warnings)")
  }

  @Test("An iOS text report survives a render and re-parse")
  func iosRoundTrip() {
    let original = LegacyTextSamples.parse(LegacyTextSamples.ios)
    let (_, again) = roundTrip(original)
    expectSameCrash(again, original)
  }

  @Test("A macOS text report survives a render and re-parse")
  func macOSRoundTrip() {
    let original = LegacyTextSamples.parse(LegacyTextSamples.macOS)
    let (_, again) = roundTrip(original)
    expectSameCrash(again, original)
  }

  @Test("The layout follows Apple's: header, exception, threads, registers, images")
  func layout() {
    let text = LegacyTextRenderer.render(LegacyTextSamples.parse(LegacyTextSamples.ios))
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.contains("Process:             ChatApp [4242]"))
    #expect(lines.contains("Version:             2.4 (118)"))
    #expect(lines.contains("Code Type:           ARM-64 (Native)"))
    #expect(lines.contains("Exception Type:  EXC_BAD_ACCESS (SIGSEGV)"))
    #expect(lines.contains("Exception Note:  EXC_CORPSE_NOTIFY"))
    #expect(lines.contains("Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d"))
    #expect(lines.contains("Triggered by Thread:  3"))
    #expect(lines.contains("Thread 0 name:  Dispatch queue: com.apple.main-thread"))
    #expect(lines.contains("Thread 3 Crashed:"))
    #expect(
      lines.contains(
        "0   ChatApp                       0x00000001045a1234 ChatViewModel.send(_:) + 52 (ChatViewModel.swift:42)"
      ))
    #expect(
      lines.contains(
        "1   Google Chrome Framework       0x0000000104a00100 0x104a00000 + 256"))
    #expect(lines.contains("Thread 3 crashed with ARM Thread State (64-bit):"))
    #expect(lines.contains { $0.contains("x1: 0xffffffffffffffff") })
    #expect(lines.contains("  esr: 0x92000006  (Data Abort) byte read Translation fault"))
    #expect(lines.contains("Binary Images:"))
    #expect(text.hasSuffix("\n"))
    #expect(!text.contains("this text is not part of the report"))
    // Every frame line puts its address in the same column.
    let frameLines = lines.filter { $0.first?.isNumber == true && $0.contains(" 0x") }
    let columns = Set(frameLines.map { $0.firstRange(of: "0x")!.lowerBound.utf16Offset(in: $0) })
    #expect(columns.count == 1)
  }

  @Test("A JSON report renders as text and reads back the same way")
  func jsonReport() throws {
    let ips = """
      {"app_name":"Demo","bug_type":"309","os_version":"iPhone OS 18.0 (22A3354)","name":"Demo"}
      {
        "procName":"Demo","pid":77,"procPath":"/private/var/containers/Bundle/Application/X/Demo.app/Demo",
        "bundleInfo":{"CFBundleIdentifier":"com.example.demo","CFBundleShortVersionString":"2.4","CFBundleVersion":"118"},
        "osVersion":{"train":"iPhone OS 18.0","build":"22A3354","releaseType":"User"},
        "cpuType":"ARM-64","modelCode":"iPhone16,1","captureTime":"2024-09-20 10:00:00.0000 +0200",
        "isCorpse":1,
        "exception":{"type":"EXC_CRASH","signal":"SIGABRT","codes":"0x0000000000000000, 0x0000000000000000"},
        "termination":{"namespace":"SIGNAL","code":6,"indicator":"Abort trap: 6","byProc":"Demo","byPid":77},
        "asi":{"libsystem_c.dylib":["abort() called"]},
        "faultingThread":0,
        "threads":[{"triggered":true,"queue":"com.apple.main-thread","frames":[
          {"imageIndex":1,"imageOffset":37436,"symbol":"__pthread_kill","symbolLocation":8},
          {"imageIndex":0,"imageOffset":4096}]}],
        "usedImages":[
          {"base":4294967296,"size":65536,"uuid":"6f1c3b2a-9d8e-4f00-a1b2-c3d4e5f60718","name":"Demo","arch":"arm64","source":"P","path":"/private/var/containers/Bundle/Application/X/Demo.app/Demo"},
          {"base":7516192768,"size":262144,"uuid":"11112222-3333-4444-5555-666677778888","name":"libsystem_kernel.dylib","arch":"arm64e","source":"S","path":"/usr/lib/system/libsystem_kernel.dylib"}]
      }
      """
    let report = try ReportReader.read(ips)
    let (text, again) = roundTrip(report)
    // iOS 15 and later write the version first, as the `.ips` names it: `app_version (build_version)`.
    #expect(text.contains("Version:             2.4 (118)"))
    #expect(text.contains("Termination Reason: Namespace SIGNAL, Code 0x6 Abort trap: 6"))
    #expect(text.contains("Terminating Process: Demo [77]"))
    #expect(text.contains("0   libsystem_kernel.dylib        0x00000001c000923c __pthread_kill + 8"))
    #expect(text.contains("1   Demo                          0x0000000100001000 0x100000000 + 4096"))
    #expect(again.exception?.type == report.exception?.type)
    #expect(again.exception?.signal == report.exception?.signal)
    #expect(again.exception?.codes == report.exception?.codes)
    #expect(again.termination == report.termination)
    #expect(again.applicationSpecificLines == ["abort() called"])
    #expect(again.isCorpse == true)
    #expect(again.bundleID == "com.example.demo")
    #expect(again.appVersion == "2.4")
    #expect(again.buildVersion == "118")
    #expect(again.faultingThread == 0)
    #expect(again.threads.count == 1)
    #expect(again.threads[0].frames.map(\.imageIndex) == report.threads[0].frames.map(\.imageIndex))
    #expect(again.threads[0].frames.map(\.imageOffset) == report.threads[0].frames.map(\.imageOffset))
    #expect(again.threads[0].frames.map(\.symbol) == report.threads[0].frames.map(\.symbol))
    #expect(again.images.map(\.base) == report.images.map(\.base))
    #expect(again.images.map(\.size) == report.images.map(\.size))
    #expect(again.images.map(\.name) == report.images.map(\.name))
    #expect(again.images.map(\.uuid) == report.images.map { $0.uuid?.uppercased() })
  }

  @Test("Control characters from the report never reach the output raw")
  func escapesControlCharacters() {
    var report = LegacyTextSamples.parse(LegacyTextSamples.ios)
    report.processName = "Evil\u{1B}[2J"
    report.threads[3].frames[0].symbol = "boom\u{1B}]0;title\u{07}\r\nThread 9 Crashed:"
    report.applicationSpecificInfo = [ApplicationSpecificInfo(image: nil, lines: ["bad\u{202E}line"])]
    report.images[0].path = "/tmp/\u{9B}x"
    let text = LegacyTextRenderer.render(report)
    for scalar in text.unicodeScalars where scalar != "\n" {
      #expect(!TerminalText.isUnsafe(scalar.value), "raw U+\(String(scalar.value, radix: 16))")
    }
    #expect(text.contains("Process:             Evil\\u{1B}[2J [4242]"))
    #expect(!text.contains("\nThread 9 Crashed:"))
  }

  @Test("A jetsam event renders its largest and killed processes")
  func jetsam() {
    var report = CrashReport(format: .json, kind: .jetsam)
    report.bugType = BugType("298")
    var summary = JetsamSummary()
    summary.pageSize = 16384
    summary.largestProcess = "Photos"
    var killed = JetsamSummary.Process(name: "Photos")
    killed.pid = 12
    killed.reason = "per-process-limit"
    killed.residentPages = 6400
    var other = JetsamSummary.Process(name: "backboardd")
    other.residentPages = 100
    summary.processes = [other, killed]
    report.jetsam = summary
    let text = LegacyTextRenderer.render(report)
    #expect(text.contains("Report Type:         jetsam event (bug_type 298)"))
    #expect(text.contains("Largest Process:     Photos"))
    #expect(text.contains("    Photos [12]  100.0 MB  reason: per-process-limit"))
    #expect(text.contains("Largest Processes:\n    Photos [12]"))
  }

  @Test("A panic renders its panic string; a stackshot its reason")
  func panicAndStackshot() {
    var panic = CrashReport(format: .legacyText, kind: .panic)
    var summary = PanicSummary()
    summary.panicString = "panic(cpu 1 caller 0xfffffe001f5bd638): watchdog timeout\nDebugger message: panic"
    summary.panickedTask = "pid 0: kernel_task"
    panic.panic = summary
    let panicText = LegacyTextRenderer.render(panic)
    #expect(panicText.contains("Panic String:\npanic(cpu 1 caller 0xfffffe001f5bd638): watchdog timeout\n"))
    #expect(panicText.contains("Panicked task:       pid 0: kernel_task"))

    var stackshot = CrashReport(format: .jsonHeaderTextBody, kind: .stackshot)
    var shot = StackshotSummary()
    shot.reason = "Manually triggered stackshot"
    shot.frontmostProcesses = ["SpringBoard"]
    stackshot.stackshot = shot
    let shotText = LegacyTextRenderer.render(stackshot)
    #expect(shotText.contains("Reason:              Manually triggered stackshot"))
    #expect(shotText.contains("Frontmost:           SpringBoard"))
  }

  @Test("Resource reports render their event and fields once")
  func resource() {
    let report = LegacyTextSamples.parse(
      """
      Command:         MapMyRun
      PID:             2489
      Event:           cpu usage
      Action taken:    Process killed
      CPU limit:       48s
      """)
    let text = LegacyTextRenderer.render(report)
    #expect(text.contains("Event:               cpu usage"))
    #expect(text.contains("Action taken:        Process killed"))
    #expect(text.contains("CPU limit:           48s"))
    #expect(text.components(separatedBy: "cpu usage").count == 2)
  }

  /// Frames as `show` writes those whose report knows only the offset into their image
  /// (Crashlytics, MetricKit): the image column, then "Image + 0xOFFSET" where the address goes.
  @Test(
    "A frame known only by its offset is read back as that image and offset, without an address",
    arguments: [
      ("0   TrailMap                      TrailMap + 0x3a1f4", "TrailMap", 0x3a1f4, nil, nil),
      (
        "2   UIKitCore                     UIKitCore + 0x1a2b3c -[UIViewController viewDidLoad] + 104",
        "UIKitCore", 0x1a2b3c, "-[UIViewController viewDidLoad]", 104
      ),
      ("4   My Helper   My Helper + 0x10 helper() + 8", "My Helper", 0x10, "helper()", 8),
      // Only one name before the "+": the image is that name.
      ("1   Reader + 0x2000", "Reader", 0x2000, nil, nil),
    ] as [(String, String, UInt64, String?, UInt64?)])
  func offsetOnlyFrame(line: String, image: String, offset: UInt64, symbol: String?, location: UInt64?) throws {
    let frame = try #require(LegacyTextLine.frame(line)).frame
    #expect(frame.imageName == image)
    #expect(frame.imageOffset == offset)
    #expect(frame.address == nil)
    #expect(frame.symbol == symbol)
    #expect(frame.symbolLocation == location)
  }

  @Test("Apple's frame lines keep their address: no \"+\" comes before it")
  func appleFramesKeepTheirAddress() throws {
    let line = "1   Demo                          0x0000000100001000 0x100000000 + 4096"
    let frame = try #require(LegacyTextLine.frame(line)).frame
    #expect(frame.imageName == "Demo")
    #expect(frame.address == 0x1_0000_1000)
    #expect(frame.imageOffset == 4096)
    // "??? + 0x10" names no image; the line is read as before (the address column).
    #expect(try #require(LegacyTextLine.frame("0   ??? + 0x10")).frame.imageName == "??? +")
  }

  @Test("A Crashlytics trace shown and read back is the same crash, and shows the same again")
  func offsetOnlyReportRoundTrip() throws {
    let original = try ReportReader.read(try Fixtures.bytes("pasted/crashlytics-bad-access-unsymbolicated.txt"))
    #expect(original.threads.first?.frames.first?.imageOffset == 0x3a1f4)
    let (text, again) = roundTrip(original)
    #expect(text.contains("0   TrailMap                      TrailMap + 0x3a1f4\n"))
    #expect(text.contains("               0x0 -                ???  TrailMap ???\n"))
    let frames = { (report: CrashReport) in
      report.threads.map { $0.frames.map { [$0.imageName, $0.imageOffset.map { String($0) }, $0.symbol] } }
    }
    #expect(frames(again) == frames(original))
    #expect(again.threads.flatMap(\.frames).allSatisfy { $0.address == nil })
    // "0x0 - ???" is an image whose base is not known, not one at address zero.
    #expect(again.images.map(\.name) == ["TrailMap", "UIKitCore", "libsystem_kernel.dylib"])
    #expect(again.images.allSatisfy { $0.base == nil })
    #expect(LegacyTextRenderer.render(again) == text)
  }

  @Test(
    "An event names its measure in a text report",
    arguments: [
      ("hang (4.20 sec)", .hang), ("hang", .hang), ("cpu usage", .cpu), ("CPU exception (90 s of CPU time)", .cpu),
      ("disk writes", .diskWrites), ("disk", nil), ("wakeups", nil), ("", nil), ("hanging", nil),
    ] as [(String, ResourceSummary.Measure?)])
  func measureOfEvent(event: String, measure: ResourceSummary.Measure?) {
    #expect(ResourceSummary.Measure(event: event) == measure)
  }

  @Test("A MetricKit hang shown and read back is still a hang report")
  func metricKitHangRoundTrip() throws {
    let original = try ReportReader.read(try Fixtures.bytes("thirdparty/metrickit-hang-cpu-disk-writes.json"))
    let (text, again) = roundTrip(original)
    #expect(text.contains("Event:               hang (4.20 sec)\n"))
    #expect(again.resource?.measure == .hang)
    #expect(Doctor.diagnose(again).diagnoses.map(\.ruleID) == Doctor.diagnose(original).diagnoses.map(\.ruleID))
    #expect(Doctor.diagnose(again).diagnoses.first?.ruleID == "main-thread-hang")
  }
}
