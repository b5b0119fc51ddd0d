/// Readers for the single lines of a legacy text crash report: frames, binary images, register
/// dumps and the structured header values. Each takes one line (without its line break) and returns
/// `nil` when the line does not have the expected shape; none of them throws or traps.
enum LegacyTextLine {
  // MARK: Characters

  static func isSpace(_ character: Character) -> Bool {
    character == " " || character == "\t"
  }

  static func isDigit(_ character: Character) -> Bool {
    character >= "0" && character <= "9"
  }

  static func isHexDigit(_ character: Character) -> Bool {
    character.isASCII && character.isHexDigit
  }

  /// Parses "0x1f" (hexadecimal) or "31" (decimal).
  static func number(_ text: Substring) -> UInt64? {
    if hasHexPrefix(text) {
      let digits = Substring(text.utf8.dropFirst(2))
      return digits.isEmpty ? nil : UInt64(digits, radix: 16)
    }
    return UInt64(text)
  }

  /// Parses "0x1f" or bare hexadecimal digits "1f".
  static func hex(_ text: Substring) -> UInt64? {
    if hasHexPrefix(text) {
      let digits = Substring(text.utf8.dropFirst(2))
      return digits.isEmpty ? nil : UInt64(digits, radix: 16)
    }
    return text.isEmpty ? nil : UInt64(text, radix: 16)
  }

  /// Whether `text` starts with "0x" or "0X" (compared as bytes).
  static func hasHexPrefix(_ text: Substring) -> Bool {
    let utf8 = text.utf8
    var index = utf8.startIndex
    guard index < utf8.endIndex, utf8[index] == 0x30 else { return false }
    index = utf8.index(after: index)
    return index < utf8.endIndex && (utf8[index] == 0x78 || utf8[index] == 0x58)
  }

  /// Whether the UTF-8 of `text` starts with that of the ASCII `prefix`.
  static func hasPrefix(_ text: Substring, _ prefix: StaticString) -> Bool {
    let utf8 = text.utf8
    guard utf8.count >= prefix.utf8CodeUnitCount else { return false }
    var index = utf8.startIndex
    for offset in 0..<prefix.utf8CodeUnitCount {
      if utf8[index] != prefix.utf8Start[offset] { return false }
      index = utf8.index(after: index)
    }
    return true
  }

  /// Whether the UTF-8 of `text` ends with that of the ASCII `suffix`.
  static func hasSuffix(_ text: Substring, _ suffix: StaticString) -> Bool {
    let utf8 = text.utf8
    let count = suffix.utf8CodeUnitCount
    guard utf8.count >= count else { return false }
    var index = utf8.index(utf8.endIndex, offsetBy: -count)
    for offset in 0..<count {
      if utf8[index] != suffix.utf8Start[offset] { return false }
      index = utf8.index(after: index)
    }
    return true
  }

  /// Whether `text` is exactly "???".
  static func isQuestionMarks(_ text: Substring) -> Bool {
    text.utf8.count == 3 && text.utf8.allSatisfy { $0 == 0x3F }
  }

  static func isSpaceByte(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09
  }

