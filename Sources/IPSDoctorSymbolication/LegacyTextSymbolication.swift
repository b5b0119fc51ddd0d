import IPSDoctorReport
import IPSDoctorSupport

/// Symbolicates a legacy text report (`.crash`, or `.ips` written as text) line by line, the way
/// `atos` output is pasted into it: an unsymbolicated frame line
/// `2   MyApp   0x1007da4bc 0x1007d4000 + 25788` becomes
/// `2   MyApp   0x1007da4bc CrashClass.crash() (in MyApp) (File.swift:42)`. Every other byte of
/// the report is kept.
package enum LegacyTextSymbolication {
  /// `text` with its unsymbolicated frames of matched images symbolicated, and how many were.
  package static func rewrite(_ text: String, report: CrashReport, symbolicator: Symbolicator) -> (
    text: String, frames: Int
  ) {
    var output = ""
    output.reserveCapacity(text.utf8.count + 4096)
    var count = 0
    var matches: [Int: ImageMatch] = [:]
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
    let last = lines.count - 1
    for (number, line) in lines.enumerated() {
      if let replaced = symbolicatedLine(line, report: report, symbolicator: symbolicator, matches: &matches) {
        output += replaced
        count += 1
      } else {
        output += line
      }
      if number < last { output += "\n" }
    }
    lines = []
    return (output, count)
  }

  /// The symbolicated form of one frame line, or `nil` when it is no unsymbolicated frame of a
  /// matched image.
  static func symbolicatedLine(
    _ line: Substring, report: CrashReport, symbolicator: Symbolicator, matches: inout [Int: ImageMatch]
  ) -> String? {
    guard let parsed = FrameLine(line) else { return nil }
    guard
      let index = report.images.firstIndex(where: { $0.name == parsed.image })
        ?? report.images.firstIndex(where: { image in
          guard let base = image.base, let size = image.size else { return false }
          return parsed.address >= base && parsed.address - base < size
        })
    else { return nil }
    let image = report.images[index]
    let match = matches[index] ?? symbolicator.match(image)
    matches[index] = match
    guard case .matched(let debug) = match, let base = image.base, parsed.address >= base,
      let symbols = symbolicator.symbols(imageOffset: parsed.address - base, in: debug),
      let outer = symbols.last
    else { return nil }
    // `atos` without `-i`: the function the code belongs to, at the position in it (for inlined
    // code, the call site).
    var text = String(line[..<parsed.restStart]) + outer.symbol + " (in \(parsed.image))"
    if let file = outer.sourceFile {
      text += " (\(file):\(outer.sourceLine ?? 0))"
    } else {
      text += " + \(outer.symbolLocation)"
    }
    return text
  }

  /// `<n> <image> <0xaddress> <0xbase + offset | image + offset>`.
  struct FrameLine {
    var image: String
    var address: UInt64
    /// Where the part after the address starts (the text to replace).
    var restStart: Substring.Index

    init?(_ line: Substring) {
      let utf8 = line.utf8
      var index = utf8.startIndex
      var sawDigit = false
      while index < utf8.endIndex, (0x30...0x39).contains(utf8[index]) {
        sawDigit = true
        index = utf8.index(after: index)
      }
      guard sawDigit, index < utf8.endIndex, utf8[index] == 0x20 || utf8[index] == 0x09 else { return nil }
      // The address is the first whitespace-separated "0x…" word after the image name.
      let words = line[index...].split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let addressPosition = words.firstIndex(where: { $0.hasPrefix("0x") }), addressPosition >= 1,
        addressPosition + 1 < words.count,
        let address = UInt64(words[addressPosition].dropFirst(2), radix: 16)
      else { return nil }
      let rest = words[(addressPosition + 1)...]
      // Unsymbolicated: "0xbase + offset", or "Image + offset" (older reports).
      guard rest.count == 3, rest[rest.startIndex + 1] == "+", UInt64(rest[rest.startIndex + 2]) != nil else {
        return nil
      }
      image = words[0..<addressPosition].joined(separator: " ")
      self.address = address
      restStart = rest[rest.startIndex].startIndex
    }
  }
}
