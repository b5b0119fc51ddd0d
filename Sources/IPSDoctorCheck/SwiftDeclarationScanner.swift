import IPSDoctorSupport

/// Reads the declarations of one Swift file from its ``SwiftToken``s: types, extensions and
/// protocols with their attributes, modifiers and inheritance clauses, nested scopes, and `func`
/// declarations with their labels, effects and return type.
///
/// Expressions are not parsed: tokens that start no declaration are passed over. Braces are
/// matched so that every `func` knows the scope that directly holds it, and an `async` function's
/// body knows where it ends (its ``SwiftFunctionLayout``, for `check --fix`). Invariant: the scope stack
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
    /// The body of `functions[index]`, an `async` function whose layout is recorded.
    case function(Int)
    /// Any other braces: a function body, a closure, an accessor, a statement.
    case other
  }

  private var scopes: [Scope] = []
  private var pendingAttributes: [String] = []
  private var pendingModifiers: [String] = []
  /// The argument of a pending `@objc(…)`.
  private var pendingObjCName: String?
  /// The offset of the first pending attribute or modifier.
  private var pendingStart: Int?
  /// The text of each pending `@available(…)`.
  private var pendingAvailability: [String] = []
  /// The `#` names seen in each open ``Scope/function(_:)`` body, innermost last.
  private var functionPounds: [Set<String>] = []

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
      scanner.note(at: note.offset, note.message)
    }
    scanner.result.calls = SwiftCallIndex.calls(in: scanner.tokens)
    return scanner.result
  }

  private init(tokens: [SwiftToken], bytes: [UInt8]) {
    self.tokens = tokens
    self.bytes = bytes
    lines = SourceLines(bytes)
  }

  // MARK: - Token helpers

  private mutating func note(at offset: Int, _ message: String) {
    let location = lines.location(of: offset)
    result.notes.append("\(location.line):\(location.column): \(message)")
    result.noteLines.append(location.line)
  }

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
    pendingStart = nil
    pendingAvailability.removeAll(keepingCapacity: true)
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
        switch scopes.popLast() {
        case nil:
          note(at: current.offset, "skipped an unbalanced '}'")
        case .function(let function)?:
          closeFunction(function, at: current.offset)
        default:
          break
        }
        clearPending()
        index += 1
      case .attribute:
        index += 1
        if pendingStart == nil { pendingStart = current.offset }
        pendingAttributes.append(current.value)
        let arguments = index
        skipAttributeArguments(after: current)
        if current.value == "objc", index - arguments >= 3 {
          pendingObjCName = sourceText(from: arguments + 1, through: index - 2).replacing(" ", with: "")
        }
        if current.value == "available" {
          let stop = index < tokens.count ? tokens[index].offset : bytes.count
          let last = index - 1 > arguments ? end(of: tokens[index - 1]) : end(of: current)
          pendingAvailability.append(
            String(decoding: bytes[current.offset..<min(max(last, current.offset), stop)], as: UTF8.self))
        }
      case .pound:
        if !functionPounds.isEmpty { functionPounds[functionPounds.count - 1].insert(current.value) }
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
      if pendingStart == nil { pendingStart = current.offset }
      pendingModifiers.append("class")
      index += 1
    default:
      if Self.modifiers.contains(current.value) {
        if pendingStart == nil { pendingStart = current.offset }
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
      note(at: keyword.offset, "skipped '\(kind.rawValue) \(name)': no body")
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
    let start = pendingStart ?? keyword.offset
    let availability = pendingAvailability
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
    let hasGenericParameters = token()?.isPunctuation(UInt8(ascii: "<")) ?? false
    if hasGenericParameters { skipAngles() }
    guard let open = token(), open.isPunctuation(UInt8(ascii: "(")) else {
      note(at: keyword.offset, "skipped 'func \(name)': no parameter list")
      return
    }
    let openIndex = index
    let (labels, types, parameterLayout) = parameters()
    let closeIndex = index - 1
    var isAsync = false
    var throwsError = false
    while let current = token(), current.kind == .identifier,
      ["async", "throws", "rethrows", "reasync"].contains(current.value)
    {
      if current.value == "async" || current.value == "reasync" { isAsync = true }
      if current.value == "throws" || current.value == "rethrows" { throwsError = true }
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
    let hasWhereClause = token()?.isIdentifier("where") ?? false
    if let current = token(), current.isIdentifier("where") {
      while let next = token(), !next.isPunctuation(UInt8(ascii: "{")), !next.isPunctuation(UInt8(ascii: "}")) {
        index += 1
      }
    }
    let hasBody = token()?.isPunctuation(UInt8(ascii: "{")) ?? false
    var layout: SwiftFunctionLayout?
    if isAsync, hasBody, closeIndex > openIndex, tokens[closeIndex].isPunctuation(UInt8(ascii: ")")),
      let body = token()
    {
      let last = closeIndex - 1
      layout = SwiftFunctionLayout(
        start: start, keyword: keyword.offset, parameterOpen: tokens[openIndex].offset,
        parameterClose: tokens[closeIndex].offset,
        lastParameterEnd: last > openIndex ? end(of: tokens[last]) : tokens[openIndex].offset + 1,
        parameters: parameterLayout, bodyOpen: body.offset, bodyClose: bytes.count,
        endLine: lines.location(of: bytes.count).line, hasGenericParameters: hasGenericParameters,
        hasWhereClause: hasWhereClause, throwsError: throwsError, poundNames: [], availability: availability)
    }
    result.functions.append(
      SwiftFunctionDeclaration(
        name: name, labels: labels, parameterTypes: types, attributes: attributes,
        objcSelector: objcSelector, modifiers: modifiers, isAsync: isAsync, returnType: returnType, hasBody: hasBody,
        line: location.line, column: location.column, enclosingType: directType, layout: layout))
    if layout != nil {
      // The body's `{`: its scope records where the body ends and the `#` names inside it.
      scopes.append(.function(result.functions.count - 1))
      functionPounds.append([])
      index += 1
    }
  }

  /// Records the end of the recorded function's body at the `}` at `offset`.
  private mutating func closeFunction(_ function: Int, at offset: Int) {
    let pounds = functionPounds.popLast() ?? []
    if !functionPounds.isEmpty { functionPounds[functionPounds.count - 1].formUnion(pounds) }
    guard result.functions[function].layout != nil else { return }
    result.functions[function].layout!.bodyClose = offset
    result.functions[function].layout!.endLine = lines.location(of: offset).line
    result.functions[function].layout!.poundNames = pounds
  }

  /// Reads a parameter clause starting at its `(`; leaves `index` after the `)`.
  private mutating func parameters() -> (
    labels: [String], types: [String], layout: [SwiftFunctionLayout.Parameter]
  ) {
    var labels: [String] = []
    var types: [String] = []
    var layout: [SwiftFunctionLayout.Parameter] = []
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
      layout.append(
        .init(
          labelOffset: tokens[start].offset, labelEnd: end(of: tokens[start]), hasSeparateName: colon > start + 1,
          name: tokens[colon - 1].value))
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
            return (labels, types, layout)
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
    return (labels, types, layout)
  }
}
