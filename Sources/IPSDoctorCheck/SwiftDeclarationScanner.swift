import IPSDoctorSupport

/// Reads the declarations of one Swift file from its ``SwiftToken``s: types, extensions and
/// protocols with their attributes, modifiers and inheritance clauses, nested scopes, and `func`
/// declarations with their labels, effects and return type.
///
/// Expressions are not parsed: tokens that start no declaration are passed over. Braces are
/// matched so that every `func` knows the scope that directly holds it. Invariant: the scope stack
/// holds one entry per `{` not yet closed; an unbalanced `}` is noted and ignored.
struct SwiftDeclarationScanner {
  private let tokens: [SwiftToken]
  private let bytes: [UInt8]
  private let lines: SourceLines
  private var index = 0
  private var result = SwiftFileDeclarations()

  private enum Scope {
    /// The body of `types[index]`.
    case type(Int)
    /// Any other braces: a function body, a closure, an accessor, a statement.
    case other
  }

  private var scopes: [Scope] = []
  private var pendingAttributes: [String] = []
  private var pendingModifiers: [String] = []
  /// The argument of a pending `@objc(…)`.
  private var pendingObjCName: String?

  static let modifiers: Set<String> = [
    "public", "private", "fileprivate", "internal", "open", "package", "final", "static",
    "override", "required", "convenience", "dynamic", "mutating", "nonmutating", "lazy", "weak",
    "unowned", "optional", "indirect", "nonisolated", "isolated", "distributed", "prefix", "postfix",
    "infix", "consuming", "borrowing", "__consuming",
  ]

  /// Scans `bytes`; never fails.
  static func scan(_ bytes: [UInt8]) -> SwiftFileDeclarations {
    let lexer = SwiftLexer(bytes)
    var scanner = SwiftDeclarationScanner(tokens: lexer.tokens, bytes: bytes)
    scanner.run()
    for note in lexer.notes {
      let location = scanner.lines.location(of: note.offset)
      scanner.result.notes.append("\(location.line):\(location.column): \(note.message)")
    }
    return scanner.result
  }

  private init(tokens: [SwiftToken], bytes: [UInt8]) {
    self.tokens = tokens
    self.bytes = bytes
    lines = SourceLines(bytes)
  }

  // MARK: - Token helpers

  private func token(_ offset: Int = 0) -> SwiftToken? {
    index + offset < tokens.count ? tokens[index + offset] : nil
  }

  private func line(of token: SwiftToken) -> Int { lines.location(of: token.offset).line }

  /// The offset just after `token` in the file.
  private func end(of token: SwiftToken) -> Int {
    token.kind == .literal
      ? token.offset + 1
      : token.offset + token.value.utf8.count
        + (token.kind == .attribute || token.kind == .pound ? 1 : 0)
  }

  /// Whether the token at `index` and the next one spell `->`.
  private func isArrow(at position: Int) -> Bool {
    guard position + 1 < tokens.count else { return false }
    return tokens[position].isPunctuation(UInt8(ascii: "-"))
      && tokens[position + 1].isPunctuation(UInt8(ascii: ">"))
      && tokens[position + 1].offset == tokens[position].offset + 1
  }

  /// The source text from `first` through `last` (token indices), whitespace runs collapsed.
  private func sourceText(from first: Int, through last: Int) -> String {
    guard first <= last else { return "" }
    let start = tokens[first].offset
    let stop = last + 1 < tokens.count ? tokens[last + 1].offset : bytes.count
    // Up to the end of the last token: whitespace and comments after it are left out.
    let lastEnd = tokens[last].kind == .literal ? stop : end(of: tokens[last])
    let text = String(decoding: bytes[start..<min(max(lastEnd, start), stop)], as: UTF8.self)
    return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r\n" || $0 == "\r" })
      .joined(separator: " ")
  }

