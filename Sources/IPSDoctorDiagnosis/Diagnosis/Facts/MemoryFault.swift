import IPSDoctorSupport

/// A bad memory access (`EXC_BAD_ACCESS`, or `SIGSEGV`/`SIGBUS` in older and third-party reports),
/// with the kind of fault and the address, wherever the report wrote them.
struct MemoryFault: Sendable {
  package enum Kind: String, Sendable {
    case invalidAddress = "KERN_INVALID_ADDRESS"
    case protectionFailure = "KERN_PROTECTION_FAILURE"
    case memoryError = "KERN_MEMORY_ERROR"
    case misaligned = "EXC_ARM_DA_ALIGN"
    case generalProtection = "EXC_I386_GPFLT"
    case other = "other"
  }

  var kind: Kind
  /// The address the report names (for PAC-flagged faults, the signed pointer before "->").
  var address: UInt64?
  /// The address after "->" (the pointer with its authentication bits stripped), when present.
  var strippedAddress: UInt64?
  var isPACFlagged: Bool
  /// The text that named the fault (subtype, codes or type), for summaries.
  var text: String?
  var subtypeEvidence: Evidence?

  init?(_ context: borrowing DiagnosisContext) {
    let exception = context.report.exception
    let type = exception?.type ?? ""
    let signal = exception?.signal ?? ""
    guard
      type.hasPrefix("EXC_BAD_ACCESS") || type.hasPrefix("SIGSEGV") || type.hasPrefix("SIGBUS")
        || (type.isEmpty && (signal.hasPrefix("SIGSEGV") || signal.hasPrefix("SIGBUS")))
    else { return nil }
    // A kill (watchdog, code signing, jetsam) reported with the exception the thread was in when
    // killed ("EXC_BAD_ACCESS (SIGKILL)", namespace SPRINGBOARD): not a memory fault of the app.
    if signal.hasPrefix("SIGKILL") || type.prefilteredContains("SIGKILL") { return nil }
    if let namespace = context.report.termination?.namespace, namespace != "SIGNAL" { return nil }

    var found: (kind: Kind, text: String, path: String)?
    let sources: [(String, String?)] = [
      ("exception.subtype", exception?.subtype), ("exception.codes", exception?.codes),
      ("exception.message", exception?.message), ("exception.type", exception?.type),
    ]
    search: for (path, value) in sources {
      guard let value else { continue }
      for (marker, kind) in Self.markers where value.prefilteredContains(marker) {
        found = (kind, value, path)
        break search
      }
    }
    if found == nil, let code = exception?.rawCodes.first {
      let kind: Kind? =
        switch code {
        case 1: .invalidAddress
        case 2: .protectionFailure
        case 10: .memoryError
        case 0x101: .misaligned
        default: nil
        }
      if let kind { found = (kind, exception?.codes ?? String.hex(code), "exception.codes") }
    }
    kind = found?.kind ?? .other
    text = found?.text ?? exception?.subtype
    if let found { subtypeEvidence = Evidence(found.path, found.text) }
    isPACFlagged =
      (exception?.subtype ?? "").prefilteredContains("pointer authentication")
      || (found?.text ?? "").prefilteredContains("pointer authentication")

    if let text = found?.text, let at = TextScan.hexNumber(in: text, after: " at ") {
      address = at
    } else if let codes = exception?.rawCodes, codes.count >= 2, type.hasPrefix("EXC_BAD_ACCESS") {
      address = codes[1]
    } else if let codes = exception?.codes, type.hasPrefix("EXC_BAD_ACCESS") {
      let parts = codes.split(separator: ",")
      if parts.count >= 2 { address = String.parseUInt64(parts[1]) }
    }
    if let text = found?.text { strippedAddress = TextScan.hexNumber(in: text, after: "->") }
  }

  /// Apple's marker for a concurrently accessed Objective-C property: an invalid-address (or
  /// unclassified) fault whose address or stripped address is `0xbad0` in its low 48 bits.
  var isBad0: Bool { Self.isBad0(kind: kind, address: address, strippedAddress: strippedAddress) }

  /// `isBad0` for the given fields.
  static func isBad0(kind: Kind, address: UInt64?, strippedAddress: UInt64?) -> Bool {
    guard kind == .invalidAddress || kind == .other else { return false }
    if let address, address & 0x0000_FFFF_FFFF_FFFF == 0xbad0 { return true }
    if let strippedAddress, strippedAddress & 0x0000_FFFF_FFFF_FFFF == 0xbad0 { return true }
    return false
  }

  /// The texts that name the kind of fault, with the kind each names.
  private static let markers: [(String, Kind)] = [
    ("KERN_INVALID_ADDRESS", .invalidAddress), ("KERN_PROTECTION_FAILURE", .protectionFailure),
    ("KERN_MEMORY_ERROR", .memoryError), ("EXC_ARM_DA_ALIGN", .misaligned),
    ("BUS_ADRALN", .misaligned), ("SEGV_MAPERR", .invalidAddress),
    ("SEGV_ACCERR", .protectionFailure), ("EXC_I386_GPFLT", .generalProtection),
  ]

