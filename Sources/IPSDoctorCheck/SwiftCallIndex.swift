import IPSDoctorSupport

/// The calls and references of one file by Swift name with argument labels: `f(x, label: y)` is
/// `f(_:label:)`, `#selector(T.f(_:label:))` is `f(_:label:)` too. A declaration (`func f(`) is
/// none. Read in one pass over the tokens, with a stack of the open parentheses, so the time is
/// linear in the tokens however deeply calls nest.
enum SwiftCallIndex {
  private struct Group {
    /// The called name, when an identifier touches the `(`; `nil` for any other parenthesis.
    var name: String?
    var labels: [String] = []
    /// Whether the next token starts an argument.
    var atArgumentStart = true
    var isEmpty = true
  }

  static func calls(in tokens: [SwiftToken]) -> Set<String> {
    var calls: Set<String> = []
    var groups: [Group] = []
    for position in tokens.indices {
      let token = tokens[position]
      if !groups.isEmpty, groups[groups.count - 1].atArgumentStart, !token.isPunctuation(UInt8(ascii: ")")) {
        groups[groups.count - 1].atArgumentStart = false
        groups[groups.count - 1].isEmpty = false
        let next = position + 1 < tokens.count ? tokens[position + 1] : nil
        let labelled = token.kind == .identifier && next?.isPunctuation(UInt8(ascii: ":")) == true
        groups[groups.count - 1].labels.append(labelled ? token.value : "_")
      }
      guard token.kind == .punctuation else { continue }
      switch token.value {
      case "(", "[", "{":
        var group = Group()
        if token.value == "(", position > 0 {
          let previous = tokens[position - 1]
          let touches = previous.kind == .identifier && previous.offset + previous.value.utf8.count == token.offset
          let declares = position > 1 && tokens[position - 2].isIdentifier("func")
          if touches && !declares { group.name = previous.value }
        }
        if token.value != "(" { group.atArgumentStart = false }
        groups.append(group)
      case ",":
        if !groups.isEmpty, groups[groups.count - 1].name != nil { groups[groups.count - 1].atArgumentStart = true }
      case ")", "]", "}":
        guard let group = groups.popLast() else { continue }
        if let name = group.name {
          calls.insert(name + "(" + (group.isEmpty ? [] : group.labels).map { $0 + ":" }.joined() + ")")
        }
      default:
        break
      }
    }
    return calls
  }
}
