import IPSDoctorSupport

/// Stack frame lines: "N   ImageName   0xADDRESS" and what follows the address (an image offset, a
/// symbol with its offset, a source location, "[inlined]").
extension LegacyTextLine {
  /// Reads "N   ImageName   0xADDRESS …": the image name may hold spaces, so the line is split at
  /// the address column. Returns the frame number too.
  ///
  /// Reads the line as ranges of its bytes (every delimiter is ASCII, and frame lines are the
  /// second most common in a report), making `String`s only of the image name, symbol and file.
  static func frame(bytes: UnsafeBufferPointer<UInt8>, texts: SharedTexts.Handle? = nil) -> (number: Int, frame: Frame)?
  {
    let text = ByteScanner.trimmed(bytes, 0..<bytes.count)
    var index = text.lowerBound
    var number = 0
    var digits = 0
    while index < text.upperBound, bytes[index] >= 0x30 && bytes[index] <= 0x39, digits < 9 {
      number = number * 10 + Int(bytes[index] - 0x30)
      digits += 1
      index += 1
    }
    guard digits > 0, index < text.upperBound, isSpaceByte(bytes[index]) else { return nil }
    let rest = ByteScanner.trimmed(bytes, index..<text.upperBound)
    guard let (addressRange, address) = addressColumn(bytes, rest) else { return nil }
    let name = ByteScanner.trimmed(bytes, rest.lowerBound..<addressRange.lowerBound)
    let tailRange = ByteScanner.trimmed(bytes, addressRange.upperBound..<rest.upperBound)
    if let image = offsetOnlyImage(bytes, name) {
      // "ShopApp   ShopApp + 0x4f2a8 …": no address, only the offset into the image.
      var frame = frame(bytes, tail: tailRange, imageName: string(bytes, image, texts), address: nil, texts: texts)
      frame.imageOffset = address
      return (number, frame)
    }
    let imageName = !name.isEmpty && !isQuestionMarks(bytes, name) ? string(bytes, name, texts) : nil
    return (number, frame(bytes, tail: tailRange, imageName: imageName, address: address, texts: texts))
  }

  /// The image of a frame whose address column is an offset into it: `bytes[name]` is the image
  /// column and "Image +" before the offset ("ShopApp   ShopApp +"), as `show` writes a frame
  /// whose report knows only the offset (MetricKit, Crashlytics). Apple's frames never put a "+"
  /// before the address. The image is the column's name when it is written twice, else all of
  /// the text before the "+"; `nil` when the text does not end in " +".
  static func offsetOnlyImage(_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> Range<Int>? {
    guard name.count >= 2, bytes[name.upperBound - 1] == 0x2B, isSpaceByte(bytes[name.upperBound - 2]) else {
      return nil
    }
    let names = ByteScanner.trimmed(bytes, name.lowerBound..<(name.upperBound - 1))
    guard !names.isEmpty, !isQuestionMarks(bytes, names) else { return nil }
    // The column and the repeated name are split by a run of spaces; a name may hold spaces too.
    for split in names where isSpaceByte(bytes[split]) && !isSpaceByte(bytes[split - 1]) {
      let left = names.lowerBound..<split
      let right = ByteScanner.trimmed(bytes, split..<names.upperBound)
      if left.count == right.count && bytes[left].elementsEqual(bytes[right]) { return left }
    }
    return names
  }

  /// Finds the address column: the first "0x…" token preceded by white space; failing that, a
  /// token of eight or more bare hexadecimal digits (some tools drop the "0x").
  ///
  /// `memchr` finds each "0" (image names seldom hold one) and only those are looked at: walking
  /// the image name and its padding a byte at a time was a third of a frame line's cost.
  static func addressColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>)
    -> (Range<Int>, UInt64)?
  {
    let searched = UnsafeBufferPointer(rebasing: bytes[..<text.upperBound])
    var from = text.lowerBound
    while let zero = ByteSearch.firstIndex(of: 0x30, in: searched, from: from) {
      from = zero + 1
      guard zero + 1 < text.upperBound else { break }
      // A word's start: the first byte, or one after a space or tab.
      guard zero == text.lowerBound || isSpaceByte(bytes[zero - 1]), bytes[zero + 1] | 0x20 == 0x78 else {
        continue
      }
      var end = zero + 2
      var value: UInt64 = 0
      while end < text.upperBound, bytes[end].isASCIIHexDigit {
        value = value &<< 4 | hexValue(bytes[end])
        end += 1
      }
      let count = end - zero - 2
      if count > 0 && count <= 16, end == text.upperBound || isSpaceByte(bytes[end]) {
        return (zero..<end, value)
      }
    }
    // Bare digits: "???   000000000000000000 0 + 0".
    var index = text.lowerBound
    var tokenStart: Int?
    while true {
      let atEnd = index == text.upperBound
      if atEnd || isSpaceByte(bytes[index]) {
        if let start = tokenStart {
          let token = start..<index
          if token.count >= 8, bytes[token].allSatisfy(\.isASCIIHexDigit), start > text.lowerBound {
            var value: UInt64 = 0
            for byte in bytes[max(start, index - 16)..<index] { value = value &<< 4 | hexValue(byte) }
            return (token, value)
          }
          tokenStart = nil
        }
      } else if tokenStart == nil {
        tokenStart = index
      }
      if atEnd { break }
      index += 1
    }
    return nil
  }

