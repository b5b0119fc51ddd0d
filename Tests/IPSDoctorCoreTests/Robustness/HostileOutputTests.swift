import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// Reports whose texts try to reach a terminal, a shell, a Markdown renderer or a CI log raw.
enum HostileReports {
  /// Texts that are escape sequences, HTML, Markdown, shell syntax or workflow commands.
  static let payloads: [String] = [
    "\u{1B}[2J\u{1B}]52;c;aGk=\u{07}K",
    "<script>alert(1)</script><h1>big</h1>![x](https://evil.example/x.png)",
    #"a\`<img src=x onerror=alert(1)>`b <script>flip</script>"#,
    "``x` <b>y</b> ```z` [t](https://evil.example) <i>",
    "line\n# Heading\n<script>x</script>\n    indented <i>\n```\n<script>fence</script>\n```\n- [l](javascript:alert(1))\n===\n> quote <u>",
    "::error::forged\n  ::stop-commands::token\n##[stop-commands]x ##[error]y\n\u{3000}::warning::wide",
    #"$(touch PWNED) `touch PWNED` 'q' "d" ; | & > < \"#,
    "\u{202E}bidi\u{2028}sep\u{85}nel\r\ncr\u{7F}",
    "**bold** _em_ *it* ~~s~~ | a | b |\n|---|---|\n| c | d |",
    "&lt;script&gt; &#60;img src=x&#62; &amp; <!-- c --> <?p?> <![CDATA[x]]>",
    "\\",
    "`",
    "::",
    "#",
  ]

  /// `text` as a JSON string literal.
  static func json(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          output += String(format: "\\u%04x", scalar.value)
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    return output + "\""
  }

  static func fixture(_ path: String) -> String {
    (try? String(contentsOf: Fixtures.url(path), encoding: .utf8)) ?? ""
  }

