import Testing

@testable import IPSDoctorJSON
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// What the reader takes from header texts, damaged headers, panic strings, jetsam bodies and
/// wrapped reports, input → expected.
@Suite("Reader texts")
struct ReaderTextTests {
  @Test(
    "An OS version's display string is the train and, in the last parentheses, the build",
    arguments: [
      ("", "", nil), (" ", "", nil), ("\t\n ", "", nil), ("iPhone OS 26.6 (23G80)", "iPhone OS 26.6", "23G80"),
      ("macOS 15.5 (24F74)", "macOS 15.5", "24F74"), ("  iPhone OS 17.5  (21F79)  ", "iPhone OS 17.5", "21F79"),
      ("()", "", ""), (")", ")", nil), ("(", "(", nil), ("(x)", "", "x"), ("a(b)c)", "a", "b)c"),
      ("a (b) (c)", "a (b)", "c"), ("((x))", "(", "x)"), ("x ()", "x", ""), (" ( ) ", "", " "),
      ("iOS 18\n(22A)", "iOS 18", "22A"), ("No build", "No build", nil),
      // Carriage returns and letters that are not ASCII; a combining mark joins the ")" before it
      // (no build), and the one after the "(" is the build's.
      ("iOS\r(1)", "iOS", "1"), ("iOS é (1)", "iOS é", "1"), ("iOS (é)", "iOS", "é"),
      ("iOS (1)\u{301}", "iOS (1)\u{301}", nil), ("iOS (\u{301}1)", "iOS", "\u{301}1"),
    ] as [(String, String, String?)])
  func osVersion(text: String, train: String, build: String?) {
    let version = OSVersion(displayString: text)
    #expect(version.train == train && version.build == build)
    // And a text that shares its storage with a larger string (a slice made into a String).
    let embedded = OSVersion(displayString: String(("<" + text + ">").dropFirst().dropLast()))
    #expect(embedded.train == train && embedded.build == build)
  }

  @Test(
    "A bug type's kind: the known numbers, and unknown for any other text",
    arguments: [
      ("109", .crash), ("309", .crash), ("210", .panic), ("151", .panic), ("298", .jetsam), ("288", .stackshot),
      ("188", .stackshot), ("202", .resource), ("145", .resource), ("385", .resource), ("327", .resource),
      ("185", .resource), ("206", .resource), ("409", .watchdog), ("226", .unknown), ("000", .unknown),
      ("308", .unknown), ("999", .unknown), ("", .unknown), ("3", .unknown), ("30", .unknown), ("3090", .unknown),
      ("309 ", .unknown), (" 309", .unknown), ("30a", .unknown), ("٣٠٩", .unknown), ("309\u{301}", .unknown),
      ("abc", .unknown), ("+09", .unknown), ("-09", .unknown), ("0309", .unknown), ("30\u{0}", .unknown),
    ] as [(String, ReportKind)])
  func bugTypeKind(raw: String, kind: ReportKind) {
    #expect(BugType(raw).kind == kind)
  }

  @Test(
    "A bug type's name",
    arguments: [("309", "crash report"), ("210", "kernel panic"), ("1", "unknown (1)"), ("", "unknown ()")])
  func bugTypeName(raw: String, name: String) {
    #expect(BugType(raw).name == name)
  }

  @Test(
    "A panic string's headline, panicked task (from \"pid \") and panicked thread",
    arguments: [
      ("", nil, nil, nil), ("\n", nil, nil, nil), ("\r\n\r\n", nil, nil, nil),
      (
        "panic(cpu 0 caller 0x1): watchdog timeout\nPanicked task 0xffff: 5 threads: pid 0: kernel_task\nPanicked thread: 0x1, backtrace",
        "panic(cpu 0 caller 0x1): watchdog timeout", "pid 0: kernel_task", "Panicked thread: 0x1, backtrace"
      ),
      (
        "  \t\n  panic(cpu 1): x\r\r\nPanicked task 0x1: no pid here\n  Panicked thread: 0x2\n", "panic(cpu 1): x",
        "pid here", "Panicked thread: 0x2"
      ),
      // "pid\u{301}" is no "pid ": the last task line with one wins.
      (
        "\u{301}panic\nPanicked task é pid 3: é\nPanicked task pid\u{301} 4: x\nPanicked task a pid  5\r",
        "\u{301}panic",
        "pid  5", nil
      ),
      ("only one line", "only one line", nil, nil),
      (
        "first\rPanicked task: pid 9: launchd\rPanicked thread: 3", "first", "pid 9: launchd", "Panicked thread: 3"
      ),
    ] as [(String, String?, String?, String?)])
  func panicString(text: String, headline: String?, task: String?, thread: String?) {
    var summary = PanicSummary()
    PanicSummary.fill(&summary, fromPanicString: text)
    #expect(summary.headline == headline)
    #expect(summary.panickedTask == task)
    #expect(summary.panickedThread == thread)
  }

