import IPSDoctorJSON
import IPSDoctorSupport

/// Why a file could not be read as a crash report, or why its body could not be.
public struct ReportError: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String
  /// 1-based line and column in the file, when the problem has a position.
  package var line: Int?
  package var column: Int?
  /// The JSON path being parsed, when it applies.
  package var path: String?
  /// What the file is, when it was read and holds no crash (a crash reporter's report with an
  /// empty crash section): a folder scan passes it over instead of failing on it.
  package var notACrash: String?

  package init(message: String, line: Int? = nil, column: Int? = nil, path: String? = nil) {
    self.message = message
    self.line = line
    self.column = column
    self.path = path
  }

  package init(_ error: JSONError, context: String) {
    self.init(
      message: "\(context): \(error.message)", line: error.location.line,
      column: error.location.column, path: error.path.isRoot ? nil : error.path.description)
  }

  /// `line:column: error: message (at path)`; prefix it with the file name to get a compiler-style
  /// diagnostic.
  public var description: String {
    var text = ""
    if let line {
      text += "\(line):"
      if let column { text += "\(column):" }
      text += " "
    }
    text += "error: " + message
    if let path { text += " (at \(path))" }
    return text
  }

  /// `file:line:column: error: message (at path)`.
  package func diagnostic(file: String) -> String {
    var text = file + ":"
    if let line {
      text += "\(line):"
      if let column { text += "\(column):" }
    }
    text += " error: " + message
    if let path { text += " (at \(path))" }
    return text
  }
}
