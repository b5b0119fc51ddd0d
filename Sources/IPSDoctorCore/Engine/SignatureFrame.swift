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
enum SignatureFrame {
  /// Prefixes of compiler-made entry points into the function that follows them.
  static let prefixes = [
    "await resume partial function for ", "suspend resume partial function for ",
    "resume partial function for ", "partial apply forwarder for ", "partial apply for ",
    "reabstraction thunk helper for ", "thunk for ", "merged ", "specialized ",
  ]

  static func canonical(_ name: String) -> String {
    var text = Substring(name)
    // "(1) await resume partial function for …", possibly several of them.
    var changed = true
    while changed {
      changed = false
      if text.first == "(", let close = text.firstIndex(of: ")"),
        text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber),
        text[text.index(after: close)...].hasPrefix(" ")
      {
        text = text[text.index(close, offsetBy: 2)...]
        changed = true
      }
      for prefix in prefixes where text.hasPrefix(prefix) {
        text = text.dropFirst(prefix.count)
        changed = true
      }
    }
    // Objective-C methods and plain C names.
    if text.hasPrefix("-[") || text.hasPrefix("+[") || !text.contains(where: { "(.<".contains($0) }) {
      return String(text)
    }
    return entities(withoutGenerics(String(text)))
  }

  /// Removes `<…>` clauses (nested), keeping `->`.
  static func withoutGenerics(_ text: String) -> String {
    var output = ""
    var depth = 0
    var previous: Character = " "
    for character in text {
      if character == "<" {
        depth += 1
      } else if character == ">" && previous != "-" && depth > 0 {
        depth -= 1
      } else if depth == 0 {
        output.append(character)
      }
      previous = character
    }
    return output
  }

  /// Each entity of a `… in …` chain in its short form, joined again with ` in `.
  static func entities(_ text: String) -> String {
    var parts: [String] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      // The entity ends at " in " outside parentheses.
      var depth = 0
      var end = rest.endIndex
      var index = rest.startIndex
      while index < rest.endIndex {
        let character = rest[index]
        if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) }
        if depth == 0, rest[index...].hasPrefix(" in ") {
          end = index
          break
        }
        index = rest.index(after: index)
      }
      parts.append(entity(rest[..<end]))
      rest = end == rest.endIndex ? rest[end...] : rest[rest.index(end, offsetBy: 4)...]
    }
    return parts.joined(separator: " in ")
  }

  /// One entity: `closure #1 …signature…`, or a qualified name with an optional parameter list
  /// followed by effects and a return type.
  static func entity(_ text: Substring) -> String {
    var text = text.trimmingPrefix(while: { $0 == " " })
    // "App.T.x.getter : Swift.Int": the type after the colon is the full form's alone.
    if let typed = text.firstRange(of: " : ") { text = text[..<typed.lowerBound] }
    // "closure #1 () async -> ()", "@objc closure #1 @Sendable () -> ()": the closure and its number.
    if let range = text.firstRange(of: "closure #") {
      let digits = text[range.upperBound...].prefix(while: \.isNumber)
      return String(text[..<range.upperBound]) + digits
    }
    guard let open = text.firstIndex(of: "(") else { return shortName(text) }
    let name = text[..<open]
    var depth = 0
    var close = text.endIndex
    for index in text[open...].indices {
      if text[index] == "(" { depth += 1 } else if text[index] == ")" {
        depth -= 1
        if depth == 0 {
          close = index
          break
        }
      }
    }
    guard close < text.endIndex else { return shortName(text) }
    let parameters = text[text.index(after: open)..<close]
    return shortName(name) + "(" + labels(parameters) + ")"
  }

  /// `App.Outer.Type.member` → `Type.member`; words before the name (`@objc`, `static`) are kept.
  static func shortName(_ text: Substring) -> String {
    var attributes = ""
    var name = text
    if let space = name.lastIndex(of: " ") {
      attributes = String(name[...space])
      name = name[name.index(after: space)...]
    }
    let components = name.split(separator: ".", omittingEmptySubsequences: false)
    return attributes + components.suffix(2).joined(separator: ".")
  }

  /// `_: __C.X, didReceive: __C.Y` → `_:didReceive:`; simplified labels (`_:didReceive:`) stay.
  static func labels(_ parameters: Substring) -> String {
    if !parameters.contains(" ") && !parameters.contains(",") { return String(parameters) }
    var labels = ""
    var depth = 0
    var start = parameters.startIndex
    var items: [Substring] = []
    for index in parameters.indices {
      switch parameters[index] {
      case "(", "[": depth += 1
      case ")", "]": depth -= 1
      case "," where depth == 0:
        items.append(parameters[start..<index])
        start = parameters.index(after: index)
      default: break
      }
    }
    items.append(parameters[start...])
    for item in items {
      let trimmed = item.trimmingPrefix(while: { $0 == " " })
      guard !trimmed.isEmpty else { continue }
      if let colon = trimmed.firstIndex(of: ":"),
        !trimmed[..<colon].contains(where: { $0 == " " || $0 == "." || $0 == "(" })
      {
        labels += trimmed[..<colon] + ":"
      } else {
        labels += "_:"
      }
    }
    return labels
  }
}