  @Test(
    "Where \"pid \" starts in a line (a UTF-8 offset), found by Characters",
    arguments: [
      ("pid 3", 0), ("a pid 3", 2), ("pi pid ", 3), ("é pid 3", 3), ("pid", nil), ("pid\u{301} 4", nil),
      ("pid \u{301}4", nil), ("ppid 1", 1), ("p\u{301}id 2 pid 3", 8), ("d pid ", 2), ("", nil),
    ] as [(String, Int?)])
  func pidOffset(line: String, expected: Int?) {
    #expect(PanicSummary.pidOffset(in: line).map { line.utf8.distance(from: line.utf8.startIndex, to: $0) } == expected)
  }

  @Test(
    "A damaged header's values: app_name, name, platform and bug_type",
    arguments: [
      (#"{"app_name":"Acme","platform":2,"bug_type":"309","name" : "x"}"#, ["Acme", "x", "2", "309"]),
      // An escaped quote, a line feed or a line break before the value: not salvaged.
      (#""name":"a\"b""#, [nil, nil, nil, nil]), ("\"name\":\"a\nb\"", [nil, nil, nil, nil]),
      ("\"name\": \r\n\"a\"", [nil, nil, nil, nil]), ("\"name\":\"a\r\nb\"", [nil, "a\r\nb", nil, nil]),
      ("\"platform\":  12x", [nil, nil, "12", nil]), ("\"platform\":\"\"", [nil, nil, "", nil]),
      ("\"name\":", [nil, nil, nil, nil]), ("", [nil, nil, nil, nil]), ("\"name\"", [nil, nil, nil, nil]),
      ("\"name\"\t:\"x\"", [nil, nil, nil, nil]), ("\"app_name\":\"A\",\"app_name\":\"B\"", ["A", nil, nil, nil]),
      // Text that is not ASCII: a value is cut where JSON cuts it, at its quote (a combining mark
      // after the quote does not join it), and only ASCII digits are a number.
      ("é\n{\"name\":\"Café\",\"bug_type\":\"309\"}", [nil, "Café", nil, "309"]),
      ("\"name\":\"a\"\u{301}b\"", [nil, "a", nil, nil]), ("\"platform\":٣", [nil, nil, nil, nil]),
      ("\"platform\":2٣", [nil, nil, "2", nil]), ("\"name\":\"é\\\"", [nil, nil, nil, nil]),
    ] as [(String, [String?])])
  func salvagedValues(text: String, expected: [String?]) {
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      let header = Scan.salvageHeader(buffer, before: buffer.count)
      #expect(header.appName == expected[0])
      #expect(header.name == expected[1])
      #expect(header.platform == expected[2].flatMap { Int($0) })
      #expect(header.bugType == expected[3])
    }
  }

  @Test("A damaged header's values after a text report: each documented key, and only those before the end")
  func salvagedHeaderKeys() {
    let text =
      "Process: App [1]\n\"app_version\":\"2.4\",\"build_version\":\"118\",\"bundleID\":\"com.a\","
      + "\"os_version\":\"iPhone OS 17.5 (21F79)\",\"incident_id\":\"X-1\",\"timestamp\":\"2026-01-02\","
      + "\"slice_uuid\":\"u\"\n{\"name\":\"after\"}"
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      let end = Array(text.utf8).lastIndex(of: UInt8(ascii: "{"))!
      let header = Scan.salvageHeader(buffer, before: end)
      #expect(header.appVersion == "2.4" && header.buildVersion == "118" && header.bundleID == "com.a")
      #expect(header.osVersion == "iPhone OS 17.5 (21F79)" && header.incidentID == "X-1")
      #expect(header.timestamp == "2026-01-02" && header.sliceUUID == "u")
      #expect(header.name == nil && header.appName == nil)
    }
  }

