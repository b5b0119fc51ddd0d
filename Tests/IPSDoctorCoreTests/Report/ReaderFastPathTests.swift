import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// What the reader takes from headers, panic strings and wrapped reports, input → expected; where
/// the reader keeps a byte path beside a `Character` one, a sample of generated texts checks that
/// they agree (every text under a full sweep).
@Suite("Reader fast paths")
struct ReaderFastPathTests {
  /// Deterministic pseudo-random texts over `alphabet` (a linear congruential generator).
  static func texts(from alphabet: [String], count: Int, maxLength: Int, seed: UInt64) -> [String] {
    var state = seed
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    return (0..<count).map { _ in
      (0..<(next() % (maxLength + 1))).map { _ in alphabet[next() % alphabet.count] }.joined()
    }
  }

  @Test(
    "An OS version's display string is the train and, in the last parentheses, the build",
    arguments: [
      ("", "", nil), (" ", "", nil), ("\t\n ", "", nil), ("iPhone OS 26.6 (23G80)", "iPhone OS 26.6", "23G80"),
      ("macOS 15.5 (24F74)", "macOS 15.5", "24F74"), ("  iPhone OS 17.5  (21F79)  ", "iPhone OS 17.5", "21F79"),
      ("()", "", ""), (")", ")", nil), ("(", "(", nil), ("(x)", "", "x"), ("a(b)c)", "a", "b)c"),
      ("a (b) (c)", "a (b)", "c"), ("((x))", "(", "x)"), ("x ()", "x", ""), (" ( ) ", "", " "),
      ("iOS 18\n(22A)", "iOS 18", "22A"), ("No build", "No build", nil),
    ] as [(String, String, String?)])
  func osVersion(text: String, train: String, build: String?) {
    for parse in [OSVersion.parsedASCII, OSVersion.parsedASCIIByIndices] {
      let version = parse(text)
      #expect(version?.train == train && version?.build == build)
      // And a text that shares its storage with a larger string (a slice made into a String).
      let embedded = parse(String(("<" + text + ">").dropFirst().dropLast()))
      #expect(embedded?.train == train && embedded?.build == build)
    }
  }

  @Test(
    "An OS version's display string with a carriage return or a letter that is not ASCII is not read from bytes",
    arguments: ["iOS\r(1)", "iOS é (1)", "iOS (é)"])
  func osVersionNotASCII(text: String) {
    #expect(OSVersion.parsedASCII(text) == nil)
    #expect(OSVersion.parsedASCIIByIndices(text) == nil)
  }

  @Test("OS version display strings: the byte parse answers as the index parse (a sample; all under a full sweep)")
  func osVersionDisplayStrings() {
    let generated = Self.texts(
      from: [" ", "\t", "\n", "(", ")", "a", "1", "OS", "\r", "é"], count: Sweeps.size(4_000, sample: 400),
      maxLength: 12,
      seed: 7)
    for text in generated {
      #expect(OSVersion.parsedASCII(text) == OSVersion.parsedASCIIByIndices(text), "\(text.debugDescription)")
    }
  }

