import IPSDoctorSupport

/// Tests the rules run first on every report, answered in place: the context's helpers that
/// return (or loop over) its stored facts copy them, each backtrace with its frames and thread
/// retained and released again, on the many reports a rule rules out.
extension DiagnosisContext {
  /// Whether `firstFrame(containing: fragment)` is certainly `nil`: every backtrace has its symbol
  /// bytes and none holds `fragment` (a fragment absent from the bytes is in no symbol, which is
  /// what `firstFrame(in:containing:)` answers from the same search). `false` means "search".
  func backtracesLack(_ fragment: String) -> Bool {
    for index in backtraces.indices {
      guard backtraces[index].symbolText?.contains(fragment) == false else { return false }
    }
    return true
  }
}

/// Text helpers for the rules' findings.
enum RuleText {
  /// `text.filter { $0 != "`" }`, on the bytes when the text is ASCII (every character one byte),
  /// without filtering `Character`s.
  static func removingBackticks(_ text: String) -> String {
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.filter { $0 != "`" } }
    return String(decoding: text.utf8.filter { $0 != UInt8(ascii: "`") }, as: UTF8.self)
  }
}
