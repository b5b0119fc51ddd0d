/// Apple's simplified form of a mangled Swift symbol, as `atos` and `swift demangle --simplified`
/// print it: the project's simplifier, after folding specialisations into "specialized"
/// (`function signature specialization <Arg[0] = Dead> of static C.f()` → `specialized static C.f()`).
enum SwiftSymbolDisplay {
  static let specializationKinds = [
    "function signature specialization <", "generic not re-abstracted specialization <",
    "generic partial specialization <", "generic specialization <", "inlined generic function <",
  ]

  static func simplified(_ raw: String) -> String {
    guard SwiftDemangler.isMangled(raw), let full = SwiftDemangler.demangle(raw) else { return raw }
    return SwiftDemangler.simplify(foldingSpecializations(full))
  }

  /// Replaces each "<kind> specialization <…> of " with "specialized ". Bounded: each pass
  /// removes one occurrence, and there are at most a few dozen passes.
  static func foldingSpecializations(_ text: String) -> String {
    var text = text
    for _ in 0..<32 {
      guard let (kind, range) = specializationKinds.lazy.compactMap({ kind in
        text.firstRange(of: kind).map { (kind, $0) }
      }).first else { break }
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
