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
  static func number(_ text: some StringProtocol) -> UInt64? {
    if text.hasPrefix("0x") || text.hasPrefix("0X") {
      let digits = text.dropFirst(2)
      return digits.isEmpty ? nil : UInt64(digits, radix: 16)
    }
    return UInt64(text)
  }

  /// Parses "0x1f" or bare hexadecimal digits "1f".
  static func hex(_ text: some StringProtocol) -> UInt64? {
    if text.hasPrefix("0x") || text.hasPrefix("0X") {
      let digits = text.dropFirst(2)
      return digits.isEmpty ? nil : UInt64(digits, radix: 16)
    }
    return text.isEmpty ? nil : UInt64(text, radix: 16)
  }

  /// The text without leading spaces and tabs.
  static func droppingLeadingSpace(_ text: Substring) -> Substring {
    text.drop(while: isSpace)
  }

  /// The text without trailing spaces and tabs.
  static func droppingTrailingSpace(_ text: Substring) -> Substring {
    var end = text.endIndex
    while end > text.startIndex {
      let before = text.index(before: end)
      guard isSpace(text[before]) else { break }
      end = before
    }
    return text[..<end]
  }

  static func trimmed(_ text: Substring) -> Substring {
    droppingTrailingSpace(droppingLeadingSpace(text))
  }

  /// Splits "Key:   value" at its first colon; `nil` when the line has no colon or the key does
  /// not look like a label (empty, or starting with a space).
  static func keyValue(_ line: Substring) -> (key: Substring, value: Substring)? {
    guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
      !isSpace(line[line.startIndex])
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
    guard parts.count >= 2, let code = number(parts[1]), !parts[0].hasSuffix(",") else { return nil }
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
      return (clean(text[..<open]), clean(text[text.index(after: open)..<text.index(before: text.endIndex)]))
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
    let digits = text.prefix(while: isDigit)
    guard let number = Int(digits), digits.endIndex < text.endIndex,
      isSpace(text[digits.endIndex])
    else { return nil }
    let rest = droppingLeadingSpace(text[digits.endIndex...])
    guard let (addressRange, address) = addressColumn(rest) else { return nil }
    var frame = Frame()
    let name = trimmed(rest[..<addressRange.lowerBound])
    if !name.isEmpty && name != "???" { frame.imageName = String(name) }
    frame.address = address
    let tail = trimmed(rest[addressRange.upperBound...])
    readFrameTail(tail, into: &frame)
    return (number, frame)
  }

  /// Finds the address column: the first "0x…" token preceded by white space; failing that, a
  /// token of eight or more bare hexadecimal digits (some tools drop the "0x").
  static func addressColumn(_ text: Substring) -> (Range<Substring.Index>, UInt64)? {
    var index = text.startIndex
    var previousIsSpace = true
    while index < text.endIndex {
      let character = text[index]
      if previousIsSpace && character == "0" {
        let next = text.index(after: index)
        if next < text.endIndex, text[next] == "x" || text[next] == "X" {
          let digitsStart = text.index(after: next)
          let end = text[digitsStart...].firstIndex(where: { !isHexDigit($0) }) ?? text.endIndex
          if end > digitsStart, end == text.endIndex || isSpace(text[end]),
            let value = UInt64(text[digitsStart..<end], radix: 16)
          {
            return (index..<end, value)
          }
        }
      }
      previousIsSpace = isSpace(character)
      index = text.index(after: index)
    }
    // Bare digits: "???   000000000000000000 0 + 0".
    var tokenStart: Substring.Index?
    index = text.startIndex
    while index <= text.endIndex {
      let atEnd = index == text.endIndex
      if atEnd || isSpace(text[index]) {
        if let start = tokenStart {
          let token = text[start..<index]
          if token.count >= 8, token.allSatisfy(isHexDigit), start > text.startIndex {
            let value = UInt64(token.suffix(16), radix: 16) ?? 0
            return (start..<index, value)
          }
          tokenStart = nil
        }
      } else if tokenStart == nil {
        tokenStart = index
      }
      if atEnd { break }
      index = text.index(after: index)
    }
    return nil
  }

  /// What follows the address: "0xBASE + offset" (optionally "// symbol + 0x10" after it),
  /// "symbol + 164 (File.swift:42) [inlined]", "???" or nothing.
  static func readFrameTail(_ tail: Substring, into frame: inout Frame) {
    guard !tail.isEmpty else { return }
    var symbolPart: Substring? = tail
    let parts = tail.split(maxSplits: 3, whereSeparator: isSpace)
    if parts.count >= 3, parts[1] == "+", let base = number(parts[0]),
      let offset = number(parts[2].prefix(while: { !isSpace($0) && $0 != "/" }))
    {
      // Unsymbolicated: base + offset. The offset must be consistent with the base.
      // A zero base means the writer did not know the image: the offset is then meaningless.
      if base != 0 { frame.imageOffset = offset }
      if let comment = tail.firstRange(of: "//") {
        symbolPart = trimmed(tail[comment.upperBound...])
      } else {
        symbolPart = nil
      }
    }
    guard var text = symbolPart, !text.isEmpty else { return }
    // "[inlined]" and the source location may come in either order.
    for _ in 0..<2 {
      if text.hasSuffix("[inlined]") {
        frame.isInline = true
        text = droppingTrailingSpace(text.dropLast("[inlined]".count))
      }
      if let (file, line, rest) = sourceSuffix(text) {
        frame.sourceFile = file
        frame.sourceLine = line
        text = rest
      }
    }
    if let plus = text.lastIndex(of: "+"), plus > text.startIndex,
      isSpace(text[text.index(before: plus)])
    {
      let offsetText = trimmed(text[text.index(after: plus)...])
      if let offset = number(offsetText) {
        frame.symbolLocation = offset
        text = droppingTrailingSpace(text[..<plus])
      }
    }
    // "// 0x00020d58 + 0x80": an address is not a symbol.
    if text.hasPrefix("0x"), hex(text) != nil {
      frame.symbolLocation = nil
      return
    }
    if !text.isEmpty && text != "???" { frame.symbol = String(text) }
  }

  /// " (File.swift:42)" at the end of a symbol.
  static func sourceSuffix(_ text: Substring) -> (String, Int, Substring)? {
    guard text.hasSuffix(")"), let open = text.lastIndex(of: "("), open > text.startIndex,
      isSpace(text[text.index(before: open)])
    else { return nil }
    let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
    guard let colon = inside.lastIndex(of: ":"), colon > inside.startIndex else { return nil }
    let lineText = inside[inside.index(after: colon)...]
    guard !lineText.isEmpty, lineText.allSatisfy(isDigit), let line = Int(lineText) else { return nil }
    let file = inside[..<colon]
    guard !file.contains(":") else { return nil }
    return (String(file), line, droppingTrailingSpace(text[..<open]))
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

  static let architectures: Set<Substring> = [
    "arm64", "arm64e", "arm64_32", "armv7", "armv7s", "armv7k", "armv6", "arm", "x86_64", "x86_64h",
    "i386", "ppc", "ppc64",
  ]

  /// "0x1045a0000 - 0x1046bffff ChatApp arm64  <6f1c…> /private/var/…/ChatApp", the macOS
  /// "0x10e30e000 - 0x10e311fff +com.example.App (1.0 - 1) <UUID> /path" form, names with spaces,
  /// and "???" names. A "+" marker (an image that is not part of the OS) gives source "P".
  static func binaryImage(_ line: Substring) -> BinaryImage? {
    let text = trimmed(line)
    guard text.hasPrefix("0x") else { return nil }
    let baseText = text.prefix(while: { !isSpace($0) && $0 != "-" })
    guard let base = number(baseText) else { return nil }
    var rest = droppingLeadingSpace(text[baseText.endIndex...])
    guard rest.hasPrefix("-") else { return nil }
    rest = droppingLeadingSpace(rest.dropFirst())
    let endText = rest.prefix(while: { !isSpace($0) })
    let end = number(endText)
    guard end != nil || endText == "???" else { return nil }
    rest = droppingLeadingSpace(rest[endText.endIndex...])

    var image = BinaryImage(base: base)
    if let end, end >= base {
      let (size, overflow) = (end - base).addingReportingOverflow(1)
      if !overflow { image.size = size }
    }
    if rest.hasPrefix("+") {
      image.source = "P"
      rest = droppingLeadingSpace(rest.dropFirst())
    }

    // The UUID in angle brackets separates "name [arch] [(version)]" from the path.
    var descriptor = rest
    var pathText: Substring = ""
    if let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
      let inside = rest[rest.index(after: open)..<close]
      if !inside.isEmpty, inside.allSatisfy({ isHexDigit($0) || $0 == "-" }) {
        image.uuid = normalizedUUID(inside)
      }
      descriptor = rest[..<open]
      pathText = rest[rest.index(after: close)...]
    } else if let slash = rest.firstRange(of: " /") {
      descriptor = rest[..<slash.lowerBound]
      pathText = rest[rest.index(after: slash.lowerBound)...]
    }
    var path = trimmed(pathText)
    // Jailbreak tools append package metadata as JSON: " {"install_date":…}".
    if let brace = path.firstRange(of: " {\"") { path = droppingTrailingSpace(path[..<brace.lowerBound]) }
    if !path.isEmpty && path != "???" { image.path = String(path) }

    descriptor = trimmed(descriptor)
    if image.path == nil && image.uuid == nil && descriptor.hasSuffix(" ???") {
      descriptor = droppingTrailingSpace(descriptor.dropLast(3))
    }
    if descriptor.hasSuffix(")"), let open = descriptor.lastIndex(of: "(") {
      let inside = trimmed(descriptor[descriptor.index(after: open)..<descriptor.index(before: descriptor.endIndex)])
      descriptor = droppingTrailingSpace(descriptor[..<open])
      if let dash = inside.firstRange(of: " - ") {
        let short = trimmed(inside[..<dash.lowerBound])
        let build = trimmed(inside[dash.upperBound...])
        if !short.isEmpty && short != "*" && short != "???" { image.bundleShortVersion = String(short) }
        if !build.isEmpty && build != "*" && build != "???" { image.bundleVersion = String(build) }
      } else if !inside.isEmpty && inside != "*" && inside != "???" {
        image.bundleVersion = String(inside)
        // Microstackshots: "com.apple.CoreFoundation 6.9 (1452.23)".
        if let space = descriptor.lastIndex(where: isSpace) {
          let last = descriptor[descriptor.index(after: space)...]
          if let first = last.first, isDigit(first), last.contains(".") {
            image.bundleShortVersion = String(last)
            descriptor = droppingTrailingSpace(descriptor[..<space])
          }
        }
      }
    }
    if let space = descriptor.lastIndex(where: isSpace) {
      let last = descriptor[descriptor.index(after: space)...]
      if architectures.contains(last) {
        image.arch = String(last)
        descriptor = droppingTrailingSpace(descriptor[..<space])
      }
    } else if architectures.contains(descriptor), image.path != nil {
      image.arch = String(descriptor)
      descriptor = ""
    }
    let column = trimmed(descriptor)
    if !column.isEmpty && column != "???" {
      // macOS writes the bundle identifier in the name column; the name is then the file name.
      let fileName = image.path.map { Substring(CrashReport.lastPathComponent($0)) }
      if let fileName, column != fileName, column.contains("."), !fileName.isEmpty,
        !column.hasSuffix(".dylib")
      {
        image.bundleID = String(column)
        image.name = String(fileName)
      } else {
        image.name = String(column)
      }
    }
    return image
  }

  /// "6f1c3b2a…" (32 digits) or "6F1C3B2A-…" → "6F1C3B2A-1234-…" upper-case, dashed 8-4-4-4-12.
  static func normalizedUUID(_ text: Substring) -> String {
    let digits = text.filter { $0 != "-" }.uppercased()
    guard digits.count == 32 else { return text.uppercased() }
    var result = ""
    result.reserveCapacity(36)
    for (offset, character) in digits.enumerated() {
      if offset == 8 || offset == 12 || offset == 16 || offset == 20 { result.append("-") }
      result.append(character)
    }
    return result
  }
}
