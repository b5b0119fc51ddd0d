// What ips-doctor promises about everything it prints, checked on the printed text. Plain Swift
// with no Foundation: Fuzz/fuzz.sh compiles this file into the fuzz target (with
// `-D IPS_DOCTOR_FUZZ`, in one module with the library's sources), and the tests use it as it is.

#if !IPS_DOCTOR_FUZZ
  @testable import IPSDoctorDiagnosis
  @testable import IPSDoctorSupport
#endif

enum OutputInvariants {
  // MARK: Lines on a terminal or in a CI log

  /// The problems of `output` (standard output or standard error, any format) as a terminal or a
  /// CI runner would read it: a control character other than tab and line feed (escape sequences,
  /// carriage returns that overwrite a line, bidi controls, line separators), a line that starts
  /// with `::` after whitespace (a GitHub Actions workflow command) other than the `github`
  /// format's own annotations when `annotations` is set, and a line that holds `##[` (the legacy
  /// form, taken anywhere in a line).
  static func lineViolations(_ output: String, annotations: Bool = false) -> [String] {
    var problems: [String] = []
    for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
      for scalar in line.unicodeScalars where scalar != "\t" && TerminalText.isUnsafe(scalar.value) {
        problems.append(
          "raw U+\(String(scalar.value, radix: 16, uppercase: true)) in: \(TerminalText.escaped(String(line)))")
        break
      }
      let trimmed = line.unicodeScalars.drop(while: { $0.properties.isWhitespace })
      if trimmed.starts(with: "::".unicodeScalars) {
        let own = annotations && ["::error ", "::warning ", "::notice "].contains { line.hasPrefix($0) }
        if !own { problems.append("workflow command at line start: \(TerminalText.escaped(String(line)))") }
      }
      if line.utf8.count >= 3 && containsLegacyCommand(line) {
        problems.append("legacy workflow command: \(TerminalText.escaped(String(line)))")
      }
    }
    return problems
  }

  static func containsLegacyCommand(_ line: Substring) -> Bool {
    let bytes = Array(line.utf8)
    for index in 0..<(bytes.count - 2)
    where bytes[index] == UInt8(ascii: "#") && bytes[index + 1] == UInt8(ascii: "#")
      && bytes[index + 2] == UInt8(ascii: "[")
    {
      return true
    }
    return false
  }

  // MARK: Suggested shell commands

  /// The words a POSIX shell makes of `command`, for the quoting that suggested commands use:
  /// unquoted words of ordinary characters, a backslash before any character but a line feed,
  /// single quotes, and double quotes around text with no `$`, backtick or backslash. `nil` when
  /// anything else is there, as anything else could be an
  /// operator, an expansion, a substitution, a glob, a comment or a redirection.
  static func shellWords(_ command: String) -> [String]? {
    var words: [String] = []
    var word: [UInt8] = []
    var inWord = false
    let bytes = Array(command.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x20:
        if inWord { words.append(String(decoding: word, as: UTF8.self)) }
        word = []
        inWord = false
        index += 1
      case UInt8(ascii: "\\"):
        guard index + 1 < bytes.count, bytes[index + 1] != 0x0A else { return nil }
        word.append(bytes[index + 1])
        inWord = true
        index += 2
      case UInt8(ascii: "'"):
        guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "'")) else { return nil }
        word += bytes[(index + 1)..<close]
        inWord = true
        index = close + 1
      case UInt8(ascii: "\""):
        guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let inside = bytes[(index + 1)..<close]
        if inside.contains(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "\\") }) {
          return nil
        }
        word += inside
        inWord = true
        index = close + 1
      default:
        let isOrdinary =
          (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || Array("._-/+@,:=%".utf8).contains(byte)
        guard isOrdinary else { return nil }
        word.append(byte)
        inWord = true
        index += 1
      }
    }
    if inWord { words.append(String(decoding: word, as: UTF8.self)) }
    return words
  }

  /// The architectures a suggested `atos -arch` may name.
  static let architectures: Set<String> = [
    "arm64", "arm64e", "arm64_32", "armv6", "armv7", "armv7k", "armv7s", "x86_64", "x86_64h", "i386",
  ]

  /// What is wrong with a suggested command, `nil` when nothing is: it must split into
  /// `atos -arch ARCH -o PATH -l 0xHEX 0xHEX…` with a known architecture, or into
  /// `mdfind 'com_apple_xcode_dsym_uuids == UUID'` with a hexadecimal UUID.
  static func commandViolation(_ command: String) -> String? {
    guard let words = shellWords(command) else {
      return "does not split into plain words: \(TerminalText.escaped(command))"
    }
    switch words.first {
    case "atos":
      guard words.count >= 7, words[1] == "-arch", words[3] == "-o", words[5] == "-l" else {
        return "atos arguments out of shape: \(words)"
      }
      guard architectures.contains(words[2]) else { return "unknown architecture: \(words[2])" }
      for address in words[6...] where !isHexAddress(address) { return "not an address: \(address)" }
      return nil
    case "mdfind":
      let prefix = "com_apple_xcode_dsym_uuids == "
      guard words.count == 2, words[1].hasPrefix(prefix) else { return "mdfind arguments out of shape: \(words)" }
      let uuid = words[1].dropFirst(prefix.count)
      let isUUID =
        !uuid.isEmpty
        && uuid.utf8.allSatisfy { byte in
          byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
        }
      return isUUID ? nil : "not a UUID: \(uuid)"
    default:
      return "not a suggested command: \(words)"
    }
  }

  static func isHexAddress(_ text: String) -> Bool {
    text.hasPrefix("0x") && text.utf8.count > 2
      && text.utf8.dropFirst(2).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
  }

  // MARK: Markdown

  /// The problems of Markdown output as text outside code: a `<` that is not an entity nor
  /// the format's own HTML, `![`, `](` or a backtick that is not escaped, outside fenced code
  /// blocks and code spans; and a code span whose content holds a backtick run as long as its
  /// fence (which CommonMark would have ended it at). Fences are taken at the start of a line
  /// (after up to three spaces), code spans as CommonMark pairs them on one line.
  static func markdownViolations(_ markdown: String) -> [String] {
    var problems: [String] = []
    var fence: (character: UInt8, length: Int)?
    var afterBlank = true
    var inIndentedCode = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      let bytes = Array(line.utf8)
      var indent = 0
      while indent < bytes.count && bytes[indent] == 0x20 { indent += 1 }
      let run = indent < bytes.count ? bytes[indent...].prefix(while: { $0 == bytes[indent] }) : []
      if let open = fence {
        if indent <= 3 && run.first == open.character && run.count >= open.length
          && bytes[(indent + run.count)...].allSatisfy({ $0 == 0x20 })
        {
          fence = nil
        }
        continue
      }
      if indent == bytes.count {
        afterBlank = true
        continue
      }
      if (afterBlank || inIndentedCode) && indent >= 4 {
        inIndentedCode = true
        afterBlank = false
        continue
      }
      inIndentedCode = false
      afterBlank = false
      if indent <= 3, let first = run.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~"), run.count >= 3 {
        fence = (first, run.count)
        continue
      }
      problems += inlineViolations(bytes, line: line)
    }
    return problems
  }

  static func inlineViolations(_ bytes: [UInt8], line: Substring) -> [String] {
    var problems: [String] = []
    let shown = TerminalText.escaped(String(line))
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") {
        index += 2
        continue
      }
      if byte == UInt8(ascii: "`") {
        var end = index
        while end < bytes.count && bytes[end] == byte { end += 1 }
        let length = end - index
        var close: Int?
        var cursor = end
        while cursor < bytes.count {
          guard bytes[cursor] == byte else {
            cursor += 1
            continue
          }
          var runEnd = cursor
          while runEnd < bytes.count && bytes[runEnd] == byte { runEnd += 1 }
          if runEnd - cursor == length {
            close = cursor
            break
          }
          cursor = runEnd
        }
        guard let close else {
          problems.append("unescaped backtick outside code: \(shown)")
          index = end
          continue
        }
        index = close + length
        continue
      }
      if byte == UInt8(ascii: "<") {
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        let own = ["<br>", "</details>", "<details><summary>", "</summary>"].first { rest.hasPrefix($0) }
        if let own {
          index += own.utf8.count
          continue
        }
        problems.append("raw < outside code: \(shown)")
      }
      if byte == UInt8(ascii: "!") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "[") {
        problems.append("image syntax outside code: \(shown)")
      }
      if byte == UInt8(ascii: "]") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "(") {
        problems.append("link syntax outside code: \(shown)")
      }
      index += 1
    }
    return problems
  }
}
