import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The builders of reports that are not crashes (`ExampleReport+OtherReports.swift`): each call →
/// the header with its bug_type, then exactly this body.
@Suite struct ExampleReportOtherKindsTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var report: ExampleReport
    var bugType: String
    var body: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "panic with product, build and a quote and a newline in its string",
      report: .panic(
        "panic(cpu 0 caller 0x1): \"x86 global reset\"\nDebugger message: panic", product: "iBridge2,3",
        build: "Bridge OS 2.4.1 (15P6703)"),
      bugType: "210",
      body:
        #"{"build":"Bridge OS 2.4.1 (15P6703)","product":"iBridge2,3","panicString":"panic(cpu 0 caller 0x1): \"x86 global reset\"\nDebugger message: panic"}"#
    ),
    Case(
      name: "panic with its string only", report: .panic("panic(cpu 1 caller 0x2): btn_rst"), bugType: "210",
      body: #"{"panicString":"panic(cpu 1 caller 0x2): btn_rst"}"#),
    Case(
      name: "full panic log names its string `string`",
      report: .fullPanic("panic(cpu 1 caller 0x2): btn_rst\nDebugger message: panic", product: "iPhone11,8"),
      bugType: "151",
      body: #"{"product":"iPhone11,8","string":"panic(cpu 1 caller 0x2): btn_rst\nDebugger message: panic"}"#),
    Case(
      name: "stackshot with a reason and no processes", report: .stackshot(reason: "hang"), bugType: "288",
      body: #"{"reason":"hang","processByPid":{}}"#),
    Case(
      name: "stackshot with processes by pid (in pid order) and the frontmost pid",
      report: .stackshot(
        reason: "watchdog timeout", product: "iPhone14,2", processes: [412: "Example", 1: "launchd"], frontmost: [412]),
      bugType: "288",
      body:
        #"{"reason":"watchdog timeout","product":"iPhone14,2","frontmostPids":[412],"processByPid":{"1":{"procname":"launchd"},"412":{"procname":"Example"}}}"#
    ),
    Case(
      name: "stackshot without a reason", report: .stackshot(reason: nil), bugType: "288",
      body: #"{"processByPid":{}}"#),
    Case(
      name: "system watchdog with event and reason",
      report: .systemWatchdog(
        process: "WindowServer", event: "userspace watchdog timeout", reason: "no successful checkins"),
      bugType: "409",
      body: #"{"procName":"WindowServer","event":"userspace watchdog timeout","reason":"no successful checkins"}"#),
    Case(
      name: "system watchdog naming its process only", report: .systemWatchdog(process: "backboardd"),
      bugType: "409", body: #"{"procName":"backboardd"}"#),
    Case(
      name: "text resource report: values at column 18, measures in order",
      report: .resource(
        .wakeupsResource, event: "cpu usage", action: "Process killed",
        measures: ["CPU": "48 seconds cpu time over 54 seconds", "Limit": "80% cpu over 60 seconds"]),
      bugType: "206",
      body: """
        Command:         Example
        Event:           cpu usage
        Action taken:    Process killed
        CPU:             48 seconds cpu time over 54 seconds
        Limit:           80% cpu over 60 seconds

        """),
    Case(
      name: "JSON resource report without an action: measures under their lowercased names",
      report: .resource(
        .wakeupsResource, event: "wakeups", action: nil, measures: ["Wakeups": "45001 wakeups over 180 seconds"],
        format: .json),
      bugType: "206", body: #"{"event":"wakeups","procName":"Example","wakeups":"45001 wakeups over 180 seconds"}"#),
    Case(
      name: "cpu usage report with no measure", report: .cpuUsage(), bugType: "202",
      body: "Command:         Example\nEvent:           cpu usage\nAction taken:    none\n"),
    Case(
      name: "cpu usage report that killed the process",
      report: .cpuUsage(cpu: "90 seconds cpu time over 151 seconds (60% cpu average)", action: "Process killed"),
      bugType: "202",
      body: """
        Command:         Example
        Event:           cpu usage
        Action taken:    Process killed
        CPU:             90 seconds cpu time over 151 seconds (60% cpu average)

        """),
    Case(
      name: "disk writes report as text", report: .diskWrites(writes: "1073.74 MB of file backed memory dirtied"),
      bugType: "145",
      body: """
        Command:         Example
        Event:           disk writes
        Action taken:    none
        Writes:          1073.74 MB of file backed memory dirtied

        """),
    Case(
      name: "disk writes report as JSON", report: .diskWrites(writes: "2147.65 MB", format: .json), bugType: "145",
      body: #"{"event":"disk writes","action":"none","procName":"Example","writes":"2147.65 MB"}"#),
    Case(
      name: "jetsam event with a killed and a running process",
      report: .jetsam(
        pageSize: 16384, largestProcess: "Example",
        processes: [
          ExampleReport.JetsamProcess(
            "Example", pid: 412, residentPages: 2048, reason: "per-process-limit", states: ["frontmost"]),
          ExampleReport.JetsamProcess("launchd", pid: 1, residentPages: 100),
        ]),
      bugType: "298",
      body:
        #"{"memoryStatus":{"pageSize":16384},"largestProcess":"Example","processes":[{"name":"Example","pid":412,"rpages":2048,"reason":"per-process-limit","states":["frontmost"]},{"name":"launchd","pid":1,"rpages":100}]}"#
    ),
  ]

  @Test(arguments: cases)
  func rendersTheBody(_ example: Case) {
    #expect(example.report.rendered == ExampleReport.header(bugType: example.bugType) + "\n" + example.body)
  }

  @Test func panicReadsBackAsThePanicItDescribes() throws {
    let report = try ReportReader.read(
      Array(
        ExampleReport.fullPanic(
          "panic(cpu 1 caller 0x2): btn_rst\nPanicked task 0x1: 12 pages: pid 47: backboardd", product: "iPhone11,8",
          build: "iPhone OS 16.2 (20C65)"
        ).rendered.utf8))
    #expect(report.kind == .panic)
    #expect(report.panic?.headline == "panic(cpu 1 caller 0x2): btn_rst")
    #expect(report.panic?.panickedTask == "pid 47: backboardd")
    #expect(report.panic?.product == "iPhone11,8")
    #expect(report.panic?.build == "iPhone OS 16.2 (20C65)")
  }

  @Test func stackshotReadsBackWithItsFrontmostProcess() throws {
    let report = try ReportReader.read(
      Array(
        ExampleReport.stackshot(reason: "hang", processes: [412: "Example", 1: "launchd"], frontmost: [412])
          .rendered.utf8))
    #expect(report.kind == .stackshot)
    #expect(report.stackshot?.reason == "hang")
    #expect(report.stackshot?.processCount == 2)
    #expect(report.stackshot?.frontmostProcesses == ["Example"])
  }

  @Test(arguments: [ExampleReport.ResourceFormat.text, .json])
  func resourceReadsBackWithEventActionAndMeasure(_ format: ExampleReport.ResourceFormat) throws {
    let report = try ReportReader.read(
      Array(ExampleReport.diskWrites(writes: "2147.65 MB", action: "Process killed", format: format).rendered.utf8))
    let (action, writes) = format == .text ? ("Action taken", "Writes") : ("action", "writes")
    #expect(report.kind == .resource)
    #expect(report.resource?.event == "disk writes")
    #expect(report.resource?[action] == "Process killed")
    #expect(report.resource?[writes] == "2147.65 MB")
  }

  @Test func systemWatchdogReadsBackWithItsReason() throws {
    let report = try ReportReader.read(
      Array(ExampleReport.systemWatchdog(process: "WindowServer", reason: "no checkins").rendered.utf8))
    #expect(report.kind == .watchdog)
    #expect(report.processName == "WindowServer")
    #expect(report.resource?["reason"] == "no checkins")
  }
}
