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
  typealias Bytes = ArraySlice<UInt8>

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

  static func canonical(_ name: String) -> String {
    // Most names are already in their one form: tell without copying them. (`withUTF8` also
    // serves a small string, which has no contiguous storage of its own to lend.)
    var utf8 = name
    if utf8.withUTF8({ !startsWithPrefix($0) && isSimple($0) }) { return name }
    let all = Array(name.utf8)
    var text = all[...]
    var changed = true
    while changed {
      changed = false
      // "(1) await resume partial function for …"
      if text.first == open, let end = text.firstIndex(of: close), end > text.startIndex + 1,
        text[(text.startIndex + 1)..<end].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        end + 1 < text.endIndex, text[end + 1] == space
      {
        text = text[(end + 2)...]
        changed = true
      }
      for prefix in prefixes where text.starts(with: prefix) {
        text = text.dropFirst(prefix.count)
        changed = true
      }
    }
    if isSimple(text) { return text.count == all.count ? name : String(decoding: text, as: UTF8.self) }
    return String(decoding: entities(withoutGenerics(text)), as: UTF8.self)
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

  /// ``isSimple(_:)-(Bytes)`` in one pass over the bytes in place.
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
        if next == UInt8(ascii: "i"), index + 3 < count, bytes[index + 2] == UInt8(ascii: "n"), bytes[index + 3] == space {
          fullForm = true
        }
      case open: hasOpen = true
      case UInt8(ascii: "<"), UInt8(ascii: ","): fullForm = true
      case UInt8(ascii: "-") where next == UInt8(ascii: ">"): fullForm = true
      default: break
      }
      index += 1
    }
    // A name without a parameter list or a space is a C symbol, unless it is a Swift accessor
    // (".getter", ".modify", …: a dot is the sign to look closer).
    if !hasOpen && !hasSpace { return dots == 0 || isSimple(ArraySlice(bytes)) }
    return !fullForm && dots <= 1
  }

  static let accessors = [".getter", ".setter", ".modify", ".read", ".didset", ".willset", "Addressor"].map {
    Array($0.utf8)
  }
  static let fullFormMarks = [" in ", "->", ": ", ", "].map { Array($0.utf8) }

  /// Whether a name is already in its one form: an Objective-C method, a C++ name (`::`, which no
  /// Swift name has), a C symbol (no parameter list, no space, no Swift accessor:
  /// `_dispatch_main_queue_drain.cold.5`), or a simplified Swift name (no generic clause, at most
  /// one dot, none of the full form's marks: `static AppDelegate.$main()`,
  /// `@objc T.tableView(_:cellForRowAt:)`).
  static func isSimple(_ text: Bytes) -> Bool {
    if text.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "[")]) || text.starts(with: [UInt8(ascii: "+"), UInt8(ascii: "[")]) {
      return true
    }
    if find([UInt8(ascii: ":"), UInt8(ascii: ":")], in: text) != nil { return true }
    if !text.contains(open) && !text.contains(space) {
      return !accessors.contains { find($0, in: text) != nil }
    }
    return !text.contains(UInt8(ascii: "<")) && text.count(where: { $0 == dot }) <= 1
      && !fullFormMarks.contains { find($0, in: text) != nil }
  }

  /// Removes `<…>` clauses (nested), keeping `->`.
  static func withoutGenerics(_ text: Bytes) -> Bytes {
    var output: [UInt8] = []
    output.reserveCapacity(text.count)
    var depth = 0
    var previous: UInt8 = space
    for byte in text {
      if byte == UInt8(ascii: "<") {
        depth += 1
      } else if byte == UInt8(ascii: ">") && previous != UInt8(ascii: "-") && depth > 0 {
        depth -= 1
      } else if depth == 0 {
        output.append(byte)
      }
      previous = byte
    }
    return output[...]
  }

  static let inSeparator = Array(" in ".utf8)

  /// Each entity of a `… in …` chain in its short form, joined again with ` in `.
  static func entities(_ text: Bytes) -> [UInt8] {
    var output: [UInt8] = []
    var rest = text
    var first = true
    while !rest.isEmpty {
      // The entity ends at " in " outside parentheses.
      var depth = 0
      var end = rest.endIndex
      var index = rest.startIndex
      while index < rest.endIndex {
        let byte = rest[index]
        if byte == open { depth += 1 } else if byte == close { depth = max(0, depth - 1) }
        if depth == 0, rest[index...].starts(with: inSeparator) {
          end = index
          break
        }
        index += 1
      }
      if !first { output += inSeparator }
      first = false
      output += entity(rest[..<end])
      rest = end == rest.endIndex ? rest[end...] : rest[(end + inSeparator.count)...]
    }
    return output
  }

  /// The first index of `needle` in `text`.
  static func find(_ needle: [UInt8], in text: Bytes) -> Int? {
    guard needle.count <= text.count else { return nil }
    var index = text.startIndex
    while index + needle.count <= text.endIndex {
      if text[index] == needle[0] && text[index..<(index + needle.count)].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }

  static let typed = Array(" : ".utf8)
  static let closureMark = Array("closure #".utf8)

  /// One entity: `closure #1 …signature…`, or a qualified name with an optional parameter list
  /// followed by effects and a return type.
  static func entity(_ text: Bytes) -> [UInt8] {
    var text = text.drop { $0 == space }
    // "App.T.x.getter : Swift.Int": the type after the colon is the full form's alone.
    if let colon = find(typed, in: text) { text = text[..<colon] }
    // "closure #1 () async -> ()", "@objc closure #1 @Sendable () -> ()": the closure and its number.
    if let mark = find(closureMark, in: text) {
      var end = mark + closureMark.count
      while end < text.endIndex, text[end] >= 0x30, text[end] <= 0x39 { end += 1 }
      return Array(text[..<end])
    }
    guard let start = text.firstIndex(of: open) else { return shortName(text) }
    var depth = 0
    var end: Int?
    for index in start..<text.endIndex {
      if text[index] == open { depth += 1 } else if text[index] == close {
        depth -= 1
        if depth == 0 {
          end = index
          break
        }
      }
    }
    guard let end else { return shortName(text) }
    return shortName(text[..<start]) + [open] + labels(text[(start + 1)..<end]) + [close]
  }

  /// `App.Outer.Type.member` → `Type.member`; words before the name (`@objc`, `static`) are kept.
  static func shortName(_ text: Bytes) -> [UInt8] {
    var words: [UInt8] = []
    var name = text
    if let space = text.lastIndex(of: space) {
      words = Array(text[...space])
      name = text[(space + 1)...]
    }
    let components = name.split(separator: dot, omittingEmptySubsequences: false)
    var output = words
    for (index, component) in components.suffix(2).enumerated() {
      if index > 0 { output.append(dot) }
      output += component
    }
    return output
  }

  /// `_: __C.X, didReceive: __C.Y` → `_:didReceive:`; simplified labels (`_:didReceive:`) stay.
  static func labels(_ parameters: Bytes) -> [UInt8] {
    let comma = UInt8(ascii: ",")
    let colon = UInt8(ascii: ":")
    if !parameters.contains(space) && !parameters.contains(comma) { return Array(parameters) }
    var items: [Bytes] = []
    var depth = 0
    var start = parameters.startIndex
    for index in parameters.indices {
      switch parameters[index] {
      case open, UInt8(ascii: "["): depth += 1
      case close, UInt8(ascii: "]"): depth -= 1
      case comma where depth == 0:
        items.append(parameters[start..<index])
        start = index + 1
      default: break
      }
    }
    items.append(parameters[start...])
    var labels: [UInt8] = []
    for item in items {
      let trimmed = item.drop { $0 == space }
      guard !trimmed.isEmpty else { continue }
      if let mark = trimmed.firstIndex(of: colon),
        !trimmed[..<mark].contains(where: { $0 == space || $0 == dot || $0 == open })
      {
        labels += trimmed[..<mark]
        labels.append(colon)
      } else {
        labels += [UInt8(ascii: "_"), colon]
      }
    }
    return labels
  }
}