  /// Skips a balanced group starting at the opening token at `index` (`(`, `[`, `<` or `{`) and
  /// leaves `index` after its closing token.
  private mutating func skipGroup() {
    var depth = 0
    while let current = token() {
      if current.kind == .punctuation {
        switch current.value {
        case "(", "[", "{": depth += 1
        case ")", "]", "}": depth -= 1
        default: break
        }
      }
      index += 1
      if depth <= 0 { return }
    }
  }

  /// Skips generic angle brackets starting at the `<` at `index`; `->` inside does not close.
  private mutating func skipAngles() {
    var depth = 0
    while let current = token() {
      if current.isPunctuation(UInt8(ascii: "<")) {
        depth += 1
      } else if current.isPunctuation(UInt8(ascii: ">")) && !(index > 0 && isArrow(at: index - 1)) {
        depth -= 1
      } else if current.isPunctuation(UInt8(ascii: "{")) || current.isPunctuation(UInt8(ascii: "}")) {
        return
      }
      index += 1
      if depth <= 0 { return }
    }
  }

  /// After an attribute token: skips its argument list when one follows without a space.
  private mutating func skipAttributeArguments(after attribute: SwiftToken) {
    if let next = token(), next.isPunctuation(UInt8(ascii: "(")), next.offset == end(of: attribute) {
      skipGroup()
    }
  }

  private mutating func clearPending() {
    pendingAttributes.removeAll(keepingCapacity: true)
    pendingModifiers.removeAll(keepingCapacity: true)
    pendingObjCName = nil
  }

  // MARK: - Declarations

  private mutating func run() {
    while let current = token() {
      switch current.kind {
      case .punctuation where current.value == "{":
        scopes.append(.other)
        clearPending()
        index += 1
      case .punctuation where current.value == "}":
        if scopes.popLast() == nil {
          let location = lines.location(of: current.offset)
          result.notes.append("\(location.line):\(location.column): skipped an unbalanced '}'")
        }
        clearPending()
        index += 1
      case .attribute:
        index += 1
        pendingAttributes.append(current.value)
        let arguments = index
        skipAttributeArguments(after: current)
        if current.value == "objc", index - arguments >= 3 {
          pendingObjCName = sourceText(from: arguments + 1, through: index - 2).replacing(" ", with: "")
        }
      case .pound:
        index += 1
        if current.value == "if" || current.value == "elseif" {
          // The condition ends with its line.
          let directiveLine = line(of: current)
          while let next = token(), line(of: next) == directiveLine { index += 1 }
        }
      case .identifier:
        identifier(current)
      default:
        clearPending()
        index += 1
      }
    }
  }

  private mutating func identifier(_ current: SwiftToken) {
    let next = token(1)
    switch current.value {
    case "class"
    where next?.kind == .identifier && !Self.declarationKeywords.contains(next!.value)
      && !Self.modifiers.contains(next!.value):
      typeDeclaration(.class)
    case "struct", "enum", "protocol", "extension", "actor":
      if next?.kind == .identifier, let kind = SwiftTypeDeclaration.Kind(rawValue: current.value) {
        typeDeclaration(kind)
      } else {
        clearPending()
        index += 1
      }
    case "func":
      functionDeclaration()
    case "class":
      pendingModifiers.append("class")
      index += 1
    default:
      if Self.modifiers.contains(current.value) {
        pendingModifiers.append(current.value)
        index += 1
        // `nonisolated(unsafe)`, `private(set)`.
        if let group = token(), group.isPunctuation(UInt8(ascii: "(")), group.offset == end(of: current) {
          skipGroup()
        }
      } else {
        clearPending()
        index += 1
      }
    }
  }

  private static let declarationKeywords: Set<String> = [
    "func", "var", "let", "subscript", "init", "deinit", "typealias", "case", "class", "struct",
    "enum", "protocol", "extension", "actor",
  ]

  /// The index of the innermost enclosing type scope when it directly holds the current token.
  private var directType: Int? {
    if case .type(let type)? = scopes.last { return type }
    return nil
  }

