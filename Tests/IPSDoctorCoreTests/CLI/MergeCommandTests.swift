import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON

/// `ips-doctor merge`: the `--format jsonl` outputs of shards, merged, are byte for byte what one
/// run over the whole folder writes, in every format and with the batch options, however the
/// reports were split, in whatever order the parts come, and when merges are merged again.
@Suite("Merge")
struct MergeCommandTests {
  /// Folders a single run diagnoses and shards split: the fixtures, and the shared corpora when
  /// they are there.
  static var folders: [String] {
    var folders = ["Fixtures/reports", "Fixtures/cli"]
    if let shared = Fixtures.shared {
      folders += [shared.appendingPathComponent("corpus").path, shared.appendingPathComponent("corpus-peers").path]
    }
    return folders
  }

  /// A small deterministic generator, so a failing split can be run again.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The paths the single run over `folder` read, in its order.
  static func paths(in folder: String) throws -> [String] {
    let run = CLITest.run([folder, "--format", "jsonl"])
    return try run.stdout.split(separator: "\n").map { line in
      try #require(try JSONParser.parse(String(line))["path"]?.stringValue)
    }
  }

  /// Shuffles `paths` and cuts them into parts of random sizes; runs `--format jsonl` on each
  /// and writes it to a file in `directory`. One part is always empty (a shard that found nothing).
  static func shards(_ paths: [String], seed: UInt64, in directory: URL) throws -> [String] {
    var generator = SplitMix(state: seed)
    let shuffled = paths.shuffled(using: &generator)
    let count = Int.random(in: 2...5, using: &generator)
    var cuts = (0..<count - 1).map { _ in Int.random(in: 0...shuffled.count, using: &generator) }.sorted()
    cuts = [0] + cuts + [shuffled.count]
    var files: [String] = []
    for index in 0..<count {
      let slice = Array(shuffled[cuts[index]..<cuts[index + 1]])
      let file = directory.appendingPathComponent("part-\(seed)-\(index).jsonl").path
      let text = slice.isEmpty ? "" : CLITest.run(slice + ["--format", "jsonl"]).stdout
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      files.append(file)
    }
    let empty = directory.appendingPathComponent("part-\(seed)-empty.jsonl").path
    try "".write(toFile: empty, atomically: true, encoding: .utf8)
    return (files + [empty]).shuffled(using: &generator)
  }

  static func expectSame(
    _ single: CLIRun, _ merged: CLIRun, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(merged.status == single.status, "\(what): status; stderr: \(merged.stderr)", sourceLocation: sourceLocation)
    if merged.stdout != single.stdout {
      let a = single.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      let b = merged.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
      Issue.record(
        "\(what): differs at line \(line + 1):\n  single: \(line < a.count ? String(a[line].prefix(300)) : "<end>")\n  merged: \(line < b.count ? String(b[line].prefix(300)) : "<end>")",
        sourceLocation: sourceLocation)
    }
  }