  @Test("Bug type kinds: the byte switch answers as the table")
  func bugTypeKinds() {
    var inputs = (0..<1_000).map { String(format3: $0) }
    inputs += Array(BugType.known.keys) + ["", "3", "30", "3090", "309 ", " 309", "30a", "٣٠٩", "309\u{301}", "abc"]
    inputs += Self.texts(from: ["0", "1", "2", "3", "8", "9", "a", " ", "é"], count: 2_000, maxLength: 4, seed: 11)
    for raw in inputs {
      let table = BugType.known[raw]?.kind ?? .unknown
      #expect(BugType(raw).kind == table, "\(raw.debugDescription)")
      if let fast = BugType.asciiKind(raw) { #expect(fast == table, "\(raw.debugDescription)") }
    }
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
    "A damaged header's values, from its bytes and from its characters",
    arguments: [
      (#"{"app_name":"Acme","platform":2,"bug_type":"309","name" : "x"}"#, ["Acme", "x", "2", "309"]),
      // An escaped quote, a line feed or a line break before the value: not salvaged.
      (#""name":"a\"b""#, [nil, nil, nil, nil]), ("\"name\":\"a\nb\"", [nil, nil, nil, nil]),
      ("\"name\": \r\n\"a\"", [nil, nil, nil, nil]), ("\"name\":\"a\r\nb\"", [nil, "a\r\nb", nil, nil]),
      ("\"platform\":  12x", [nil, nil, "12", nil]), ("\"platform\":\"\"", [nil, nil, "", nil]),
      ("\"name\":", [nil, nil, nil, nil]), ("", [nil, nil, nil, nil]),
    ] as [(String, [String?])])
  func salvagedValues(text: String, expected: [String?]) {
    let keys = ["app_name", "name", "platform", "bug_type"]
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      for (key, value) in zip(keys, expected) {
        #expect(Scan.salvagedValue(key, in: buffer) == value, "\(key)")
        #expect(Scan.salvagedValue(key, in: text) == value, "\(key)")
      }
      let header = Scan.salvageHeader(buffer, before: buffer.count)
      #expect(header.appName == expected[0] && header.name == expected[1] && header.bugType == expected[3])
      #expect(header.platform == expected[2].flatMap { Int($0) })
    }
  }

  @Test("A damaged header's values: bytes and characters agree (a sample; all under a full sweep)")
  func salvagedHeaderValues() {
    let keys = ["app_name", "name", "platform", "bug_type"]
    let texts =
      [
        #"{"app_name":"Acme","platform":2,"bug_type":"309","name" : "x"}"#, #""name":"a\"b""#, "\"name\":\"a\r\nb\"",
        "\"name\":\"a\nb\"", "\"name\": \r\n\"a\"", "\"platform\":  12x", "\"platform\":\"\"", "\"name\":", "",
      ]
      + Self.texts(
        from: ["\"", "\"name\"", "\"platform\"", "app_", ":", " ", "\\", "\n", "\r", "\r\n", "7", "x", "{", "\t"],
        count: Sweeps.size(3_000, sample: 300),
        maxLength: 10, seed: 29)
    for text in texts {
      let bytes = Array(text.utf8)
      bytes.withUnsafeBufferPointer { buffer in
        for key in keys {
          #expect(Scan.salvagedValue(key, in: buffer) == Scan.salvagedValue(key, in: text), "\(text.debugDescription)")
        }
        // The whole header, from the byte path (this text) and from the character path (the same
        // text after a byte that is not ASCII, which moves no key).
        let ascii = Scan.salvageHeader(buffer, before: buffer.count)
        let other = Array("\u{e9}\n".utf8) + bytes
        other.withUnsafeBufferPointer { #expect(Scan.salvageHeader($0, before: $0.count) == ascii) }
      }
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

  /// The jetsam processes as they were read: each field looked up by name, each path built first.
  static func referenceProcesses(_ object: JSONNode, decoder: inout FieldDecoder) -> [JetsamSummary.Process]? {
    guard let processes = decoder.array(object, "processes", at: .root) else { return nil }
    var result: [JetsamSummary.Process] = []
    for (index, entry) in processes.elements.enumerated() {
      let path = JSONPath.root.appending("processes").appending(index)
      guard entry.kind == .object else {
        decoder.wrongType(entry, at: path, expected: "an object")
        continue
      }
      var process = JetsamSummary.Process(name: decoder.string(entry, "name", at: path))
      process.pid = decoder.int(entry, "pid", at: path)
      process.reason = decoder.string(entry, "reason", at: path)
      process.residentPages = decoder.uint64(entry, "rpages", at: path)
      process.states = decoder.strings(entry, "states", at: path)
      result.append(process)
    }
    return result
  }

  @Test("Jetsam processes: the one-pass read gives the per-key lookups' fields and warnings")
  func jetsamProcesses() throws {
    let bodies = [
      #"{"processes":[{"name":"a","pid":1,"reason":"highwater","rpages":10,"states":["frontmost"],"uuid":"x"}]}"#,
      #"{"processes":[{"name":"a","name":"b","pid":"12","pid":-1,"rpages":"0x1f","states":"one"},3,null]}"#,
      #"{"processes":[{"n\u0061me":"escaped","p\u0069d":7,"re\u0061son":"vm","rp\u0061ges":1,"st\u0061tes":[1,null,"s",{}]}]}"#,
      #"{"processes":[{"name":1.5,"pid":true,"reason":{},"rpages":"x","states":{},"":"empty","pids":1,"names":2}]}"#,
      #"{"processes":[{}, {"reason":"per-process-limit"}, {"states":[], "rpages":18446744073709551615}]}"#,
      #"{"processes":{"name":"not an array"}}"#, #"{"processes":"none"}"#, #"{}"#,
    ]
    for body in bodies {
      let bytes = Array(body.utf8)
      let document = try bytes.withUnsafeBufferPointer { try JSONParser.parseDocument($0) }
      document.withRoot { root in
        var decoder = FieldDecoder()
        var report = CrashReport(format: .json)
        report.apply(jetsamBody: root, decoder: &decoder)
        var referenceDecoder = FieldDecoder()
        // The summary's other fields come first in the old order too.
        _ = referenceDecoder.string(root, "largestProcess", at: .root)
        _ = referenceDecoder.string(root, "product", at: .root)
        _ = referenceDecoder.string(root, "build", at: .root)
        if let status = referenceDecoder.object(root, "memoryStatus", at: .root) {
          _ = referenceDecoder.uint64(status, "pageSize", at: JSONPath.root.appending("memoryStatus"))
        }
        let processes = Self.referenceProcesses(root, decoder: &referenceDecoder) ?? []
        _ = referenceDecoder.string(root, "incident", at: .root)
        #expect(report.jetsam?.processes == processes, "\(body)")
        #expect(decoder.warnings == referenceDecoder.warnings, "\(body)")
      }
    }
  }
}

/// The usual frame and the usual image are built straight from the tape; every other one is
/// decoded member by member. Both ways must give the same values and warnings.
@Suite("Reader fast paths: frames and images")
struct FrameImageFastPathTests {
  /// Bodies whose frames and images take the usual way, the member-by-member way, or both.
  static let bodies = [
    #"{"usedImages":[{"source":"P","arch":"arm64","base":4096,"size":16384,"#
      + #""uuid":"7776e1e7-d921-35c9-8bae-089c0ffad3b2","#
      + #""path":"\/private\/var\/containers\/Bundle\/Application\/X\/A.app\/A","name":"A","#
      + #""CFBundleIdentifier":"com.a","CFBundleShortVersionString":"2.4","CFBundleVersion":"118"},"#
      + #"{"path":"\/usr\/lib\/libobjc.A.dylib","base":0}],"#
      + #""threads":[{"frames":[{"imageOffset":4,"symbol":"main","symbolLocation":8,"imageIndex":0},"#
      + #"{"imageOffset":18446744073709551615,"imageIndex":0},{"imageIndex":1},{"imageOffset":1,"imageIndex":2},"#
      + #"{"imageOffset":1,"imageIndex":-1},{"imageOffset":"0x10","imageIndex":0},{"symbol":7,"imageIndex":0},"#
      + #"{"symbol":"a","symbol":"b","imageIndex":1,"imageIndex":0},"#
      + #"{"sourceFile":"f.swift","sourceLine":3,"imageIndex":0},{"inline":true,"imageIndex":0},"#
      + #"{"symbol":null,"imageIndex":0},{"imageIndex":"1"},{}]}]}"#,
    #"{"usedImages":[{"name":"A","name":"B","base":1,"base":2},{"uuid":"D9139CF1-6D62-4386-8076-B7A3F2B4F116"},"#
      + #"{"uuid":"x","arch":"mips","source":"Z"},{"base":-1},{"size":1.5},{"name":7},{"name":null},{"extra":{}},"#
      + #"{"CFBundleIdentifier":1,"CFBundleVersion":2,"CFBundleShortVersionString":3},{"uuid":"7776e1e7\u002dd921"},"#
      + #"{"path":"\/a\/b","arch":"arm64e","source":"S"},{"CFBundleIdentifiex":"a","CFBundleShortVersionStrinx":"b"},"#
      + #"{"base":"zzz","base":5},{"size":true,"size":1},{"name":7,"name":"A"},{"n\u0061me":"B","name":"A"}],"#
      + #""lastExceptionBacktrace":[{"imageOffset":1,"imageIndex":11},{"imageOffset":2,"imageIndex":16}]}"#,
  ]

  /// Every object the reader would read as a frame or an image in `root`, by tape index.
  static func objects(in root: JSONNode, images: inout [Int], frames: inout [Int]) {
    if let used = root["usedImages"] {
      for image in used.elements where image.kind == .object { images.append(image.index) }
    }
    let backtraces = (root["threads"]?.elements.compactMap { $0["frames"] } ?? []) + [root["lastExceptionBacktrace"]]
    for case let backtrace? in backtraces {
      for frame in backtrace.elements where frame.kind == .object { frames.append(frame.index) }
    }
  }

  @Test("Each frame and image: the tape's way gives the member-by-member values and warnings")
  func sameAsDecoded() throws {
    var inputs = Self.bodies.map { Array($0.utf8) }
    for path in Fixtures.files(in: "reports", extensions: ["ips"]) {
      let bytes = try Fixtures.bytes(path)
      guard let newline = bytes.firstIndex(of: 0x0A) else { continue }
      inputs.append(Array(bytes[(newline + 1)...]))
    }
    var checked = (frames: 0, images: 0)
    for bytes in inputs {
      guard let document = try? bytes.withUnsafeBufferPointer({ try JSONParser.parseDocument($0) }) else { continue }
      document.withRoot { root in
        var imageIndices: [Int] = []
        var frameIndices: [Int] = []
        Self.objects(in: root, images: &imageIndices, frames: &frameIndices)
        for table in [nil, SharedTexts()] {
          var images: [BinaryImage] = []
          for index in imageIndices {
            let object = JSONNode(view: root.view, index: index)
            var fast = FieldDecoder(texts: table)
            var plain = FieldDecoder(texts: table)
            let image = BinaryImage.image(json: object, at: .root, decoder: &fast)
            #expect(image == BinaryImage(json: object, at: .root, decoder: &plain), "image \(index)")
            #expect(fast.warnings == plain.warnings, "image \(index)")
            images.append(image)
            checked.images += 1
          }
          images.withUnsafeBufferPointer { images in
            for index in frameIndices {
              let object = JSONNode(view: root.view, index: index)
              var fast = FieldDecoder(texts: table)
              var plain = FieldDecoder(texts: table)
              let frame = CrashReport.frame(object, images: images, at: .root, decoder: &fast)
              let decoded = CrashReport.decodedFrame(
                root.view, members: Self.members(of: object), images: images, at: .root, decoder: &plain)
              #expect(frame == decoded, "frame \(index)")
              #expect(fast.warnings == plain.warnings, "frame \(index)")
              checked.frames += 1
            }
          }
        }
      }
    }
    #expect(checked.frames > 1_000 && checked.images > 500)
  }

  /// The tape indices of a frame's members' values, the last of each name (-1 when absent).
  static func members(of object: JSONNode) -> (
    imageIndex: Int, imageOffset: Int, symbol: Int, symbolLocation: Int, sourceFile: Int, sourceLine: Int,
    inline: Int
  ) {
    var found = (
      imageIndex: -1, imageOffset: -1, symbol: -1, symbolLocation: -1, sourceFile: -1, sourceLine: -1, inline: -1
    )
    for (key, value) in object.members {
      switch key.string {
      case "imageIndex": found.imageIndex = value.index
      case "imageOffset": found.imageOffset = value.index
      case "symbol": found.symbol = value.index
      case "symbolLocation": found.symbolLocation = value.index
      case "sourceFile": found.sourceFile = value.index
      case "sourceLine": found.sourceLine = value.index
      case "inline": found.inline = value.index
      default: break
      }
    }
    return found
  }
}

extension String {
  /// `n` as three decimal digits.
  fileprivate init(format3 n: Int) {
    self = String(repeating: "0", count: 3 - String(n).count) + String(n)
  }
}