  private mutating func typeDeclaration(_ kind: SwiftTypeDeclaration.Kind) {
    let keyword = tokens[index]
    index += 1
    // The name: `Name`, or for an extension a dotted path (`Outer.Inner`).
    var name = ""
    while let current = token(), current.kind == .identifier {
      name += current.value
      index += 1
      guard let dot = token(), dot.isPunctuation(UInt8(ascii: ".")) else { break }
      name += "."
      index += 1
    }
    if let parent = directType, kind != .extension {
      name = result.types[parent].name + "." + name
    }
    if let current = token(), current.isPunctuation(UInt8(ascii: "<")) { skipAngles() }
    var inherited: [SwiftTypeDeclaration.Inherited] = []
    if let current = token(), current.isPunctuation(UInt8(ascii: ":")) {
      index += 1
      inherited = inheritanceClause()
    }
    // A `where` clause, or anything else, up to the body.
    while let current = token(), !current.isPunctuation(UInt8(ascii: "{")), !current.isPunctuation(UInt8(ascii: "}")) {
      if current.isPunctuation(UInt8(ascii: "(")) || current.isPunctuation(UInt8(ascii: "[")) {
        skipGroup()
      } else {
        index += 1
      }
    }
    let location = lines.location(of: keyword.offset)
    let declaration = SwiftTypeDeclaration(
      kind: kind, name: name, attributes: pendingAttributes, modifiers: pendingModifiers,
      inherited: inherited, line: location.line, column: location.column)
    clearPending()
    guard let open = token(), open.isPunctuation(UInt8(ascii: "{")) else {
      result.notes.append("\(location.line):\(location.column): skipped '\(kind.rawValue) \(name)': no body")
      return
    }
    result.types.append(declaration)
    scopes.append(.type(result.types.count - 1))
    index += 1
  }

  /// Reads `A, @MainActor B, C<D>` up to `where` or `{`, leaving `index` there.
  private mutating func inheritanceClause() -> [SwiftTypeDeclaration.Inherited] {
    var entries: [SwiftTypeDeclaration.Inherited] = []
    var name = ""
    var attributes: [String] = []
    func flush() {
      if !name.isEmpty { entries.append(.init(name: name, attributes: attributes)) }
      name = ""
      attributes = []
    }
    while let current = token() {
      if current.isPunctuation(UInt8(ascii: "{")) || current.isIdentifier("where")
        || current.isPunctuation(UInt8(ascii: "}"))
      {
        break
      }
      switch current.kind {
      case .attribute:
        attributes.append(current.value)
        index += 1
        skipAttributeArguments(after: current)
      case .identifier:
        if name.isEmpty || name.hasSuffix(".") { name += current.value }
        index += 1
      case .punctuation where current.value == ".":
        name += "."
        index += 1
      case .punctuation where current.value == "<":
        skipAngles()
      case .punctuation where current.value == ",":
        flush()
        index += 1
      case .punctuation where current.value == "(" || current.value == "[":
        skipGroup()
      default:
        index += 1
      }
    }
    flush()
    return entries
  }

