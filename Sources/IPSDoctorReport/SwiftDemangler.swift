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
    String(decoding: DemangledName.simplifyEntity(Array(text.utf8)), as: UTF8.self)
  }

  /// "_: __C.UNUserNotificationCenter, didReceive: __C.UNNotificationResponse" → "_:didReceive:".
  package static func labels(of arguments: Substring) -> String {
    String(decoding: DemangledName.labels(of: Array(arguments.utf8)[...]), as: UTF8.self)
  }
}

/// `SwiftDemangler.simplifyEntity` and its steps, over the UTF-8 bytes of a demangled name. Every
/// delimiter of a demangled name (parentheses, brackets, commas, colons, dots, spaces) is ASCII, so
/// its bytes are its characters; a non-ASCII character counts as a letter, as it can only be part
/// of an identifier. (A combining mark after a delimiter does not hide the delimiter.)
private enum DemangledName {
  static func simplifyEntity(_ text: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var index = 0
    while index < text.count {
      let byte = text[index]
      if byte == UInt8(ascii: "(") {
        // Find the matching parenthesis.
        var depth = 0
        var end = index
        var cursor = index
        while cursor < text.count {
          if text[cursor] == UInt8(ascii: "(") { depth += 1 }
          if text[cursor] == UInt8(ascii: ")") {
            depth -= 1
            if depth == 0 {
              end = cursor
              break
            }
          }
          cursor += 1
        }
        guard depth == 0 else {
          result += text[index...]
          break
        }
        let isCallArguments = result.last.map(isIdentifierByte) ?? false
        if isCallArguments {
          result.append(UInt8(ascii: "("))
          result += labels(of: text[(index + 1)..<end])
          result.append(UInt8(ascii: ")"))
          // Drop a trailing " async", " throws", " -> T" signature after the argument list.
          var rest = end + 1
          while true {
            if hasPrefix(text, at: rest, " async") {
              rest += 6
            } else if hasPrefix(text, at: rest, " throws") {
              rest += 7
            } else if hasPrefix(text, at: rest, " -> ") {
              rest = typeEnd(text, from: rest + 4)
            } else {
              break
            }
          }
          index = rest
          continue
        }
        result += text[index...end]
        index = end + 1
        continue
      }
      result.append(byte)
      index += 1
    }
    return dropModules(result)
  }

  /// An ASCII letter, digit or underscore, or a byte of a non-ASCII character.
  static func isIdentifierByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
      || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
  }

  static func hasPrefix(_ text: [UInt8], at start: Int, _ prefix: StaticString) -> Bool {
    text.withUnsafeBufferPointer { $0.hasPrefix(prefix, in: start..<$0.count) }
  }

  /// `(`, `<` and `[` open a bracket in a demangled type.
  static func opensBracket(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "(") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "[")
  }

  /// `)`, `>` and `]` close a bracket in a demangled type, except the `>` of an arrow (`->`).
  static func closesBracket(_ byte: UInt8, after previous: UInt8?) -> Bool {
    byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]")
      || (byte == UInt8(ascii: ">") && previous != UInt8(ascii: "-"))
  }

  /// Where the type starting at `start` ends: at the first space or unmatched closing bracket
  /// outside brackets.
  static func typeEnd(_ text: [UInt8], from start: Int) -> Int {
    var depth = 0
    var index = start
    while index < text.count {
      let byte = text[index]
      if opensBracket(byte) { depth += 1 }
      if closesBracket(byte, after: index > start ? text[index - 1] : nil) {
        if depth == 0 { break }
        depth -= 1
      }
      if byte == UInt8(ascii: " ") && depth == 0 { break }
      index += 1
    }
    return index
  }

  /// The labels of an argument list, each part's text before its colon, or `_` for a part without
  /// one: "_: A, didReceive: B" → "_:didReceive:". Parts are split at commas outside brackets and
  /// trimmed of spaces, tabs, CRs and LFs; empty parts are left out.
  static func labels(of arguments: ArraySlice<UInt8>) -> [UInt8] {
    var labels: [UInt8] = []
    var depth = 0
    var current: [UInt8] = []
    func flush() {
      var part = current[...]
      while let first = part.first, isWhitespace(first) { part = part.dropFirst() }
      while let last = part.last, isWhitespace(last) { part = part.dropLast() }
      if let colon = part.firstIndex(of: UInt8(ascii: ":")) {
        labels += part[..<colon]
        labels.append(UInt8(ascii: ":"))
      } else if !part.isEmpty {
        labels += "_:".utf8
      }
      current.removeAll(keepingCapacity: true)
    }
    var previous: UInt8?
    for byte in arguments {
      if opensBracket(byte) { depth += 1 }
      if closesBracket(byte, after: previous) { depth -= 1 }
      if byte == UInt8(ascii: ",") && depth == 0 {
        flush()
      } else {
        current.append(byte)
      }
      previous = byte
    }
    flush()
    return labels
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte.isSpaceTabOrLineFeed || byte == UInt8(ascii: "\r")
  }

  /// Removes module prefixes from dotted names: in each word (split at spaces outside
  /// parentheses) keeps at most `Type.member`.
  static func dropModules(_ text: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(text.count)
    var wordStart = 0
    var depth = 0
    for index in text.indices {
      let byte = text[index]
      if byte == UInt8(ascii: "(") { depth += 1 }
      if byte == UInt8(ascii: ")") { depth -= 1 }
      if byte == UInt8(ascii: " ") && depth <= 0 {
        output += shorten(text[wordStart..<index])
        output.append(byte)
        wordStart = index + 1
      }
    }
    output += shorten(text[wordStart...])
    return output
  }

  /// `A.B.c(…)` → `B.c(…)`: the last two components of the name before the first parenthesis,
  /// when it has more than two and none is empty.
  static func shorten(_ word: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let paren = word.firstIndex(of: UInt8(ascii: "(")) ?? word.endIndex
    let parts = word[..<paren].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count > 2, parts.allSatisfy({ !$0.isEmpty }) else { return word }
    var shortened = Array(parts[parts.count - 2])
    shortened.append(UInt8(ascii: "."))
    shortened += parts[parts.count - 1]
    shortened += word[paren...]
    return shortened[...]
  }
}
