#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Readers for the single lines of a legacy text crash report: frames, binary images, register
/// dumps and the structured header values. Each takes one line (without its line break), or a
/// value, as a range of UTF-8 bytes, and returns `nil` when it does not have the expected shape;
/// none of them throws or traps.
///
/// Every delimiter of the format is ASCII, so the readers split and compare bytes. A byte that is
/// not ASCII, or not valid UTF-8, is only ever part of a field's text: it is decoded (and repaired)
/// when that field becomes a `String` (``string(_:_:)``).
enum LegacyTextLine {
  // MARK: Bytes

  /// Whether `bytes[range]` starts with the ASCII `prefix`.
  @inline(__always)
  static func hasPrefix(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ prefix: StaticString
  ) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard range.count >= count else { return false }
    var offset = 0
    while offset < count {
      if bytes[range.lowerBound + offset] != prefix.utf8Start[offset] { return false }
      offset += 1
    }
    return true
  }

  @inline(__always)
  static func isSpaceByte(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09
  }

  @inline(__always)
  static func isHexByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
      || (byte >= 0x41 && byte <= 0x46)
  }

  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt64 {
    switch byte {
    case 0x30...0x39: UInt64(byte - 0x30)
    case 0x61...0x66: UInt64(byte - 0x61 + 10)
    default: UInt64(byte - 0x41 + 10)
    }
  }

  /// Splits the line `bytes[line]`, "Key:   value", at its first colon: the key's range without
  /// trailing spaces, and the value's range trimmed. `nil` when the line has no colon or the key
  /// does not look like a label (empty, or starting with a space).
  @inline(__always)
  static func keyValue(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>)
    -> (key: Range<Int>, value: Range<Int>)?
  {
    guard !line.isEmpty, !isSpaceByte(bytes[line.lowerBound]) else { return nil }
    let searched = UnsafeBufferPointer(rebasing: bytes[..<line.upperBound])
    guard let colon = ByteSearch.firstIndex(of: 0x3A, in: searched, from: line.lowerBound), colon > line.lowerBound
    else { return nil }
    var keyEnd = colon
    while keyEnd > line.lowerBound && isSpaceByte(bytes[keyEnd - 1]) { keyEnd -= 1 }
    return (line.lowerBound..<keyEnd, ByteScanner.trimmed(bytes, (colon + 1)..<line.upperBound))
  }

  // MARK: Header values

  /// The first `byte` of `bytes[range]`, or `nil`.
  @inline(__always)
  static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.lowerBound
    while index < range.upperBound {
      if bytes[index] == byte { return index }
      index += 1
    }
    return nil
  }

  /// Where the first byte of `bytes[range]` that is not a space or tab is, or its end.
  @inline(__always)
  static func firstNonSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var index = range.lowerBound
    while index < range.upperBound && isSpaceByte(bytes[index]) { index += 1 }
    return index
  }

  /// Where the first space or tab of `bytes[range]` is, or its end.
  @inline(__always)
  static func firstSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var index = range.lowerBound
    while index < range.upperBound && !isSpaceByte(bytes[index]) { index += 1 }
    return index
  }

  /// Whether `bytes[range]` is `text`, compared as bytes.
  @inline(__always)
  static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
    range.count == text.utf8CodeUnitCount && hasPrefix(bytes, range, text)
  }

  /// `bytes[range]` as a `String`, `nil` when empty.
  @inline(__always)
  static func nonEmptyString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    range.isEmpty ? nil : string(bytes, range)
  }

  /// "EXC_BAD_ACCESS (SIGSEGV)", "EXC_CRASH (SIGKILL - CODESIGNING)", "SIGSEGV" or "EXC_GUARD", in
  /// `bytes[value]`.
  static func exceptionType(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>)
    -> (type: String?, signal: String?)
  {
    let text = ByteScanner.trimmed(bytes, value)
    if hasSuffix(bytes, text, ")"), let open = firstIndex(of: 0x28, in: bytes, text) {
      let type = ByteScanner.trimmed(bytes, text.lowerBound..<open)
      let signal = ByteScanner.trimmed(bytes, (open + 1)..<(text.upperBound - 1))
      return (nonEmptyString(bytes, type), nonEmptyString(bytes, signal))
    }
    if hasPrefix(bytes, text, "SIG") { return (nil, string(bytes, text)) }
    return (nonEmptyString(bytes, text), nil)
  }

  /// The 64-bit numbers of "0x0000000000000001, 0x00000001aa3f4788": the parts between commas,
  /// empty ones skipped; `nil` unless every part is a number.
  static func codes(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> [UInt64]? {
    var result: [UInt64] = []
    var start = value.lowerBound
    while start <= value.upperBound {
      let end = firstIndex(of: 0x2C, in: bytes, start..<value.upperBound) ?? value.upperBound
      if end > start {
        guard let code = number(bytes, ByteScanner.trimmed(bytes, start..<end)) else { return nil }
        result.append(code)
      }
      start = end + 1
    }
    return result.isEmpty ? nil : result
  }

  /// "Namespace SPRINGBOARD, Code 0x8badf00d", "Namespace SIGNAL, Code 11 Segmentation fault: 11",
  /// and the newer "SIGNAL 6 Abort trap: 6" / "DYLD 1 Library missing" / "FRONTBOARD 2343432205".
  static func terminationReason(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> Termination? {
    let text = ByteScanner.trimmed(bytes, value)
    var termination = Termination()
    if hasPrefix(bytes, text, "Namespace ") {
      let rest = (text.lowerBound + 10)..<text.upperBound
      let marker: StaticString = ", Code "
      let found = ByteSearch.firstIndex(of: marker, in: UnsafeBufferPointer(rebasing: bytes[rest]))
      guard let found else {
        // The first part between commas that is not empty, else all of it.
        var part = rest
        var start = rest.lowerBound
        while start < rest.upperBound {
          let end = firstIndex(of: 0x2C, in: bytes, start..<rest.upperBound) ?? rest.upperBound
          if end > start {
            part = start..<end
            break
          }
          start = end + 1
        }
        termination.namespace = string(bytes, ByteScanner.trimmed(bytes, part))
        return termination.namespace?.isEmpty == false ? termination : nil
      }
      let comma = rest.lowerBound + found
      termination.namespace = string(bytes, ByteScanner.trimmed(bytes, rest.lowerBound..<comma))
      var tailStart = comma + marker.utf8CodeUnitCount
      while tailStart < rest.upperBound && isSpaceByte(bytes[tailStart]) { tailStart += 1 }
      let codeEnd = firstSpace(bytes, tailStart..<rest.upperBound)
      guard let code = number(bytes, tailStart..<codeEnd) else { return nil }
      termination.code = code
      let indicator = ByteScanner.trimmed(bytes, codeEnd..<rest.upperBound)
      if !indicator.isEmpty { termination.indicator = string(bytes, indicator) }
      return termination
    }
    // Two words, then the rest after the space that ends the second.
    let firstEnd = firstSpace(bytes, text)
    guard firstEnd < text.upperBound else { return nil }
    var secondStart = firstEnd
    while isSpaceByte(bytes[secondStart]) { secondStart += 1 }
    let secondEnd = firstSpace(bytes, secondStart..<text.upperBound)
    guard let code = number(bytes, secondStart..<secondEnd), bytes[firstEnd - 1] != 0x2C else { return nil }
    termination.namespace = string(bytes, text.lowerBound..<firstEnd)
    termination.code = code
    if secondEnd < text.upperBound {
      let indicator = ByteScanner.trimmed(bytes, (secondEnd + 1)..<text.upperBound)
      if !indicator.isEmpty { termination.indicator = string(bytes, indicator) }
    }
    return termination
  }

  /// "name [123]" → ("name", 123); a value without a pid gives the whole text as the name, and
  /// "???" gives none.
  static func nameAndPid(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> (name: String?, pid: Int?) {
    let text = ByteScanner.trimmed(bytes, value)
    guard hasSuffix(bytes, text, "]"), let open = lastIndex(of: 0x5B, in: bytes, text) else {
      return (text.isEmpty || isQuestionMarks(bytes, text) ? nil : string(bytes, text), nil)
    }
    let name = ByteScanner.trimmed(bytes, text.lowerBound..<open)
    let pid = Int(string(bytes, (open + 1)..<(text.upperBound - 1)))
    return (name.isEmpty || isQuestionMarks(bytes, name) ? nil : string(bytes, name), pid)
  }

  /// "7", "3, Dispatch queue: com.example.sync" or "5  Dispatch queue: com.apple.main-thread".
  static func threadNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>)
    -> (number: Int, queue: String?)?
  {
    let text = ByteScanner.trimmed(bytes, value)
    var index = text.lowerBound
    while index < text.upperBound && bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
    guard let number = decimal(bytes, text.lowerBound..<index) else { return nil }
    while index < text.upperBound && (isSpaceByte(bytes[index]) || bytes[index] == 0x2C) { index += 1 }
    var queue: String?
    if hasPrefix(bytes, index..<text.upperBound, "Dispatch queue:") {
      let rest = ByteScanner.trimmed(bytes, (index + 15)..<text.upperBound)
      if !rest.isEmpty { queue = string(bytes, rest) }
    }
    return (number, queue)
  }

  static let dispatchQueue: StaticString = "Dispatch queue:"

  /// "118 (2.4)" → ("118", "2.4"), in `bytes[value]`; "???" parts are `nil`.
  static func version(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> (first: String?, second: String?) {
    let text = ByteScanner.trimmed(bytes, value)
    func clean(_ part: Range<Int>) -> String? {
      let part = ByteScanner.trimmed(bytes, part)
      return part.isEmpty || isQuestionMarks(bytes, part) ? nil : string(bytes, part)
    }
    if hasSuffix(bytes, text, ")"), let open = lastIndex(of: 0x28, in: bytes, text) {
      return (clean(text.lowerBound..<open), clean((open + 1)..<(text.upperBound - 1)))
    }
    return (clean(text), nil)
  }

  // MARK: Thread headers

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
    guard hasPrefix(bytes, line, "Thread ") else { return nil }
    let afterWord = after(line, "Thread ")
    var digitsEnd = afterWord.lowerBound
    while digitsEnd < afterWord.upperBound, bytes[digitsEnd] >= 0x30 && bytes[digitsEnd] <= 0x39 { digitsEnd += 1 }
    guard let number = decimal(bytes, afterWord.lowerBound..<digitsEnd) else { return nil }
    let rest = digitsEnd..<afterWord.upperBound
    if hasPrefix(bytes, rest, " name:") {
      let parts = nameAndQueue(bytes, after(rest, " name:"), texts: texts)
      return .name(number: number, name: parts.name, queue: parts.queue)
    }
    var crashed = false
    var tail = rest
    if hasPrefix(bytes, tail, " Crashed:") {
      crashed = true
      tail = after(tail, " Crashed:")
    } else if hasPrefix(bytes, tail, " Highlighted:") {
      tail = after(tail, " Highlighted:")
    } else if hasPrefix(bytes, tail, ":") {
      tail = after(tail, ":")
    } else if hasPrefix(bytes, tail, " crashed with "), endsWithColon(tail) {
      let flavor = after(tail, " crashed with ")
      return .state(number: number, flavor: threadStateFlavor(bytes, flavor.lowerBound..<(flavor.upperBound - 1)))
    } else if hasPrefix(bytes, tail, " "), endsWithColon(ByteScanner.trimmed(bytes, tail)) {
      return .other(number: number)
    } else {
      return nil
    }
    if hasPrefix(bytes, tail, ":") {
      let parts = nameAndQueue(bytes, after(tail, ":"), texts: texts)
      return .start(number: number, crashed: crashed, name: parts.name, queue: parts.queue)
    }
    guard ByteScanner.trimmed(bytes, tail).isEmpty else { return nil }
    return .start(number: number, crashed: crashed, name: nil, queue: nil)
  }

  /// `Int(text)` for a text of decimal digits, `bytes[digits]`: `nil` when empty or too large.
  static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ digits: Range<Int>) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for position in digits {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = shifted.addingReportingOverflow(Int(bytes[position] &- 0x30))
      if overflow || carry { return nil }
      value = sum
    }
    return value
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

  // MARK: Registers

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
      let isRFL = nameRange.count == 3 && bytes[nameRange.lowerBound] == 0x72
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

  // MARK: Frames

  /// Reads "N   ImageName   0xADDRESS …": the image name may hold spaces, so the line is split at
  /// the address column. Returns the frame number too.
  ///
  /// Reads the line as ranges of its bytes (every delimiter is ASCII, and frame lines are the
  /// second most common in a report), making `String`s only of the image name, symbol and file.
  static func frame(bytes: UnsafeBufferPointer<UInt8>, texts: SharedTexts.Handle? = nil) -> (number: Int, frame: Frame)? {
    let text = ByteScanner.trimmed(bytes, 0..<bytes.count)
    var index = text.lowerBound
    var number = 0
    var digits = 0
    while index < text.upperBound, bytes[index] >= 0x30 && bytes[index] <= 0x39, digits < 9 {
      number = number * 10 + Int(bytes[index] - 0x30)
      digits += 1
      index += 1
    }
    guard digits > 0, index < text.upperBound, isSpaceByte(bytes[index]) else { return nil }
    let rest = ByteScanner.trimmed(bytes, index..<text.upperBound)
    guard let (addressRange, address) = addressColumn(bytes, rest) else { return nil }
    let name = ByteScanner.trimmed(bytes, rest.lowerBound..<addressRange.lowerBound)
    let imageName = !name.isEmpty && !isQuestionMarks(bytes, name) ? string(bytes, name, texts) : nil
    let tailRange = ByteScanner.trimmed(bytes, addressRange.upperBound..<rest.upperBound)
    return (number, frame(bytes, tail: tailRange, imageName: imageName, address: address, texts: texts))
  }

  /// Whether `bytes[range]` is exactly "???".
  @inline(__always)
  static func isQuestionMarks(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    range.count == 3 && bytes[range.lowerBound] == 0x3F && bytes[range.lowerBound + 1] == 0x3F
      && bytes[range.lowerBound + 2] == 0x3F
  }

  /// Whether `bytes[range]` starts with "0x" or "0X".
  static func hasHexPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    range.count >= 2 && bytes[range.lowerBound] == 0x30
      && (bytes[range.lowerBound + 1] == 0x78 || bytes[range.lowerBound + 1] == 0x58)
  }

  /// "0x1f" (hexadecimal) or "31" (decimal), in `bytes[range]`.
  static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
    if hasHexPrefix(bytes, range) {
      return unsigned(bytes, (range.lowerBound + 2)..<range.upperBound, radix: 16)
    }
    return unsigned(bytes, range, radix: 10)
  }

  /// "0x1f" or bare hexadecimal digits "1f", in `bytes[range]`.
  static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
    let digits = hasHexPrefix(bytes, range) ? (range.lowerBound + 2)..<range.upperBound : range
    return unsigned(bytes, digits, radix: 16)
  }

  /// `UInt64(text, radix:)` for the bytes of `text`. Digits are read in place; a leading sign goes
  /// to the standard library's parser, which decides. Any other byte that is not a digit makes the
  /// text no number for that parser too, so it answers `nil` without making a `String`: every
  /// symbolicated frame ("symbol + 8") asks whether its symbol is a number.
  static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, radix: UInt64)
    -> UInt64?
  {
    guard !range.isEmpty else { return nil }
    var value: UInt64 = 0
    // Fifteen digits of either radix stay below 2^64: no overflow to check (frame offsets and
    // addresses, two a frame line).
    if range.count <= 15 {
      for position in range {
        let byte = bytes[position]
        let digit: UInt64
        if byte &- 0x30 < 10 {
          digit = UInt64(byte &- 0x30)
        } else if radix == 16 && isHexByte(byte) {
          digit = hexValue(byte)
        } else if position == range.lowerBound && (byte == 0x2B || byte == 0x2D) {
          return UInt64(string(bytes, range), radix: Int(radix))
        } else {
          return nil
        }
        value = value &* radix &+ digit
      }
      return value
    }
    for position in range {
      let byte = bytes[position]
      let digit: UInt64
      if byte >= 0x30 && byte <= 0x39 {
        digit = UInt64(byte - 0x30)
      } else if radix == 16 && isHexByte(byte) {
        digit = hexValue(byte)
      } else if position == range.lowerBound && (byte == 0x2B || byte == 0x2D) {
        return UInt64(string(bytes, range), radix: Int(radix))
      } else {
        return nil
      }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
      let (sum, carry) = shifted.addingReportingOverflow(digit)
      if overflow || carry { return nil }
      value = sum
    }
    return value
  }

  /// The high bit of each byte of `word` that is zero, and no other: exact for every byte (unlike
  /// the borrow trick, which may also mark a byte above a zero one), so the highest mark is the
  /// last zero byte.
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
  }

  /// The eight bytes of `bytes` from `offset`, the first in the lowest byte.
  @inline(__always)
  static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
  }

  /// Where the last `byte` of `bytes[range]` is: eight bytes at a time from the end (file names,
  /// symbols and image names are searched backwards on every line), then a byte at a time.
  @inline(__always)
  static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.upperBound
    if let base = bytes.baseAddress {
      let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
      while index - 8 >= range.lowerBound {
        let found = zeroBytes(word(base, index - 8) ^ pattern)
        if found != 0 { return index - 8 + (63 - found.leadingZeroBitCount) / 8 }
        index -= 8
      }
    }
    while index > range.lowerBound {
      index -= 1
      if bytes[index] == byte { return index }
    }
    return nil
  }

  /// Whether `bytes[range]` holds `byte`, eight bytes at a time while eight remain.
  @inline(__always)
  static func contains(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    if let base = bytes.baseAddress {
      let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
      while index + 8 <= range.upperBound {
        if zeroBytes(word(base, index) ^ pattern) != 0 { return true }
        index += 8
      }
    }
    while index < range.upperBound {
      if bytes[index] == byte { return true }
      index += 1
    }
    return false
  }

  /// Finds the address column: the first "0x…" token preceded by white space; failing that, a
  /// token of eight or more bare hexadecimal digits (some tools drop the "0x").
  ///
  /// `memchr` finds each "0" (image names seldom hold one) and only those are looked at: walking
  /// the image name and its padding a byte at a time was a third of a frame line's cost.
  static func addressColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>)
    -> (Range<Int>, UInt64)?
  {
    let searched = UnsafeBufferPointer(rebasing: bytes[..<text.upperBound])
    var from = text.lowerBound
    while let zero = ByteSearch.firstIndex(of: 0x30, in: searched, from: from) {
      from = zero + 1
      guard zero + 1 < text.upperBound else { break }
      // A word's start: the first byte, or one after a space or tab.
      guard zero == text.lowerBound || isSpaceByte(bytes[zero - 1]), bytes[zero + 1] | 0x20 == 0x78 else {
        continue
      }
      var end = zero + 2
      var value: UInt64 = 0
      while end < text.upperBound, isHexByte(bytes[end]) {
        value = value &<< 4 | hexValue(bytes[end])
        end += 1
      }
      let count = end - zero - 2
      if count > 0 && count <= 16, end == text.upperBound || isSpaceByte(bytes[end]) {
        return (zero..<end, value)
      }
    }
    // Bare digits: "???   000000000000000000 0 + 0".
    var index = text.lowerBound
    var tokenStart: Int?
    while true {
      let atEnd = index == text.upperBound
      if atEnd || isSpaceByte(bytes[index]) {
        if let start = tokenStart {
          let token = start..<index
          if token.count >= 8, bytes[token].allSatisfy(isHexByte), start > text.lowerBound {
            var value: UInt64 = 0
            for byte in bytes[max(start, index - 16)..<index] { value = value &<< 4 | hexValue(byte) }
            return (token, value)
          }
          tokenStart = nil
        }
      } else if tokenStart == nil {
        tokenStart = index
      }
      if atEnd { break }
      index += 1
    }
    return nil
  }

  /// The frame at `address` in the image named `imageName`, with what follows the address,
  /// `bytes[tail]`: "0xBASE + offset" (optionally "// symbol + 0x10" after it), "symbol + 164
  /// (File.swift:42) [inlined]", "???" or nothing. The fields are gathered in locals and the frame
  /// made once, by its memberwise initialiser (see ``Frame``): a struct of them made first and
  /// copied into the frame retained and released its strings on every line.
  static func frame(
    _ bytes: UnsafeBufferPointer<UInt8>, tail: Range<Int>, imageName: consuming String?, address: UInt64?,
    texts: SharedTexts.Handle?
  ) -> Frame {
    var imageOffset: UInt64?
    var symbol: String?
    var symbolLocation: UInt64?
    var sourceFile: String?
    var sourceLine: Int?
    var isInline = false
    // One block left early, then one return: a local function making the frame captured the
    // strings (a retain and a release of each on every line).
    read: do {
      guard !tail.isEmpty else { break read }
      var symbolPart: Range<Int>? = tail
      // The first three space-separated tokens, when the first may be a number (a digit or a
      // sign first; ``number(_:_:)`` is `nil` for anything else): not for a symbol.
      var tokens: (Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0)
      var tokenCount = 0
      var index = tail.lowerBound
      let first = bytes[tail.lowerBound]
      let mayBeNumber = first &- 0x30 < 10 || first == 0x2B || first == 0x2D
      while mayBeNumber && tokenCount < 3 {
        while index < tail.upperBound, isSpaceByte(bytes[index]) { index += 1 }
        guard index < tail.upperBound else { break }
        let start = index
        while index < tail.upperBound, !isSpaceByte(bytes[index]) { index += 1 }
        switch tokenCount {
        case 0: tokens.0 = start..<index
        case 1: tokens.1 = start..<index
        default: tokens.2 = start..<index
        }
        tokenCount += 1
        // "symbol + 8" and "0x1 + 2": a second token other than "+" decides the question.
        if tokenCount == 2 && (tokens.1.count != 1 || bytes[tokens.1.lowerBound] != 0x2B) { break }
      }
      if tokenCount == 3, tokens.1.count == 1, bytes[tokens.1.lowerBound] == 0x2B,
        let base = number(bytes, tokens.0),
        let offset = number(
          bytes, tokens.2.lowerBound..<(bytes[tokens.2].firstIndex(of: 0x2F) ?? tokens.2.upperBound))
      {
        // Unsymbolicated: base + offset. The offset must be consistent with the base.
        // A zero base means the writer did not know the image: the offset is then meaningless.
        if base != 0 { imageOffset = offset }
        if let comment = firstDoubleSlash(bytes, tail) {
          symbolPart = ByteScanner.trimmed(bytes, comment..<tail.upperBound)
        } else if let symbolText = parenthesisedSymbol(bytes, tokens.2.upperBound..<tail.upperBound) {
          // KSCrash's Apple-style text: "0xBASE + offset (symbol + 18)".
          symbolPart = symbolText
        } else {
          symbolPart = nil
        }
      }
      guard var text = symbolPart, !text.isEmpty else { break read }
      // "[inlined]" and the source location may come in either order.
      for _ in 0..<2 {
        if hasSuffix(bytes, text, "[inlined]") {
          isInline = true
          text = ByteScanner.trimmed(bytes, text.lowerBound..<(text.upperBound - 9))
        }
        if let (file, line, rest) = sourceSuffix(bytes, text) {
          sourceFile = file
          sourceLine = line
          text = rest
        }
      }
      if let plus = lastIndex(of: 0x2B, in: bytes, text), plus > text.lowerBound, isSpaceByte(bytes[plus - 1]) {
        let offsetText = ByteScanner.trimmed(bytes, (plus + 1)..<text.upperBound)
        if let offset = number(bytes, offsetText) {
          symbolLocation = offset
          text = ByteScanner.trimmed(bytes, text.lowerBound..<plus)
        }
      }
      // "// 0x00020d58 + 0x80": an address is not a symbol.
      if text.count >= 2 && bytes[text.lowerBound] == 0x30 && bytes[text.lowerBound + 1] == 0x78,
        hex(bytes, text) != nil
      {
        symbolLocation = nil
        break read
      }
      if !text.isEmpty && !isQuestionMarks(bytes, text) { symbol = string(bytes, text, texts) }
    }
    return Frame(
      imageIndex: nil, imageOffset: imageOffset, symbol: symbol, symbolLocation: symbolLocation,
      sourceFile: sourceFile, sourceLine: sourceLine, isInline: isInline, imageName: imageName, address: address)
  }

  /// Whether `bytes[range]` ends with the ASCII `suffix`.
  @inline(__always)
  static func hasSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ suffix: StaticString)
    -> Bool
  {
    let count = suffix.utf8CodeUnitCount
    guard range.count >= count else { return false }
    var offset = 0
    while offset < count {
      if bytes[range.upperBound - count + offset] != suffix.utf8Start[offset] { return false }
      offset += 1
    }
    return true
  }

  /// The inside of "(symbol + 18)" when `bytes[range]` is exactly that (after white space): the
  /// symbol KSCrash writes after "0xBASE + offset". Only the "symbol + offset" form counts, so a
  /// parenthesised source location or comment is not taken for a symbol.
  static func parenthesisedSymbol(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int>? {
    let text = ByteScanner.trimmed(bytes, range)
    guard text.count > 2, bytes[text.lowerBound] == 0x28, bytes[text.upperBound - 1] == 0x29 else {
      return nil
    }
    let inside = ByteScanner.trimmed(bytes, (text.lowerBound + 1)..<(text.upperBound - 1))
    guard let plus = lastIndex(of: 0x2B, in: bytes, inside), plus > inside.lowerBound,
      isSpaceByte(bytes[plus - 1]),
      number(bytes, ByteScanner.trimmed(bytes, (plus + 1)..<inside.upperBound)) != nil
    else { return nil }
    return inside
  }

  /// Where the first "//" in `bytes[text]` ends.
  static func firstDoubleSlash(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>) -> Int? {
    var index = text.lowerBound
    while index + 1 < text.upperBound {
      if bytes[index] == 0x2F && bytes[index + 1] == 0x2F { return index + 2 }
      index += 1
    }
    return nil
  }

  /// " (File.swift:42)" at the end of a symbol: the file, the line and the symbol before it.
  static func sourceSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>)
    -> (String, Int, Range<Int>)?
  {
    guard !text.isEmpty, bytes[text.upperBound - 1] == 0x29,
      let open = lastIndex(of: 0x28, in: bytes, text), open > text.lowerBound,
      isSpaceByte(bytes[open - 1])
    else { return nil }
    let inside = (open + 1)..<(text.upperBound - 1)
    guard let colon = lastIndex(of: 0x3A, in: bytes, inside), colon > inside.lowerBound else {
      return nil
    }
    let lineText = (colon + 1)..<inside.upperBound
    guard !lineText.isEmpty, bytes[lineText].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let lineNumber = unsigned(bytes, lineText, radix: 10), lineNumber <= UInt64(Int.max)
    else {
      return nil
    }
    let file = inside.lowerBound..<colon
    guard !contains(0x3A, in: bytes, file) else { return nil }
    return (string(bytes, file), Int(lineNumber), ByteScanner.trimmed(bytes, text.lowerBound..<open))
  }

  // MARK: Binary images

  /// The architecture named by `bytes[range]`, as a `String` literal (no allocation), or `nil`.
  ///
  /// Compared as bytes: these lines are most of a report, and no other spelling of an ASCII name
  /// is canonically equivalent to it, so this agrees with comparing `String`s.
  static func architecture(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    func equals(_ name: StaticString) -> Bool {
      guard range.count == name.utf8CodeUnitCount else { return false }
      var offset = 0
      while offset < range.count {
        if bytes[range.lowerBound + offset] != name.utf8Start[offset] { return false }
        offset += 1
      }
      return true
    }
    switch range.count {
    case 3: return equals("arm") ? "arm" : equals("ppc") ? "ppc" : nil
    case 4: return equals("i386") ? "i386" : nil
    case 5:
      return equals("arm64") ? "arm64" : equals("armv7") ? "armv7" : equals("armv6") ? "armv6"
        : equals("ppc64") ? "ppc64" : nil
    case 6:
      return equals("arm64e") ? "arm64e" : equals("armv7s") ? "armv7s"
        : equals("armv7k") ? "armv7k" : equals("x86_64") ? "x86_64" : nil
    case 7: return equals("x86_64h") ? "x86_64h" : nil
    case 8: return equals("arm64_32") ? "arm64_32" : nil
    default: return nil
    }
  }

  /// `bytes[range]` as a `String` (invalid UTF-8 repaired).
  @inline(__always)
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    string(UnsafeBufferPointer(rebasing: bytes[range]))
  }

  /// `bytes` as a `String` (invalid UTF-8 repaired, as `String(decoding:as:)` does).
  ///
  /// A text of at most 15 bytes (an image or register name, a version) is written straight into
  /// a small string, which the standard library then checks for ASCII with one mask instead of
  /// validating it as UTF-8; it repairs anything else as `String(decoding:as:)` would.
  @inline(__always)
  static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.count <= 15, let source = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
    return String(unsafeUninitializedCapacity: bytes.count) { buffer in
      guard let target = buffer.baseAddress else { return 0 }
      target.update(from: source, count: bytes.count)
      return bytes.count
    }
  }

  /// ``string(_:_:)`` for a text that many reports have (an image's path or name, a symbol): from
  /// `texts` when it holds the same text.
  @inline(__always)
  static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ texts: SharedTexts.Handle?) -> String {
    let part = UnsafeBufferPointer(rebasing: bytes[range])
    guard let texts else { return string(part) }
    return texts.text(part) { string($0) }
  }

  /// Whether two ranges of `bytes` hold equal text: compared as bytes when both are ASCII (where
  /// that is `String` equality), else as `String`s, so canonical equivalence still applies.
  static func sameText(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
    let aBytes = UnsafeBufferPointer(rebasing: bytes[a])
    let bBytes = UnsafeBufferPointer(rebasing: bytes[b])
    if ByteSearch.isASCII(aBytes) && ByteSearch.isASCII(bBytes) {
      return aBytes.count == bBytes.count && aBytes.elementsEqual(bBytes)
    }
    return string(bytes, a) == string(bytes, b)
  }

  /// Whether `bytes[a]` and `bytes[b]` are the same bytes.
  @inline(__always)
  static func sameBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
    guard a.count == b.count else { return false }
    guard let base = bytes.baseAddress, !a.isEmpty else { return true }
    return memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
  }

  /// "0x1045a0000 - 0x1046bffff ChatApp arm64  <6f1c…> /private/var/…/ChatApp", the macOS
  /// "0x10e30e000 - 0x10e311fff +com.example.App (1.0 - 1) <UUID> /path" form, names with spaces,
  /// and "???" names. A "+" marker (an image that is not part of the OS) gives source "P".
  ///
  /// Reads the line as ranges of its bytes and makes `String`s only of the fields it keeps.
  static func binaryImage(bytes: UnsafeBufferPointer<UInt8>) -> BinaryImage? {
    var slots = ImageKeySlots.unknown
    return binaryImage(bytes: bytes, slots: &slots)
  }

  /// ``binaryImage(bytes:)``, also giving the ``ImageResolver/NameFilter`` slots of the image's
  /// name, bundle identifier and path's file name, from the bytes the strings were made of.
  ///
  /// The fields are gathered in locals and the image made once, by its memberwise initialiser:
  /// filling a `var` image moved and copied the whole value on its way out.
  ///
  /// - Parameter isASCII: Whether the caller knows every byte of the line is ASCII, where a byte is
  ///   a `Character` and byte comparisons are `String` comparisons; otherwise each text that needs
  ///   it is tested.
  static func binaryImage(
    bytes: UnsafeBufferPointer<UInt8>, slots: inout ImageKeySlots, texts: SharedTexts.Handle? = nil,
    isASCII: Bool = false
  ) -> BinaryImage? {
    var scanner = ByteScanner(bytes: bytes)
    scanner.skipSpace()
    guard scanner.peek(0x30), scanner.peek(0x78, at: 1) else { return nil }
    guard let base = scanner.number() else { return nil }
    scanner.skipSpace()
    guard scanner.take(0x2D) else { return nil }
    scanner.skipSpace()
    var end: UInt64?
    if scanner.takeQuestionMarks() {
      end = nil
    } else {
      guard let value = scanner.number() else { return nil }
      end = value
    }
    scanner.skipSpace()

    var size: UInt64?
    if let end, end >= base {
      let (sum, overflow) = (end - base).addingReportingOverflow(1)
      if !overflow { size = sum }
    }
    var source: String?
    if scanner.take(0x2B) {
      source = "P"
      scanner.skipSpace()
    }

    // The UUID in angle brackets separates "name [arch] [(version)]" from the path.
    let restStart = scanner.index
    var descriptorEnd = bytes.count
    var pathStart = bytes.count
    var uuid = ImageUUID.none
    // The usual UUID, 32 digits, has its ">" looked at where it must be: among hex digits no ">"
    // comes before it.
    var open = scanner.find(0x3C, from: restStart)
    var close: Int?
    var isHex = false
    if let open {
      let usual = open + 33
      if usual < bytes.count && bytes[usual] == 0x3E, let digits = digitsUUID(bytes, open + 1) {
        close = usual
        uuid = digits
      } else if usual < bytes.count && bytes[usual] == 0x3E && isHexOrDash(bytes, (open + 1)..<usual) {
        close = usual
        isHex = true
      } else {
        close = scanner.find(0x3E, from: open)
        if let close { isHex = close > open + 1 && isHexOrDash(bytes, (open + 1)..<close) }
      }
    }
    if close == nil { open = nil }
    if let open, let close {
      if isHex { uuid = imageUUID(bytes, (open + 1)..<close) }
      descriptorEnd = open
      pathStart = close + 1
    } else if let slash = scanner.find(0x20, 0x2F, from: restStart) {
      descriptorEnd = slash
      pathStart = slash + 1
    }
    // Jailbreak tools append package metadata as JSON: " {"install_date":…}".
    let pathEnd = scanner.find(0x20, 0x7B, 0x22, from: pathStart) ?? bytes.count
    let path = ByteScanner.trimmed(bytes, pathStart..<max(pathStart, pathEnd))
    let hasPath = path.lowerBound < path.upperBound && !isQuestionMarks(bytes, path)
    let pathText = hasPath ? string(bytes, path, texts) : nil

    var descriptor = ByteScanner.trimmed(bytes, restStart..<descriptorEnd)
    var isNoUUID = false
    if case .none = uuid { isNoUUID = true }
    if !hasPath && isNoUUID && hasSuffix(bytes, descriptor, " ???") {
      descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<(descriptor.upperBound - 3))
    }
    var shortVersion: String?
    var version: String?
    if hasSuffix(bytes, descriptor, ")"), let open = lastIndex(of: 0x28, in: bytes, descriptor) {
      let inside = ByteScanner.trimmed(bytes, (open + 1)..<(descriptor.upperBound - 1))
      descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<open)
      (shortVersion, version) = readVersion(bytes, inside)
      if shortVersion == nil, version != nil, let space = lastSpace(bytes, descriptor) {
        // Microstackshots: "com.apple.CoreFoundation 6.9 (1452.23)".
        let last = (space + 1)..<descriptor.upperBound
        if last.lowerBound < last.upperBound, bytes[last.lowerBound] >= 0x30 && bytes[last.lowerBound] <= 0x39,
          contains(0x2E, in: bytes, last)
        {
          shortVersion = string(bytes, last)
          descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<space)
        }
      }
    }
    var arch: String?
    if let space = lastSpace(bytes, descriptor) {
      if let found = architecture(bytes, (space + 1)..<descriptor.upperBound) {
        arch = found
        descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<space)
      }
    } else if hasPath, let found = architecture(bytes, descriptor) {
      arch = found
      descriptor = descriptor.lowerBound..<descriptor.lowerBound
    }
    // `String.hasSuffix` compares characters; as bytes only when that is the same thing.
    @inline(__always) func hasDylibSuffix(_ column: Range<Int>) -> Bool {
      isASCII || ByteSearch.isASCII(UnsafeBufferPointer(rebasing: bytes[column]))
        ? hasSuffix(bytes, column, ".dylib") : string(bytes, column).hasSuffix(".dylib")
    }
    @inline(__always) func slot(_ range: Range<Int>) -> Int16 {
      isASCII
        ? Int16(ImageResolver.NameFilter.slot(UnsafeBufferPointer(rebasing: bytes[range])))
        : ImageKeySlots.slot(bytes, range)
    }
    let column = descriptor
    let fileName = ((lastIndex(of: 0x2F, in: bytes, path)).map { $0 + 1 } ?? path.lowerBound)..<path.upperBound
    var name: String?
    var bundleID: String?
    slots = ImageKeySlots.absent
    if let size, size > 0 {
      slots.hasRange = true
      slots.base = base
      slots.last = base &+ (size - 1)
    }
    // The file name the resolver takes from the path: these bytes when they are ASCII (a repair
    // of invalid UTF-8 elsewhere in the path leaves them and every "/" as they are).
    if hasPath { slots.fileName = slot(fileName) }
    if column.lowerBound < column.upperBound && !isQuestionMarks(bytes, column) {
      // macOS writes the bundle identifier in the name column; the name is then the file name.
      if hasPath, fileName.lowerBound < fileName.upperBound, contains(0x2E, in: bytes, column),
        !hasDylibSuffix(column),
        !(isASCII ? sameBytes(bytes, column, fileName) : sameText(bytes, column, fileName))
      {
        bundleID = string(bytes, column, texts)
        name = string(bytes, fileName, texts)
        slots.bundleID = slot(column)
        slots.name = slots.fileName
      } else {
        name = string(bytes, column, texts)
        slots.name = slot(column)
      }
    }
    return BinaryImage(
      uuidStorage: uuid, base: base, size: size, arch: arch, name: name, path: pathText, source: source,
      bundleID: bundleID, bundleShortVersion: shortVersion, bundleVersion: version)
  }

  /// "(1.0 - 1)", "(817)", "(*)": the text inside the parentheses, `bytes[inside]`, as the short
  /// version and the version.
  static func readVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>) -> (String?, String?) {
    func clean(_ range: Range<Int>) -> String? {
      let text = ByteScanner.trimmed(bytes, range)
      let isStar = text.count == 1 && bytes[text.lowerBound] == 0x2A
      return text.isEmpty || isStar || isQuestionMarks(bytes, text) ? nil : string(bytes, text)
    }
    // The first " - ".
    var index = inside.lowerBound
    while index + 3 <= inside.upperBound {
      if bytes[index] == 0x20 && bytes[index + 1] == 0x2D && bytes[index + 2] == 0x20 {
        return (clean(inside.lowerBound..<index), clean((index + 3)..<inside.upperBound))
      }
      index += 1
    }
    return (nil, clean(inside))
  }

  /// Where the last space or tab of `bytes[range]` is, eight bytes at a time from the end while
  /// eight remain.
  @inline(__always)
  static func lastSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
    var index = range.upperBound
    if let base = bytes.baseAddress {
      while index - 8 >= range.lowerBound {
        let bytes = word(base, index - 8)
        let found = zeroBytes(bytes ^ 0x2020_2020_2020_2020) | zeroBytes(bytes ^ 0x0909_0909_0909_0909)
        if found != 0 { return index - 8 + (63 - found.leadingZeroBitCount) / 8 }
        index -= 8
      }
    }
    while index > range.lowerBound {
      index -= 1
      if isSpaceByte(bytes[index]) { return index }
    }
    return nil
  }

  /// Whether every byte of `bytes[range]` is a hexadecimal digit or "-" (``isHexByte(_:)``).
  ///
  /// Eight bytes at a time: for ASCII bytes, adding `0x80 - low` sets a byte's high bit exactly
  /// when it is at least `low`, and adding `0x7F - high` when it is above `high`, with no carry
  /// into the next byte.
  @inline(__always)
  static func isHexOrDash(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var index = range.lowerBound
    if let base = bytes.baseAddress {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highBits: UInt64 = 0x8080_8080_8080_8080
      while index + 8 <= range.upperBound {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & highBits != 0 { return false }
        func within(_ low: UInt64, _ high: UInt64) -> UInt64 {
          (word &+ ones &* (0x80 - low)) & ~(word &+ ones &* (0x7F - high))
        }
        let valid = within(0x30, 0x39) | within(0x41, 0x46) | within(0x61, 0x66) | within(0x2D, 0x2D)
        if valid & highBits != highBits { return false }
        index += 8
      }
    }
    while index < range.upperBound {
      let byte = bytes[index]
      // Digits, then "a"…"f" and "A"…"F" (bit 0x20 set makes them one range), then the dash.
      if byte &- 0x30 >= 10 && (byte | 0x20) &- 0x61 >= 6 && byte != 0x2D { return false }
      index += 1
    }
    return true
  }

  /// "6f1c3b2a…" (32 digits) or "6F1C3B2A-…" → "6F1C3B2A-1234-…" upper-case, dashed 8-4-4-4-12.
  /// `text` holds only hex digits and dashes (the caller checks).
  ///
  /// A byte at a time: ``normalizedImageUUID(_:)`` handles the two usual forms a word at a time
  /// and comes here only for the others.
  static func normalizedUUID(_ text: UnsafeBufferPointer<UInt8>) -> String {
    assert(text.allSatisfy { isHexByte($0) || $0 == 0x2D })
    var digitCount = 0
    for byte in text where byte != 0x2D { digitCount += 1 }
    let dashed = digitCount == 32
    return String(unsafeUninitializedCapacity: dashed ? 36 : digitCount) { buffer in
      // Where the next dash goes (after 8, 12, 16 and 20 digits), as an output position.
      var nextDash = dashed ? 8 : Int.max
      var count = 0
      for byte in text where byte != 0x2D {
        if count == nextDash {
          buffer[count] = 0x2D
          count += 1
          nextDash = count == 24 ? Int.max : count + 4
        }
        buffer[count] = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
        count += 1
      }
      return count
    }
  }

  /// ``normalizedImageUUID(_:)`` of `bytes[inside]`, which holds only hex digits and dashes (the
  /// caller checks). The usual text form, 32 digits, and the dashed 8-4-4-4-12 form are packed
  /// straight into the nibbles ``ImageUUID`` keeps, a group of eight digits at a time, without
  /// writing the upper-cased text first; other forms go through the text.
  @inline(__always)
  static func imageUUID(_ bytes: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>) -> ImageUUID {
    if inside.count == 32, let uuid = digitsUUID(bytes, inside.lowerBound) { return uuid }
    return dashedImageUUID(bytes, inside)
  }

  /// The UUID of the 32 bytes from `start` when every one is a hexadecimal digit (the usual text
  /// form), tested and packed a group of eight at a time; `nil` otherwise.
  @inline(__always)
  static func digitsUUID(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> ImageUUID? {
    guard let base = bytes.baseAddress, start >= 0, start + 32 <= bytes.count else { return nil }
    let groups = (word(base, start), word(base, start + 8), word(base, start + 16), word(base, start + 24))
    guard ByteScanner.leadingHexDigits(groups.0) == 8, ByteScanner.leadingHexDigits(groups.1) == 8,
      ByteScanner.leadingHexDigits(groups.2) == 8, ByteScanner.leadingHexDigits(groups.3) == 8
    else { return nil }
    return packedUUID(groups)
  }

  /// ``imageUUID(_:_:)`` for any text of hex digits and dashes.
  static func dashedImageUUID(_ bytes: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>) -> ImageUUID {
    guard let base = bytes.baseAddress, inside.count == 32 || inside.count == 36 else {
      return normalizedImageUUID(UnsafeBufferPointer(rebasing: bytes[inside]))
    }
    let start = UnsafeRawPointer(base + inside.lowerBound)
    func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    func half(_ offset: Int) -> UInt64 {
      UInt64(UInt32(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
    let groups: (UInt64, UInt64, UInt64, UInt64)
    if inside.count == 32 {
      groups = (word(0), word(8), word(16), word(24))
    } else {
      guard bytes[inside.lowerBound + 8] == 0x2D, bytes[inside.lowerBound + 13] == 0x2D,
        bytes[inside.lowerBound + 18] == 0x2D, bytes[inside.lowerBound + 23] == 0x2D
      else { return normalizedImageUUID(UnsafeBufferPointer(rebasing: bytes[inside])) }
      groups = (word(0), half(9) | half(14) << 32, half(19) | half(24) << 32, word(28))
    }
    // Any dash left among the digits: another form.
    func hasDash(_ word: UInt64) -> Bool {
      let dashes = word ^ 0x2D2D_2D2D_2D2D_2D2D
      return (dashes &- 0x0101_0101_0101_0101) & ~dashes & 0x8080_8080_8080_8080 != 0
    }
    guard !hasDash(groups.0), !hasDash(groups.1), !hasDash(groups.2), !hasDash(groups.3) else {
      return normalizedImageUUID(UnsafeBufferPointer(rebasing: bytes[inside]))
    }
    return packedUUID(groups)
  }

  /// The UUID of four groups of eight hex digits (the first digit of each in its lowest byte), as
  /// ``normalizedImageUUID(_:)`` makes it of their text.
  @inline(__always)
  static func packedUUID(_ groups: (UInt64, UInt64, UInt64, UInt64)) -> ImageUUID {
    /// Each digit's value (its low four bits, plus 9 for a letter, whose bit 0x40 is set), eight
    /// of them packed into 32 bits, the first in the lowest nibble.
    func packed(_ digits: UInt64) -> UInt64 {
      let nibbles = (digits & 0x0F0F_0F0F_0F0F_0F0F) &+ ((digits &>> 6) & 0x0101_0101_0101_0101) &* 9
      var packed = (nibbles | nibbles &>> 4) & 0x00FF_00FF_00FF_00FF
      packed = (packed | packed &>> 8) & 0x0000_FFFF_0000_FFFF
      return (packed | packed &>> 16) & 0xFFFF_FFFF
    }
    let high = packed(groups.0) | packed(groups.1) << 32
    let low = packed(groups.2) | packed(groups.3) << 32
    // Upper-cased, the text reads as lower case too when it has no letter (``ImageUUID`` tries
    // lower case first).
    let letters = (groups.0 | groups.1 | groups.2 | groups.3) & 0x4040_4040_4040_4040
    return letters == 0 ? .lowercase(high: high, low: low) : .uppercase(high: high, low: low)
  }

  /// ``normalizedUUID(_:)`` as an image's UUID. The two usual forms are upper-cased and dashed into
  /// a buffer on the stack and read from there, without making the text.
  static func normalizedImageUUID(_ text: UnsafeBufferPointer<UInt8>) -> ImageUUID {
    if let base = text.baseAddress, text.count == 36 || (text.count == 32 && !text.contains(0x2D)) {
      let input = UnsafeRawPointer(base)
      let usual = withUnsafeTemporaryAllocation(byteCount: 40, alignment: 8) { buffer -> ImageUUID? in
        let output = buffer.baseAddress!
        if text.count == 36 {
          for offset in stride(from: 0, to: 32, by: 8) {
            output.storeBytes(
              of: upperHex(input.loadUnaligned(fromByteOffset: offset, as: UInt64.self)), toByteOffset: offset,
              as: UInt64.self)
          }
          output.storeBytes(
            of: upperHex(input.loadUnaligned(fromByteOffset: 32, as: UInt32.self)), toByteOffset: 32, as: UInt32.self)
        } else {
          // The digits in groups of 8-4-4-4-12, a dash after each group but the last.
          func copy<Word: FixedWidthInteger>(_ word: Word.Type, from: Int, to: Int) {
            let upper = upperHex(UInt64(input.loadUnaligned(fromByteOffset: from, as: Word.self)))
            output.storeBytes(of: Word(truncatingIfNeeded: upper), toByteOffset: to, as: Word.self)
          }
          copy(UInt64.self, from: 0, to: 0)
          copy(UInt32.self, from: 8, to: 9)
          copy(UInt32.self, from: 12, to: 14)
          copy(UInt32.self, from: 16, to: 19)
          copy(UInt64.self, from: 20, to: 24)
          copy(UInt32.self, from: 28, to: 32)
          output.storeBytes(of: 0x2D, toByteOffset: 8, as: UInt8.self)
          output.storeBytes(of: 0x2D, toByteOffset: 13, as: UInt8.self)
          output.storeBytes(of: 0x2D, toByteOffset: 18, as: UInt8.self)
          output.storeBytes(of: 0x2D, toByteOffset: 23, as: UInt8.self)
        }
        return ImageUUID(canonical: UnsafeRawBufferPointer(start: output, count: 36))
      }
      if let usual { return usual }
    }
    return ImageUUID(normalizedUUID(text))
  }

  /// Hex digits and dashes, upper-cased a byte at a time within the word: of those bytes only
  /// the letters have bit 0x40 set, and clearing their bit 0x20 turns "a"…"f" into "A"…"F".
  @inline(__always)
  static func upperHex(_ word: UInt64) -> UInt64 {
    word & ~((word & 0x4040_4040_4040_4040) &>> 1)
  }

  @inline(__always)
  static func upperHex(_ word: UInt32) -> UInt32 {
    word & ~((word & 0x4040_4040) &>> 1)
  }
}

/// A cursor over the bytes of one line.
struct ByteScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  @inline(__always)
  func peek(_ byte: UInt8, at offset: Int = 0) -> Bool {
    index + offset < bytes.count && bytes[index + offset] == byte
  }

  @inline(__always)
  mutating func take(_ byte: UInt8) -> Bool {
    guard peek(byte) else { return false }
    index += 1
    return true
  }

  /// Takes "???".
  @inline(__always)
  mutating func takeQuestionMarks() -> Bool {
    guard peek(0x3F), peek(0x3F, at: 1), peek(0x3F, at: 2) else { return false }
    index += 3
    return true
  }

  @inline(__always)
  mutating func skipSpace() {
    while index < bytes.count && LegacyTextLine.isSpaceByte(bytes[index]) { index += 1 }
  }

  /// "0x1f" or "31", up to the next space or "-": hexadecimal after "0x" or "0X" (with at least
  /// one digit), else decimal; at most 16 digits, every one valid, else `nil` (and the cursor
  /// stays).
  mutating func number() -> UInt64? {
    // One pass: digits until a space, tab or "-" (or the end); any other byte before it fails.
    let count = bytes.count
    func isDelimiter(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x2D }
    var position = index
    var value: UInt64 = 0
    if index + 2 < count && bytes[index] == 0x30 && (bytes[index + 1] | 0x20) == 0x78
      && !isDelimiter(bytes[index + 2])
    {
      position += 2
      let start = position
      // Eight digits at a time while eight bytes remain, up to the sixteen a number may have; the
      // byte loop below reads the rest, and the byte that ends the number.
      if let base = bytes.baseAddress {
        while position + 8 <= count && position - start < 16 {
          let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
          let digits = Self.leadingHexDigits(word)
          guard digits > 0 else { break }
          value = value &<< UInt64(4 * digits) | Self.hexValue(word, digits: digits)
          position += digits
          if digits < 8 { break }
        }
      }
      while position < count {
        let byte = bytes[position]
        let digit = byte &- 0x30
        if digit < 10 {
          value = value &<< 4 | UInt64(digit)
        } else {
          let letter = (byte | 0x20) &- 0x61
          if letter < 6 {
            value = value &<< 4 | UInt64(letter &+ 10)
          } else if isDelimiter(byte) {
            break
          } else {
            return nil
          }
        }
        position += 1
      }
      guard position - start <= 16 else { return nil }
    } else {
      // At most 16 decimal digits: below 10^16, no overflow.
      while position < count {
        let byte = bytes[position]
        let digit = byte &- 0x30
        if digit < 10 {
          value = value &* 10 &+ UInt64(digit)
        } else if isDelimiter(byte) {
          break
        } else {
          return nil
        }
        position += 1
      }
      guard position > index, position - index <= 16 else { return nil }
    }
    index = position
    return value
  }

  /// How many of the eight bytes of `word` (the first in its lowest byte) are hexadecimal digits
  /// before the first that is not. The digit test is ``LegacyTextLine/isHexOrDash(_:_:)``'s, on
  /// the whole word: a byte with its high bit set is no digit, and the carry its sums may make
  /// reaches only the bytes after it.
  @inline(__always)
  static func leadingHexDigits(_ word: UInt64) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    func within(_ low: UInt64, _ high: UInt64) -> UInt64 {
      (word &+ ones &* (0x80 - low)) & ~(word &+ ones &* (0x7F - high))
    }
    let valid = (within(0x30, 0x39) | within(0x41, 0x46) | within(0x61, 0x66)) & ~word & highBits
    let invalid = ~valid & highBits
    return invalid == 0 ? 8 : invalid.trailingZeroBitCount / 8
  }

  /// The value of the first `digits` (1 to 8) bytes of `word`, hexadecimal digits, the first the
  /// most significant: each byte's value (its low four bits, plus 9 for a letter), moved so that
  /// the last digit is in the lowest byte, then packed four bits a byte.
  @inline(__always)
  static func hexValue(_ word: UInt64, digits: Int) -> UInt64 {
    let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((word &>> 6) & 0x0101_0101_0101_0101) &* 9
    let ordered = (nibbles &<< UInt64(8 * (8 - digits))).byteSwapped
    var packed = (ordered | ordered &>> 4) & 0x00FF_00FF_00FF_00FF
    packed = (packed | packed &>> 8) & 0x0000_FFFF_0000_FFFF
    return (packed | packed &>> 16) & 0xFFFF_FFFF
  }

  /// Where `byte` first occurs at or after `start` (`memchr`).
  @inline(__always)
  func find(_ byte: UInt8, from start: Int) -> Int? {
    ByteSearch.firstIndex(of: byte, in: bytes, from: start)
  }

  /// Where the two bytes first occur together at or after `start`. (Needles are spelled out as
  /// bytes: an array literal here would be allocated on every call.) `memchr` looks for the
  /// second byte, the rarer one in the needles used: the first is a space.
  func find(_ first: UInt8, _ second: UInt8, from start: Int) -> Int? {
    var position = start + 1
    while let hit = ByteSearch.firstIndex(of: second, in: bytes, from: position) {
      if bytes[hit - 1] == first { return hit - 1 }
      position = hit + 1
    }
    return nil
  }

  /// Where the three bytes first occur together at or after `start`; `memchr` looks for the
  /// middle one, as above.
  func find(_ first: UInt8, _ second: UInt8, _ third: UInt8, from start: Int) -> Int? {
    var position = start + 1
    while let hit = ByteSearch.firstIndex(of: second, in: bytes, from: position) {
      if hit + 1 < bytes.count && bytes[hit - 1] == first && bytes[hit + 1] == third {
        return hit - 1
      }
      position = hit + 1
    }
    return nil
  }

  /// `range` without leading and trailing spaces and tabs.
  @inline(__always)
  static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper && LegacyTextLine.isSpaceByte(bytes[lower]) { lower += 1 }
    while upper > lower && LegacyTextLine.isSpaceByte(bytes[upper - 1]) { upper -= 1 }
    return lower..<upper
  }
}
