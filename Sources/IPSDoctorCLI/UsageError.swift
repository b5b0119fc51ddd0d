import IPSDoctorSupport

/// A mistake on the command line. Printed as `Error: <message>`, the usage line and a pointer to
/// `--help`, with exit status 64 (swift-argument-parser's layout).
package enum UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  case unknownOption(String, suggestion: String?)
  case unknownCommand(String, suggestion: String?)
  case missingValue(option: String)
  case unexpectedValue(option: String)
  case invalidValue(option: String, value: String, expected: String, suggestion: String?)
  case optionNotApplicable(option: String, command: Command)
  case missingArgument(String, command: Command)
  case unexpectedArgument(String, command: Command)
  case conflictingOptions(String, String)
  /// An option that means nothing without another one.
  case optionRequires(String, String)
  case unknownRule(String, suggestion: String?)

  package var description: String {
    switch self {
    case .unknownOption(let name, let suggestion):
      "Unknown option '\(TerminalText.escaped(name))'." + didYouMean(suggestion)
    case .unknownCommand(let name, let suggestion):
      "Unknown command '\(TerminalText.escaped(name))'." + didYouMean(suggestion)
    case .missingValue(let option):
      "Missing value for '\(option)'."
    case .unexpectedValue(let option):
      "The option '\(option)' does not take a value."
    case .invalidValue(let option, let value, let expected, let suggestion):
      "The value '\(TerminalText.escaped(value))' is invalid for '\(option)': expected \(expected)."
        + didYouMean(suggestion)
    case .optionNotApplicable(let option, let command):
      "The option '\(option)' does not apply to '\(command.rawValue)'."
    case .missingArgument(let name, let command):
      command == .diagnose
        ? "Missing expected argument '\(name)': name a crash report, a folder, or - for standard input."
        : "Missing expected argument '\(name)'."
    case .unexpectedArgument(let argument, let command):
      "Unexpected argument '\(TerminalText.escaped(argument))' for '\(command.rawValue)'."
    case .conflictingOptions(let first, let second):
      "The options '\(first)' and '\(second)' cannot be used together."
    case .optionRequires(let option, let other):
      "The option '\(option)' needs \(other)."
    case .unknownRule(let id, let suggestion):
      "Unknown rule '\(TerminalText.escaped(id))'." + didYouMean(suggestion)
        + (suggestion == nil ? " Run 'ips-doctor rules' to list the rules." : "")
    }
  }

  private func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { " Did you mean '\($0)'?" } ?? ""
  }

  /// The command the error names, if any.
  var namedCommand: Command? {
    switch self {
    case .optionNotApplicable(_, let command), .missingArgument(_, let command),
      .unexpectedArgument(_, let command):
      command
    case .unknownRule: .explain
    default: nil
    }
  }

  /// The three lines printed to standard error, with the usage line of the command the error
  /// names, else of `command` (the one on the command line), else of `diagnose`.
  package func rendered(for command: Command? = nil) -> String {
    let command = namedCommand ?? command ?? .diagnose
    let help = command == .diagnose ? "ips-doctor --help" : "ips-doctor help \(command.rawValue)"
    return "Error: \(description)\nUsage: \(command.usage)\n  See '\(help)' for more information.\n"
  }
}

/// "Did you mean" suggestions by edit distance (SwiftFormat's `bestMatches`): the closest
/// candidate within about half the word's length, or one that starts with the word.
enum Suggest {
  static func best(_ word: String, among candidates: [String]) -> String? {
    let word = word.lowercased()
    guard !word.isEmpty else { return nil }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(word, candidate.lowercased())
      let acceptable =
        distance <= max(1, min(word.count, candidate.count) / 2)
        || (word.count >= 3 && candidate.hasPrefix(word))
      guard acceptable else { continue }
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    return best?.candidate
  }

  /// Levenshtein distance, with a transposition counted as one edit.
  static func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let a = Array(lhs)
    let b = Array(rhs)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      previousPrevious = previous
      previous = current
    }
    return previous[b.count]
  }
}
