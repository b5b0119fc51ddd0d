import IPSDoctorReport
import IPSDoctorSupport

/// A stable fingerprint for grouping reports of the same crash in a batch or a baseline.
///
/// Built from the winning rule (or the report kind and exception type when no rule matched), the
/// fact that tells one instance of the rule from another (``Diagnosis/instanceKey``) and the top
/// three app frames, as crash services group by stack. A frame whose image and offset are known is
/// keyed by them (`App+0x3e628`) whether or not anyone symbolicated it, so a report, its
/// `symbolicate`d copy and a run with its dSYM share ``id``. Where frames also have names
/// (from the report or a dSYM), ``symbolComponents`` keys them by ``SignatureFrame``'s one
/// spelling: the key that stays the same across builds, which groups and baselines also match.
/// The reason, with addresses and numbers masked and a leading exception name dropped, stands in
/// only when no app frame is known. ``components`` says exactly what went in.
public struct CrashSignature: Sendable, Equatable, Hashable {
  /// 16 hexadecimal digits (FNV-1a over the components).
  public var id: String
  /// The parts it was built from, in order, e.g. `["rule:watchdog-timeout", "reason:…", "frame:…"]`.
  package var components: [String]
  /// The components with each app frame keyed by its name where it has one; `nil` when that is
  /// ``components`` itself (no frame has both a name and an offset).
  package var symbolComponents: [String]?
  /// The id of ``symbolComponents``.
  package var symbolID: String?

  package init(components: [String], symbolComponents: [String]? = nil) {
    self.components = components
    id = Self.hash(components)
    if let symbolComponents, symbolComponents != components {
      self.symbolComponents = symbolComponents
      symbolID = Self.hash(symbolComponents)
    }
  }

  /// Every id this signature answers to in a group or a baseline: ``id``, then ``symbolID``.
  package var ids: [String] { symbolID.map { [id, $0] } ?? [id] }

  /// The ids a baseline written by signature version 2 knows this crash by: that version keyed an
  /// unsymbolicated frame as `App+0x3e628`, without the image's UUID. Matched only against the
  /// entries of such a baseline (``upgraded(_:)`` makes those of a symbolicated one match
  /// ``symbolID``).
  package var version2IDs: [String] {
    var changed = false
    let components = (symbolComponents ?? components).map { component in
      guard component.hasPrefix("frame:"), let at = component.lastIndex(of: "@"),
        component.utf8.distance(from: at.samePosition(in: component.utf8)!, to: component.utf8.endIndex) == 37
      else { return component }
      changed = true
      return String(component[..<at])
    }
    return changed ? [Self.hash(components)] : []
  }

  static func hash(_ components: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for component in components {
      component.withBorrowedUTF8 { bytes in
        for byte in bytes {
          hash ^= UInt64(byte)
          hash = hash &* 0x100_0000_01b3
        }
      }
      hash ^= 0x1F
      hash = hash &* 0x100_0000_01b3
    }
    return hexDigits(hash)
  }

