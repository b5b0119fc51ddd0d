import IPSDoctorSupport

/// Wrapping and plain rendering of the Markdown that rules write (remedies, rationales), for
/// terminals and logs. Every line passes through ``TerminalText/escaped(_:)``.
package enum PlainText {
  /// `lines.joined(separator: "\n") + "\n"`, in one string of the right size.
  static func joinedLines(_ lines: [String]) -> String {
    guard !lines.isEmpty else { return "\n" }
    return lines.withUnsafeBufferPointer { lines in
      var total = lines.count
      for index in lines.indices { total += lines[index].utf8.count }
      return String(unsafeUninitializedCapacity: total) { output in
        var written = 0
        for index in lines.indices {
          lines[index].withBorrowedUTF8 { bytes in
            if let base = bytes.baseAddress {
              UnsafeMutableRawPointer(output.baseAddress! + written).copyMemory(from: base, byteCount: bytes.count)
            }
            written += bytes.count
          }
          output[written] = 0x0A
          written += 1
        }
        return written
      }
    }
  }

  /// Word-wraps one paragraph. `indent` starts every line, `hanging` replaces it on the first.
  /// Words are the runs between space, tab and line-feed `Character`s (``forEachWord(of:_:)``); a
  /// line holds as many as fit in `width` columns (``columns(of:)``), one space apart, and a word
  /// wider than that has a line of its own.
  package static func wrap(_ text: String, width: Int, indent: String, hanging: String? = nil) -> [String] {
    let first = hanging ?? indent
    let indentColumns = columns(of: indent)
    var lines: [String] = []
    var line = ByteBuffer(capacity: first.utf8.count + min(text.utf8.count, max(width, 0)) + 16)
    var lineColumns = columns(of: first)
    var lineHasWord = false
    first.withBorrowedUTF8 { line.append($0) }
    indent.withBorrowedUTF8 { indentBytes in
      forEachWord(of: text) { word, wordColumns in
        if lineHasWord && lineColumns + 1 + wordColumns > width {
          lines.append(line.string)
          line.removeAll()
          line.append(indentBytes)
          lineColumns = indentColumns
          lineHasWord = false
        }
        if lineHasWord {
          line.append(UInt8(0x20))
          lineColumns += 1
        }
        line.append(word)
        lineColumns += wordColumns
        lineHasWord = true
      }
    }
    if lineHasWord || lines.isEmpty { lines.append(line.string) }
    return lines
  }

  /// The columns `text` takes on a terminal: one a `Character`. In ``isSimple(_:)`` text every
  /// `Character` is one scalar, so they are counted as UTF-8 lead bytes.
  static func columns(of text: String) -> Int {
    guard isSimple(text) else { return text.count }
    var count = 0
    for byte in text.utf8 where byte & 0xC0 != 0x80 { count += 1 }
    return count
  }

  /// Calls `body` with each word of `text` (a run between space, tab and line-feed `Character`s),
  /// as its UTF-8 and its ``columns(of:)``, in order. In ``isSimple(_:)`` text those three are
  /// single bytes that never join a neighbour and every `Character` is one scalar, so the text is
  /// cut at those bytes and a word's width is its count of lead bytes; other text is cut
  /// `Character` by `Character`.
  static func forEachWord(of text: String, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    let simple = isSimple(text)
    text.withBorrowedUTF8 { bytes in
      guard simple else {
        let utf8 = text.utf8
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
          let start = utf8.distance(from: utf8.startIndex, to: word.startIndex)
          body(UnsafeBufferPointer(rebasing: bytes[start..<(start + word.utf8.count)]), word.count)
        }
        return
      }
      var index = 0
      let count = bytes.count
      while index < count {
        let byte = bytes[index]
        if byte == 0x20 || byte == 0x0A || byte == 0x09 {
          index += 1
          continue
        }
        var end = index + 1
        var wordColumns = 1
        while end < count {
          let next = bytes[end]
          if next == 0x20 || next == 0x0A || next == 0x09 { break }
          if next & 0xC0 != 0x80 { wordColumns += 1 }
          end += 1
        }
        body(UnsafeBufferPointer(rebasing: bytes[index..<end]), wordColumns)
        index = end
      }
    }
  }

  /// Whether every character of `text` is exactly one Unicode scalar, and two texts made of such
  /// scalars are equal only when their bytes are: ASCII without carriage return (`\r\n` is one
  /// character), and a few blocks of scalars that never join a neighbour into one grapheme cluster
  /// (no combining marks, joiners, format controls, emoji or Hangul) and that Unicode
  /// normalisation leaves alone: Latin-1 (but the soft hyphen), Latin Extended-A and -B, general
  /// punctuation from U+2010 (dashes, quotes, bullet, ellipsis), arrows and mathematical operators.
  /// Rule texts use these (em dashes, curly quotes, arrows).
  static func isSimple(_ text: String) -> Bool {
    // ASCII without carriage return is a subset of the scalars below, answered from the bytes.
    if text.utf8.withContiguousStorageIfAvailable(ByteSearch.isASCIIWithoutCarriageReturn) == true { return true }
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0D: return false
      case 0..<0x80, 0xA0...0xAC, 0xAE...0x24F, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x22FF:
        continue
      default: return false
      }
    }
    return true
  }

  /// Renders Markdown as plain text: paragraphs and list items wrapped, code blocks indented by
  /// four more spaces and never wrapped, headings on their own line, emphasis markers and link
  /// syntax removed (`[text](url)` becomes `text (url)`); inline code keeps its backticks.
  package static func renderMarkdown(
    _ markdown: String, width: Int, indent: String, style: Style = Style(enabled: false)
  )
    -> [String]
  {
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

    for rawLine in lines(of: markdown) {
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

  /// The lines of `text`, as `text.split(separator: "\n", omittingEmptySubsequences: false)`
  /// cuts it: at every line feed that is a `Character` of its own. Unicode breaks a cluster before
  /// and after every control but between CR and LF, so those are the line-feed bytes that do not
  /// follow a carriage return.
  static func lines(of text: String) -> [Substring] {
    let utf8 = text.utf8
    return text.withBorrowedUTF8 { bytes in
      guard let base = bytes.baseAddress else { return [text[...]] }
      var result: [Substring] = []
      var start = utf8.startIndex
      var startOffset = 0
      var offset = 0
      while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
        let end = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
        offset = end + 1
        if end > 0 && base[end - 1] == 0x0D { continue }
        let endIndex = utf8.index(start, offsetBy: end - startOffset)
        result.append(text[start..<endIndex])
        start = utf8.index(after: endIndex)
        startOffset = end + 1
      }
      result.append(text[start...])
      return result
    }
  }

  /// The lines of `text` (``lines(of:)``), each made visible by ``TerminalText/escaped(_:)``.
  static func visibleLines(of text: String) -> [String] {
    lines(of: text).map { TerminalText.escaped(String($0)) }
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

  /// Removes `**`/`__` emphasis and turns links into "text (url)" outside code spans; escapes
  /// control characters. The markers are `Character`s: in ``isSimple(_:)`` text each is one byte
  /// and no byte of another `Character` equals one, so such text is rewritten on its bytes (and
  /// returned as it is when it holds none of the markup, ``hasInlineMarkup(_:)``); other text is
  /// rewritten on its `Character`s by the same code.
  static func inline(_ text: String) -> String {
    if isSimple(text) {
      let plain = text.withBorrowedUTF8 { bytes -> String in
        guard hasInlineMarkup(bytes) else { return text }
        return String(decoding: removingMarkup(bytes, InlineMarkers<UInt8>.bytes), as: UTF8.self)
      }
      return TerminalText.escaped(plain)
    }
    return TerminalText.escaped(String(removingMarkup(Array(text), InlineMarkers<Character>.characters)))
  }

  /// The characters ``inline(_:)`` looks for, as bytes or as `Character`s.
  struct InlineMarkers<Element: Equatable> {
    let backtick, star, underscore, openBracket, closeBracket, openParenthesis, closeParenthesis, space: Element

    static var bytes: InlineMarkers<UInt8> {
      InlineMarkers<UInt8>(
        backtick: UInt8(ascii: "`"), star: UInt8(ascii: "*"), underscore: UInt8(ascii: "_"),
        openBracket: UInt8(ascii: "["), closeBracket: UInt8(ascii: "]"), openParenthesis: UInt8(ascii: "("),
        closeParenthesis: UInt8(ascii: ")"), space: UInt8(ascii: " "))
    }

    static var characters: InlineMarkers<Character> {
      InlineMarkers<Character>(
        backtick: "`", star: "*", underscore: "_", openBracket: "[", closeBracket: "]", openParenthesis: "(",
        closeParenthesis: ")", space: " ")
    }
  }

  /// ``inline(_:)`` before escaping: outside code spans (between backticks), `**` and `__` go and
  /// `[label](url)` becomes `label (url)`, or `url` when the two are equal.
  static func removingMarkup<Items: RandomAccessCollection>(_ items: Items, _ marks: InlineMarkers<Items.Element>)
    -> [Items.Element] where Items.Index == Int
  {
    var result: [Items.Element] = []
    result.reserveCapacity(items.count)
    let end = items.endIndex
    var index = items.startIndex
    var inCode = false
    while index < end {
      let item = items[index]
      if item == marks.backtick {
        inCode.toggle()
      } else if !inCode {
        if index + 1 < end, item == marks.star || item == marks.underscore, items[index + 1] == item {
          index += 2
          continue
        }
        if item == marks.openBracket, let close = items[index...].firstIndex(of: marks.closeBracket),
          close + 1 < end, items[close + 1] == marks.openParenthesis,
          let closing = items[close...].firstIndex(of: marks.closeParenthesis)
        {
          let label = items[(index + 1)..<close]
          let url = items[(close + 2)..<closing]
          if !label.elementsEqual(url) {
            result.append(contentsOf: label)
            result.append(marks.space)
            result.append(marks.openParenthesis)
          }
          result.append(contentsOf: url)
          if !label.elementsEqual(url) { result.append(marks.closeParenthesis) }
          index = closing + 1
          continue
        }
      }
      result.append(item)
      index += 1
    }
    return result
  }

  /// Whether ``inline(_:)`` may change `bytes` of ``isSimple(_:)`` text: they hold `](` (a link's middle, without
  /// which no `[` starts one), `**` or `__`. A lone `[`, as in the frame paths that summaries
  /// cite (`threads[0].frames[3]`), changes nothing.
  static func hasInlineMarkup(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    hasPair(bytes, UInt8(ascii: "]"), UInt8(ascii: "(")) || hasPair(bytes, UInt8(ascii: "*"), UInt8(ascii: "*"))
      || hasPair(bytes, UInt8(ascii: "_"), UInt8(ascii: "_"))
  }

  /// Whether `first` is followed somewhere by `second` in `bytes`.
  private static func hasPair(_ bytes: UnsafeBufferPointer<UInt8>, _ first: UInt8, _ second: UInt8) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    var start = 0
    while start + 1 < bytes.count, let found = memchr(base + start, Int32(first), bytes.count - start - 1) {
      let index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      if base[index + 1] == second { return true }
      start = index + 1
    }
    return false
  }
}
