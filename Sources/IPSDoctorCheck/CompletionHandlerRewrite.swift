import IPSDoctorSupport

/// A replacement of the bytes in `range` of a file by `replacement`.
struct SourceEdit: Sendable, Equatable {
  var range: Range<Int>
  var replacement: [UInt8]

  /// `bytes` with `edits` applied; the edits are sorted by offset and do not overlap.
  static func apply(_ edits: [SourceEdit], to bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + edits.reduce(0) { $0 &+ $1.replacement.count })
    var position = 0
    for edit in edits {
      out += bytes[position..<edit.range.lowerBound]
      out += edit.replacement
      position = edit.range.upperBound
    }
    out += bytes[position...]
    return out
  }
}

/// Rewrites one `async` implementation of a completion-handler delegate method into the
/// completion-handler form of the same requirement:
///
/// - the signature keeps everything the user wrote before the parameter list's `)` (comments,
///   attributes, access level, parameter names), relabels a parameter only where the two forms'
///   labels differ, gains the handler parameter, and loses `async` and the return clause;
/// - the new body starts a `Task` on the main actor that awaits a private `async` helper, declared
///   right after the method with the original parameter list, return type and body bytes, and
///   passes its result to the handler: once, after the helper returns, on the main actor;
/// - the call of the helper (which captures `self` and the parameters) and the handler are taken
///   into the task as `nonisolated(unsafe)` constants: both are closures, never `Sendable`, and
///   the framework hands their values over and uses them nowhere else.
///
/// The helper keeps the method's `nonisolated` and its `@available` attributes, so the body runs
/// where it ran before; the new method is made `nonisolated` when its type is an actor or isolated
/// to another global actor (a synchronous witness of a nonisolated requirement must be).
/// Declarations whose meaning the rewrite could change are refused with the reason.
enum CompletionHandlerRewrite {
  typealias Method = CompletionHandlerDelegateMethod

  struct Context {
    /// Whether the new method needs `nonisolated` (an actor, or another global actor).
    var needsNonisolated = false
    /// The type's declarations, as ``signature(of:renamed:)`` names them.
    var takenNames: Set<String> = []
  }

  enum Outcome: Equatable {
    /// The edits, and the helper's Swift name.
    case rewrite([SourceEdit], helper: String)
    case refused(String)
  }

  /// `#` names whose value does not depend on where the code is (`#if`, `#selector`, …); any other
  /// (`#function`, `#line`, `#file`, a macro that may expand them) makes the body location-bound.
  static let locationFreePounds: Set<String> = [
    "if", "elseif", "else", "endif", "available", "unavailable", "selector", "keyPath", "colorLiteral",
    "imageLiteral", "fileLiteral", "warning", "error",
  ]

