import IPSDoctorSupport

/// One spelling for a function that reports write in several: Swift's simplified demangling
/// (`@objc closure #1 in T.m(_:didReceive:)`, as Xcode prints it), the full one
/// (`@objc closure #1 () async -> () in App.T.m(_: __C.X, didReceive: __C.Y) async -> ()`), and
/// either behind an async resume prefix (`(1) await resume partial function for …`). Signatures
/// are built from this form, so the same crash groups as one whatever the spelling.
///
/// The form keeps what names the function: closure numbers, the last two components of each
/// qualified name (the type and the member; the module is dropped, as the simplified form drops
/// it) and argument labels. It drops what only the full form has: parameter and return types,
/// closure signatures, generic arguments, `async`/`throws`. Objective-C and C names have none of
/// these and pass through unchanged.
///
/// Every delimiter is ASCII, so the work is done on UTF-8 bytes; other bytes pass through.
enum SignatureFrame {
  /// Prefixes of compiler-made entry points into the function that follows them.
  static let prefixes: [[UInt8]] = [
    "await resume partial function for ", "suspend resume partial function for ",
    "resume partial function for ", "partial apply forwarder for ", "partial apply for ",
    "reabstraction thunk helper for ", "thunk for ", "merged ", "specialized ",
  ].map { Array($0.utf8) }

  static let space = UInt8(ascii: " ")
  static let dot = UInt8(ascii: ".")
  static let open = UInt8(ascii: "(")
  static let close = UInt8(ascii: ")")
  static let inlined = Array("[inlined]".utf8)

  /// The name of a frame as a signature keys it: ``canonical(_:)`` of the name without what
  /// symbolicators write after it (atos's ` (in Image)` and ` (File.swift:42)`, ` + 164`,
  /// ` [inlined]`) and without a Rust legacy hash (`::h0123456789abcdef`); `nil` for a name that
  /// names no function (`<deduplicated_symbol>`, the linker's name for folded code).
  static func key(_ name: String) -> String? {
    var text = Substring(name).drop(while: { $0 == " " })
    var changed = true
    while changed {
      changed = false
      while text.utf8.last == space { text = text[..<text.utf8.index(before: text.utf8.endIndex)] }
      if text.utf8.count >= inlined.count, text.utf8.suffix(inlined.count).elementsEqual(inlined) {
        text = text[..<text.utf8.index(text.utf8.endIndex, offsetBy: -inlined.count)]
        changed = true
      } else if let start = trailingParenthesis(text) {
        text = text[..<start]
        changed = true
      } else if let plus = trailingOffset(text) {
        text = text[..<plus]
        changed = true
      }
    }
    if let hash = rustHash(text) { text = text[..<hash] }
    guard !text.isEmpty, text != "<deduplicated_symbol>" else { return nil }
    return canonical(String(text))
  }