  static func isHexByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
      || (byte >= 0x41 && byte <= 0x46)
  }

  static func hexValue(_ byte: UInt8) -> UInt64 {
    switch byte {
    case 0x30...0x39: UInt64(byte - 0x30)
    case 0x61...0x66: UInt64(byte - 0x61 + 10)
    default: UInt64(byte - 0x41 + 10)
    }
  }

  /// The text without leading spaces and tabs. (Works on UTF-8: spaces and tabs are single bytes,
  /// so every index found is a character boundary.)
  static func droppingLeadingSpace(_ text: Substring) -> Substring {
    let utf8 = text.utf8
    guard let first = utf8.firstIndex(where: { !isSpaceByte($0) }) else {
      return text[text.endIndex...]
    }
    return text[first...]
  }

  /// The text without trailing spaces and tabs.
  static func droppingTrailingSpace(_ text: Substring) -> Substring {
    let utf8 = text.utf8
    guard let last = utf8.lastIndex(where: { !isSpaceByte($0) }) else {
      return text[text.startIndex..<text.startIndex]
    }
    return text[..<utf8.index(after: last)]
  }

  static func trimmed(_ text: Substring) -> Substring {
    droppingTrailingSpace(droppingLeadingSpace(text))
  }

  /// Splits "Key:   value" at its first colon; `nil` when the line has no colon or the key does
  /// not look like a label (empty, or starting with a space).
  static func keyValue(_ line: Substring) -> (key: Substring, value: Substring)? {
    guard let colon = line.utf8.firstIndex(of: 0x3A), colon > line.startIndex,
      let first = line.utf8.first, !isSpaceByte(first)
    else { return nil }
    let key = droppingTrailingSpace(line[..<colon])
    let value = trimmed(line[line.index(after: colon)...])
    return (key, value)
  }

  /// "name [123]" → ("name", 123); a value without a pid gives the whole text as the name.
  static func nameAndPid(_ value: Substring) -> (name: String?, pid: Int?) {
    let text = trimmed(value)
    guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else {
      return (text.isEmpty || text == "???" ? nil : String(text), nil)
    }
    let name = droppingTrailingSpace(text[..<open])
    let pid = Int(text[text.index(after: open)..<text.index(before: text.endIndex)])
    return (name.isEmpty || name == "???" ? nil : String(name), pid)
  }

  // MARK: Header values

  /// "EXC_BAD_ACCESS (SIGSEGV)", "EXC_CRASH (SIGKILL - CODESIGNING)", "SIGSEGV" or "EXC_GUARD".
  static func exceptionType(_ value: Substring) -> (type: String?, signal: String?) {
    let text = trimmed(value)
    if text.hasSuffix(")"), let open = text.firstIndex(of: "(") {
      let type = droppingTrailingSpace(text[..<open])
      let signal = trimmed(text[text.index(after: open)..<text.index(before: text.endIndex)])
      return (type.isEmpty ? nil : String(type), signal.isEmpty ? nil : String(signal))
    }
    if text.hasPrefix("SIG") { return (nil, String(text)) }
    return (text.isEmpty ? nil : String(text), nil)
  }

  /// The 64-bit numbers of "0x0000000000000001, 0x00000001aa3f4788"; `nil` unless every part is a
  /// number.
  static func codes(_ value: Substring) -> [UInt64]? {
    var result: [UInt64] = []
    for part in value.split(separator: ",") {
      guard let code = number(trimmed(part)) else { return nil }
      result.append(code)
    }
    return result.isEmpty ? nil : result
  }

  /// "Namespace SPRINGBOARD, Code 0x8badf00d", "Namespace SIGNAL, Code 11 Segmentation fault: 11",
  /// and the newer "SIGNAL 6 Abort trap: 6" / "DYLD 1 Library missing" / "FRONTBOARD 2343432205".
  static func terminationReason(_ value: Substring) -> Termination? {
    let text = trimmed(value)
    var termination = Termination()
    if text.hasPrefix("Namespace ") {
      let rest = text.dropFirst("Namespace ".count)
      guard let comma = rest.firstRange(of: ", Code ") else {
        termination.namespace = String(trimmed(rest.split(separator: ",").first ?? rest))
        return termination.namespace?.isEmpty == false ? termination : nil
      }
      termination.namespace = String(trimmed(rest[..<comma.lowerBound]))
      let tail = droppingLeadingSpace(rest[comma.upperBound...])
      let codeText = tail.prefix(while: { !isSpace($0) })
      guard let code = number(codeText) else { return nil }
      termination.code = code
      let indicator = trimmed(tail[codeText.endIndex...])
      if !indicator.isEmpty { termination.indicator = String(indicator) }
      return termination
    }
    let parts = text.split(maxSplits: 2, whereSeparator: isSpace)
    guard parts.count >= 2, let code = number(parts[1]), !parts[0].hasSuffix(",") else {
      return nil
    }
    termination.namespace = String(parts[0])
    termination.code = code
    if parts.count == 3 {
      let indicator = trimmed(parts[2])
      if !indicator.isEmpty { termination.indicator = String(indicator) }
    }
    return termination
  }

  /// "7", "3, Dispatch queue: com.example.sync" or "5  Dispatch queue: com.apple.main-thread".
  static func threadNumber(_ value: Substring) -> (number: Int, queue: String?)? {
    let text = trimmed(value)
    let digits = text.prefix(while: isDigit)
    guard let number = Int(digits) else { return nil }
    var rest = text[digits.endIndex...].drop(while: { isSpace($0) || $0 == "," })
    var queue: String?
    if rest.hasPrefix("Dispatch queue:") {
      rest = trimmed(rest.dropFirst("Dispatch queue:".count))
      if !rest.isEmpty { queue = String(rest) }
    }
    return (number, queue)
  }

  /// "118 (2.4)" → ("118", "2.4"); "???" parts are `nil`.
  static func version(_ value: Substring) -> (first: String?, second: String?) {
    let text = trimmed(value)
    func clean(_ part: Substring) -> String? {
      let part = trimmed(part)
      return part.isEmpty || part == "???" ? nil : String(part)
    }
    if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
      return (
        clean(text[..<open]),
        clean(text[text.index(after: open)..<text.index(before: text.endIndex)])
      )
    }
    return (clean(text), nil)
  }

  /// "Thread 5 name:  Dispatch queue: q" parts: "tid_303  Dispatch queue: q" → ("tid_303", "q").
  static func nameAndQueue(_ text: Substring) -> (name: String?, queue: String?) {
    let text = trimmed(text)
    if let range = text.firstRange(of: "Dispatch queue:") {
      let name = trimmed(text[..<range.lowerBound])
      let queue = trimmed(text[range.upperBound...])
      return (name.isEmpty ? nil : String(name), queue.isEmpty ? nil : String(queue))
    }
    return (text.isEmpty ? nil : String(text), nil)
  }

  // MARK: Thread headers

  enum ThreadHeader: Equatable {
    /// "Thread 5 name:  …"
    case name(number: Int, name: String?, queue: String?)
    /// "Thread 5:", "Thread 5 Crashed:", "Thread 0 Crashed:: Dispatch queue: …", "Thread 3:: name"
    case start(number: Int, crashed: Bool, name: String?, queue: String?)
    /// "Thread 7 crashed with ARM Thread State (64-bit):"
    case state(number: Int, flavor: String)
    /// "Thread 0 instruction stream:" and other per-thread blocks we skip.
    case other(number: Int)
  }

  /// Reads a line starting with "Thread " and a digit; `nil` when its shape is unknown.
  static func threadHeader(_ line: Substring) -> ThreadHeader? {
    guard line.hasPrefix("Thread ") else { return nil }
    let afterWord = line.dropFirst("Thread ".count)
    let digits = afterWord.prefix(while: isDigit)
    guard let number = Int(digits) else { return nil }
    let rest = afterWord[digits.endIndex...]
    if rest.hasPrefix(" name:") {
      let parts = nameAndQueue(rest.dropFirst(" name:".count))
      return .name(number: number, name: parts.name, queue: parts.queue)
    }
    var crashed = false
    var tail = rest
    if tail.hasPrefix(" Crashed:") {
      crashed = true
      tail = tail.dropFirst(" Crashed:".count)
    } else if tail.hasPrefix(" Highlighted:") {
      tail = tail.dropFirst(" Highlighted:".count)
    } else if tail.hasPrefix(":") {
      tail = tail.dropFirst()
    } else if tail.hasPrefix(" crashed with "), tail.hasSuffix(":") {
      let flavorText = tail.dropFirst(" crashed with ".count).dropLast()
      return .state(number: number, flavor: threadStateFlavor(flavorText))
    } else if tail.hasPrefix(" "), trimmed(tail).hasSuffix(":") {
      return .other(number: number)
    } else {
      return nil
    }
    if tail.hasPrefix(":") {
      let parts = nameAndQueue(tail.dropFirst())
      return .start(number: number, crashed: crashed, name: parts.name, queue: parts.queue)
    }
    guard trimmed(tail).isEmpty else { return nil }
    return .start(number: number, crashed: crashed, name: nil, queue: nil)
  }

  /// "ARM Thread State (64-bit)" → "ARM_THREAD_STATE64", the JSON flavor names.
  static func threadStateFlavor(_ text: Substring) -> String {
    let upper = text.uppercased()
    if upper.hasPrefix("ARM") {
      return upper.contains("64") ? "ARM_THREAD_STATE64" : "ARM_THREAD_STATE"
    }
    if upper.hasPrefix("X86") {
      return upper.contains("64") ? "x86_THREAD_STATE" : "x86_THREAD_STATE32"
    }
    return String(trimmed(text))
  }

  /// The text label of a JSON flavor, the inverse of ``threadStateFlavor(_:)``.
  static func threadStateLabel(_ flavor: String?) -> String {
    switch flavor {
    case "ARM_THREAD_STATE64": "ARM Thread State (64-bit)"
    case "ARM_THREAD_STATE": "ARM Thread State (32-bit)"
    case "x86_THREAD_STATE": "X86 Thread State (64-bit)"
    case "x86_THREAD_STATE32": "X86 Thread State (32-bit)"
    case let flavor?: "\(flavor) Thread State"
    case nil: "Thread State"
    }
  }

  // MARK: Registers

  /// Register names as the JSON report spells them.
  static func registerName(_ text: Substring) -> String {
    text == "rfl" ? "rflags" : String(text)
  }

  /// "   x28: 0x0000000188510809   fp: 0x000000016fdd0ba0" → registers; the ESR's description
  /// ("esr: 0x56000080  Address size fault") comes back separately. `nil` when the line has no
  /// register at all.
  static func registers(_ line: Substring) -> (registers: [ThreadState.Register], esr: String?)? {
    let tokens = line.split(whereSeparator: isSpace)
    var result: [ThreadState.Register] = []
    var esrDescription: String?
    var sawName = false
    var index = 0
    while index < tokens.count {
      let token = tokens[index]
      guard token.hasSuffix(":"), token.count > 1 else {
        index += 1
        continue
      }
      sawName = true
      let name = registerName(token.dropLast())
      guard index + 1 < tokens.count else { break }
      let valueToken = tokens[index + 1]
      index += 2
      guard let value = hex(valueToken) else { continue }
      result.append(ThreadState.Register(name: name, value: value))
      if name == "esr" {
        var words: [Substring] = []
        while index < tokens.count, !tokens[index].hasSuffix(":") {
          words.append(tokens[index])
          index += 1
        }
        if !words.isEmpty { esrDescription = words.joined(separator: " ") }
      }
    }
    return sawName ? (result, esrDescription) : nil
  }

  // MARK: Frames

  /// Reads "N   ImageName   0xADDRESS …": the image name may hold spaces, so the line is split at
  /// the address column. Returns the frame number too.
  static func frame(_ line: Substring) -> (number: Int, frame: Frame)? {
    let text = trimmed(line)
    let utf8 = text.utf8
    var index = utf8.startIndex
    var number = 0
    var digits = 0
    while index < utf8.endIndex, utf8[index] >= 0x30 && utf8[index] <= 0x39, digits < 9 {
      number = number * 10 + Int(utf8[index] - 0x30)
      digits += 1
      index = utf8.index(after: index)
    }
    guard digits > 0, index < utf8.endIndex, isSpaceByte(utf8[index]) else { return nil }
    let rest = droppingLeadingSpace(text[index...])
    guard let (addressRange, address) = addressColumn(rest) else { return nil }
    var frame = Frame()
    let name = trimmed(rest[..<addressRange.lowerBound])
    if !name.isEmpty && !isQuestionMarks(name) { frame.imageName = String(name) }
    frame.address = address
    let tail = trimmed(rest[addressRange.upperBound...])
    readFrameTail(tail, into: &frame)
    return (number, frame)
  }

  /// Finds the address column: the first "0x…" token preceded by white space; failing that, a
  /// token of eight or more bare hexadecimal digits (some tools drop the "0x").
  static func addressColumn(_ text: Substring) -> (Range<Substring.Index>, UInt64)? {
    let utf8 = text.utf8
    var index = utf8.startIndex
    var previousIsSpace = true
    while index < utf8.endIndex {
      let byte = utf8[index]
      if previousIsSpace && byte == 0x30 {
        let next = utf8.index(after: index)
        if next < utf8.endIndex, utf8[next] == 0x78 || utf8[next] == 0x58 {
          var end = utf8.index(after: next)
          var value: UInt64 = 0
          var count = 0
          while end < utf8.endIndex, isHexByte(utf8[end]) {
            value = value &<< 4 | hexValue(utf8[end])
            count += 1
            end = utf8.index(after: end)
          }
          if count > 0 && count <= 16, end == utf8.endIndex || isSpaceByte(utf8[end]) {
            return (index..<end, value)
          }
        }
      }
      previousIsSpace = isSpaceByte(byte)
      index = utf8.index(after: index)
    }
    // Bare digits: "???   000000000000000000 0 + 0".
    index = utf8.startIndex
    var tokenStart: Substring.Index?
    while true {
      let atEnd = index == utf8.endIndex
      if atEnd || isSpaceByte(utf8[index]) {
        if let start = tokenStart {
          let token = utf8[start..<index]
          if token.count >= 8, token.allSatisfy(isHexByte), start > utf8.startIndex {
            var value: UInt64 = 0
            for byte in token.suffix(16) { value = value &<< 4 | hexValue(byte) }
            return (start..<index, value)
          }
          tokenStart = nil
        }
      } else if tokenStart == nil {
        tokenStart = index
      }
      if atEnd { break }
      index = utf8.index(after: index)
    }
    return nil
  }

  /// What follows the address: "0xBASE + offset" (optionally "// symbol + 0x10" after it),
  /// "symbol + 164 (File.swift:42) [inlined]", "???" or nothing.
  ///
  /// Works on the UTF-8 of the tail: every delimiter is ASCII, so each index found is a character
  /// boundary, and only the kept fields become `String`s.
  static func readFrameTail(_ tail: Substring, into frame: inout Frame) {
    guard !tail.isEmpty else { return }
    var symbolPart: Substring? = tail
    let utf8 = tail.utf8
    // The first three space-separated tokens.
    var tokens: [Range<Substring.Index>] = []
    var index = utf8.startIndex
    while tokens.count < 3 {
      while index < utf8.endIndex, isSpaceByte(utf8[index]) { index = utf8.index(after: index) }
      guard index < utf8.endIndex else { break }
      let start = index
      while index < utf8.endIndex, !isSpaceByte(utf8[index]) { index = utf8.index(after: index) }
      tokens.append(start..<index)
    }
    if tokens.count >= 3, utf8[tokens[1]].count == 1, utf8[tokens[1].lowerBound] == 0x2B,
      let base = number(tail[tokens[0]]),
      let offset = number(
        tail[tokens[2].lowerBound..<(utf8[tokens[2]].firstIndex(of: 0x2F) ?? tokens[2].upperBound)])
    {
      // Unsymbolicated: base + offset. The offset must be consistent with the base.
      // A zero base means the writer did not know the image: the offset is then meaningless.
      if base != 0 { frame.imageOffset = offset }
      if let comment = firstDoubleSlash(tail) {
        symbolPart = trimmed(tail[comment...])
      } else {
        symbolPart = nil
      }
    }
    guard var text = symbolPart, !text.isEmpty else { return }
    // "[inlined]" and the source location may come in either order.
    for _ in 0..<2 {
      if hasSuffix(text, "[inlined]") {
        frame.isInline = true
        text = droppingTrailingSpace(text[..<text.utf8.index(text.endIndex, offsetBy: -9)])
      }
      if let (file, line, rest) = sourceSuffix(text) {
        frame.sourceFile = file
        frame.sourceLine = line
        text = rest
      }
    }
    if let plus = text.utf8.lastIndex(of: 0x2B), plus > text.startIndex,
      isSpaceByte(text.utf8[text.utf8.index(before: plus)])
    {
      let offsetText = trimmed(text[text.utf8.index(after: plus)...])
      if let offset = number(offsetText) {
        frame.symbolLocation = offset
        text = droppingTrailingSpace(text[..<plus])
      }
    }
    // "// 0x00020d58 + 0x80": an address is not a symbol.
    if hasPrefix(text, "0x"), hex(text) != nil {
      frame.symbolLocation = nil
      return
    }
    if !text.isEmpty && !isQuestionMarks(text) { frame.symbol = String(text) }
  }

  /// Where the first "//" in `text` ends.
  static func firstDoubleSlash(_ text: Substring) -> Substring.Index? {
    let utf8 = text.utf8
    var index = utf8.startIndex
    var previousIsSlash = false
    while index < utf8.endIndex {
      let isSlash = utf8[index] == 0x2F
      index = utf8.index(after: index)
      if isSlash && previousIsSlash { return index }
      previousIsSlash = isSlash
    }
    return nil
  }

  /// " (File.swift:42)" at the end of a symbol.
  static func sourceSuffix(_ text: Substring) -> (String, Int, Substring)? {
    let utf8 = text.utf8
    guard utf8.last == 0x29, let open = utf8.lastIndex(of: 0x28), open > text.startIndex,
      isSpaceByte(utf8[utf8.index(before: open)])
    else { return nil }
    let inside = utf8[utf8.index(after: open)..<utf8.index(before: utf8.endIndex)]
    guard let colon = inside.lastIndex(of: 0x3A), colon > inside.startIndex else { return nil }
    let lineText = inside[inside.index(after: colon)...]
    guard !lineText.isEmpty, lineText.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let line = Int(Substring(lineText))
    else {
      return nil
    }
    let file = inside[..<colon]
    guard !file.contains(0x3A) else { return nil }
    return (String(Substring(file)), line, droppingTrailingSpace(text[..<open]))
  }

  /// The unsymbolicated one-line backtrace "(0x1a2b 0x3c4d …)": its addresses, or `nil`.
  static func addressList(_ line: Substring) -> [UInt64]? {
    let text = trimmed(line)
    guard text.hasPrefix("(") else { return nil }
    var body = text.dropFirst()
    if body.hasSuffix(")") { body = body.dropLast() }
    var result: [UInt64] = []
    for token in body.split(whereSeparator: isSpace) {
      guard let value = hex(token) else { return nil }
      result.append(value)
    }
    return result
  }

  // MARK: Binary images

  /// The architecture named by `bytes[range]`, as a `String` literal (no allocation), or `nil`.
  ///
  /// Compared as bytes: these lines are most of a report, and no other spelling of an ASCII name
  /// is canonically equivalent to it, so this agrees with comparing `String`s.
  static func architecture(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    func equals(_ name: StaticString) -> Bool {
      guard range.count == name.utf8CodeUnitCount else { return false }
      var offset = 0
      while offset < range.count {
        if bytes[range.lowerBound + offset] != name.utf8Start[offset] { return false }
        offset += 1
      }
      return true
    }
    switch range.count {
    case 3: return equals("arm") ? "arm" : equals("ppc") ? "ppc" : nil
    case 4: return equals("i386") ? "i386" : nil
    case 5:
      return equals("arm64") ? "arm64" : equals("armv7") ? "armv7" : equals("armv6") ? "armv6"
        : equals("ppc64") ? "ppc64" : nil
    case 6:
      return equals("arm64e") ? "arm64e" : equals("armv7s") ? "armv7s"
        : equals("armv7k") ? "armv7k" : equals("x86_64") ? "x86_64" : nil
    case 7: return equals("x86_64h") ? "x86_64h" : nil
    case 8: return equals("arm64_32") ? "arm64_32" : nil
    default: return nil
    }
  }

  /// `bytes[range]` as a `String` (invalid UTF-8 repaired).
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// Whether two ranges of `bytes` hold equal text: compared as bytes when both are ASCII (where
  /// that is `String` equality), else as `String`s, so canonical equivalence still applies.
  static func sameText(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
    let aBytes = UnsafeBufferPointer(rebasing: bytes[a])
    let bBytes = UnsafeBufferPointer(rebasing: bytes[b])
    if ByteSearch.isASCII(aBytes) && ByteSearch.isASCII(bBytes) {
      return aBytes.elementsEqual(bBytes)
    }
    return string(bytes, a) == string(bytes, b)
  }

  /// "0x1045a0000 - 0x1046bffff ChatApp arm64  <6f1c…> /private/var/…/ChatApp", the macOS
  /// "0x10e30e000 - 0x10e311fff +com.example.App (1.0 - 1) <UUID> /path" form, names with spaces,
  /// and "???" names. A "+" marker (an image that is not part of the OS) gives source "P".
  ///
  /// Scanned as bytes: every delimiter is ASCII, and these lines are most of a report.
  static func binaryImage(_ line: Substring) -> BinaryImage? {
    // The line's bytes in place (a native string is contiguous UTF-8); a copy only for a bridged one.
    if let image = line.utf8.withContiguousStorageIfAvailable({ binaryImage(bytes: $0) }) {
      return image
    }
    return Array(line.utf8).withUnsafeBufferPointer { binaryImage(bytes: $0) }
  }

  /// Reads the line as ranges of its bytes and makes `String`s only of the fields it keeps.
  static func binaryImage(bytes: UnsafeBufferPointer<UInt8>) -> BinaryImage? {
    var scanner = ByteScanner(bytes: bytes)
    scanner.skipSpace()
    guard scanner.peek(0x30), scanner.peek(0x78, at: 1) else { return nil }
    guard let base = scanner.number() else { return nil }
    scanner.skipSpace()
    guard scanner.take(0x2D) else { return nil }
    scanner.skipSpace()
    var end: UInt64?
    if scanner.takeQuestionMarks() {
      end = nil
    } else {
      guard let value = scanner.number() else { return nil }
      end = value
    }
    scanner.skipSpace()

    var image = BinaryImage(base: base)
    if let end, end >= base {
      let (size, overflow) = (end - base).addingReportingOverflow(1)
      if !overflow { image.size = size }
    }
    if scanner.take(0x2B) {
      image.source = "P"
      scanner.skipSpace()
    }

    // The UUID in angle brackets separates "name [arch] [(version)]" from the path.
    let restStart = scanner.index
    var descriptorEnd = bytes.count
    var pathStart = bytes.count
    if let open = scanner.find(0x3C, from: restStart), let close = scanner.find(0x3E, from: open) {
      let inside = (open + 1)..<close
      if !inside.isEmpty, bytes[inside].allSatisfy({ isHexByte($0) || $0 == 0x2D }) {
        image.uuid = normalizedUUID(UnsafeBufferPointer(rebasing: bytes[inside]))
      }
      descriptorEnd = open
      pathStart = close + 1
    } else if let slash = scanner.find(0x20, 0x2F, from: restStart) {
      descriptorEnd = slash
      pathStart = slash + 1
    }
    // Jailbreak tools append package metadata as JSON: " {"install_date":…}".
    let pathEnd = scanner.find(0x20, 0x7B, 0x22, from: pathStart) ?? bytes.count
    let path = ByteScanner.trimmed(bytes, pathStart..<max(pathStart, pathEnd))
    let hasPath = !path.isEmpty && !(path.count == 3 && bytes[path].allSatisfy({ $0 == 0x3F }))
    if hasPath { image.path = string(bytes, path) }

    var descriptor = ByteScanner.trimmed(bytes, restStart..<descriptorEnd)
    func endsWith(_ suffix: StaticString) -> Bool {
      let count = suffix.utf8CodeUnitCount
      guard descriptor.count >= count else { return false }
      var offset = 0
      while offset < count {
        if bytes[descriptor.upperBound - count + offset] != suffix.utf8Start[offset] { return false }
        offset += 1
      }
      return true
    }
    if !hasPath && image.uuid == nil && endsWith(" ???") {
      descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<(descriptor.upperBound - 3))
    }
    if endsWith(")"), let open = bytes[descriptor].lastIndex(of: 0x28) {
      let inside = ByteScanner.trimmed(bytes, (open + 1)..<(descriptor.upperBound - 1))
      descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<open)
      readVersion(bytes, inside, into: &image)
      if image.bundleShortVersion == nil, image.bundleVersion != nil,
        let space = bytes[descriptor].lastIndex(where: isSpaceByte)
      {
        // Microstackshots: "com.apple.CoreFoundation 6.9 (1452.23)".
        let last = (space + 1)..<descriptor.upperBound
        if let first = bytes[last].first, first >= 0x30 && first <= 0x39, bytes[last].contains(0x2E)
        {
          image.bundleShortVersion = string(bytes, last)
          descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<space)
        }
      }
    }
    if let space = bytes[descriptor].lastIndex(where: isSpaceByte) {
      if let arch = architecture(bytes, (space + 1)..<descriptor.upperBound) {
        image.arch = arch
        descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<space)
      }
    } else if hasPath, let arch = architecture(bytes, descriptor) {
      image.arch = arch
      descriptor = descriptor.lowerBound..<descriptor.lowerBound
    }
    // `String.hasSuffix` compares characters; as bytes only when that is the same thing.
    func hasDylibSuffix(_ column: Range<Int>) -> Bool {
      ByteSearch.isASCII(UnsafeBufferPointer(rebasing: bytes[column]))
        ? endsWith(".dylib") : string(bytes, column).hasSuffix(".dylib")
    }
    let column = descriptor
    guard !column.isEmpty, !(column.count == 3 && bytes[column].allSatisfy({ $0 == 0x3F })) else {
      return image
    }
    // macOS writes the bundle identifier in the name column; the name is then the file name.
    if hasPath {
      let fileName = ((bytes[path].lastIndex(of: 0x2F)).map { $0 + 1 } ?? path.lowerBound)..<path
        .upperBound
      if !sameText(bytes, column, fileName), !fileName.isEmpty, bytes[column].contains(0x2E),
        !hasDylibSuffix(column)
      {
        image.bundleID = string(bytes, column)
        image.name = string(bytes, fileName)
        return image
      }
    }
    image.name = string(bytes, column)
    return image
  }

  /// "(1.0 - 1)", "(817)", "(*)": the text inside the parentheses, `bytes[inside]`.
  static func readVersion(
    _ bytes: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>, into image: inout BinaryImage
  ) {
    func clean(_ range: Range<Int>) -> String? {
      let text = ByteScanner.trimmed(bytes, range)
      let isStar = text.count == 1 && bytes[text.lowerBound] == 0x2A
      let isQuestionMarks = text.count == 3 && bytes[text].allSatisfy({ $0 == 0x3F })
      return text.isEmpty || isStar || isQuestionMarks ? nil : string(bytes, text)
    }
    // The first " - ".
    var index = inside.lowerBound
    while index + 3 <= inside.upperBound {
      if bytes[index] == 0x20 && bytes[index + 1] == 0x2D && bytes[index + 2] == 0x20 {
        image.bundleShortVersion = clean(inside.lowerBound..<index)
        image.bundleVersion = clean((index + 3)..<inside.upperBound)
        return
      }
      index += 1
    }
    image.bundleVersion = clean(inside)
  }

  /// "6f1c3b2a…" (32 digits) or "6F1C3B2A-…" → "6F1C3B2A-1234-…" upper-case, dashed 8-4-4-4-12.
  static func normalizedUUID(_ text: UnsafeBufferPointer<UInt8>) -> String {
    var digitCount = 0
    for byte in text where byte != 0x2D { digitCount += 1 }
    let dashed = digitCount == 32
    return String(unsafeUninitializedCapacity: dashed ? 36 : digitCount) { buffer in
      var count = 0
      var digits = 0
      for byte in text where byte != 0x2D {
        if dashed && (digits == 8 || digits == 12 || digits == 16 || digits == 20) {
          buffer[count] = 0x2D
          count += 1
        }
        buffer[count] = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
        count += 1
        digits += 1
      }
      return count
    }
  }
}

