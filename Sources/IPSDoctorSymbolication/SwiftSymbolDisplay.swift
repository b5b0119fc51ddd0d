import IPSDoctorReport
import IPSDoctorSupport

/// Apple's simplified form of a mangled Swift symbol, as `atos` and `swift demangle --simplified`
/// print it: the project's simplifier, after folding specialisations into "specialized"
/// (`function signature specialization <Arg[0] = Dead> of static C.f()` → `specialized static C.f()`).
enum SwiftSymbolDisplay {
  static let specializationKinds = [
    "function signature specialization <", "generic not re-abstracted specialization <",
    "generic partial specialization <", "generic specialization <", "inlined generic function <",
  ]

  static let accessors = [".getter", ".setter", ".modify", ".read", ".didset", ".willset", "Addressor"]

  static func simplified(_ raw: String) -> String {
    guard SwiftDemangler.isMangled(raw), let full = SwiftDemangler.demangle(raw) else { return raw }
    var text = foldingSpecializations(full)
    if text.hasPrefix("merged ") { text.removeFirst("merged ".count) }
    let modules = ["Swift", "__C", "Builtin", "_Concurrency"] + (moduleName(raw).map { [$0] } ?? [])
    text = removingQualifiers(modules, from: text)
    // An accessor names its property's type after " : "; simplified, it is just the accessor.
    if accessors.contains(where: { text.contains($0) }), let colon = text.firstRange(of: " : ") {
      return String(text[..<colon.lowerBound])
    }
    return simplifyKeepingGenericParameters(text)
  }

  /// The project's simplifier, with a generic parameter clause before the argument list
  /// (`f<A>(Builtin.Word) -> A`) set aside and put back: `f<A>(_:)`.
  static func simplifyKeepingGenericParameters(_ text: String) -> String {
    guard let close = text.firstRange(of: ">(") else { return SwiftDemangler.simplify(text) }
    var depth = 0
    var open: String.Index?
    var index = close.lowerBound
    while true {
      if text[index] == ">" { depth += 1 } else if text[index] == "<" { depth -= 1 }
      if depth == 0 {
        open = index
        break
      }
      guard index > text.startIndex else { break }
      index = text.index(before: index)
    }
    guard let open else { return SwiftDemangler.simplify(text) }
    let name = String(text[..<open])
    let clause = text[open...close.lowerBound]
    let simplified = SwiftDemangler.simplify(name + text[text.index(after: close.lowerBound)...])
    guard simplified.hasPrefix(name) else { return simplified }
    return name + clause + simplified.dropFirst(name.count)
  }

  /// The module of a mangled symbol: its first identifier (`$s4Test6swiftyyS2iF` → `Test`).
  static func moduleName(_ raw: String) -> String? {
    var bytes = Substring(raw).utf8.drop { $0 == UInt8(ascii: "_") }.dropFirst(2)
    let digits = bytes.prefix { (0x30...0x39).contains($0) }
    guard let length = Int(String(decoding: digits, as: UTF8.self)), length > 0 else { return nil }
    bytes = bytes.dropFirst(digits.count)
    guard bytes.count >= length else { return nil }
    return String(decoding: bytes.prefix(length), as: UTF8.self)
  }

  /// Drops `Module.` where it starts a qualified name (after the start or a non-identifier
  /// character), for each module of `modules`.
  static func removingQualifiers(_ modules: [String], from text: String) -> String {
    var output = ""
    var index = text.startIndex
    var previous: Character = " "
    while index < text.endIndex {
      if !(previous.isLetter || previous.isNumber || previous == "_" || previous == "."),
        let module = modules.first(where: { text[index...].hasPrefix($0 + ".") })
      {
        index = text.index(index, offsetBy: module.count + 1)
        continue
      }
      previous = text[index]
      output.append(previous)
      index = text.index(after: index)
    }
    return output
  }

  /// Replaces each "<kind> specialization <…> of " with "specialized ". Bounded: each pass
  /// removes one occurrence, and there are at most a few dozen passes.
  static func foldingSpecializations(_ text: String) -> String {
    var text = text
    for _ in 0..<32 {
      guard
        let (kind, range) = specializationKinds.lazy.compactMap({ kind in
          text.firstRange(of: kind).map { (kind, $0) }
        }).first
      else { break }
      _ = kind
      // The matching '>' of the '<' that ends the kind.
      var depth = 1
      var index = range.upperBound
      while index < text.endIndex, depth > 0 {
        if text[index] == "<" { depth += 1 } else if text[index] == ">" { depth -= 1 }
        index = text.index(after: index)
      }
      guard depth == 0, text[index...].hasPrefix(" of ") else { break }
      text.replaceSubrange(range.lowerBound..<text.index(index, offsetBy: 4), with: "specialized ")
    }
    return text
  }
}