  private mutating func functionDeclaration() {
    let keyword = tokens[index]
    let location = lines.location(of: keyword.offset)
    let attributes = pendingAttributes
    let modifiers = pendingModifiers
    let objcSelector = pendingObjCName
    clearPending()
    index += 1
    // The name: an identifier, or an operator's punctuation up to the parameter list.
    var name = ""
    if let current = token(), current.kind == .identifier {
      name = current.value
      index += 1
    } else {
      while let current = token(), current.kind == .punctuation, !current.isPunctuation(UInt8(ascii: "(")),
        !current.isPunctuation(UInt8(ascii: "{")), !current.isPunctuation(UInt8(ascii: "}"))
      {
        name += current.value
        index += 1
      }
    }
    if let current = token(), current.isPunctuation(UInt8(ascii: "<")) { skipAngles() }
    guard let open = token(), open.isPunctuation(UInt8(ascii: "(")) else {
      result.notes.append("\(location.line):\(location.column): skipped 'func \(name)': no parameter list")
      return
    }
    let (labels, types) = parameters()
    var isAsync = false
    while let current = token(), current.kind == .identifier,
      ["async", "throws", "rethrows", "reasync"].contains(current.value)
    {
      if current.value == "async" || current.value == "reasync" { isAsync = true }
      index += 1
      if current.value == "throws", let group = token(), group.isPunctuation(UInt8(ascii: "(")) { skipGroup() }
    }
    var returnType: String?
    if isArrow(at: index) {
      index += 2
      let first = index
      var depth = 0
      var last = index - 1
      while let current = token() {
        if depth == 0 {
          if current.isPunctuation(UInt8(ascii: "{")) || current.isPunctuation(UInt8(ascii: "}"))
            || current.isIdentifier("where") || current.isPunctuation(UInt8(ascii: ";"))
          {
            break
          }
          // A requirement without a body ends where the next declaration starts.
          if index > first && line(of: current) != line(of: tokens[index - 1])
            && (current.kind == .attribute || current.kind == .pound
              || (current.kind == .identifier
                && (Self.declarationKeywords.contains(current.value) || Self.modifiers.contains(current.value))))
          {
            break
          }
        }
        if current.kind == .punctuation {
          switch current.value {
          case "(", "[", "<": depth += 1
          case ")", "]": depth -= 1
          case ">" where !isArrow(at: index - 1): depth -= 1
          default: break
          }
        }
        last = index
        index += 1
      }
      if last >= first { returnType = sourceText(from: first, through: last) }
    }
    // A generic `where` clause.
    if let current = token(), current.isIdentifier("where") {
      while let next = token(), !next.isPunctuation(UInt8(ascii: "{")), !next.isPunctuation(UInt8(ascii: "}")) {
        index += 1
      }
    }
    let hasBody = token()?.isPunctuation(UInt8(ascii: "{")) ?? false
    result.functions.append(
      SwiftFunctionDeclaration(
        name: name, labels: labels, parameterTypes: types, attributes: attributes,
        objcSelector: objcSelector, modifiers: modifiers, isAsync: isAsync, returnType: returnType, hasBody: hasBody,
        line: location.line, column: location.column, enclosingType: directType))
  }

  /// Reads a parameter clause starting at its `(`; leaves `index` after the `)`.
  private mutating func parameters() -> (labels: [String], types: [String]) {
    var labels: [String] = []
    var types: [String] = []
    index += 1
    var start = index
    var depth = 0
    func finish(_ stop: Int) {
      guard stop > start else { return }
      // `label name: Type`, `name: Type`, `_ name: Type`.
      var colon = start
      while colon < stop, !(tokens[colon].isPunctuation(UInt8(ascii: ":"))) { colon += 1 }
      guard colon < stop, colon > start else { return }
      labels.append(tokens[start].value)
      var typeEnd = stop - 1
      var scan = colon + 1
      var nesting = 0
      while scan < stop {
        let current = tokens[scan]
        if current.kind == .punctuation {
          switch current.value {
          case "(", "[", "<": nesting += 1
          case ")", "]": nesting -= 1
          case ">" where !isArrow(at: scan - 1): nesting -= 1
          case "=" where nesting == 0:
            typeEnd = scan - 1
            scan = stop
            continue
          default: break
          }
        }
        scan += 1
      }
      types.append(sourceText(from: colon + 1, through: typeEnd))
    }
    while let current = token() {
      if current.kind == .punctuation {
        switch current.value {
        case "(", "[", "{":
          depth += 1
        case "<":
          depth += 1
        case ">" where !isArrow(at: index - 1):
          depth -= 1
        case "]", "}":
          depth -= 1
        case ")":
          if depth == 0 {
            finish(index)
            index += 1
            return (labels, types)
          }
          depth -= 1
        case "," where depth == 0:
          finish(index)
          start = index + 1
        default:
          break
        }
      }
      index += 1
    }
    return (labels, types)
  }
}