/// A cursor over the bytes of one line.
struct ByteScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  func peek(_ byte: UInt8, at offset: Int = 0) -> Bool {
    index + offset < bytes.count && bytes[index + offset] == byte
  }

  mutating func take(_ byte: UInt8) -> Bool {
    guard peek(byte) else { return false }
    index += 1
    return true
  }

  /// Takes "???".
  mutating func takeQuestionMarks() -> Bool {
    guard peek(0x3F), peek(0x3F, at: 1), peek(0x3F, at: 2) else { return false }
    index += 3
    return true
  }

  mutating func skipSpace() {
    while index < bytes.count && LegacyTextLine.isSpaceByte(bytes[index]) { index += 1 }
  }

  /// "0x1f" or "31", up to the next space or "-".
  mutating func number() -> UInt64? {
    var end = index
    while end < bytes.count && !LegacyTextLine.isSpaceByte(bytes[end]) && bytes[end] != 0x2D {
      end += 1
    }
    var position = index
    var radix: UInt64 = 10
    if end - index > 2 && bytes[index] == 0x30
      && (bytes[index + 1] == 0x78 || bytes[index + 1] == 0x58)
    {
      radix = 16
      position += 2
    }
    guard position < end, end - position <= 16 else { return nil }
    var value: UInt64 = 0
    while position < end {
      let byte = bytes[position]
      let digit: UInt64
      if radix == 16 && LegacyTextLine.isHexByte(byte) {
        digit = LegacyTextLine.hexValue(byte)
      } else if byte >= 0x30 && byte <= 0x39 {
        digit = UInt64(byte - 0x30)
      } else {
        return nil
      }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
      guard !overflow else { return nil }
      value = shifted + digit
      position += 1
    }
    index = end
    return value
  }

  /// Where `byte` first occurs at or after `start`.
  func find(_ byte: UInt8, from start: Int) -> Int? {
    var position = start
    while position < bytes.count {
      if bytes[position] == byte { return position }
      position += 1
    }
    return nil
  }

  /// Where the two bytes first occur together at or after `start`. (Needles are spelled out as
  /// bytes: an array literal here would be allocated on every call.)
  func find(_ first: UInt8, _ second: UInt8, from start: Int) -> Int? {
    var position = start
    while position + 1 < bytes.count {
      if bytes[position] == first && bytes[position + 1] == second { return position }
      position += 1
    }
    return nil
  }

  /// Where the three bytes first occur together at or after `start`.
  func find(_ first: UInt8, _ second: UInt8, _ third: UInt8, from start: Int) -> Int? {
    var position = start
    while position + 2 < bytes.count {
      if bytes[position] == first && bytes[position + 1] == second && bytes[position + 2] == third {
        return position
      }
      position += 1
    }
    return nil
  }

  /// `range` without leading and trailing spaces and tabs.
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper && LegacyTextLine.isSpaceByte(bytes[lower]) { lower += 1 }
    while upper > lower && LegacyTextLine.isSpaceByte(bytes[upper - 1]) { upper -= 1 }
    return lower..<upper
  }
}