  /// Where ` (in Image)` or ` (File.swift:42)` / ` (File.swift:42:7)` starts at the end of `text`.
  private static func trailingParenthesis(_ text: Substring) -> Substring.Index? {
    let bytes = text.utf8
    guard bytes.last == close, let open = bytes.lastIndex(of: open), open > bytes.startIndex,
      bytes[bytes.index(before: open)] == space
    else { return nil }
    let inside = bytes[bytes.index(after: open)..<bytes.index(before: bytes.endIndex)]
    if inside.starts(with: "in ".utf8), inside.count > 3 { return bytes.index(before: open) }
    // "File.swift:42": a file name with an extension, then a line (and a column).
    let parts = inside.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, parts[0].contains(dot), !parts[0].contains(space),
      parts.dropFirst().allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) })
    else { return nil }
    return bytes.index(before: open)
  }

  /// Where ` + 164` or ` + 0xa4` starts at the end of `text`: its last word is the number and the
  /// one before it `+`.
  private static func trailingOffset(_ text: Substring) -> Substring.Index? {
    let bytes = text.utf8
    guard let last = bytes.last, last.isASCIIHexDigit, let space = bytes.lastIndex(of: space) else { return nil }
    let number = bytes[bytes.index(after: space)...]
    let isHex = number.starts(with: "0x".utf8)
    let digits = isHex ? number.dropFirst(2) : number
    guard !digits.isEmpty, digits.allSatisfy({ isHex ? $0.isASCIIHexDigit : isDigit($0) }) else { return nil }
    let beforeNumber = bytes[..<space]
    guard beforeNumber.count >= 2, beforeNumber.suffix(2).elementsEqual(" +".utf8) else { return nil }
    return bytes.index(space, offsetBy: -2)
  }

  /// Where `::h` and 16 hexadecimal digits, a Rust legacy mangling hash, start at the end of `text`.
  private static func rustHash(_ text: Substring) -> Substring.Index? {
    guard text.utf8.count > 19 else { return nil }
    let start = text.utf8.index(text.utf8.endIndex, offsetBy: -19)
    let tail = text.utf8[start...]
    guard tail.starts(with: "::h".utf8),
      tail.dropFirst(3).allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
    else { return nil }
    return start
  }

  static func canonical(_ name: String) -> String {
    // Most names are already in their one form: tell without copying them. (`withUTF8` also
    // serves a small string, which has no contiguous storage of its own to lend.)
    var utf8 = name
    return utf8.withUTF8 { bytes in
      if !startsWithPrefix(bytes) && isSimple(bytes) { return name }
      let start = afterPrefixes(bytes)
      let text = UnsafeBufferPointer(rebasing: bytes[start...])
      if isSimple(text) { return start == 0 ? name : String(decoding: text, as: UTF8.self) }
      return rewritten(text)
    }
  }

  /// Whether the name starts with a prefix ``canonical(_:)`` removes (a digit in parentheses, or
  /// one of ``prefixes``).
  static func startsWithPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first else { return false }
    if first == open { return true }
    return prefixes.contains { prefix in
      prefix.count <= bytes.count && prefix.first == first && bytes.starts(with: prefix)
    }
  }

  /// Where the name starts after every prefix ``canonical(_:)`` removes, in any order and number.
  static func afterPrefixes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var start = 0
    var changed = true
    while changed {
      changed = false
      // "(1) await resume partial function for …"
      if start < bytes.count, bytes[start] == open {
        var end = start + 1
        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
        if end > start + 1, end + 1 < bytes.count, bytes[end] == close, bytes[end + 1] == space {
          start = end + 2
          changed = true
        }
      }
      for prefix in prefixes where matches(prefix, in: bytes, at: start) {
        start += prefix.count
        changed = true
      }
    }
    return start
  }

  /// Whether a name is already in its one form, in one pass over the bytes: an Objective-C method
  /// (or a name holding one),
  /// a C++ name (`::`, which no Swift name has), a C symbol (no parameter list, no space, no Swift
  /// accessor: `_dispatch_main_queue_drain.cold.5`), or a simplified Swift name (no generic clause,
  /// at most one dot, none of the full form's marks ` in `, `->`, `: `, `, `:
  /// `static AppDelegate.$main()`, `@objc T.tableView(_:cellForRowAt:)`).
  static func isSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    if count >= 2, bytes[1] == UInt8(ascii: "["), bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
      return true
    }
    var dots = 0
    var hasSpace = false
    var hasOpen = false
    var fullForm = false
    var index = 0
    while index < count {
      let byte = bytes[index]
      let next = index + 1 < count ? bytes[index + 1] : 0
      switch byte {
      case UInt8(ascii: ":"):
        if next == UInt8(ascii: ":") { return true }  // C++
        if next == space { fullForm = true }
      case dot: dots += 1
      case space:
        hasSpace = true
        if next == UInt8(ascii: "i"), index + 3 < count, bytes[index + 2] == UInt8(ascii: "n"),
          bytes[index + 3] == space
        {
          fullForm = true
        }
      case open: hasOpen = true
      case UInt8(ascii: ","): if next == space { fullForm = true }
      // An Objective-C method inside a longer name (`Logos hook for -[UIWindow(_ungrouped) …]`):
      // Objective-C and C++, never a Swift name, whose full form has no `-[`.
      case UInt8(ascii: "["):
        if index > 0, bytes[index - 1] == UInt8(ascii: "-") || bytes[index - 1] == UInt8(ascii: "+") { return true }
      case UInt8(ascii: "<"): fullForm = true
      case UInt8(ascii: "-") where next == UInt8(ascii: ">"): fullForm = true
      default: break
      }
      index += 1
    }
    // A name without a parameter list or a space is a C symbol, unless it is a Swift accessor
    // (".getter", ".modify", …: a dot is the sign to look closer).
    if !hasOpen && !hasSpace { return dots == 0 || !accessors.contains { find($0, in: bytes, from: 0) != nil } }
    return !fullForm && dots <= 1
  }

  /// The last component of an accessor's name.
  static let accessorNames = [
    "getter", "setter", "modify", "read", "didset", "willset", "unsafeAddressor", "unsafeMutableAddressor",
  ].map { Array($0.utf8) }

  static let accessors = [".getter", ".setter", ".modify", ".read", ".didset", ".willset", "Addressor"].map {
    Array($0.utf8)
  }

  /// The one form of a full-form name (prefixes already removed): generic clauses dropped, then
  /// each entity of its `… in …` chain in its short form.
  static func rewritten(_ text: UnsafeBufferPointer<UInt8>) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { scratch in
      let plain = UnsafeBufferPointer(rebasing: scratch[..<withoutGenerics(text, into: scratch)])
      // Each entity's form is at most one byte longer than the entity (see `labels`), and there
      // are at most one entity per four bytes (" in " separates them), plus one.
      return String(unsafeUninitializedCapacity: plain.count + plain.count / 4 + 2) { output in
        var writer = Writer(output: output)
        entities(plain, into: &writer)
        return writer.count
      }
    }
  }

  /// Copies `text` into `output` without its `<…>` clauses (nested), keeping `->`; returns the
  /// number of bytes written.
  static func withoutGenerics(_ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int
  {
    var written = 0
    var depth = 0
    var previous = space
    for byte in text {
      if byte == UInt8(ascii: "<") {
        depth += 1
      } else if byte == UInt8(ascii: ">") && previous != UInt8(ascii: "-") && depth > 0 {
        depth -= 1
      } else if depth == 0 {
        output[written] = byte
        written += 1
      }
      previous = byte
    }
    return written
  }

  /// Appends bytes to memory sized by the caller.
  struct Writer {
    let output: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    mutating func append(_ byte: UInt8) {
      output[count] = byte
      count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
      for index in range { append(bytes[index]) }
    }
  }

  static let inSeparator = Array(" in ".utf8)

  /// Each entity of a `… in …` chain in its short form, joined again with ` in `.
  static func entities(_ text: UnsafeBufferPointer<UInt8>, into writer: inout Writer) {
    var start = 0
    while start < text.count {
      // The entity ends at " in " outside parentheses.
      var depth = 0
      var end = text.count
      var index = start
      while index < text.count {
        let byte = text[index]
        if byte == open { depth += 1 } else if byte == close { depth = max(0, depth - 1) }
        if depth == 0, byte == space, matches(inSeparator, in: text, at: index) {
          end = index
          break
        }
        index += 1
      }
      if start > 0 { writer.append(text, (start - inSeparator.count)..<start) }
      entity(text, start..<end, into: &writer)
      start = end == text.count ? end : end + inSeparator.count
    }
  }

  static let typed = Array(" : ".utf8)
  static let closureMark = Array("closure #".utf8)

  /// One entity: `closure #1 …signature…`, or a qualified name with an optional parameter list
  /// followed by effects and a return type.
  static func entity(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into writer: inout Writer) {
    var start = range.lowerBound
    while start < range.upperBound, text[start] == space { start += 1 }
    var end = range.upperBound
    // "App.T.x.getter : Swift.Int": the type after the colon is the full form's alone. (Inside
    // brackets, " : " is a dictionary type's: "[Swift.String : Swift.Int]".)
    if let colon = findOutsideBrackets(typed, in: text, start..<end) { end = colon }
    // "closure #1 () async -> ()", "@objc closure #1 @Sendable () -> ()": the closure and its number.
    if let mark = find(closureMark, in: text, from: start, to: end) {
      var number = mark + closureMark.count
      while number < end, isDigit(text[number]) { number += 1 }
      writer.append(text, start..<number)
      return
    }
    guard let parameters = firstIndex(of: open, in: text, start..<end) else {
      return shortName(text, start..<end, into: &writer)
    }
    var depth = 0
    for index in parameters..<end {
      if text[index] == open {
        depth += 1
      } else if text[index] == close {
        depth -= 1
        if depth == 0 {
          shortName(text, start..<parameters, into: &writer)
          writer.append(open)
          labels(text, (parameters + 1)..<index, into: &writer)
          writer.append(close)
          return
        }
      }
    }
    shortName(text, start..<end, into: &writer)
  }

  /// `App.Outer.Type.member` → `Type.member`, and `App.Type.property.getter` →
  /// `Type.property.getter` (an accessor names its property and the property's type); words
  /// before the name (`@objc`, `static`) are kept.
  static func shortName(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into writer: inout Writer) {
    var name = range.lowerBound
    if let lastSpace = lastIndex(of: space, in: text, range) {
      writer.append(text, range.lowerBound..<(lastSpace + 1))
      name = lastSpace + 1
    }
    let lastDot = lastIndex(of: dot, in: text, name..<range.upperBound)
    let isAccessor =
      lastDot.map { dot in
        accessorNames.contains { matches($0, in: text, at: dot + 1) && dot + 1 + $0.count == range.upperBound }
      } ?? false
    // The last two components (three for an accessor): from after that many dots from the end.
    let components = isAccessor ? 3 : 2
    var dotsSeen = 0
    var first = name
    var index = range.upperBound
    while index > name {
      index -= 1
      if text[index] == dot {
        dotsSeen += 1
        if dotsSeen == components {
          first = index + 1
          break
        }
      }
    }
    writer.append(text, first..<range.upperBound)
  }

  /// `_: __C.X, didReceive: __C.Y` → `_:didReceive:`; simplified labels (`_:didReceive:`) stay.
  /// Each parameter's label is no longer than the parameter and its comma, and `_:` no longer
  /// unless the parameter is one byte without a comma after it: the labels are at most one byte
  /// longer than the parameters.
  static func labels(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into writer: inout Writer) {
    let comma = UInt8(ascii: ",")
    if firstIndex(of: space, in: text, range) == nil && firstIndex(of: comma, in: text, range) == nil {
      return writer.append(text, range)
    }
    var depth = 0
    var start = range.lowerBound
    for index in range {
      switch text[index] {
      case open, UInt8(ascii: "["): depth += 1
      case close, UInt8(ascii: "]"): depth -= 1
      case comma where depth == 0:
        label(text, start..<index, into: &writer)
        start = index + 1
      default: break
      }
    }
    label(text, start..<range.upperBound, into: &writer)
  }

  /// One parameter's label and its colon: `didReceive: __C.Y` → `didReceive:`, `__C.X` → `_:`;
  /// nothing for an empty parameter.
  static func label(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into writer: inout Writer) {
    let colon = UInt8(ascii: ":")
    var start = range.lowerBound
    while start < range.upperBound, text[start] == space { start += 1 }
    guard start < range.upperBound else { return }
    if let mark = firstIndex(of: colon, in: text, start..<range.upperBound),
      !(start..<mark).contains(where: { text[$0] == space || text[$0] == dot || text[$0] == open })
    {
      writer.append(text, start..<(mark + 1))
    } else {
      writer.append(UInt8(ascii: "_"))
      writer.append(colon)
    }
  }

  // MARK: - Byte helpers

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  /// Whether `needle` occurs in `text` at `index`.
  static func matches(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
    guard index + needle.count <= text.count else { return false }
    for offset in needle.indices where text[index + offset] != needle[offset] { return false }
    return true
  }

  /// The first index of `needle` in `text[from..<to]` (by default to the end).
  static func find(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, from: Int, to: Int? = nil) -> Int? {
    needle.withUnsafeBytes { needle in
      let haystack = UnsafeBufferPointer(rebasing: text[..<(to ?? text.count)])
      return ByteSearch.firstIndex(of: needle, in: UnsafeRawBufferPointer(haystack), from: from)
    }
  }

  /// The first index of `needle` in `text[range]` outside parentheses and square brackets.
  static func findOutsideBrackets(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var depth = 0
    for index in range {
      switch text[index] {
      case open, UInt8(ascii: "["): depth += 1
      case close, UInt8(ascii: "]"): depth = max(0, depth - 1)
      default:
        if depth == 0, text[index] == needle[0], index + needle.count <= range.upperBound,
          matches(needle, in: text, at: index)
        {
          return index
        }
      }
    }
    return nil
  }

  static func firstIndex(of byte: UInt8, in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    range.first { text[$0] == byte }
  }

  static func lastIndex(of byte: UInt8, in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    range.last { text[$0] == byte }
  }
}