  @Test(
    "Xcode's translated report: where its marker is, and where the full report after it starts",
    arguments: [
      ("Translated Report (Full Report Below)\n---\nFull Report\n---\n{}", 0, 58),
      ("Translated Report\nFull Report", 0, 29),
      // "Full Report" counts only at the start of a line; the dashed lines after it are skipped.
      ("Translated ReportFull Report\n\nFull Report\n - \n-\n{}", 0, 48),
      ("RRR Translated Repor Translated Report\nFull Report\n", 21, 51), ("Report Translated Report", 7, nil),
      ("Translated Report", 0, nil), ("ranslated Report", nil, nil), ("R", nil, nil), ("", nil, nil),
    ] as [(String, Int?, Int?)])
  func fullReportMarker(text: String, marker: Int?, start: Int?) {
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      #expect(Scan.fullReportStart(buffer, from: 0) == start)
      let needle: StaticString = "Translated Report"
      let found = ByteSearch.firstIndex(
        of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
        in: UnsafeRawBufferPointer(buffer), anchor: 11)
      #expect(found == marker)
    }
  }

  @Test("A JSON report that quotes Xcode's wrapper is read as itself, and the wrapper still works")
  func fullReportMarkerInsideJSON() throws {
    func report(_ type: String, message: String) -> String {
      """
      {"bug_type":"309","name":"App"}
      {"exception":{"type":"\(type)","signal":"SIGABRT"},"asi":{"App":["\(message)"]},"threads":[]}

      """
    }
    let quoted = report("EXC_CRASH", message: "Translated Report (Full Report Below)")
    let other = report("EXC_BAD_ACCESS", message: "other")
    // Text after the body holds a "Full Report" line and another report: it is skipped, not read.
    let pasted = try ReportReader.read(quoted + "-----\nFull Report\n-----\n" + other)
    #expect(pasted.exception?.type == "EXC_CRASH")
    #expect(!pasted.warnings.contains { $0.message.contains("full report below") })
    // With the wrapper's text first, the full report after it is read.
    let wrapped = try ReportReader.read(
      "-----\nTranslated Report (Full Report Below)\n-----\nProcess: App [1]\n\n-----\nFull Report\n-----\n" + other)
    #expect(wrapped.exception?.type == "EXC_BAD_ACCESS")
    #expect(wrapped.warnings.contains { $0.message.contains("full report below") })
  }

  typealias Process = JetsamSummary.Process

  static func process(
    _ name: String?, pid: Int? = nil, reason: String? = nil, pages: UInt64? = nil, states: [String] = []
  ) -> Process {
    var process = Process(name: name)
    (process.pid, process.reason, process.residentPages, process.states) = (pid, reason, pages, states)
    return process
  }

  @Test(
    "Jetsam processes: each one's fields (the last of a repeated key), and a warning for each value of the wrong type",
    arguments: [
      (
        #"{"processes":[{"name":"a","pid":1,"reason":"highwater","rpages":10,"states":["frontmost"],"uuid":"x"}]}"#,
        [process("a", pid: 1, reason: "highwater", pages: 10, states: ["frontmost"])], []
      ),
      (
        #"{"processes":[{"name":"a","name":"b","pid":"12","pid":-1,"rpages":"0x1f","states":"one"},3,null]}"#,
        [process("b", pid: -1, pages: 31, states: ["one"])],
        [
          "processes[1]: expected an object, found number; ignored",
          "processes[2]: expected an object, found null; ignored",
        ]
      ),
      (
        #"{"processes":[{"n\u0061me":"escaped","p\u0069d":7,"re\u0061son":"vm","rp\u0061ges":1,"st\u0061tes":[1,null,"s",{}]}]}"#,
        [process("escaped", pid: 7, reason: "vm", pages: 1, states: ["1", "s"])],
        ["processes[0].states[3]: expected a string, found object; ignored"]
      ),
      (
        #"{"processes":[{"name":1.5,"pid":true,"reason":{},"rpages":"x","states":{},"":"empty","pids":1,"names":2}]}"#,
        [process("1.5")],
        [
          "processes[0].pid: expected an integer, found boolean; ignored",
          "processes[0].reason: expected a string, found object; ignored",
          #"processes[0].rpages: expected an integer, found string "x"; ignored"#,
          "processes[0].states: expected an array of strings, found object; ignored",
        ]
      ),
      (
        #"{"processes":[{}, {"reason":"per-process-limit"}, {"states":[], "rpages":18446744073709551615}]}"#,
        [process(nil), process(nil, reason: "per-process-limit"), process(nil, pages: UInt64.max)], []
      ),
      (#"{"processes":{"name":"not an array"}}"#, [], ["processes: expected an array, found object; ignored"]),
      (#"{"processes":"none"}"#, [], ["processes: expected an array, found string; ignored"]), (#"{}"#, [], []),
    ] as [(String, [Process], [String])])
  func jetsamProcesses(body: String, processes: [Process], warnings: [String]) throws {
    let bytes = Array(body.utf8)
    let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
    document.withRoot { root in
      var decoder = FieldDecoder()
      var report = CrashReport(format: .json)
      report.apply(jetsamBody: root, decoder: &decoder)
      #expect(report.jetsam?.processes == processes)
      #expect(decoder.warnings.map(\.description) == warnings)
    }
  }
}
