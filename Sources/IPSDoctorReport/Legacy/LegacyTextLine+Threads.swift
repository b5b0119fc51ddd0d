import IPSDoctorSupport

/// Thread header lines ("Thread 3 Crashed:: Dispatch queue: q", "Thread 3 name: …", "Thread 3
/// crashed with ARM Thread State (64-bit):") and the register lines of a thread state.
extension LegacyTextLine {
  static let dispatchQueue: StaticString = "Dispatch queue:"

  enum ThreadHeader: Equatable {
    /// "Thread 5 name:  …"
    case name(number: Int, name: String?, queue: String?)
    /// "Thread 5:", "Thread 5 Crashed:", "Thread 0 Crashed:: Dispatch queue: …", "Thread 3:: name"
    case start(number: Int, crashed: Bool, name: String?, queue: String?)
    /// "Thread 7 crashed with ARM Thread State (64-bit):"
    case state(number: Int, flavor: String)
    /// "Thread 0 instruction stream:" and other per-thread blocks we skip.
    case other(number: Int)
  }

  /// Reads the line `bytes[line]`, starting with "Thread " and a digit; `nil` when its shape is
  /// unknown. Names and queues are looked up in `texts`.
  static func threadHeader(
    _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, texts: SharedTexts.Handle? = nil
  ) -> ThreadHeader? {
    func after(_ range: Range<Int>, _ prefix: StaticString) -> Range<Int> {
      (range.lowerBound + prefix.utf8CodeUnitCount)..<range.upperBound
    }
    func endsWithColon(_ range: Range<Int>) -> Bool { !range.isEmpty && bytes[range.upperBound - 1] == 0x3A }
    guard bytes.hasPrefix("Thread ", in: line) else { return nil }
    let afterWord = after(line, "Thread ")
    var digitsEnd = afterWord.lowerBound
    while digitsEnd < afterWord.upperBound, bytes[digitsEnd] >= 0x30 && bytes[digitsEnd] <= 0x39 { digitsEnd += 1 }
    guard let number = decimal(bytes, afterWord.lowerBound..<digitsEnd) else { return nil }
    let rest = digitsEnd..<afterWord.upperBound
    if bytes.hasPrefix(" name:", in: rest) {
      let parts = nameAndQueue(bytes, after(rest, " name:"), texts: texts)
      return .name(number: number, name: parts.name, queue: parts.queue)
    }
    var crashed = false
    var tail = rest
    if bytes.hasPrefix(" Crashed:", in: tail) {
      crashed = true
      tail = after(tail, " Crashed:")
    } else if bytes.hasPrefix(" Highlighted:", in: tail) {
      tail = after(tail, " Highlighted:")
    } else if bytes.hasPrefix(":", in: tail) {
      tail = after(tail, ":")
    } else if bytes.hasPrefix(" crashed with ", in: tail), endsWithColon(tail) {
      let flavor = after(tail, " crashed with ")
      return .state(number: number, flavor: threadStateFlavor(bytes, flavor.lowerBound..<(flavor.upperBound - 1)))
    } else if bytes.hasPrefix(" ", in: tail), endsWithColon(ByteScanner.trimmed(bytes, tail)) {
      return .other(number: number)
    } else {
      return nil
    }
    if bytes.hasPrefix(":", in: tail) {
      let parts = nameAndQueue(bytes, after(tail, ":"), texts: texts)
      return .start(number: number, crashed: crashed, name: parts.name, queue: parts.queue)
    }
    guard ByteScanner.trimmed(bytes, tail).isEmpty else { return nil }
    return .start(number: number, crashed: crashed, name: nil, queue: nil)
  }

