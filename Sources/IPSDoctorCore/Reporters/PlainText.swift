/// Wrapping and plain rendering of the Markdown that rules write (remedies, rationales), for
/// terminals and logs. Every line passes through ``TerminalText/escaped(_:)``.
enum PlainText {
  /// Word-wraps one paragraph. `indent` starts every line, `hanging` replaces it on the first.
  static func wrap(_ text: String, width: Int, indent: String, hanging: String? = nil) -> [String] {
    if let lines = wrapASCII(text, width: width, indent: indent, hanging: hanging) { return lines }
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

  /// ``wrap(_:width:indent:hanging:)`` for ASCII text without carriage returns, where a byte is a
  /// character: the same lines without walking grapheme clusters (a third of the instructions of
  /// `ips-doctor one.ips` went to rendering the remedy's Markdown). `nil` for any other text.
  private static func wrapASCII(_ text: String, width: Int, indent: String, hanging: String?) -> [String]? {
    let first = hanging ?? indent
    guard isPlainASCII(text), isPlainASCII(indent), isPlainASCII(first) else { return nil }
    var lines: [String] = []
    var current = Array(first.utf8)
    var lineHasWord = false
    var text = text
    text.withUTF8 { bytes in
      var index = 0
      let count = bytes.count
      while index < count {
        let byte = bytes[index]
        if byte == 0x20 || byte == 0x0A || byte == 0x09 {
          index += 1
          continue
        }
        var end = index + 1
        while end < count, bytes[end] != 0x20, bytes[end] != 0x0A, bytes[end] != 0x09 { end += 1 }
        let wordWidth = end - index
        if lineHasWord && current.count + 1 + wordWidth > width {
          lines.append(String(decoding: current, as: UTF8.self))
          current = Array(indent.utf8)
          lineHasWord = false
        }
        if lineHasWord { current.append(0x20) }
        current.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
        lineHasWord = true
        index = end
      }
    }
    if lineHasWord || lines.isEmpty { lines.append(String(decoding: current, as: UTF8.self)) }
    return lines
  }

  /// Whether every character of `text` is one ASCII byte (no `\r\n` pair, which is one character).
  private static func isPlainASCII(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
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
    if isPlainASCII(text) { return TerminalText.escaped(inlineASCII(text)) }
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

  /// ``inline(_:)`` before escaping, for ASCII text without carriage returns, byte by byte: every
  /// marker is ASCII and every character one byte, so the result is the same.
  private static func inlineASCII(_ text: String) -> String {
    let bytes = Array(text.utf8)
    let count = bytes.count
    var result: [UInt8] = []
    result.reserveCapacity(count)
    var index = 0
    var inCode = false
    func first(_ byte: UInt8, from start: Int) -> Int? {
      var position = start
      while position < count {
        if bytes[position] == byte { return position }
        position += 1
      }
      return nil
    }
    while index < count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "`") {
        inCode.toggle()
        result.append(byte)
        index += 1
        continue
      }
      if !inCode {
        if index + 1 < count, byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_"), bytes[index + 1] == byte {
          index += 2
          continue
        }
        if byte == UInt8(ascii: "["), let close = first(UInt8(ascii: "]"), from: index),
          close + 1 < count, bytes[close + 1] == UInt8(ascii: "("),
          let end = first(UInt8(ascii: ")"), from: close)
        {
          let label = bytes[(index + 1)..<close]
          let url = bytes[(close + 2)..<end]
          if label.elementsEqual(url) {
            result += url
          } else {
            result += label
            result += Array(" (".utf8)
            result += url
            result.append(UInt8(ascii: ")"))
          }
          index = end + 1
          continue
        }
      }
      result.append(byte)
      index += 1
    }
    return String(decoding: result, as: UTF8.self)
  }
}
