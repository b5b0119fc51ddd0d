/// Wrapping and plain rendering of the Markdown that rules write (remedies, rationales), for
/// terminals and logs. Every line passes through ``TerminalText/escaped(_:)``.
enum PlainText {
  /// Word-wraps one paragraph. `indent` starts every line, `hanging` replaces it on the first.
  static func wrap(_ text: String, width: Int, indent: String, hanging: String? = nil) -> [String] {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    var lines: [String] = []
    var current = hanging ?? indent
    var currentWidth = current.count
    var lineHasWord = false
    for word in words {
      let wordWidth = word.count
      if lineHasWord && currentWidth + 1 + wordWidth > width {
        lines.append(current)
        current = indent
        currentWidth = indent.count
        lineHasWord = false
      }
      if lineHasWord {
        current += " "
        currentWidth += 1
      }
      current += word
      currentWidth += wordWidth
      lineHasWord = true
    }
    if lineHasWord || lines.isEmpty { lines.append(current) }
    return lines
  }

  /// Renders Markdown as plain text: paragraphs and list items wrapped, code blocks indented by
  /// four more spaces and never wrapped, headings on their own line, emphasis markers and link
  /// syntax removed (`[text](url)` becomes `text (url)`); inline code keeps its backticks.
  static func renderMarkdown(_ markdown: String, width: Int, indent: String, style: Style = Style(enabled: false)) -> [String] {
    var output: [String] = []
    var paragraph: [String] = []
    var listItem: (marker: String, text: [String])?
    var inCode = false

    func flushParagraph() {
      if !paragraph.isEmpty {
        output += wrap(inline(paragraph.joined(separator: " ")), width: width, indent: indent)
        paragraph = []
      }
      if let item = listItem {
        let hanging = indent + item.marker
        let continuation = indent + String(repeating: " ", count: item.marker.count)
        output += wrap(inline(item.text.joined(separator: " ")), width: width, indent: continuation, hanging: hanging)
        listItem = nil
      }
    }

    for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = String(rawLine)
      let trimmed = line.trimmingWhitespace()
      if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
        flushParagraph()
        inCode.toggle()
        continue
      }
      if inCode {
        output.append(trimmed.isEmpty ? "" : indent + "    " + style.code(TerminalText.escaped(line)))
        continue
      }
      if trimmed.isEmpty {
        flushParagraph()
        if output.last.map({ !$0.isEmpty }) ?? false { output.append("") }
        continue
      }
      if trimmed.hasPrefix("#") {
        flushParagraph()
        let title = trimmed.drop(while: { $0 == "#" }).trimmingWhitespace()
        output.append(indent + style.bold(inline(title)))
        continue
      }
      if let marker = listMarker(trimmed) {
        flushParagraph()
        listItem = (marker.rendered, [String(trimmed.dropFirst(marker.length))])
        continue
      }
      if line.hasPrefix("    ") && paragraph.isEmpty && listItem == nil {
        output.append(indent + "    " + style.code(TerminalText.escaped(String(line.dropFirst(4)))))
        continue
      }
      if listItem != nil {
        listItem!.text.append(trimmed)
      } else {
        paragraph.append(trimmed)
      }
    }
    flushParagraph()
    while output.last == "" { output.removeLast() }
    return output
  }

  /// `- `, `* `, `+ ` or `1. ` at the start of a line.
  private static func listMarker(_ line: String) -> (length: Int, rendered: String)? {
    if line.hasPrefix("- ") || line.hasPrefix("* ") || line.hasPrefix("+ ") { return (2, "- ") }
    let digits = line.prefix(while: { $0.isASCII && $0.isNumber })
    if !digits.isEmpty, digits.count <= 3, line.dropFirst(digits.count).hasPrefix(". ") {
      return (digits.count + 2, digits + ". ")
    }
    return nil
  }

  /// Removes `**`/`__` emphasis and turns links into "text (url)"; escapes control characters.
  static func inline(_ text: String) -> String {
    var result = ""
    var characters = Substring(text)
    var inCode = false
    while let character = characters.first {
      if character == "`" {
        inCode.toggle()
        result.append(character)
        characters = characters.dropFirst()
        continue
      }
      if !inCode {
        if characters.hasPrefix("**") || characters.hasPrefix("__") {
          characters = characters.dropFirst(2)
          continue
        }
        if character == "[", let close = characters.firstIndex(of: "]"),
          characters[characters.index(after: close)...].hasPrefix("("),
          let end = characters[close...].firstIndex(of: ")")
        {
          let label = characters[characters.index(after: characters.startIndex)..<close]
          let url = characters[characters.index(close, offsetBy: 2)..<end]
          result += label == url ? String(url) : "\(label) (\(url))"
          characters = characters[characters.index(after: end)...]
          continue
        }
      }
      result.append(character)
      characters = characters.dropFirst()
    }
    return TerminalText.escaped(result)
  }
}
