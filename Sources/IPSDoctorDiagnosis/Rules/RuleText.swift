import IPSDoctorSupport

/// Text helpers for the rules' findings.
enum RuleText {
  /// `text` without its backticks.
  static func removingBackticks(_ text: String) -> String {
    text.filter { $0 != "`" }
  }
}
