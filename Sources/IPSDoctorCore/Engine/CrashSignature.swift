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
      for byte in component.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      hash ^= 0x1F
      hash = hash &* 0x100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    id = String(repeating: "0", count: 16 - digits.count) + digits
  }

  init(context: DiagnosisContext, winner: Diagnosis?, summary: CrashSummary) {
    var components: [String] = []
    if let winner {
      components.append("rule:" + winner.ruleID)
    } else {
      components.append("kind:" + context.report.kind.rawValue)
      if let exception = summary.exception { components.append("exception:" + exception) }
    }
    if let reason = summary.reason ?? summary.headline {
      components.append("reason:" + Self.normalise(reason))
    }
    var frames: [String] = []
    for backtrace in context.backtraces where frames.isEmpty {
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
    }
    components += frames.map { "frame:" + $0 }
    self.init(components: components)
  }

  /// Masks what varies between occurrences of one crash: hexadecimal addresses, numbers, UUIDs.
  public static func normalise(_ text: String) -> String {
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
}