  /// The frame at `address` in the image named `imageName`, with what follows the address,
  /// `bytes[tail]`: "0xBASE + offset" (optionally "// symbol + 0x10" after it), "symbol + 164
  /// (File.swift:42) [inlined]", "???" or nothing. The fields are gathered in locals and the frame
  /// made once, by its memberwise initialiser (see ``Frame``).
  static func frame(
    _ bytes: UnsafeBufferPointer<UInt8>, tail: Range<Int>, imageName: consuming String?, address: UInt64?,
    texts: SharedTexts.Handle?
  ) -> Frame {
    var imageOffset: UInt64?
    var symbol: String?
    var symbolLocation: UInt64?
    var sourceFile: String?
    var sourceLine: Int?
    var isInline = false
    // One block left early, then the one return that makes the frame.
    read: do {
      guard !tail.isEmpty else { break read }
      var symbolPart: Range<Int>? = tail
      // The first three space-separated tokens, when the first may be a number (a digit or a
      // sign first; ``number(_:_:)`` is `nil` for anything else): not for a symbol.
      var tokens: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
      var tokenCount = 0
      var index = tail.lowerBound
      let first = bytes[tail.lowerBound]
      let mayBeNumber = first &- 0x30 < 10 || first == 0x2B || first == 0x2D
      while mayBeNumber && tokenCount < 3 {
        while index < tail.upperBound, isSpaceByte(bytes[index]) { index += 1 }
        guard index < tail.upperBound else { break }
        let start = index
        while index < tail.upperBound, !isSpaceByte(bytes[index]) { index += 1 }
        switch tokenCount {
        case 0: tokens.0 = start..<index
        case 1: tokens.1 = start..<index
        default: tokens.2 = start..<index
        }
        tokenCount += 1
        // "symbol + 8" and "0x1 + 2": a second token other than "+" decides the question.
        if tokenCount == 2 && (tokens.1.count != 1 || bytes[tokens.1.lowerBound] != 0x2B) { break }
      }
      if tokenCount == 3, tokens.1.count == 1, bytes[tokens.1.lowerBound] == 0x2B,
        let base = number(bytes, tokens.0),
        let offset = number(
          bytes, tokens.2.lowerBound..<(bytes[tokens.2].firstIndex(of: 0x2F) ?? tokens.2.upperBound))
      {
        // Unsymbolicated: base + offset. The offset must be consistent with the base.
        // A zero base means the writer did not know the image: the offset is then meaningless.
        if base != 0 { imageOffset = offset }
        if let comment = firstDoubleSlash(bytes, tail) {
          symbolPart = ByteScanner.trimmed(bytes, comment..<tail.upperBound)
        } else if let symbolText = parenthesisedSymbol(bytes, tokens.2.upperBound..<tail.upperBound) {
          // KSCrash's Apple-style text: "0xBASE + offset (symbol + 18)".
          symbolPart = symbolText
        } else {
          symbolPart = nil
        }
      }
      guard var text = symbolPart, !text.isEmpty else { break read }
      // "[inlined]" and the source location may come in either order.
      for _ in 0..<2 {
        if bytes.hasSuffix("[inlined]", in: text) {
          isInline = true
          text = ByteScanner.trimmed(bytes, text.lowerBound..<(text.upperBound - 9))
        }
        if let (file, line, rest) = sourceSuffix(bytes, text) {
          sourceFile = file
          sourceLine = line
          text = rest
        }
      }
      if let plus = lastIndex(of: 0x2B, in: bytes, text), plus > text.lowerBound, isSpaceByte(bytes[plus - 1]) {
        let offsetText = ByteScanner.trimmed(bytes, (plus + 1)..<text.upperBound)
        if let offset = number(bytes, offsetText) {
          symbolLocation = offset
          text = ByteScanner.trimmed(bytes, text.lowerBound..<plus)
        }
      }
      // "// 0x00020d58 + 0x80": an address is not a symbol.
      if text.count >= 2 && bytes[text.lowerBound] == 0x30 && bytes[text.lowerBound + 1] == 0x78,
        hex(bytes, text) != nil
      {
        symbolLocation = nil
        break read
      }
      if !text.isEmpty && !isQuestionMarks(bytes, text) { symbol = string(bytes, text, texts) }
    }
    return Frame(
      imageIndex: nil, imageOffset: imageOffset, symbol: symbol, symbolLocation: symbolLocation,
      sourceFile: sourceFile, sourceLine: sourceLine, isInline: isInline, imageName: imageName, address: address)
  }

