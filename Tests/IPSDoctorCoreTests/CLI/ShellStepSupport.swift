import Foundation
import Testing

/// Runs shell steps the way a GitHub Actions `shell: bash` step does, and finds those steps in the
/// repository's YAML and README text, so tests run exactly what users copy.
enum ShellStep {
  /// The first executable called `name` on `PATH`, or `nil`.
  static func tool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `script` as GitHub runs a `run:` text with `shell: bash` (`bash --noprofile --norc -eo
  /// pipefail FILE`), in `directory`. The environment is `PATH`, `HOME` and `TMPDIR` plus
  /// `environment`: nothing of the tests' own environment (a CI's `GITHUB_*`) leaks in.
  static func runBash(_ script: String, in directory: URL, environment: [String: String]) throws -> Result {
    let bash = try #require(tool("bash"))
    let id = UUID().uuidString
    let scriptFile = directory.appendingPathComponent(".step-\(id).sh")
    let outFile = directory.appendingPathComponent(".step-\(id).out")
    let errFile = directory.appendingPathComponent(".step-\(id).err")
    defer { for file in [scriptFile, outFile, errFile] { try? FileManager.default.removeItem(at: file) } }
    try script.write(to: scriptFile, atomically: true, encoding: .utf8)
    _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    let out = try FileHandle(forWritingTo: outFile)
    let err = try FileHandle(forWritingTo: errFile)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: bash)
    process.arguments = ["--noprofile", "--norc", "-eo", "pipefail", scriptFile.path]
    process.currentDirectoryURL = directory
    let inherited = ProcessInfo.processInfo.environment
    var variables = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin"]
    for name in ["HOME", "TMPDIR"] { variables[name] = inherited[name] }
    process.environment = variables.merging(environment) { $1 }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return Result(
      status: process.terminationStatus,
      stdout: (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: errFile, encoding: .utf8)) ?? "")
  }

  /// The body of the fenced code block between `<!-- name:begin -->` and `<!-- name:end -->`.
  static func markedBlock(_ name: String, in text: String) -> String? {
    guard let begin = text.range(of: "<!-- \(name):begin -->"),
      let end = text.range(of: "<!-- \(name):end -->", range: begin.upperBound..<text.endIndex)
    else { return nil }
    var lines = text[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    while let first = lines.first, !first.hasPrefix("```") { lines.removeFirst() }
    while let last = lines.last, !last.hasPrefix("```") { lines.removeLast() }
    guard lines.count >= 2 else { return nil }
    return lines.dropFirst().dropLast().joined(separator: "\n")
  }

  static func indentation(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }

  /// The `run:` text of the YAML step `- name: <name>`: a one-line `run: x`, or a `run: |` block
  /// without its indentation.
  static func runText(ofStep name: String, in yaml: String) -> String? {
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "- name: \(name)" })
    else { return nil }
    let stepIndent = indentation(lines[start])
    var index = start + 1
    while index < lines.count, indentation(lines[index]) > stepIndent || lines[index].isEmpty {
      let line = lines[index]
      let trimmed = line.drop { $0 == " " }
      if trimmed.hasPrefix("run:") {
        let value = trimmed.dropFirst("run:".count).trimmingCharacters(in: .whitespaces)
        guard value == "|" else { return value }
        let runIndent = indentation(line)
        var body: [Substring] = []
        index += 1
        while index < lines.count, lines[index].isEmpty || indentation(lines[index]) > runIndent {
          body.append(lines[index])
          index += 1
        }
        while body.last?.isEmpty == true { body.removeLast() }
        let margin = body.filter { !$0.isEmpty }.map(indentation).min() ?? 0
        return body.map { $0.dropFirst(min(margin, $0.count)) }.joined(separator: "\n") + "\n"
      }
      index += 1
    }
    return nil
  }

  /// The `key=value` lines a step wrote to its `GITHUB_OUTPUT` file.
  static func outputs(_ file: URL) -> [String: String] {
    let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    var outputs: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      outputs[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return outputs
  }

  /// A working folder holding `crash-reports/` with copies of `reports`.
  static func workspace(reports: [String]) throws -> URL {
    let directory = try CLITest.temporaryDirectory()
    let folder = directory.appendingPathComponent("crash-reports")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for report in reports {
      try CLITest.copyFixture(report, to: folder, as: (report as NSString).lastPathComponent)
    }
    return directory
  }
}
