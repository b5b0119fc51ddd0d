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
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count + 4096)
    let count = Array(text.utf8).withUnsafeBufferPointer { bytes in
      rewrite(bytes: bytes, report: report, symbolicator: symbolicator) { output += $0 }
    }
    return (String(decoding: output, as: UTF8.self), count)
  }

  /// ``rewrite(_:report:symbolicator:)`` of the report's bytes, given to `write` a piece at a
  /// time as it goes (a line, a line feed), so that the rewritten report is not held as well as
  /// the report. Lines are split at each line feed. Every line written, symbolicated or not, is
  /// ``safeLine(_:)``: the report's own bytes and the debug files' names alike cannot write a
  /// terminal control, break a line or start a workflow command. Returns how many frames were
  /// symbolicated.
  package static func rewrite(
    bytes: UnsafeBufferPointer<UInt8>, report: CrashReport, symbolicator: Symbolicator,
    into write: (UnsafeRawBufferPointer) -> Void
  ) -> Int {
    var count = 0
    var matches: [Int: ImageMatch] = [:]
    let images = ReportImageFinder(report.images)
    var start = 0
    while start <= bytes.count {
      let end = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) ?? bytes.count
      let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
      let text = String(decoding: line, as: UTF8.self)
      let replaced = symbolicatedLine(
        text[...], report: report, images: images, symbolicator: symbolicator, matches: &matches)
      if replaced != nil { count += 1 }
      safeLine(replaced ?? text).withBorrowedUTF8 { write(UnsafeRawBufferPointer($0)) }
      guard end < bytes.count else { break }
      write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[end..<end + 1]))
      start = end + 1
    }
    return count
  }

  /// `line` as ``TerminalText/escaped(_:)`` writes it, with its tabs and a final carriage return
  /// (a CRLF report's) kept as they are: still one line of the report, its columns kept, and
  /// without a control character, a line break or a workflow command.
  static func safeLine(_ line: String) -> String {
    var line = line
    return line.withUTF8 { bytes in
      var end = bytes.count
      let carriageReturn = end > 0 && bytes[end - 1] == 0x0D
      if carriageReturn { end -= 1 }
      let body = UnsafeBufferPointer(rebasing: bytes[0..<end])
      // Each piece between tabs escaped on its own, as if it began a line.
      var result = ""
      var start = 0
      while true {
        let tab = ByteSearch.firstIndex(of: 0x09, in: body, from: start) ?? body.count
        result += TerminalText.escaped(
          String(decoding: UnsafeBufferPointer(rebasing: body[start..<tab]), as: UTF8.self))
        guard tab < body.count else { break }
        result += "\t"
        start = tab + 1
      }
      return carriageReturn ? result + "\r" : result
    }
  }

  /// The symbolicated form of one frame line, or `nil` when it is no unsymbolicated frame of a
  /// matched image.
  static func symbolicatedLine(
    _ line: Substring, report: CrashReport, images: ReportImageFinder, symbolicator: Symbolicator,
    matches: inout [Int: ImageMatch]
  ) -> String? {
    guard let parsed = FrameLine(line),
      let index = images.index(named: parsed.image) ?? images.index(containing: parsed.address)
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

/// A report's images found by name and by address without a scan of them per frame: the first
/// image of each name, and the images sorted by load address.
struct ReportImageFinder {
  private var byName: [String: Int] = [:]
  private let byAddress: AddressIntervalIndex
  private let addressOrder: [Int]

  init(_ images: [BinaryImage]) {
    var spans: [(range: AddressRange, index: Int)] = []
    for (index, image) in images.enumerated() {
      if let name = image.name, byName[name] == nil { byName[name] = index }
      guard let base = image.base, let size = image.size, size > 0 else { continue }
      let (end, overflow) = base.addingReportingOverflow(size)
      spans.append((AddressRange(low: base, high: overflow ? .max : end), index))
    }
    spans.sort { $0.range.low != $1.range.low ? $0.range.low < $1.range.low : $0.index > $1.index }
    byAddress = AddressIntervalIndex(sorted: spans.map(\.range))
    addressOrder = spans.map(\.index)
  }

  func index(named name: String) -> Int? { byName[name] }

  /// An image whose range holds `address`: of overlapping ones, the one loaded last (of those
  /// loaded at one address, the first listed).
  func index(containing address: UInt64) -> Int? {
    byAddress.lastContaining(address).map { addressOrder[$0] }
  }
}