  @Test("Shards merged give the single run's output, every format", arguments: folders)
  func everyFormat(folder: String) throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let paths = try Self.paths(in: folder)
    #expect(paths.count >= 3)
    var singles: [OutputFormat: CLIRun] = [:]
    for format in OutputFormat.allCases { singles[format] = CLITest.run([folder, "--format", format.rawValue]) }
    // Each seed is another split and order of the parts; the full sweep tries three.
    for seed: UInt64 in Sweeps.full ? [1, 2, 3] : [1] {
      let parts = try Self.shards(paths, seed: seed, in: directory)
      // merge(merge(a, b), rest...): the first merge's jsonl is a part like any other.
      let inner = directory.appendingPathComponent("inner-\(seed).jsonl").path
      let first = CLITest.run(["merge"] + parts.prefix(2) + ["--format", "jsonl", "--output", inner])
      #expect(first.status != .software && first.status != .usage, "\(first.stderr)")
      let nested = [inner] + parts.dropFirst(2)
      for format in OutputFormat.allCases {
        let single = singles[format]!
        Self.expectSame(
          single, CLITest.run(["merge"] + parts + ["--format", format.rawValue]), "\(format) seed \(seed)")
        Self.expectSame(
          single, CLITest.run(["merge"] + nested + ["--format", format.rawValue]), "\(format) nested, seed \(seed)")
      }
    }
  }

  static let batchOptions: [[String]] = [
    ["--top", "1"], ["--top", "all"], ["--summary"], ["--quiet"], ["--verbose"], ["--fail-on", "warning"],
    ["--fail-on", "never"], ["--severity", "error"], ["--app", "ChatApp"], ["--since", "2026-09-08 10:00 -0700"],
  ]

  @Test("--top, --summary, --quiet, --fail-on and the filters behave as in diagnose")
  func batchOptions() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    // One split serves every option: the parts are the same jsonl whatever the options.
    let parts = try Self.shards(try Self.paths(in: "Fixtures/reports"), seed: 7, in: directory)
    for options in Self.batchOptions {
      for format in ["text", "json", "markdown"] {
        let single = CLITest.run(["Fixtures/reports", "--format", format] + options)
        Self.expectSame(
          single, CLITest.run(["merge"] + parts + ["--format", format] + options), "\(format) \(options)")
      }
    }
  }

  @Test("--baseline decides known and new again; --write-baseline writes the single run's baseline")
  func baseline() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let baseline = directory.appendingPathComponent("baseline.json").path
    // Accept the crashes of half the fixtures.
    let paths = try Self.paths(in: "Fixtures/reports")
    _ = CLITest.run(Array(paths.prefix(paths.count / 2)) + ["--write-baseline", baseline, "--format", "jsonl"])
    let parts = try Self.shards(paths, seed: 11, in: directory)
    let singleBaseline = directory.appendingPathComponent("single-baseline.json").path
    let mergedBaseline = directory.appendingPathComponent("merged-baseline.json").path
    for format in ["text", "json", "sarif"] {
      let single = CLITest.run([
        "Fixtures/reports", "--format", format, "--baseline", baseline, "--write-baseline", singleBaseline,
      ])
      let merged = CLITest.run(
        ["merge"] + parts + ["--format", format, "--baseline", baseline, "--write-baseline", mergedBaseline])
      Self.expectSame(single, merged, "\(format) --baseline")
      #expect(
        try String(contentsOfFile: singleBaseline, encoding: .utf8)
          == String(contentsOfFile: mergedBaseline, encoding: .utf8))
    }
    // Parts written with a baseline keep their states when merge is given none.
    let knownParts = try parts.enumerated().map { index, part -> String in
      let paths = try String(contentsOfFile: part, encoding: .utf8).split(separator: "\n").map {
        try #require(try JSONParser.parse(String($0))["path"]?.stringValue)
      }
      let file = directory.appendingPathComponent("known-\(index).jsonl").path
      let text = paths.isEmpty ? "" : CLITest.run(paths + ["--format", "jsonl", "--baseline", baseline]).stdout
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      return file
    }
    Self.expectSame(
      CLITest.run(["Fixtures/reports", "--baseline", baseline]), CLITest.run(["merge"] + knownParts), "states kept")
  }

  /// Writes `text` as a part named `name` in `directory`.
  static func part(_ text: String, _ name: String, in directory: URL) throws -> String {
    let file = directory.appendingPathComponent(name).path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  @Test("A line that is not a report record is an error naming part and line; the rest is merged")
  func badLines() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let records = CLITest.run([CLITest.diagnosed, CLITest.jetsam, "--format", "jsonl"]).stdout
    let good = try Self.part(records, "good.jsonl", in: directory)
    let other = CLITest.run([CLITest.inconclusive, "--format", "jsonl"]).stdout
    let bad = try Self.part(
      "not json\n\(other)\n{\"tool\": \"someone else\"}\n\u{1B}[31m{\n", "bad.jsonl", in: directory)
    let document = try Self.part(
      CLITest.run([CLITest.diagnosed, "--format", "json"]).stdout, "doc.jsonl", in: directory)

    let merged = CLITest.run(["merge", good, bad, document, "--format", "jsonl"])
    // A crash at --fail-on (exit 1) wins over the bad lines (65), as over unreadable reports.
    #expect(merged.status == .findings)
    #expect(CLITest.run(["merge", bad]).status == .dataError)
    #expect(merged.stderr.contains("bad.jsonl:1: not a report record: not JSON"))
    #expect(merged.stderr.contains("bad.jsonl:4: not a report record: path: missing"))
    #expect(
      merged.stderr.contains("doc.jsonl:1: not a report record") && merged.stderr.contains("merge reads --format jsonl")
    )
    #expect(!merged.stderr.contains("\u{1B}"), "terminal escapes reach standard error")
    // The good records of both parts are merged, as one run over their reports (in path order)
    // gives them.
    let single = CLITest.run([CLITest.inconclusive, CLITest.jetsam, CLITest.diagnosed, "--format", "jsonl"])
    #expect(merged.stdout == single.stdout)

    let json = CLITest.run(["merge", good, bad, "--format", "json"])
    let notices = try #require(try JSONParser.parse(json.stdout)["notices"]?.arrayValue)
    #expect(notices.count == 1)
    #expect(notices.first?["kind"]?.stringValue == "unreadable")
    #expect(notices.first?["message"]?.stringValue?.hasPrefix("3 lines are not a report record") == true)
    // --fail-on never silences it, as in diagnose.
    #expect(CLITest.run(["merge", good, bad, "--fail-on", "never"]).status == .success)
  }

  @Test("Missing parts, folders and empty parts: 66, 65, 66, the other parts merged")
  func unreadableParts() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let good = try Self.part(
      CLITest.run([CLITest.otherCrash, "--format", "jsonl"]).stdout, "good.jsonl", in: directory)
    let missing = directory.appendingPathComponent("missing.jsonl").path
    let run = CLITest.run(["merge", good, missing, "--format", "jsonl"])
    #expect(run.status == .noInput)
    #expect(run.stderr.contains("missing.jsonl"))
    #expect(run.stdout == CLITest.run([CLITest.otherCrash, "--format", "jsonl"]).stdout)

    // (A part with no crash at --fail-on, so that the folder's 65 is the status.)
    let warning = try Self.part(
      CLITest.run([CLITest.inconclusive, "--format", "jsonl"]).stdout, "w.jsonl", in: directory)
    let folder = CLITest.run(["merge", warning, directory.path])
    #expect(folder.status == .dataError)
    #expect(folder.stderr.contains("is a folder"))

    let empty = try Self.part("\n\n", "empty.jsonl", in: directory)
    let none = CLITest.run(["merge", empty])
    #expect(none.status == .noInput)
    #expect(none.stderr.contains("no report records found"))
  }

  @Test("A report in two parts counts once; merging a merge with its own parts changes nothing")
  func duplicates() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let parts = try Self.shards(try Self.paths(in: "Fixtures/cli"), seed: 5, in: directory)
    let once = CLITest.run(["merge"] + parts + ["--format", "json"])
    let all = directory.appendingPathComponent("all.jsonl").path
    _ = CLITest.run(["merge"] + parts + ["--format", "jsonl", "-o", all])
    let twice = CLITest.run(["merge", all] + parts + ["--format", "json"])
    Self.expectSame(once, twice, "a merge with its own parts")
    #expect(twice.stderr.contains("counted once"))
  }

  @Test("Parts from standard input; an output that is a part is refused")
  func standardInputAndOutputs() throws {
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let records = CLITest.run([CLITest.diagnosed, CLITest.panic, "--format", "jsonl"]).stdout
    let io = CapturedIO(input: Array(records.utf8))
    let piped = CLITest.run(["merge", "-", "--format", "markdown"], io: io)
    Self.expectSame(CLITest.run([CLITest.diagnosed, CLITest.panic, "--format", "markdown"]), piped, "standard input")

    let part = try Self.part(records, "part.jsonl", in: directory)
    let refused = CLITest.run(["merge", part, "-o", part])
    #expect(refused.status == .usage)
    #expect(refused.stderr.contains("the part"))
    #expect(try String(contentsOfFile: part, encoding: .utf8) == records)
  }

  @Test("help merge says what a part is; merge without parts is a usage error")
  func help() {
    let help = CLITest.run(["help", "merge"])
    #expect(help.status == .success)
    #expect(help.stdout.contains("<part.jsonl>...") && help.stdout.contains("path order"))
    #expect(help.stdout.contains("--top") && !help.stdout.contains("--jobs"))
    #expect(CLITest.run(["merge"]).status == .usage)
    #expect(CLITest.run(["merge", "x.jsonl", "--strict"]).status == .usage)
  }
}