  static func plan(
    _ function: SwiftFunctionDeclaration, method: Method, bytes: [UInt8], context: Context
  ) -> Outcome {
    guard let layout = function.layout, layout.bodyClose < bytes.count,
      bytes[layout.bodyClose] == UInt8(ascii: "}"), bytes[layout.bodyOpen] == UInt8(ascii: "{")
    else { return .refused("the scanner did not read the declaration whole") }
    if function.modifiers.contains("override") {
      return .refused("it overrides a superclass method, whose callers may await it")
    }
    if function.modifiers.contains("open") {
      return .refused("it is open: a subclass in another module may override the async method")
    }
    if let selector = function.objcSelector {
      return .refused("it is named @objc(\(selector)) explicitly; rename it by hand")
    }
    let sensitive = layout.poundNames.subtracting(locationFreePounds).sorted()
    if let first = sensitive.first {
      return .refused("its body uses #\(first), whose value would change in a helper")
    }
    if layout.throwsError { return .refused("it throws; the completion-handler form cannot report an error") }
    if layout.hasGenericParameters || layout.hasWhereClause { return .refused("it is generic") }
    let completion = method.completion
    let labels = completion.labels
    guard labels.count == function.labels.count + 1, layout.parameters.count == function.labels.count else {
      return .refused("its parameters do not match \(completion.swiftName)")
    }
    let names = layout.parameters.map(\.name)
    let reserved = ["body", "result", "self", completion.handler]
    if let clash = names.first(where: { reserved.contains($0) || $0 == "_" }) {
      return .refused("a parameter is named '\(clash)', a name the rewrite needs")
    }
    let arity = completion.handlerArity
    let returnType = function.returnType
    let returnsNothing = returnType == nil || returnType == "Void" || returnType == "()"
    guard (arity == 0) == returnsNothing else {
      return .refused("its return type does not match the handler \(completion.type)")
    }
    if bytes[(layout.parameterClose + 1)..<layout.bodyOpen].contains(UInt8(ascii: "/")) {
      return .refused("a comment between its signature and its body would be lost")
    }
    let helperName = function.name + "Async"
    let helper = helperName + "(" + function.labels.map { $0 + ":" }.joined() + ")"
    if context.takenNames.contains(signature(of: function, renamed: helper)) {
      return .refused("'\(helper)' with these parameter types already exists")
    }
    for parameter in layout.parameters where bytes[parameter.labelOffset] == UInt8(ascii: "`") {
      return .refused("the parameter '\(parameter.name)' has a backquoted label")
    }

    let style = SourceStyle(bytes: bytes, layout: layout)
    let eol = style.lineEnding
    var edits: [SourceEdit] = []
    if context.needsNonisolated && !function.modifiers.contains("nonisolated") {
      edits.append(SourceEdit(range: layout.keyword..<layout.keyword, replacement: Array("nonisolated ".utf8)))
    }
    // Labels that differ between the two forms (`respondTo` → `didReceive`).
    for (position, parameter) in layout.parameters.enumerated() where labels[position] != function.labels[position] {
      if parameter.hasSeparateName {
        edits.append(
          SourceEdit(range: parameter.labelOffset..<parameter.labelEnd, replacement: Array(labels[position].utf8)))
      } else {
        edits.append(
          SourceEdit(
            range: parameter.labelOffset..<parameter.labelOffset, replacement: Array((labels[position] + " ").utf8)))
      }
    }
    // The handler parameter, after the last one, on its own line when the parameters are.
    let handlerLabel = labels[labels.count - 1]
    let handlerParameter =
      (handlerLabel == completion.handler ? "" : handlerLabel + " ")
      + "\(completion.handler): @escaping \(completion.type)"
    let trailingComma = bytes[layout.lastParameterEnd - 1] == UInt8(ascii: ",")
    let between = bytes[layout.lastParameterEnd..<layout.parameterClose]
    func insert(_ text: String, at offset: Int) {
      edits.append(SourceEdit(range: offset..<offset, replacement: Array(text.utf8)))
    }
    if layout.parameters.isEmpty {
      insert(handlerParameter, at: layout.lastParameterEnd)
    } else if let lineBreak = between.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
      // On a line of its own, after a comment that ends the last parameter's line.
      let indent = style.indentation(ofLineAt: layout.parameters[layout.parameters.count - 1].labelOffset)
      if !trailingComma { insert(",", at: layout.lastParameterEnd) }
      insert(eol + indent + handlerParameter + (trailingComma ? "," : ""), at: lineBreak)
    } else {
      insert((trailingComma ? " " : ", ") + handlerParameter, at: layout.lastParameterEnd)
    }

    // The new body, then the helper's declaration up to the original body's `{`.
    let outer = style.methodIndentation
    let inner = outer + style.unit
    let innermost = inner + style.unit
    let arguments = zip(function.labels, names).map { label, name in label == "_" ? name : "\(label): \(name)" }
    var body = " {" + eol
    body +=
      inner + "nonisolated(unsafe) let body = { await self.\(helperName)(\(arguments.joined(separator: ", "))) }" + eol
    body += inner + "nonisolated(unsafe) let \(completion.handler) = \(completion.handler)" + eol
    body += inner + "Task { @MainActor in" + eol
    if arity == 0 {
      body += innermost + "await body()" + eol
      body += innermost + completion.handler + "()" + eol
    } else {
      body += innermost + "let result = await body()" + eol
      let results = arity == 1 ? ["result"] : (0..<arity).map { "result.\($0)" }
      body += innermost + completion.handler + "(" + results.joined(separator: ", ") + ")" + eol
    }
    body += inner + "}" + eol + outer + "}" + eol + eol
    for availability in layout.availability { body += outer + availability + eol }
    body += outer + "private " + (function.modifiers.contains("nonisolated") ? "nonisolated " : "") + "func "
    body += helperName + withoutComments(Array(bytes[layout.parameterOpen...layout.parameterClose]))
    body += " async" + (returnsNothing ? "" : " -> " + (returnType ?? "")) + " "
    edits.append(SourceEdit(range: (layout.parameterClose + 1)..<layout.bodyOpen, replacement: Array(body.utf8)))
    return .rewrite(edits.sorted { $0.range.lowerBound < $1.range.lowerBound }, helper: helper)
  }
}

extension CompletionHandlerRewrite {
  /// What tells overloads apart: the Swift name (or `renamed`) and the parameter types.
  static func signature(of function: SwiftFunctionDeclaration, renamed: String? = nil) -> String {
    (renamed ?? function.swiftName) + " " + function.parameterTypes.joined(separator: ", ")
  }