  /// `hash` as 16 lowercase hexadecimal digits, zero-padded.
  static func hexDigits(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The version of how signatures are made. Version 1 also hashed the reason beside the frames
  /// and each frame as its report spelt it; version 2 keyed a frame by its name whenever it had
  /// one, spelt as the report had it after `SignatureFrame.canonical`, and had no instance keys.
  /// ``upgraded(_:)`` turns older components into this version's.
  package static let version = 3

  /// `winnerRuleID`: the rule ID of the best finding, `nil` when no rule matched; `instanceKey`:
  /// its ``Diagnosis/instanceKey``.
  init(
    context: borrowing DiagnosisContext, winnerRuleID: String?, instanceKey: String?,
    summary: borrowing CrashSummary
  ) {
    var components: [String] = []
    components.reserveCapacity(7)
    if let winnerRuleID {
      components.append("rule:" + winnerRuleID)
      if let instanceKey { components.append("instance:" + Self.normalise(instanceKey)) }
    } else {
      components.append("kind:" + context.report.kind.rawValue)
      if let exception = summary.exception { components.append("exception:" + exception) }
    }
    // Two keys per frame: by image, offset and the image's UUID where known (`App+0x3e628@8A3C…`,
    // else by name), and by name where known (else as the first key).
    var located: [String] = []
    var named: [String] = []
    located.reserveCapacity(3)
    named.reserveCapacity(3)
    // A recursion repeats a few frames hundreds of times: canonicalise each name once.
    var known: [(name: String, text: String?)] = []
    func nameKey(_ name: String?) -> (key: String?, isThunk: Bool) {
      guard let name else { return (nil, false) }
      if let seen = known.first(where: { $0.name == name }) { return (seen.text, seen.text == nil) }
      let text: String? = DiagnosisContext.isThunk(name) ? nil : SignatureFrame.key(name)
      if known.count < 16 { known.append((name, text)) }
      return (text, text == nil)
    }
    _ = context.firstResult(inBacktraces: { backtrace -> Void? in
      for frame in backtrace.frames where context.isAppFrame(frame) {
        let displayName = context.displayName(frame)
        // A standard library's code linked into the app is the same for every crash through it.
        if let displayName, LinkedLibraryFrame.contains(displayName) { continue }
        let place = frame.imageOffset.map { offset in
          let key = "\(frame.imageName ?? "?")+\(String.hex(offset))"
          guard let index = frame.imageIndex, context.report.images.indices.contains(index),
            let uuid = context.report.images[index].uppercaseUUID
          else { return key }
          return "\(key)@\(uuid)"
        }
        // An inlined frame shares its caller's address: the caller keys both.
        let (name, isThunk) = frame.isInline ? (nil, true) : nameKey(displayName)
        if located.count < 3, let key = place ?? name, located.last != key { located.append(key) }
        if named.count < 3, !isThunk, let key = name ?? place, named.last != key { named.append(key) }
        if located.count == 3 && named.count == 3 { break }
      }
      // The next backtrace only while no frame was found.
      return located.isEmpty && named.isEmpty ? nil : ()
    })
    var symbolComponents = components
    for frame in located { components.append("frame:" + frame) }
    for frame in named { symbolComponents.append("frame:" + frame) }
    // The exception's subtype ("KERN_INVALID_ADDRESS at 0x…") tells frameless crashes apart
    // where no reason does.
    var tail: [String] = []
    if located.isEmpty && named.isEmpty,
      let reason = summary.reason ?? context.report.exception?.subtype ?? summary.headline
    {
      tail.append("reason:" + Self.reasonKey(reason))
    }
    // Without an app frame, nothing else says whose crash it is: one app's report is not another's.
    if located.isEmpty && named.isEmpty, let process = context.report.bundleID ?? context.report.processName {
      tail.append("process:" + process)
    }
    // A jetsam event has no frames: which process the system killed, and why, tells events apart.
    if located.isEmpty && named.isEmpty, let jetsam = context.report.jetsam {
      if let killed = jetsam.killed.first {
        tail.append("jetsam:" + (killed.reason ?? "") + ":" + (killed.name ?? "?"))
      } else if let largest = jetsam.largestProcess {
        tail.append("jetsam:largest:" + largest)
      }
    }
    self.init(components: components + tail, symbolComponents: symbolComponents + tail)
  }

  /// The reason as a signature holds it: masked, without a leading exception name
  /// (`NSInternalInconsistencyException: Call must…` and `Call must…` are one reason).
  static func reasonKey(_ reason: String) -> String {
    var utf8 = reason
    // Found in the UTF-8: ": " is ASCII, and a `Character`-wise search of a long reason is slow.
    guard let offset = utf8.withUTF8({ ByteSearch.firstIndex(of: ": ", in: $0) }) else { return normalise(reason) }
    let colon = reason.utf8.index(reason.utf8.startIndex, offsetBy: offset)
    let name = reason[..<colon]
    guard name.hasSuffix("Exception") || name.hasSuffix("Error"), !name.utf8.contains(UInt8(ascii: " ")) else {
      return normalise(reason)
    }
    return normalise(String(reason[reason.utf8.index(colon, offsetBy: 2)...]))
  }

  /// Components of an older version as this version makes them: each named frame in this
  /// version's spelling, and the reason only when there is no frame. A version 2 signature keyed a
  /// frame by its name whenever it had one, so its upgraded components are this version's
  /// ``symbolComponents``; an unsymbolicated frame (`App+0x3e628`) is in its one form already.
  package static func upgraded(_ components: [String]) -> [String] {
    let hasFrames = components.contains { $0.hasPrefix("frame:") }
    return components.compactMap { component in
      if component.hasPrefix("frame:") {
        let frame = String(component.dropFirst("frame:".count))
        if frame.contains("+0x") && !frame.contains(" ") { return component }
        return SignatureFrame.key(frame).map { "frame:" + $0 } ?? component
      }
      if component.hasPrefix("reason:") {
        guard !hasFrames else { return nil }
        // The masked reason of version 1: masking again changes nothing but the exception name.
        return "reason:" + reasonKey(String(component.dropFirst("reason:".count)))
      }
      return component
    }
  }

  /// Masks what varies between occurrences of one crash in the first 300 characters of `text`:
  /// hexadecimal addresses (`0x1f40` → `0x…`), numbers (`12`, `1.2.3` → `#`) and UUIDs
  /// (→ `<uuid>`). Read by Unicode scalar: a number is a run of scalars with a numeric value
  /// (any script's digits) and dots; every mark it looks for is ASCII.
  package static func normalise(_ text: String) -> String {
    // A text of at most 300 bytes has at most 300 characters.
    let end =
      text.utf8.count <= 300
      ? text.endIndex : text.index(text.startIndex, offsetBy: 300, limitedBy: text.endIndex) ?? text.endIndex
    let scalars = Array(text.unicodeScalars[..<end])
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "0", index + 1 < scalars.count, scalars[index + 1] == "x" {
        var end = index + 2
        while end < scalars.count, isHexDigit(scalars[end]) { end += 1 }
        output.append(contentsOf: "0x…".utf8)
        index = end
        continue
      }
      if isNumber(scalar) {
        var end = index
        while end < scalars.count, isNumber(scalars[end]) || scalars[end] == "." { end += 1 }
        output.append(UInt8(ascii: "#"))
        index = end
        continue
      }
      if isHexDigit(scalar), index + 36 <= scalars.count,
        scalars[index + 8] == "-", scalars[index + 13] == "-",
        scalars[index..<index + 36].allSatisfy({ isHexDigit($0) || $0 == "-" })
      {
        output.append(contentsOf: "<uuid>".utf8)
        index += 36
        continue
      }
      UTF8.encode(scalar) { output.append($0) }
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Whether `scalar` has a numeric value (`Character.isNumber` of it alone).
  private static func isNumber(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII ? scalar >= "0" && scalar <= "9" : scalar.properties.numericType != nil
  }

  /// Whether `scalar` is a hexadecimal digit (`Character.isHexDigit` of it alone: ASCII or
  /// full-width).
  private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII ? UInt8(scalar.value).isASCIIHexDigit : Character(scalar).isHexDigit
  }
}
