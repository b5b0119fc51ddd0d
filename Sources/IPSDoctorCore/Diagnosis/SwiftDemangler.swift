#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// The Swift runtime's own demangler, `swift_demangle`, exported by libswiftCore.
@_silgen_name("swift_demangle")
private func _swiftDemangle(
  _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
  _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
  _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// A symbol as a report wrote it, with its demangled forms when it is a mangled Swift symbol.
public struct SymbolName: Sendable, Equatable {
  /// Exactly as written in the report.
  public var raw: String
  /// `swift demangle` style: module-qualified, with closure and function signatures.
  public var full: String?
  /// Xcode's simplified style, as on-device reports write app symbols: no modules, no signatures.
  public var simplified: String?

  public init(_ raw: String) {
    self.raw = raw
    if SwiftDemangler.isMangled(raw), let full = SwiftDemangler.demangle(raw) {
      self.full = full
      self.simplified = SwiftDemangler.simplify(full)
    }
  }

  /// The best form to show a person.
  public var display: String { simplified ?? raw }

  /// Whether any form contains `text`.
  public func contains(_ text: String) -> Bool {
    raw.utf8Contains(text) || (full?.utf8Contains(text) ?? false)
      || (simplified?.utf8Contains(text) ?? false)
  }

  /// Every form, raw first.
  public var forms: [String] { [raw] + [full, simplified].compactMap { $0 } }
}

public enum SwiftDemangler {
  /// Whether `symbol` looks like a mangled Swift symbol (`$s…`, `_$s…`, `$S…`, `_T0…`, `$e…`).
  public static func isMangled(_ symbol: String) -> Bool {
    // Byte by byte: the generic `starts(with:)` cost more than the rest (every frame is asked).
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

  /// The full demangled form of `symbol`, or `nil` when the runtime cannot demangle it. Trailing
  /// `.N` suffixes of merged symbols are kept as the runtime prints them.
  public static func demangle(_ symbol: String) -> String? {
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
  public static func simplify(_ full: String) -> String {
    var text = Substring(full)
    var output = ""
    // Closure signatures: "closure #1 () async -> () in" → "closure #1 in".
    while let range = text.prefilteredFirstRange(of: "closure #") {
      output += text[..<range.upperBound]
      text = text[range.upperBound...]
      let number = text.prefix(while: \.isNumber)
      output += number
      text = text[number.endIndex...]
      if let inRange = text.prefilteredFirstRange(of: " in "), !text[..<inRange.lowerBound].prefilteredContains("closure #") {
        text = text[inRange.lowerBound...]
      }
    }
    output += text
    return simplifyEntity(output)
  }

  /// Drops module qualifiers and turns argument lists into labels: `M.T.f(_: A, x: B) async -> C`
  /// → `T.f(_:x:)`.
  static func simplifyEntity(_ text: String) -> String {
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

  static func dropType(_ text: Substring) -> Substring {
    var depth = 0
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "(" || character == "<" || character == "[" { depth += 1 }
      if character == ")" || character == ">" || character == "]" {
        if depth == 0 { break }
        depth -= 1
      }
      if character == " " && depth == 0 { break }
      index = text.index(after: index)
    }
    return text[index...]
  }

  /// "_: __C.UNUserNotificationCenter, didReceive: __C.UNNotificationResponse" → "_:didReceive:".
  static func labels(of arguments: Substring) -> String {
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
    for character in arguments {
      if character == "(" || character == "<" || character == "[" { depth += 1 }
      if character == ")" || character == ">" || character == "]" { depth -= 1 }
      if character == "," && depth == 0 {
        flush()
      } else {
        current.append(character)
      }
    }
    flush()
    return labels
  }

  /// Removes module prefixes from dotted names: keeps the last two components of `A.B.c`.
  static func dropModules(_ text: String) -> String {
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