  /// The inside of "(symbol + 18)" when `bytes[range]` is exactly that (after white space): the
  /// symbol KSCrash writes after "0xBASE + offset". Only the "symbol + offset" form counts, so a
  /// parenthesised source location or comment is not taken for a symbol.
  static func parenthesisedSymbol(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int>? {
    let text = ByteScanner.trimmed(bytes, range)
    guard text.count > 2, bytes[text.lowerBound] == 0x28, bytes[text.upperBound - 1] == 0x29 else {
      return nil
    }
    let inside = ByteScanner.trimmed(bytes, (text.lowerBound + 1)..<(text.upperBound - 1))
    guard let plus = lastIndex(of: 0x2B, in: bytes, inside), plus > inside.lowerBound,
      isSpaceByte(bytes[plus - 1]),
      number(bytes, ByteScanner.trimmed(bytes, (plus + 1)..<inside.upperBound)) != nil
    else { return nil }
    return inside
  }

  /// Where the first "//" in `bytes[text]` ends.
  static func firstDoubleSlash(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>) -> Int? {
    var index = text.lowerBound
    while index + 1 < text.upperBound {
      if bytes[index] == 0x2F && bytes[index + 1] == 0x2F { return index + 2 }
      index += 1
    }
    return nil
  }

  /// " (File.swift:42)" at the end of a symbol: the file, the line and the symbol before it.
  static func sourceSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>)
    -> (String, Int, Range<Int>)?
  {
    guard !text.isEmpty, bytes[text.upperBound - 1] == 0x29,
      let open = lastIndex(of: 0x28, in: bytes, text), open > text.lowerBound,
      isSpaceByte(bytes[open - 1])
    else { return nil }
    let inside = (open + 1)..<(text.upperBound - 1)
    guard let colon = lastIndex(of: 0x3A, in: bytes, inside), colon > inside.lowerBound else {
      return nil
    }
    let lineText = (colon + 1)..<inside.upperBound
    guard !lineText.isEmpty, bytes[lineText].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let lineNumber = unsigned(bytes, lineText, radix: 10), lineNumber <= UInt64(Int.max)
    else {
      return nil
    }
    let file = inside.lowerBound..<colon
    guard !contains(0x3A, in: bytes, file) else { return nil }
    return (string(bytes, file), Int(lineNumber), ByteScanner.trimmed(bytes, text.lowerBound..<open))
  }
}