  /// The inconclusive SIGUSR1 report (which prints its facts and the `atos` commands) with its
  /// texts replaced by `payload`.
  static func inconclusive(_ payload: String) -> String {
    fixture("cli/inconclusive-sigusr1.ips")
      .replacingOccurrences(of: #""type":"EXC_CRASH""#, with: #""type":\#(json(payload))"#)
      .replacingOccurrences(of: #""signal":"SIGUSR1""#, with: #""signal":\#(json(payload))"#)
      .replacingOccurrences(of: #""indicator":"User defined signal 1: 30""#, with: #""indicator":\#(json(payload))"#)
      .replacingOccurrences(
        of: #""queue":"com.apple.main-thread""#, with: #""queue":\#(json(payload)),"name":\#(json(payload))"#
      )
      .replacingOccurrences(of: #""procName" : "ChatApp""#, with: #""procName" : \#(json(payload))"#)
  }

  /// The inconclusive report with the app image's `arch`, `uuid` and `name` replaced.
  static func image(
    arch: String = "arm64", uuid: String = "8886e1e7-d921-35c9-8bae-089c0ffad3b2", name: String = "ChatApp"
  )
    -> String
  {
    fixture("cli/inconclusive-sigusr1.ips")
      .replacingOccurrences(
        of:
          #"{"source":"P","arch":"arm64","base":4362797056,"size":1048576,"uuid":"8886e1e7-d921-35c9-8bae-089c0ffad3b2","#,
        with: #"{"source":"P","arch":\#(json(arch)),"base":4362797056,"size":1048576,"uuid":\#(json(uuid)),"#
      )
      .replacingOccurrences(
        of: #""name":"ChatApp","CFBundleIdentifier""#, with: #""name":\#(json(name)),"CFBundleIdentifier""#)
  }

  /// An uncaught Objective-C exception whose name, reason and app symbol are `payload`: the rules
  /// quote them in their Markdown.
  static func exception(_ payload: String) -> String {
    ExampleReport.ips(
      """
      {"exception":{"type":"EXC_CRASH","signal":"SIGABRT"},
       "exceptionReason":{"name":\(json(payload)),"type":"objc-exception","composed_message":\(json(payload))},
       "asi":{"libsystem_c.dylib":["abort() called"]},
       "faultingThread":0,
       "threads":[{"id":1,"triggered":true,"queue":"com.apple.main-thread","frames":[
         {"imageIndex":1,"imageOffset":10,"symbol":"__pthread_kill"}]}],
       "lastExceptionBacktrace":[
         {"imageIndex":2,"imageOffset":100,"symbol":"objc_exception_throw"},
         {"imageIndex":0,"imageOffset":4096,"symbol":\(json(payload))}],
       "usedImages":[\(ExampleReport.appImage),\(ExampleReport.systemImage("libsystem_kernel.dylib")),
         \(ExampleReport.systemImage("libobjc.A.dylib"))]}
      """)
  }

  /// Every hostile report: each payload in the inconclusive report and in the exception.
  static var all: [String] { payloads.flatMap { [inconclusive($0), exception($0)] } }

  /// Runs `arguments` with `report` on standard input.
  static func run(_ arguments: [String], report: String) -> CLIRun {
    CLITest.run(arguments, io: CapturedIO(input: Array(report.utf8)))
  }
}

@Suite("Hostile output: workflow commands")
struct WorkflowCommandTests {
  @Test("Escaped text never starts a line with :: nor holds ##[, however it is placed or wrapped")
  func escaper() {
    for text in HostileReports.payloads + ["::x", " ::x", "\u{A0}::x", ":", "#[x", "a##", "x ##[y", "a: ::b"] {
      for line in text.split(separator: "\n") {
        let escaped = TerminalText.escaped(String(line))
        #expect(OutputInvariants.lineViolations("  " + escaped) == [], "\(escaped)")
        #expect(OutputInvariants.lineViolations(escaped + "[") == [], "\(escaped)")
        for wrapped in PlainText.wrap(escaped, width: 8, indent: "    ") {
          #expect(OutputInvariants.lineViolations(wrapped) == [], "\(wrapped)")
        }
      }
    }
    #expect(TerminalText.escaped("std::vector") == "std::vector")
    #expect(TerminalText.escaped("::error::x") == #"\u{3A}:error::x"#)
    #expect(TerminalText.escaped("a ##[b") == #"a \u{23}#[b"#)
  }

  @Test("JSON strings never hold ##[")
  func json() {
    #expect(JSONWriter.quoted("a ##[error]b") == #""a \u0023#[error]b""#)
    #expect(JSONWriter.quoted("##[x ##[") == #""\u0023#[x \u0023#[""#)
    #expect(!JSONWriter.quoted("##[x ##[").contains("##["))
  }
}

@Suite("Hostile output: file names")
struct PathDisplayTests {
  @Test("A literal backslash and an invalid byte display differently, and the display reads back")
  func unambiguous() {
    let literal = PathName(bytes: Array(#"a\xFF.ips"#.utf8))
    let invalid = PathName(bytes: Array("a".utf8) + [0xFF] + Array(".ips".utf8))
    #expect(literal.display != invalid.display)
    #expect(literal.display == #"a\\xFF.ips"#)
    #expect(invalid.display == #"a\xFF.ips"#)
    let names: [[UInt8]] = [
      Array(#"a\xFF.ips"#.utf8), [0x61, 0xFF, 0x2E], Array(#"\u{1B}"#.utf8), [0x1B, 0x5B, 0x32, 0x4A],
      Array(#"\\"#.utf8),
      Array("é\\".utf8) + [0xC3], Array("##[x]".utf8), Array("::error::x".utf8), Array("tab\there\n".utf8), [0x5C],
    ]
    for bytes in names {
      let name = PathName(bytes: bytes)
      #expect(PathName(display: name.display)?.bytes == bytes, "\(name.display)")
    }
  }

  @Test("SARIF URIs name the file that exists")
  func sarifURI() {
    #expect(SARIFReporter.uri(PathName(bytes: Array(#"a\xFF.ips"#.utf8)).display) == "a%5CxFF.ips")
    #expect(SARIFReporter.uri(PathName(bytes: Array("a".utf8) + [0xFF] + Array(".ips".utf8)).display) == "a%FF.ips")
    #expect(SARIFReporter.uri(PathName(bytes: Array("/t/b\u{1}c".utf8)).display) == "file:///t/b%01c")
  }

  @Test("Hostile file and folder names never print raw on stdout or stderr")
  func namesInOutput() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let report = try Data(contentsOf: Fixtures.url("cli/jetsam-event.ips"))
    for name in ["::error::file.ips", "##[error]x.ips", " ::warning::y.ips", "\u{1B}[2Jz.ips", "a\\xFF.ips"] {
      try report.write(to: directory.appendingPathComponent(name))
    }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("##[stop-commands]x.ips"), withIntermediateDirectories: false)
    try "{broken".write(to: directory.appendingPathComponent("::error::broken.ips"), atomically: true, encoding: .utf8)
    for format in OutputFormat.allCases {
      let run = CLITest.run([directory.path, "--format", format.rawValue])
      #expect(OutputInvariants.lineViolations(run.stdout, annotations: format == .github) == [], "\(format)")
      #expect(OutputInvariants.lineViolations(run.stderr) == [], "\(format) stderr")
    }
    let missing = CLITest.run([directory.appendingPathComponent("##[x]::missing.ips").path])
    #expect(OutputInvariants.lineViolations(missing.stderr) == [])
  }
}

@Suite("Hostile output: show")
struct ShowEscapingTests {
  static let key = "\u{1B}[2J\u{1B}]52;c;aGk=\u{07}K"

  @Test("Resource report keys, text-body keys and the thread state flavor are escaped")
  func show() {
    let resource = HostileReports.fixture("reports/resource-327.ips")
      .replacingOccurrences(
        of: "Steps:            30\n", with: "Steps:            30\n\(Self.key): value\n::error::k: v\n")
    let crash = HostileReports.fixture("reports/abort-called-c-assert.ips")
      .replacingOccurrences(
        of: #""flavor":"ARM_THREAD_STATE64""#, with: #""flavor":\#(HostileReports.json(Self.key + "##[x]"))"#)
    #expect(crash.contains(#"52;c;"#))
    for text in [resource, crash] + HostileReports.all {
      let run = HostileReports.run(["show", "-"], report: text)
      #expect(OutputInvariants.lineViolations(run.stdout) == [])
      #expect(OutputInvariants.lineViolations(run.stderr) == [])
    }
    #expect(HostileReports.run(["show", "-"], report: resource).stdout.contains(#"\u{1B}[2J\u{1B}]52;c;aGk=\u{7}K:"#))
  }

  @Test("Every format of diagnose, and explain, print no raw control character or workflow command")
  func everyFormat() {
    for text in HostileReports.all {
      for format in OutputFormat.allCases {
        let run = HostileReports.run(["-", "--format", format.rawValue, "--verbose"], report: text)
        #expect(OutputInvariants.lineViolations(run.stdout, annotations: format == .github) == [], "\(format)")
        #expect(OutputInvariants.lineViolations(run.stderr) == [], "\(format) stderr")
      }
    }
    for payload in HostileReports.payloads {
      let run = CLITest.run(["explain", payload])
      #expect(OutputInvariants.lineViolations(run.stdout + run.stderr) == [])
    }
  }
}

@Suite("Hostile output: suggested commands")
struct SuggestedCommandTests {
  static let hostileArchitectures = [
    "arm64; touch PWNED; true", "$(touch PWNED)", "`touch PWNED`", "arm64 -o /etc/passwd", "", "arm64\ntouch PWNED",
  ]
  static let hostileUUIDs = [
    "$(touch PWNED)", "8886e1e7\"; touch PWNED; \"", "`touch PWNED`", "8886e1e7-d921-35c9-8bae-089c0ffad3b2 $(x)",
    "not-a-uuid", "",
  ]
  static let hostileNames = [
    "Chat'App; touch PWNED", "$(touch PWNED)", "a b", "`x`", "-rf", "\"; x; \"", "Chat\nApp", "~root", "*",
  ]

  static var reports: [String] {
    hostileArchitectures.map { HostileReports.image(arch: $0) } + hostileUUIDs.map { HostileReports.image(uuid: $0) }
      + hostileNames.map { HostileReports.image(name: $0) } + [HostileReports.image()]
  }

  @Test("The tokenizer splits as a POSIX shell and refuses what it does not model")
  func tokenizer() {
    #expect(
      OutputInvariants.shellWords("atos -arch arm64 -o 'a b' -l 0x1 0x2") == [
        "atos", "-arch", "arm64", "-o", "a b", "-l", "0x1", "0x2",
      ])
    #expect(OutputInvariants.shellWords(#"mdfind "k == 1""#) == ["mdfind", "k == 1"])
    #expect(OutputInvariants.shellWords(#"a 'it'\''s' b\;c"#) == ["a", "it's", "b;c"])
    #expect(OutputInvariants.shellWords("a'b'c") == ["abc"])
    for hostile in ["a; b", "a | b", "a && b", "$(x)", "`x`", "a > b", "\"$x\"", "'open", "a*", "#c", "~x", "a\nb"] {
      #expect(OutputInvariants.shellWords(hostile) == nil, "\(hostile)")
    }
    // Cross-checked with a real shell: printf prints each word it is given on a line.
    let command = "atos -arch arm64 -o 'x'\"y\"' z' -l 0x1"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "printf '%s\\n' " + command.dropFirst("atos ".count)]
    let pipe = Pipe()
    process.standardOutput = pipe
    if (try? process.run()) != nil {
      process.waitUntilExit()
      let words = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .split(separator: "\n").map(String.init)
      #expect(["atos"] + words == OutputInvariants.shellWords(command))
    }
  }

  @Test("Every suggested command splits into exactly the intended argv")
  func intendedArgv() throws {
    for text in Self.reports {
      let report = try ReportReader.read(Array(text.utf8))
      let image = try #require(report.images.first)
      let result = Doctor.diagnose(report)
      let hint = try #require(result.symbolication)
      for command in hint.images {
        let atos = try #require(OutputInvariants.shellWords(command.atos), "\(command.atos)")
        let arch = image.arch.map { OutputInvariants.architectures.contains($0) ? $0 : "arm64" } ?? "arm64"
        let binary = SymbolicationHint.dSYMBinary(image: image, name: command.imageName, isMain: true)
        let expected =
          ["atos", "-arch", arch, "-o", binary, "-l", String.hex(command.loadAddress)]
          + command.addresses.map { String.hex($0) }
        #expect(atos == expected)
        if let find = command.findDSYM {
          let uuid = try #require(image.uuid)
          #expect(
            OutputInvariants.shellWords(find) == ["mdfind", "com_apple_xcode_dsym_uuids == " + uuid.uppercased()])
        } else {
          #expect(Self.hostileUUIDs.contains(image.uuid ?? ""), "a valid UUID lost its mdfind command")
        }
      }
    }
  }

  @Test("Commands in text, Markdown and JSON output split into plain words")
  func inEveryFormat() throws {
    for text in Self.reports {
      var commands: [String] = []
      let plain = HostileReports.run(["-", "--verbose"], report: text).stdout
      commands += plain.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }
        .filter { $0.hasPrefix("atos ") || $0.hasPrefix("mdfind ") }.map(String.init)
      let markdown = HostileReports.run(["-", "--format", "markdown"], report: text).stdout
      commands += markdown.split(separator: "\n").filter { $0.hasPrefix("atos ") || $0.hasPrefix("mdfind ") }.map(
        String.init)
      let json = HostileReports.run(["-", "--format", "json"], report: text).stdout
      let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
      let reports = object?["reports"] as? [[String: Any]] ?? []
      for report in reports {
        let images = report["symbolication"] as? [[String: Any]] ?? []
        for image in images {
          commands += [image["atos"], image["findDSYM"]].compactMap { $0 as? String }
        }
      }
      #expect(commands.count >= 3, "\(plain)")
      for command in commands {
        #expect(OutputInvariants.commandViolation(command) == nil)
      }
    }
  }
}

@Suite("Hostile output: Markdown")
struct MarkdownInjectionTests {
  @Test("Report text outside code is escaped; code spans end where they should")
  func structure() {
    for text in HostileReports.all {
      let markdown = HostileReports.run(["-", "--format", "markdown", "--verbose"], report: text).stdout
      #expect(OutputInvariants.markdownViolations(markdown) == [], "\(markdown)")
    }
    for payload in HostileReports.payloads {
      #expect(OutputInvariants.markdownViolations("- " + MarkdownText.escape(payload)) == [])
      #expect(OutputInvariants.markdownViolations(MarkdownText.authored("Quote `\(payload)` and \(payload).")) == [])
      let span = MarkdownText.code(payload)
      let fence = span.prefix(while: { $0 == "`" }).count
      let longest = Self.longestBacktickRun(String(span.dropFirst(fence).dropLast(fence)))
      #expect(longest < fence, "\(span)")
    }
  }

  static func longestBacktickRun(_ text: String) -> Int {
    var longest = 0
    var run = 0
    for byte in text.utf8 {
      run = byte == UInt8(ascii: "`") ? run + 1 : 0
      longest = max(longest, run)
    }
    return longest
  }

  /// A Python that imports markdown-it-py: `IPS_DOCTOR_MARKDOWN_PYTHON`, or the team's venv;
  /// `nil` (and the renderer tests skipped) when there is none.
  static let python: String? = {
    let candidates = [ProcessInfo.processInfo.environment["IPS_DOCTOR_MARKDOWN_PYTHON"], "/work/venv-md/bin/python"]
    return candidates.compactMap { $0 }.first { path in
      guard FileManager.default.isExecutableFile(atPath: path) else { return false }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = ["-c", "import markdown_it"]
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { return false }
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
  }()

  /// Renders each document of a JSON array with markdown-it (CommonMark, plus GFM tables and
  /// strikethrough) and lists, for each, every element of its HTML and every raw HTML token.
  static let script = #"""
    import json, sys
    from html.parser import HTMLParser
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    class Tags(HTMLParser):
        def __init__(self):
            super().__init__(); self.tags = []
        def handle_starttag(self, tag, attrs): self.tags.append(tag)
    results = []
    for text in json.load(sys.stdin):
        tokens = md.parse(text)
        raw = [t.content.strip() for t in tokens if t.type == "html_block"]
        for block in tokens:
            for child in block.children or []:
                if child.type == "html_inline": raw.append(child.content)
        parser = Tags(); parser.feed(md.render(text))
        results.append({"tags": parser.tags, "raw": raw})
    print(json.dumps(results))
    """#

  struct Rendered {
    var tags: [String]
    var raw: [String]
  }

  /// What `script`, run by `python` with the JSON of `documents` on its standard input, prints.
  static func runPython(_ python: String, script: String, documents: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", script]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: documents))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
  }

  static func render(_ documents: [String], python: String) throws -> [Rendered] {
    let data = try runPython(python, script: script, documents: documents)
    let results = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: [String]]])
    return results.map { Rendered(tags: $0["tags"] ?? [], raw: $0["raw"] ?? []) }
  }

  @Test(
    "A CommonMark renderer makes no HTML element from report text",
    .enabled(if: python != nil, "set IPS_DOCTOR_MARKDOWN_PYTHON to a Python with markdown-it-py"))
  func commonMark() throws {
    let python = try #require(Self.python)
    let allowed: Set<String> = [
      "h1", "h2", "h3", "p", "strong", "em", "code", "pre", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th",
      "td",
      "details", "summary", "hr", "br",
    ]
    let documents = HostileReports.all.map {
      HostileReports.run(["-", "--format", "markdown", "--verbose"], report: $0).stdout
    }
    for (markdown, rendered) in zip(documents, try Self.render(documents, python: python)) {
      #expect(Set(rendered.tags).subtracting(allowed) == [], "\(markdown)")
      #expect(rendered.tags.filter { $0 == "h1" }.count == 1, "\(markdown)")
      #expect(rendered.tags.filter { $0 == "em" }.count == 1, "only the closing line is emphasised: \(markdown)")
      for raw in rendered.raw {
        let own =
          raw == "<br>" || raw == "</details>" || (raw.hasPrefix("<details><summary>") && raw.hasSuffix("</summary>"))
        #expect(own, "raw HTML from the report: \(raw)")
      }
    }
  }

  /// Pieces of Markdown syntax, HTML and report-like text that random texts are made of.
  static let pieces = [
    "`", "``", "```", "~~~", "\\", "\\`", "<b>", "<img src=x>", "</p>", "<!--", "![a](b)", "[a](b)", "](", "![",
    "[x]: /u", "<http://x.y>", "\n", "\n\n", "    ", "  ", " ", "- ", "* ", "+ ", "1. ", "2) ", "# ", "> ", "=", "---",
    "***", "**", "*", "_", "__", "|", "&", "&lt;", "&#60;", "word", "x", "é", "\u{301}", "<", ">", "!", "[", "]", "(",
    ")", "\t", "\r\n", "\u{1B}", ":", "#", "\n    ", "\n- ", "\n1. ", "\n```", "    ```", "\n===", "\n---",
    "<script>", "<details>",
  ]

  @Test(
    "Random rule Markdown, escaped text and code spans render with no HTML from the text",
    .enabled(if: python != nil, "set IPS_DOCTOR_MARKDOWN_PYTHON to a Python with markdown-it-py"))
  func randomTexts() throws {
    let python = try #require(Self.python)
    var generator = SeededGenerator(seed: 2_026_12_04)
    var texts: [String] = []
    for _ in 0..<2_000 {
      let count = Int(generator.next() % 40) + 1
      texts.append((0..<count).map { _ in Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))] }.joined())
    }
    let authored = texts.map { MarkdownText.authored($0) + "\n\nafter" }
    let escaped = texts.map { "- " + MarkdownText.code($0) + ": " + MarkdownText.escape($0) + "\n\nafter" }
    let authoredAllowed: Set<String> = ["p", "code", "pre", "strong", "ul", "ol", "li"]
    for (text, rendered) in zip(texts, try Self.render(authored, python: python)) {
      let shown = TerminalText.escaped(text)
      #expect(Set(rendered.tags).subtracting(authoredAllowed) == [], "\(shown) → \(MarkdownText.authored(text))")
      #expect(rendered.raw == [], "\(shown) → \(MarkdownText.authored(text))")
      #expect(rendered.tags.last == "p", "a fence or block left open swallowed what follows: \(shown)")
    }
    for (text, rendered) in zip(texts, try Self.render(escaped, python: python)) {
      #expect(rendered.tags == ["ul", "li", "code", "p"], "\(TerminalText.escaped(text))")
      #expect(rendered.raw == [])
    }
  }
}

@Suite("Output invariants on every fixture")
struct FixtureOutputInvariantTests {
  /// What the fuzz target asserts on random reports, on every bundled report: no line a terminal
  /// or CI runner would act on, Markdown that keeps report text out of HTML, commands that split
  /// into their intended words. (It also keeps the checks free of false alarms on real output.)
  /// Every third fixture, first and last included, outside a full sweep.
  @Test(
    "Every format of every fixture keeps the output invariants",
    arguments: Sweeps.sample(Fixtures.files(in: "reports", extensions: ["ips", "crash", "panic"]), every: 3))
  func fixture(_ path: String) {
    for format in OutputFormat.allCases {
      let run = CLITest.run([path, "--format", format.rawValue, "--verbose"])
      #expect(OutputInvariants.lineViolations(run.stdout, annotations: format == .github) == [], "\(format)")
      #expect(OutputInvariants.lineViolations(run.stderr) == [], "\(format) stderr")
      if format == .markdown { #expect(OutputInvariants.markdownViolations(run.stdout) == []) }
      if format == .text || format == .markdown {
        for line in run.stdout.split(separator: "\n") {
          let command = line.drop(while: { $0 == " " })
          guard command.hasPrefix("atos ") || command.hasPrefix("mdfind ") else { continue }
          #expect(OutputInvariants.commandViolation(String(command)) == nil)
        }
      }
    }
    let show = CLITest.run(["show", path])
    #expect(OutputInvariants.lineViolations(show.stdout + show.stderr) == [])
  }
}

/// Report text with backticks never flips the code spans after it: every report text the rules put
/// in a code span gets a fence longer than its longest backtick run (CommonMark), so the frames
/// quoted after a reason ending in a backtick are still code.
@Suite("Hostile output: backticks in report text")
struct MarkdownBacktickTests {
  /// An uncaught exception whose reason is `reason` and whose app frames are `symbols`.
  static func report(reason: String, symbols: [String]) -> String {
    let frames = symbols.enumerated().map { index, symbol in
      #"{"imageIndex":0,"imageOffset":\#(4096 + index * 64),"symbol":\#(HostileReports.json(symbol))}"#
    }
    return ExampleReport.ips(
      """
      {"exception":{"type":"EXC_CRASH","signal":"SIGABRT"},
       "exceptionReason":{"name":"NSInvalidArgumentException","type":"objc-exception",
         "composed_message":\(HostileReports.json(reason)),"reason":\(HostileReports.json(reason))},
       "asi":{"libsystem_c.dylib":["abort() called"]},
       "faultingThread":0,
       "threads":[{"id":1,"triggered":true,"queue":"com.apple.main-thread","frames":[
         {"imageIndex":1,"imageOffset":10,"symbol":"__pthread_kill"},\(frames.joined(separator: ","))]}],
       "lastExceptionBacktrace":[
         {"imageIndex":2,"imageOffset":100,"symbol":"objc_exception_throw"},\(frames.joined(separator: ","))],
       "usedImages":[\(ExampleReport.appImage),\(ExampleReport.systemImage("libsystem_kernel.dylib")),
         \(ExampleReport.systemImage("libobjc.A.dylib"))]}
      """)
  }

  static let cases: [(reason: String, symbols: [String])] = [
    (#"bad value \`"#, ["CallBox pack_header", "CallBox send"]),
    (#"bad value \`<h1>x</h1>"#, ["CallBox pack_header"]),
    ("`", ["CallBox pack_header"]),
    ("plain reason", ["CallBox `pack_header", "CallBox send``"]),
    ("a ``` b", ["``CallBox pack_header``"]),
  ]

  @Test func codeSpansFenceTheirText() {
    for text in ["a`b", "`a", "a`", " a ", "``", "a```b`", "plain"] {
      let span = CodeSpan.markdown(text)
      let fence = span.prefix(while: { $0 == "`" }).count
      #expect(span.hasSuffix(String(repeating: "`", count: fence)))
      #expect(MarkdownInjectionTests.longestBacktickRun(text) < fence, "\(span)")
      var inner = String(span.dropFirst(fence).dropLast(fence))
      if inner.count >= 2 && inner.first == " " && inner.last == " " { inner = String(inner.dropFirst().dropLast()) }
      #expect(inner == text, "\(span)")
    }
    #expect(CodeSpan.markdown("plain") == "`plain`")
    #expect(CodeSpan.markdown("a`b") == "``a`b``")
    #expect(CodeSpan.markdown("a`") == "`` a` ``")
  }

  /// Renders each Markdown document with markdown-it and returns, for each, the text inside
  /// `<code>` elements joined with newlines, and whether any `<h1>` came from report text.
  static let script = #"""
    import json, sys
    from html.parser import HTMLParser
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    class Code(HTMLParser):
        def __init__(self):
            super().__init__(); self.depth = 0; self.code = []; self.h1 = 0
        def handle_starttag(self, tag, attrs):
            if tag == "code": self.depth += 1; self.code.append("")
            if tag == "h1": self.h1 += 1
        def handle_endtag(self, tag):
            if tag == "code": self.depth -= 1
        def handle_data(self, data):
            if self.depth > 0: self.code[-1] += data
    results = []
    for text in json.load(sys.stdin):
        parser = Code(); parser.feed(md.render(text)); parser.close()
        results.append({"code": parser.code, "h1": parser.h1})
    print(json.dumps(results))
    """#

  @Test(
    "Frames after a reason with a backtick stay in code spans (markdown-it)",
    .enabled(if: MarkdownInjectionTests.python != nil, "set IPS_DOCTOR_MARKDOWN_PYTHON to a Python with markdown-it-py")
  )
  func framesStayCode() throws {
    let python = try #require(MarkdownInjectionTests.python)
    let documents = Self.cases.map {
      HostileReports.run(["-", "--format", "markdown"], report: Self.report(reason: $0.reason, symbols: $0.symbols))
        .stdout
    }
    let data = try MarkdownInjectionTests.runPython(python, script: Self.script, documents: documents)
    let results = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    for ((reason, symbols), (markdown, result)) in zip(Self.cases, zip(documents, results)) {
      let code = result["code"] as? [String] ?? []
      // The summary quotes the first app frame, as a code span of its own.
      #expect(code.contains("Example " + symbols[0]), "\(reason): \(code)\n\(markdown)")
      if reason.contains("`") { #expect(code.contains(reason), "\(reason): \(code)\n\(markdown)") }
      #expect(result["h1"] as? Int == 1, "\(markdown)")
    }
  }
}
