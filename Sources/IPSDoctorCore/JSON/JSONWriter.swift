/// Writes JSON text with keys in the order given, so output is byte-for-byte deterministic.
///
/// Strings are escaped per RFC 8259; control characters, and the Unicode line and paragraph
/// separators and bidirectional controls, are written as `\u` escapes so that no report text can
/// change how a terminal or viewer renders the output.
public struct JSONWriter {
  public enum Style: Sendable {
    case compact
    case pretty
  }

  public private(set) var output = ""
  let style: Style

  public init(style: Style = .pretty) {
    self.style = style
  }

  public static func string(_ value: JSONValue, style: Style = .pretty) -> String {
    var writer = JSONWriter(style: style)
    writer.write(value, indent: 0)
    return writer.output
  }

  mutating func write(_ value: JSONValue, indent: Int) {
    switch value {
    case .null: output += "null"
    case .bool(let flag): output += flag ? "true" : "false"
    case .number(let number): output += number.description
    case .string(let text): Self.appendQuoted(text, to: &output)
    case .array(let elements):
      if elements.isEmpty {
        output += "[]"
        return
      }
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        newline(indent + 1)
        write(element, indent: indent + 1)
      }
      newline(indent)
      output += "]"
    case .object(let object):
      if object.members.isEmpty {
        output += "{}"
        return
      }
      output += "{"
      for (index, member) in object.members.enumerated() {
        if index > 0 { output += "," }
        newline(indent + 1)
        Self.appendQuoted(member.key, to: &output)
        output += style == .pretty ? ": " : ":"
        write(member.value, indent: indent + 1)
      }
      newline(indent)
      output += "}"
    }
  }

  private mutating func newline(_ indent: Int) {
    guard style == .pretty else { return }
    output += "\n"
    output += String(repeating: "  ", count: indent)
  }

  /// Appends `text` as a JSON string literal.
  ///
  /// Runs of printable ASCII other than `"` and `\` (nearly all of a report's text) are copied as
  /// they are, straight from the string's UTF-8; every other scalar is written by
  /// ``appendEscaped(_:to:)``, as ``appendQuotedByScalars(_:to:)`` writes every one.
  public static func appendQuoted(_ text: String, to output: inout String) {
    let runs = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      output += "\""
      let utf8 = text.utf8
      var runStart = 0
      var offset = 0
      while offset < bytes.count {
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
          offset &+= 1
          continue
        }
        // A run ends at an ASCII byte or a scalar's lead byte: both start a scalar.
        let scalarStart = utf8.index(utf8.startIndex, offsetBy: offset)
        if runStart < offset { output += text[utf8.index(utf8.startIndex, offsetBy: runStart)..<scalarStart] }
        let scalar = text.unicodeScalars[scalarStart]
        appendEscaped(scalar, to: &output)
        offset &+= UTF8.width(scalar)
        runStart = offset
      }
      if runStart < offset { output += text[utf8.index(utf8.startIndex, offsetBy: runStart)...] }
      output += "\""
      return true
    }
    if runs == nil { appendQuotedByScalars(text, to: &output) }
  }

  /// ``appendQuoted(_:to:)`` one scalar at a time: for text without contiguous UTF-8, and the
  /// reference the tests compare the runs with.
  static func appendQuotedByScalars(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars { appendEscaped(scalar, to: &output) }
    output += "\""
  }

  @inline(__always)
  private static func appendEscaped(_ scalar: Unicode.Scalar, to output: inout String) {
    switch scalar {
    case "\"": output += "\\\""
    case "\\": output += "\\\\"
    case "\n": output += "\\n"
    case "\r": output += "\\r"
    case "\t": output += "\\t"
    default:
      let value = scalar.value
      if value < 0x20 || value == 0x7F || (value >= 0x80 && value < 0xA0)
        || TerminalText.isBidiOrSeparator(value)
      {
        let hex = String(value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
  }

  public static func quoted(_ text: String) -> String {
    var output = ""
    appendQuoted(text, to: &output)
    return output
  }
}
