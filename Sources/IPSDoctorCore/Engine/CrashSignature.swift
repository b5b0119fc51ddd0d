/// A stable fingerprint for grouping reports of the same crash in a batch or a baseline.
///
/// Built from the winning rule (or the exception type when no rule matched), the reason with
/// addresses and numbers masked, and the top app frames (symbols, or image + offset when
/// unsymbolicated). ``components`` says exactly what went in.
public struct CrashSignature: Sendable, Equatable, Hashable {
  /// 16 hexadecimal digits (FNV-1a over the components).
  public var id: String
  /// The parts it was built from, in order, e.g. `["rule:watchdog-timeout", "reason:…", "frame:…"]`.
  public var components: [String]

  public init(components: [String]) {
    self.components = components
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for component in components {
      // Over the contiguous UTF-8 at once: iterating `utf8` costs far more per byte.
      component.withBorrowedUTF8 { bytes in
        for byte in bytes {
          hash ^= UInt64(byte)
          hash = hash &* 0x100_0000_01b3
        }
      }
      hash ^= 0x1F
      hash = hash &* 0x100_0000_01b3
    }
    id = Self.hexDigits(hash)
  }

  /// `hash` as 16 lowercase hexadecimal digits, zero-padded: what `String(hash, radix: 16)` padded
  /// with zeros gives, written straight into the string's storage (the conversion, counting its
  /// `Character`s and padding cost ~1,400 instructions a report).
  static func hexDigits(_ hash: UInt64) -> String {
    String(unsafeUninitializedCapacity: 16) { buffer in
      let digits: StaticString = "0123456789abcdef"
      for index in 0..<16 {
        let nibble = Int(truncatingIfNeeded: hash >> UInt64(60 - 4 * index)) & 0xF
        buffer[index] = digits.utf8Start[nibble]
      }
      return 16
    }
  }

  /// `winnerRuleID`: the rule ID of the best finding, `nil` when no rule matched.
  init(context: borrowing DiagnosisContext, winnerRuleID: String?, summary: borrowing CrashSummary) {
    var components: [String] = []
    components.reserveCapacity(6)
    if let winnerRuleID {
      components.append("rule:" + winnerRuleID)
    } else {
      components.append("kind:" + context.report.kind.rawValue)
      if let exception = summary.exception { components.append("exception:" + exception) }
    }
    if let reason = summary.reason ?? summary.headline {
      components.append("reason:" + Self.normalise(reason))
    }
    var frames: [String] = []
    frames.reserveCapacity(3)
    _ = context.firstResult(inBacktraces: { backtrace -> Void? in
      for frame in backtrace.frames where context.isAppFrame(frame) {
        let text: String
        if let name = context.symbol(frame)?.display {
          if DiagnosisContext.isThunk(name) { continue }
          text = name
        } else if let offset = frame.imageOffset {
          text = (frame.imageName ?? "?") + "+" + String.hex(offset)
        } else {
          continue
        }
        if frames.last != text { frames.append(text) }
        if frames.count == 3 { break }
      }
      // The next backtrace only while no frame was found.
      return frames.isEmpty ? nil : ()
    })
    for frame in frames { components.append("frame:" + frame) }
    self.init(components: components)
  }

  /// Masks what varies between occurrences of one crash: hexadecimal addresses, numbers, UUIDs.
  public static func normalise(_ text: String) -> String {
    normaliseASCII(text) ?? normaliseCharacters(text)
  }

  /// `normalise(_:)`, `Character` by `Character`.
  static func normaliseCharacters(_ text: String) -> String {
    var output = ""
    var characters = Array(text.prefix(300))
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character == "0", index + 1 < characters.count, characters[index + 1] == "x" {
        var end = index + 2
        while end < characters.count, characters[end].isHexDigit { end += 1 }
        output += "0x…"
        index = end
        continue
      }
      if character.isNumber {
        var end = index
        while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
        output += "#"
        index = end
        continue
      }
      if character.isHexDigit, index + 36 <= characters.count,
        characters[index + 8] == "-", characters[index + 13] == "-",
        characters[index..<index + 36].allSatisfy({ $0.isHexDigit || $0 == "-" })
      {
        output += "<uuid>"
        index += 36
        continue
      }
      output.append(character)
      index += 1
    }
    characters.removeAll()
    return output
  }

  /// `normalise(_:)` over bytes, for text whose first 300 bytes are ASCII without carriage returns
  /// and whose 301st byte, if any, is ASCII (there every byte of the first 300 is one `Character`,
  /// no combining mark extends the last one, and `isNumber`/`isHexDigit` are the ASCII digit
  /// tests); `nil` for any other text.
  static func normaliseASCII(_ text: String) -> String? {
    // Read in place from the contiguous UTF-8: copying it into an array first cost as much as
    // the loop.
    text.withBorrowedUTF8 { utf8 in
      let checked = UnsafeBufferPointer(rebasing: utf8.prefix(301))
      guard ByteSearch.isASCII(checked) else { return nil }
      let bytes = UnsafeBufferPointer(rebasing: checked.prefix(300))
      guard !bytes.contains(UInt8(ascii: "\r")) else { return nil }
      return normaliseASCII(bytes)
    }
  }

  /// The loop of `normaliseASCII(_:)` over bytes already checked.
  private static func normaliseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    func isHexDigit(_ byte: UInt8) -> Bool {
      isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
    // At most 2.5 bytes out for each byte in ("0x" becomes "0x…"), written straight into the
    // string's storage rather than into an array copied into a string afterwards.
    return String(unsafeUninitializedCapacity: bytes.count * 5 / 2 + 3) { output in
      var written = 0
      func write(_ text: StaticString) {
        for offset in 0..<text.utf8CodeUnitCount { output[written + offset] = text.utf8Start[offset] }
        written += text.utf8CodeUnitCount
      }
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "0"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "x") {
          var end = index + 2
          while end < bytes.count, isHexDigit(bytes[end]) { end += 1 }
          write("0x…")
          index = end
          continue
        }
        if isDigit(byte) {
          var end = index
          while end < bytes.count, isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
          write("#")
          index = end
          continue
        }
        if isHexDigit(byte), index + 36 <= bytes.count,
          bytes[index + 8] == UInt8(ascii: "-"), bytes[index + 13] == UInt8(ascii: "-"),
          bytes[index..<index + 36].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: "-") })
        {
          write("<uuid>")
          index += 36
          continue
        }
        output[written] = byte
        written += 1
        index += 1
      }
      return written
    }
  }
}