  /// "Thread 5 name:  Dispatch queue: q" parts, in `bytes[range]`: "tid_303  Dispatch queue: q" →
  /// ("tid_303", "q").
  static func nameAndQueue(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, texts: SharedTexts.Handle?)
    -> (name: String?, queue: String?)
  {
    let text = ByteScanner.trimmed(bytes, range)
    let found = ByteSearch.firstIndex(of: dispatchQueue, in: UnsafeBufferPointer(rebasing: bytes[text]))
    func kept(_ range: Range<Int>) -> String? {
      let trimmed = ByteScanner.trimmed(bytes, range)
      return trimmed.isEmpty ? nil : string(bytes, trimmed, texts)
    }
    guard let found else { return (kept(text), nil) }
    let start = text.lowerBound + found
    return (kept(text.lowerBound..<start), kept((start + dispatchQueue.utf8CodeUnitCount)..<text.upperBound))
  }

  /// "ARM Thread State (64-bit)", in `bytes[range]` → "ARM_THREAD_STATE64", the JSON flavor names.
  static func threadStateFlavor(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    let upper = string(bytes, range).uppercased()
    if upper.hasPrefix("ARM") {
      return upper.contains("64") ? "ARM_THREAD_STATE64" : "ARM_THREAD_STATE"
    }
    if upper.hasPrefix("X86") {
      return upper.contains("64") ? "x86_THREAD_STATE" : "x86_THREAD_STATE32"
    }
    return string(bytes, ByteScanner.trimmed(bytes, range))
  }

  /// The text label of a JSON flavor, the inverse of ``threadStateFlavor(_:)``.
  static func threadStateLabel(_ flavor: String?) -> String {
    switch flavor {
    case "ARM_THREAD_STATE64": "ARM Thread State (64-bit)"
    case "ARM_THREAD_STATE": "ARM Thread State (32-bit)"
    case "x86_THREAD_STATE": "X86 Thread State (64-bit)"
    case "x86_THREAD_STATE32": "X86 Thread State (32-bit)"
    case let flavor?: "\(flavor) Thread State"
    case nil: "Thread State"
    }
  }

  /// "   x28: 0x0000000188510809   fp: 0x000000016fdd0ba0", in `bytes[line]` → registers, named as
  /// the JSON report names them ("rfl" is "rflags"); the ESR's description ("esr: 0x56000080  Address
  /// size fault") comes back separately. The words, split at spaces and tabs, are read one after
  /// another without an array of them. `nil` when the line has no register at all.
  static func registers(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>)
    -> (registers: [ThreadState.Register], esr: String?)?
  {
    var cursor = line.lowerBound
    func nextToken() -> Range<Int>? {
      while cursor < line.upperBound && isSpaceByte(bytes[cursor]) { cursor += 1 }
      guard cursor < line.upperBound else { return nil }
      let start = cursor
      while cursor < line.upperBound && !isSpaceByte(bytes[cursor]) { cursor += 1 }
      return start..<cursor
    }
    func isLabel(_ token: Range<Int>) -> Bool { bytes[token.upperBound - 1] == 0x3A }
    var result: [ThreadState.Register] = []
    var esrDescription: String?
    var sawName = false
    var pending = nextToken()
    while let token = pending {
      guard isLabel(token), token.count > 1 else {
        pending = nextToken()
        continue
      }
      sawName = true
      let nameRange = token.lowerBound..<(token.upperBound - 1)
      let isRFL =
        nameRange.count == 3 && bytes[nameRange.lowerBound] == 0x72
        && bytes[nameRange.lowerBound + 1] == 0x66 && bytes[nameRange.lowerBound + 2] == 0x6C
      let name = isRFL ? "rflags" : string(bytes, nameRange)
      guard let valueToken = nextToken() else { break }
      pending = nextToken()
      guard let value = hex(bytes, valueToken) else { continue }
      if result.isEmpty { result.reserveCapacity(4) }
      result.append(ThreadState.Register(name: name, value: value))
      if name == "esr" {
        var words: [UInt8] = []
        while let word = pending, !isLabel(word) {
          if !words.isEmpty { words.append(0x20) }
          words.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[word]))
          pending = nextToken()
        }
        if !words.isEmpty { esrDescription = String(decoding: words, as: UTF8.self) }
      }
    }
    return sawName ? (result, esrDescription) : nil
  }
}