  /// `clause` (a parameter list) without its comments, so that the helper's copy of it does not
  /// repeat them; blanks left at the end of a line by a removed comment are removed too.
  static func withoutComments(_ clause: [UInt8]) -> String {
    let tokens = SwiftLexer(clause).tokens
    var out: [UInt8] = []
    var position = 0
    for token in tokens + [SwiftToken(kind: .punctuation, value: "", offset: clause.count)] {
      let gap = clause[position..<token.offset]
      if gap.contains(UInt8(ascii: "/")) {
        // Only the line breaks of a gap with a comment are kept, with the next line's indentation.
        var kept: [UInt8] = []
        var lineBreak = false
        var afterBreak: [UInt8] = []
        for byte in gap {
          if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
            kept.append(byte)
            lineBreak = true
            afterBreak = []
          } else if lineBreak && (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) {
            afterBreak.append(byte)
          } else {
            lineBreak = false
          }
        }
        out += kept.isEmpty ? (token.offset == clause.count ? [] : [UInt8(ascii: " ")]) : kept + afterBreak
      } else {
        out += gap
      }
      position = token.offset
      let end = min(clause.count, tokenEnd(token, in: clause, next: tokens))
      out += clause[token.offset..<end]
      position = end
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The offset after `token`: its text for names and punctuation; for a literal, up to the next
  /// token's start less the blanks and comments before it.
  private static func tokenEnd(_ token: SwiftToken, in clause: [UInt8], next tokens: [SwiftToken]) -> Int {
    switch token.kind {
    case .literal:
      let following = tokens.first { $0.offset > token.offset }?.offset ?? clause.count
      var end = following
      // A literal ends at its closing quote: back up over blanks only (a comment after a default
      // value is rare and kept).
      while end > token.offset + 1,
        [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(clause[end - 1])
      {
        end -= 1
      }
      return end
    case .attribute, .pound:
      return token.offset + 1 + token.value.utf8.count
    case .identifier where clause[token.offset] == UInt8(ascii: "`"):
      return token.offset + token.value.utf8.count + 2
    default:
      return token.offset + token.value.utf8.count
    }
  }
}

/// The line ending and indentation a rewrite follows, read from the file around one declaration.
struct SourceStyle {
  let bytes: [UInt8]
  /// `\n`, `\r\n` or `\r`: the first line ending at or after the declaration, else the file's
  /// first, else `\n`.
  let lineEnding: String
  /// The leading blanks of the declaration's first line.
  let methodIndentation: String
  /// One level of indentation: the body's first line's extra blanks, else the declaration's
  /// indentation when it is one level (a tab, or up to eight spaces), else four spaces.
  let unit: String

  init(bytes: [UInt8], layout: SwiftFunctionLayout) {
    self.bytes = bytes
    lineEnding = Self.lineEnding(in: bytes, from: layout.start)
    let outer = Self.indentation(in: bytes, ofLineAt: layout.start)
    methodIndentation = outer
    var unit: String?
    // The first line inside the body that has text.
    var position = layout.bodyOpen
    while position < layout.bodyClose, bytes[position] != UInt8(ascii: "\n"), bytes[position] != UInt8(ascii: "\r") {
      position += 1
    }
    while position < layout.bodyClose {
      while position < layout.bodyClose, bytes[position] == UInt8(ascii: "\n") || bytes[position] == UInt8(ascii: "\r")
      {
        position += 1
      }
      let indent = Self.indentation(in: bytes, ofLineAt: position)
      let lineStart = position
      position += indent.utf8.count
      guard position < layout.bodyClose else { break }
      if bytes[position] == UInt8(ascii: "\n") || bytes[position] == UInt8(ascii: "\r") { continue }
      if indent.hasPrefix(outer), indent.utf8.count > outer.utf8.count, lineStart < layout.bodyClose {
        unit = String(indent.dropFirst(outer.count))
      }
      break
    }
    if let unit {
      self.unit = unit
    } else if outer.contains("\t") {
      self.unit = "\t"
    } else if !outer.isEmpty && outer.utf8.count <= 8 {
      self.unit = outer
    } else {
      self.unit = "    "
    }
  }

  func indentation(ofLineAt offset: Int) -> String { Self.indentation(in: bytes, ofLineAt: offset) }

  static func indentation(in bytes: [UInt8], ofLineAt offset: Int) -> String {
    var start = min(offset, bytes.count)
    while start > 0, bytes[start - 1] != UInt8(ascii: "\n"), bytes[start - 1] != UInt8(ascii: "\r") { start -= 1 }
    var end = start
    while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  static func lineEnding(in bytes: [UInt8], from offset: Int) -> String {
    func first(from start: Int) -> String? {
      var position = start
      while position < bytes.count {
        if bytes[position] == UInt8(ascii: "\n") { return "\n" }
        if bytes[position] == UInt8(ascii: "\r") {
          return position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "\n") ? "\r\n" : "\r"
        }
        position += 1
      }
      return nil
    }
    return first(from: offset) ?? first(from: 0) ?? "\n"
  }
}
