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
  package static func wrap(_ text: String, width: Int, indent: String, hanging: String? = nil) -> [String] {
    if let lines = wrapSimple(text, width: width, indent: indent, hanging: hanging) { return lines }
    return wrapCharacters(text, width: width, indent: indent, hanging: hanging)
  }

  /// ``wrap(_:width:indent:hanging:)`` on `Character`s, for any text (the reference for the byte path).
  static func wrapCharacters(_ text: String, width: Int, indent: String, hanging: String? = nil) -> [String] {
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

  /// ``wrap(_:width:indent:hanging:)`` for text where every character is one Unicode scalar
  /// (``isSimple(_:)``): the same lines on UTF-8 bytes, a character's width being one lead byte.
  /// `nil` for any other text.
  ///
  /// Each line is gathered in one scratch buffer, reused from line to line, and made a `String`
  /// once.
  private static func wrapSimple(_ text: String, width: Int, indent: String, hanging: String?) -> [String]? {
    let first = hanging ?? indent
    guard isSimple(text), isSimple(indent), isSimple(first) else { return nil }
    let indentWidth = scalarCount(indent)
    let firstWidth = scalarCount(first)
    return text.withBorrowedUTF8 { bytes in
      indent.withBorrowedUTF8 { indentBytes in
        first.withBorrowedUTF8 { firstBytes in
          var lines: [String] = []
          var line = ByteBuffer(capacity: firstBytes.count + min(bytes.count, max(width, 0)) + 16)
          line.append(firstBytes)
          var currentWidth = firstWidth
          var lineHasWord = false
          var index = 0
          let count = bytes.count
          while index < count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x09 {
              index += 1
              continue
            }
            var end = index + 1
            var wordWidth = 1
            while end < count {
              let next = bytes[end]
              if next == 0x20 || next == 0x0A || next == 0x09 { break }
              if next & 0xC0 != 0x80 { wordWidth += 1 }
              end += 1
            }
            if lineHasWord && currentWidth + 1 + wordWidth > width {
              lines.append(line.string)
              line.removeAll()
              line.append(indentBytes)
              currentWidth = indentWidth
              lineHasWord = false
            }
            if lineHasWord {
              line.append(UInt8(0x20))
              currentWidth += 1
            }
            line.append(UnsafeBufferPointer(rebasing: bytes[index..<end]))
            currentWidth += wordWidth
            lineHasWord = true
            index = end
          }
          if lineHasWord || lines.isEmpty { lines.append(line.string) }
          return lines
        }
      }
    }
  }

  /// The number of Unicode scalars (UTF-8 lead bytes) of `text`.
  private static func scalarCount(_ text: String) -> Int {
    var count = 0
    for byte in text.utf8 where byte & 0xC0 != 0x80 { count += 1 }
    return count
  }

  /// Whether every character of `text` is exactly one Unicode scalar, and two texts made of such
  /// scalars are equal only when their bytes are: ASCII without carriage return (`\r\n` is one
  /// character), and a few blocks of scalars that never join a neighbour into one grapheme cluster
  /// (no combining marks, joiners, format controls, emoji or Hangul) and that Unicode
  /// normalisation leaves alone: Latin-1 (but the soft hyphen), Latin Extended-A and -B, general
  /// punctuation from U+2010 (dashes, quotes, bullet, ellipsis), arrows and mathematical operators.
  /// Rule texts use these (em dashes, curly quotes, arrows).
  static func isSimple(_ text: String) -> Bool {
    // ASCII without carriage return, most rule text, is answered from the bytes.
    if text.utf8.withContiguousStorageIfAvailable(ByteSearch.isASCIIWithoutCarriageReturn) == true { return true }
    return isSimpleScalars(text)
  }

  /// ``isSimple(_:)`` scalar by scalar (the reference for the byte path).
  static func isSimpleScalars(_ text: String) -> Bool {
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

  /// `markdown.split(separator: "\n", omittingEmptySubsequences: false)`, on UTF-8 bytes when the
  /// text has no carriage return: a line feed is then always a character of its own (only CR LF
  /// joins it to a neighbour), so the pieces are the same.
  ///
  /// The line feeds are found with `memchr` in the contiguous UTF-8 of a native string; each line
  /// is the slice between them.
  static func lines(of markdown: String) -> [Substring] {
    lineFeedLines(of: markdown) ?? linesByCharacters(of: markdown)
  }

  /// ``lines(of:)`` for text without carriage returns (split at its line-feed bytes, found with
  /// `memchr`); `nil` for text with one, or without contiguous UTF-8.
  static func lineFeedLines(of text: String) -> [Substring]? {
    let utf8 = text.utf8
    let lines = utf8.withContiguousStorageIfAvailable { bytes -> [Substring]? in
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return [text[...]] }
      if memchr(base, 0x0D, bytes.count) != nil { return nil }
      var result: [Substring] = []
      var offset = 0
      var start = utf8.startIndex
      while let found = memchr(base + offset, 0x0A, bytes.count - offset) {
        let end = found.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: base)
        let endIndex = utf8.index(start, offsetBy: end - offset)
        result.append(text[start..<endIndex])
        start = utf8.index(after: endIndex)
        offset = end + 1
      }
      result.append(text[start...])
      return result
    }
    return lines ?? nil
  }

  /// The lines of text without carriage returns, each made visible by
  /// ``TerminalText/escaped(_:)``: what the CI formats' `Character` code gets from splitting at
  /// `"\n"` and escaping each piece. `nil` for text with a carriage return (CR LF is one
  /// `Character`, which that split keeps whole).
  static func visibleLines(of text: String) -> [String]? {
    lineFeedLines(of: text)?.map { TerminalText.escaped(String($0)) }
  }

  /// ``lines(of:)`` by `Character`s, for any text (the reference for the byte path).
  static func linesByCharacters(of markdown: String) -> [Substring] {
    markdown.split(separator: "\n", omittingEmptySubsequences: false)
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
    if isSimple(text) { return TerminalText.escaped(inlineSimple(text)) }
    return inlineCharacters(text)
  }

  /// ``inline(_:)`` on `Character`s, for any text (the reference for the byte path).
  static func inlineCharacters(_ text: String) -> String {
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

  /// ``inline(_:)`` before escaping, for ``isSimple(_:)`` text, byte by byte: every marker is
  /// ASCII, no byte of a multi-byte scalar is, every character is one scalar and equal texts have
  /// equal bytes, so the result is the same. Text with no `](` and no doubled `*` or `_` (most of
  /// what rules write) is returned as it is; other text is rewritten into a string of its own
  /// length, which the result never exceeds (markers are only removed, and `[label](url)` becomes
  /// the shorter `label (url)`).
  private static func inlineSimple(_ text: String) -> String {
    text.withBorrowedUTF8 { bytes -> String in
      guard let base = bytes.baseAddress, hasInlineMarkup(bytes) else { return text }
      let count = bytes.count
      func first(_ byte: UInt8, from start: Int) -> Int? {
        guard start < count, let found = memchr(base + start, Int32(byte), count - start) else { return nil }
        return UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      }
      return String(unsafeUninitializedCapacity: count) { output in
        let out = output.baseAddress!
        var written = 0
        func copy(_ range: Range<Int>) {
          (out + written).initialize(from: base + range.lowerBound, count: range.count)
          written += range.count
        }
        var index = 0
        var inCode = false
        while index < count {
          let byte = base[index]
          if byte == UInt8(ascii: "`") {
            inCode.toggle()
          } else if !inCode {
            if index + 1 < count, byte == UInt8(ascii: "*") || byte == UInt8(ascii: "_"), base[index + 1] == byte {
              index += 2
              continue
            }
            if byte == UInt8(ascii: "["), let close = first(UInt8(ascii: "]"), from: index),
              close + 1 < count, base[close + 1] == UInt8(ascii: "("),
              let end = first(UInt8(ascii: ")"), from: close)
            {
              let label = (index + 1)..<close
              let url = (close + 2)..<end
              if label.count == url.count && memcmp(base + label.lowerBound, base + url.lowerBound, label.count) == 0 {
                copy(url)
              } else {
                copy(label)
                out[written] = UInt8(ascii: " ")
                out[written + 1] = UInt8(ascii: "(")
                written += 2
                copy(url)
                out[written] = UInt8(ascii: ")")
                written += 1
              }
              index = end + 1
              continue
            }
          }
          out[written] = byte
          written += 1
          index += 1
        }
        return written
      }
    }
  }

  /// Whether ``inlineSimple(_:)`` may change `bytes`: they hold `](` (a link's middle, without
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
