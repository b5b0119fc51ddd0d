import IPSDoctorSupport

/// The values of the header fields that have a structure: "Key: value" lines, the process and
/// its pid, the exception type and codes, the termination reason, the crashed thread, the version.
extension LegacyTextLine {
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

  /// "EXC_BAD_ACCESS (SIGSEGV)", "EXC_CRASH (SIGKILL - CODESIGNING)", "SIGSEGV" or "EXC_GUARD", in
  /// `bytes[value]`.
  static func exceptionType(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>)
    -> (type: String?, signal: String?)
  {
    let text = ByteScanner.trimmed(bytes, value)
    if bytes.hasSuffix(")", in: text), let open = firstIndex(of: 0x28, in: bytes, text) {
      let type = ByteScanner.trimmed(bytes, text.lowerBound..<open)
      let signal = ByteScanner.trimmed(bytes, (open + 1)..<(text.upperBound - 1))
      return (nonEmptyString(bytes, type), nonEmptyString(bytes, signal))
    }
    if bytes.hasPrefix("SIG", in: text) { return (nil, string(bytes, text)) }
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
    if bytes.hasPrefix("Namespace ", in: text) {
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
    guard bytes.hasSuffix("]", in: text), let open = lastIndex(of: 0x5B, in: bytes, text) else {
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
    if bytes.hasPrefix("Dispatch queue:", in: index..<text.upperBound) {
      let rest = ByteScanner.trimmed(bytes, (index + 15)..<text.upperBound)
      if !rest.isEmpty { queue = string(bytes, rest) }
    }
    return (number, queue)
  }

  /// "118 (2.4)" → ("118", "2.4"), in `bytes[value]`; "???" parts are `nil`.
  static func version(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) -> (first: String?, second: String?) {
    let text = ByteScanner.trimmed(bytes, value)
    func clean(_ part: Range<Int>) -> String? {
      let part = ByteScanner.trimmed(bytes, part)
      return part.isEmpty || isQuestionMarks(bytes, part) ? nil : string(bytes, part)
    }
    if bytes.hasSuffix(")", in: text), let open = lastIndex(of: 0x28, in: bytes, text) {
      return (clean(text.lowerBound..<open), clean((open + 1)..<(text.upperBound - 1)))
    }
    return (clean(text), nil)
  }
}