  /// The address without pointer-authentication bits.
  var effectiveAddress: UInt64? { strippedAddress ?? address }

  var addressDisplay: String {
    guard let address else { return "an unknown address" }
    if let strippedAddress, strippedAddress != address {
      return
        "\(CodeSpan.markdown(String.hex(address))) (\(CodeSpan.markdown(String.hex(strippedAddress))) without its authentication bits)"
    }
    return "\(CodeSpan.markdown(String.hex(address)))"
  }

  /// The region line of `vmRegionInfo` marked with the arrow (`--->`), trimmed.
  static func arrowLine(in context: DiagnosisContext) -> Evidence? {
    if let line = firstArrowLine(in: context.report.vmRegionInfo) {
      return Evidence("vmRegionInfo", removingArrows(line).trimmingWhitespace())
    }
    if let line = firstArrowLine(in: context.report.vmSummary) {
      return Evidence("vmSummary", removingArrows(line).trimmingWhitespace())
    }
    return nil
  }

  /// The first line of `text` that contains the arrow: from after the line feed before the
  /// arrow to the next one.
  static func firstArrowLine(in text: String?) -> Substring? {
    guard let text, let arrow = text.firstRange(of: "--->") else { return nil }
    let lineFeed = UInt8(ascii: "\n")
    let start = text.utf8[..<arrow.lowerBound].lastIndex(of: lineFeed).map(text.utf8.index(after:)) ?? text.startIndex
    let end = text.utf8[arrow.upperBound...].firstIndex(of: lineFeed) ?? text.endIndex
    return text[start..<end]
  }

  /// `line` without its `--->` arrows, removed from left to right.
  static func removingArrows(_ line: Substring) -> String {
    var rest = String(line)
    var result = ""
    while let arrow = rest.firstRange(of: "--->") {
      result += rest[..<arrow.lowerBound]
      rest = String(rest[arrow.upperBound...])
    }
    return result + rest
  }

  /// The first line of `vmRegionInfo`, e.g. "0x8 is not in any region.".
  static func regionHeadline(in context: DiagnosisContext) -> Evidence? {
    guard let text = context.report.vmRegionInfo, let line = firstLine(text) else { return nil }
    let first = line.trimmingWhitespace()
    return first.isEmpty ? nil : Evidence("vmRegionInfo", first)
  }

  /// The first line of `text` after its leading line feeds, up to the next line feed (a carriage
  /// return before it stays on the line), `nil` when there is none.
  static func firstLine(_ text: String) -> Substring? {
    let utf8 = text.utf8
    guard let start = utf8.firstIndex(where: { $0 != UInt8(ascii: "\n") }) else { return nil }
    return text[start..<(utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? utf8.endIndex)]
  }

  /// Whether the access was a read or a write, from the ARM exception syndrome.
  static func accessKind(in context: DiagnosisContext) -> String? {
    guard let description = context.crashedThread?.state?.esrDescription else { return nil }
    if description.prefilteredContains("write") { return "write" }
    if description.prefilteredContains("read") { return "read" }
    return nil
  }

  /// " The faulting frame is `…` (threads[0].frames[0]), called from `…` (threads[0].frames[2]).
  /// It happened on the main thread.": the faulting frame and the first app frame below it, with
  /// what it quotes appended to `evidence`; empty without a crashed thread.
  static func crashSiteSentence(in context: DiagnosisContext, evidence: inout [Evidence]) -> String {
    guard let crashing = context.crashingFrame, let backtrace = context.crashedBacktrace else { return "" }
    var sentence = " The faulting frame is \(DiagnosisContext.quote(crashing.evidence))"
    evidence.append(crashing.evidence)
    // Identical functions merged by the linker carry no useful name; the next frame has one.
    if crashing.frame.symbol == "<deduplicated_symbol>", backtrace.frames.count > 1 {
      let next = context.frameEvidence(backtrace, 1)
      sentence += " (a function the linker merged with identical ones), inside \(DiagnosisContext.quote(next))"
      evidence.append(next)
    }
    if context.isAppFrame(crashing.frame) {
      if context.symbol(crashing.frame) == nil { sentence += "; symbolicate it to see the line" }
    } else if let (index, app) = context.indexedAppFrame(in: backtrace) {
      if index > 6 {
        let caller = context.frameEvidence(backtrace, 1)
        sentence +=
          ", called by \(DiagnosisContext.quote(caller)); the first app frame is far below, "
          + "\(DiagnosisContext.quote(app)), so the system frameworks were working on the app's behalf "
          + "(with an object, delegate or buffer the app gave them)"
        evidence.append(caller)
      } else {
        sentence += ", called from \(DiagnosisContext.quote(app))"
      }
      evidence.append(app)
    }
    sentence += "."
    if let thread = context.crashedThreadDisplay { sentence += " It happened on \(thread)." }
    return sentence
  }
}
