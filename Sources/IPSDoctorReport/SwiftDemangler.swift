import IPSDoctorSupport

/// The Swift runtime's own demangler, `swift_demangle`, exported by libswiftCore.
@_silgen_name("swift_demangle")
private func _swiftDemangle(
  _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
  _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
  _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// A symbol as a report wrote it, with its demangled forms when it is a mangled Swift symbol.
package struct SymbolName: Sendable, Equatable {
  /// Exactly as written in the report.
  package var raw: String
  /// `swift demangle` style: module-qualified, with closure and function signatures.
  package var full: String?
  /// Xcode's simplified style, as on-device reports write app symbols: no modules, no signatures.
  package var simplified: String?

  /// Why a mangled symbol has no demangled forms when it was refused as too large to demangle
  /// (``SwiftDemangler/refusal(_:)``); `nil` otherwise.
  package var note: String?

  package init(_ raw: String) {
    self.raw = raw
    guard SwiftDemangler.isMangled(raw) else { return }
    if let full = SwiftDemangler.demangle(raw) {
      self.full = full
      self.simplified = SwiftDemangler.simplify(full)
    } else {
      note = SwiftDemangler.refusal(raw)
    }
  }

  /// The best form to show a person.
  package var display: String { simplified ?? raw }

  /// Whether any form contains `text`.
  package func contains(_ text: String) -> Bool {
    raw.utf8Contains(text) || (full?.utf8Contains(text) ?? false)
      || (simplified?.utf8Contains(text) ?? false)
  }

  /// Every form, raw first.
  package var forms: [String] { [raw] + [full, simplified].compactMap { $0 } }
}

/// Mangled Swift symbols to the forms a person reads, through the runtime's `swift_demangle`.
///
/// A worked example: `$s7Example6ParserC3runyyF` is mangled (``isMangled(_:)``: `$s` first),
/// within the size ``refusal(_:)`` accepts, and ``demangle(_:)`` gives
/// `Example.Parser.run() -> ()`, which ``simplify(_:)`` turns into `Parser.run()`, the form
/// Xcode writes in on-device reports. Invariants: a symbol ``isMangled(_:)`` rejects is never
/// handed to the runtime, and neither is one ``refusal(_:)`` refuses as too large to demangle;
/// ``mayBeMangled(first:second:)`` holds for every symbol ``isMangled(_:)`` accepts.
package enum SwiftDemangler {
  /// Whether a symbol whose first two UTF-8 bytes are `first` and `second` (a NUL where the symbol
  /// is shorter) may be mangled: true for every symbol ``isMangled(_:)`` accepts (`$s`, `$S`,
  /// `$e`, `_$` or `_T` first) and for few others, for callers that have the bytes at hand and need
  /// not make a string of the rest.
  @inlinable
  package static func mayBeMangled(first: UInt8, second: UInt8) -> Bool {
    first == UInt8(ascii: "$")
      ? second == UInt8(ascii: "s") || second == UInt8(ascii: "S") || second == UInt8(ascii: "e")
      : first == UInt8(ascii: "_") && (second == UInt8(ascii: "$") || second == UInt8(ascii: "T"))
  }

  /// Whether `symbol` looks like a mangled Swift symbol (`$s…`, `_$s…`, `$S…`, `_T0…`, `$e…`).
  package static func isMangled(_ symbol: String) -> Bool {
    // Byte by byte, not the generic `starts(with:)`: every frame is asked.
    var bytes = symbol.utf8.makeIterator()
    var first = bytes.next()
    let hasUnderscore = first == UInt8(ascii: "_")
    if hasUnderscore { first = bytes.next() }
    if first == UInt8(ascii: "$") {
      let second = bytes.next()
      return second == UInt8(ascii: "s") || second == UInt8(ascii: "S") || second == UInt8(ascii: "e")
    }
    // `hasPrefix` compares characters. No other character sequence is canonically equivalent to
    // ASCII "_T0", so without those bytes the answer is no; with them and an ASCII byte (or
    // nothing) after, "0" is a whole character and the answer is yes. Only a non-ASCII byte after
    // them (a combining mark could extend the "0") needs the character comparison.
    guard hasUnderscore, first == UInt8(ascii: "T"), bytes.next() == UInt8(ascii: "0") else { return false }
    guard let next = bytes.next(), next >= 0x80 else { return true }
    return symbol.hasPrefix("_T0")
  }

  /// The longest symbol handed to the runtime, in UTF-8 bytes. Real mangled names are a few hundred
  /// bytes; a longer one keeps its mangled form.
  package static let maxMangledBytes = 8 << 10

  /// The most text ``demangledSizeBound(_:limit:)`` may promise for a symbol that is demangled.
  package static let maxEstimatedBytes = 1 << 20

  /// The longest demangled form kept, in UTF-8 bytes (the longest of the 24,000 symbols of the
  /// Swift runtime and Foundation is about 1,000): a longer one is dropped and the symbol keeps its
  /// mangled form, so a frame never carries more than this much demangled text.
  package static let maxDemangledBytes = 16 << 10

  /// The output a mangled byte may print on its own, at most: an operator's words ("partial apply
  /// forwarder for ") or a standard type's name ("Swift.Array"), about two bytes an operator.
  package static let bytesPerMangledByte = 16

  /// Why ``demangle(_:)`` left a mangled symbol as it is: it is too long to hand to the runtime,
  /// its substitutions could expand it past ``maxEstimatedBytes``, or its demangled form is
  /// longer than ``maxDemangledBytes``. `nil` when it is not mangled or is demangled.
  package static func refusal(_ symbol: String) -> String? {
    guard isMangled(symbol) else { return nil }
    if symbol.utf8.count > maxMangledBytes {
      return "not demangled: the symbol is longer than \(maxMangledBytes) bytes"
    }
    if demangledSizeBound(symbol, limit: maxEstimatedBytes) == nil {
      return "not demangled: its substitutions could expand it past \(maxEstimatedBytes) bytes"
    }
    if let full = runtimeDemangle(symbol), full.utf8.count > maxDemangledBytes {
      return "not demangled: its demangled form is longer than \(maxDemangledBytes) bytes"
    }
    return nil
  }

  /// A bound on the length of the demangled form of `symbol`, or `nil` when it may exceed `limit`,
  /// computed from the bytes alone in one pass, without demangling. It holds as long as no byte
  /// prints more than ``bytesPerMangledByte`` of its own; the check of ``maxDemangledBytes`` after
  /// demangling catches what it misses by a small factor.
  ///
  /// The runtime's demangler builds a graph in which a substitution (`A` followed by letters, each
  /// a reference, or by an index and `_`; a count before a letter repeats it) refers to a node
  /// made earlier, and its printer expands every reference in full: `$sSaySiG` followed by
  /// `SayAA_AAtG`, `SayAB_ABtG`, … doubles the text with each group, a 249-byte symbol printing
  /// gigabytes. The bound charges each byte ``bytesPerMangledByte`` and each reference everything
  /// charged before its group (a node made earlier prints at most what came before it), times
  /// its repeat count. A digit run outside a group starts an identifier whose bytes are charged
  /// like any other but whose digits are not read as lengths; `A` inside one still starts a group,
  /// so text that only looks like an identifier cannot hide references.
  package static func demangledSizeBound(_ symbol: String, limit: Int) -> Int? {
    let bytes = Array(symbol.utf8)
    let perByte = bytesPerMangledByte
    let maxCount = 1 << 20
    var total = 0
    var index = 0
    var identifierEnd = 0
    func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    /// Reads the decimal number at `index` (at most `maxCount`), charging its digits.
    func number() -> Int {
      var value = 0
      while index < bytes.count && isDigit(bytes[index]) {
        value = min(value * 10 + Int(bytes[index] &- 0x30), maxCount)
        total += perByte
        index += 1
      }
      return value
    }
    while index < bytes.count {
      guard total <= limit else { return nil }
      let byte = bytes[index]
      if byte == UInt8(ascii: "A") {
        // Every reference of the group refers to a node made before the group.
        let before = total
        total += perByte
        index += 1
        var repeats = 1
        while index < bytes.count && total <= limit {
          let next = bytes[index]
          if isDigit(next) {
            repeats = max(number(), 1)
            continue
          }
          let isLower = next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z")
          let isUpper = next >= UInt8(ascii: "A") && next <= UInt8(ascii: "Z")
          guard isLower || isUpper || next == UInt8(ascii: "_") else { break }
          let expansion = before.multipliedReportingOverflow(by: repeats)
          guard !expansion.overflow, expansion.partialValue <= limit else { return nil }
          total += expansion.partialValue + perByte
          index += 1
          repeats = 1
          if !isLower { break }
        }
      } else if byte == UInt8(ascii: "S") && index + 1 < bytes.count && isDigit(bytes[index + 1]) {
        // A standard type repeated: `S3i` is three `Swift.Int`s.
        total += perByte
        index += 1
        let repeats = number()
        guard repeats <= limit / (2 * perByte) else { return nil }
        total += 2 * perByte * repeats
        index += 1
      } else if isDigit(byte) && index >= identifierEnd {
        let length = number()
        identifierEnd = index + length
      } else {
        total += perByte
        index += 1
      }
    }
    return total <= limit ? total : nil
  }

  /// The full demangled form of `symbol`, or `nil` when the runtime cannot demangle it or
  /// ``refusal(_:)`` says why it is left mangled. Trailing `.N` suffixes of merged symbols are kept
  /// as the runtime prints them.
  package static func demangle(_ symbol: String) -> String? {
    guard symbol.utf8.count <= maxMangledBytes, demangledSizeBound(symbol, limit: maxEstimatedBytes) != nil,
      let full = runtimeDemangle(symbol), full.utf8.count <= maxDemangledBytes
    else { return nil }
    return full
  }

  /// The runtime's demangling of `symbol`, whose size the caller has bounded.
  private static func runtimeDemangle(_ symbol: String) -> String? {
    var mangled = symbol
    // swift_demangle wants the Mach-O form without the extra leading underscore only for `_$s`.
    if mangled.hasPrefix("_$") { mangled.removeFirst() }
    let result: String? = mangled.withCString { pointer in
      guard let output = _swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return nil }
      defer { free(output) }
      return String(cString: output)
    }
    guard let result, result != mangled else { return nil }
    return result
  }

  /// Reduces a full demangled name to Xcode's simplified style:
  /// `(1) await resume partial function for @objc closure #1 () async -> () in
  /// ChatApp.PushNotificationDelegate.userNotificationCenter(_: __C.UNUserNotificationCenter,
  /// didReceive: __C.UNNotificationResponse) async -> ()` becomes
  /// `(1) await resume partial function for @objc closure #1 in
  /// PushNotificationDelegate.userNotificationCenter(_:didReceive:)`.
  package static func simplify(_ full: String) -> String {
    var text = Substring(full)
    var output = ""
    // Closure signatures: "closure #1 () async -> () in" → "closure #1 in".
    while let range = text.prefilteredFirstRange(of: "closure #") {
      output += text[..<range.upperBound]
      text = text[range.upperBound...]
      let number = text.prefix(while: \.isNumber)
      output += number
      text = text[number.endIndex...]
      if let inRange = text.prefilteredFirstRange(of: " in "),
        !text[..<inRange.lowerBound].prefilteredContains("closure #")
      {
        text = text[inRange.lowerBound...]
      }
    }
    output += text
    return simplifyEntity(output)
  }

  /// Drops module qualifiers and turns argument lists into labels: `M.T.f(_: A, x: B) async -> C`
  /// → `T.f(_:x:)`.
  package static func simplifyEntity(_ text: String) -> String {
    var result = ""
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "(" {
        // Find the matching parenthesis.
        var depth = 0
        var end = index
        var cursor = index
        while cursor < text.endIndex {
          if text[cursor] == "(" { depth += 1 }
          if text[cursor] == ")" {
            depth -= 1
            if depth == 0 {
              end = cursor
              break
            }
          }
          cursor = text.index(after: cursor)
        }
        guard depth == 0 else {
          result += text[index...]
          break
        }
        let inner = text[text.index(after: index)..<end]
        let isCallArguments = result.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
        if isCallArguments {
          result += "(" + labels(of: inner) + ")"
          // Drop a trailing " async", " throws", " -> T" signature after the argument list.
          var rest = text[text.index(after: end)...]
          while true {
            if rest.hasPrefix(" async") {
              rest = rest.dropFirst(6)
            } else if rest.hasPrefix(" throws") {
              rest = rest.dropFirst(7)
            } else if rest.hasPrefix(" -> ") {
              rest = rest.dropFirst(4)
              rest = dropType(rest)
            } else {
              break
            }
          }
          index = rest.startIndex
          continue
        }
        result += text[index...end]
        index = text.index(after: end)
        continue
      }
      result.append(character)
      index = text.index(after: index)
    }
    return dropModules(result)
  }

  /// The text after the type that starts `text`: from the first space or unmatched closing bracket
  /// outside brackets.
  package static func dropType(_ text: Substring) -> Substring {
    var depth = 0
    var previous: Character?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if opensBracket(character) { depth += 1 }
      if closesBracket(character, after: previous) {
        if depth == 0 { break }
        depth -= 1
      }
      if character == " " && depth == 0 { break }
      previous = character
      index = text.index(after: index)
    }
    return text[index...]
  }

  /// `(`, `<` and `[` open a bracket in a demangled type.
  private static func opensBracket(_ character: Character) -> Bool {
    character == "(" || character == "<" || character == "["
  }

  /// `)`, `>` and `]` close a bracket in a demangled type, except the `>` of an arrow (`->`).
  private static func closesBracket(_ character: Character, after previous: Character?) -> Bool {
    character == ")" || character == "]" || (character == ">" && previous != "-")
  }

  /// "_: __C.UNUserNotificationCenter, didReceive: __C.UNNotificationResponse" → "_:didReceive:".
  package static func labels(of arguments: Substring) -> String {
    guard !arguments.isEmpty else { return "" }
    var labels = ""
    var depth = 0
    var current = ""
    func flush() {
      let part = current.trimmingWhitespace()
      if let colon = part.firstIndex(of: ":") {
        labels += part[..<colon] + ":"
      } else if !part.isEmpty {
        labels += "_:"
      }
      current = ""
    }
    var previous: Character?
    for character in arguments {
      if opensBracket(character) { depth += 1 }
      if closesBracket(character, after: previous) { depth -= 1 }
      if character == "," && depth == 0 {
        flush()
      } else {
        current.append(character)
      }
      previous = character
    }
    flush()
    return labels
  }

  /// Removes module prefixes from dotted names: keeps the last two components of `A.B.c`.
  package static func dropModules(_ text: String) -> String {
    // Split into words separated by spaces; in each word keep at most Type.member.
    var output = ""
    var word = ""
    func flushWord() {
      output += shorten(word)
      word = ""
    }
    var depth = 0
    for character in text {
      if character == "(" { depth += 1 }
      if character == ")" { depth -= 1 }
      if character == " " && depth <= 0 {
        flushWord()
        output.append(character)
      } else {
        word.append(character)
      }
    }
    flushWord()
    return output
  }

  private static func shorten(_ word: String) -> String {
    guard let paren = word.firstIndex(of: "(") ?? Optional(word.endIndex) else { return word }
    let name = word[..<paren]
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count > 2, parts.allSatisfy({ !$0.isEmpty }) else { return word }
    return parts.suffix(2).joined(separator: ".") + word[paren...]
  }
}
