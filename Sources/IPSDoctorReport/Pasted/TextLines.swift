import IPSDoctorSupport

/// The lines of UTF-8 text as ranges of its bytes, each without its line feed, a carriage return
/// before it, or trailing spaces and tabs.
struct TextLines: Sequence, IteratorProtocol {
  let bytes: UnsafeBufferPointer<UInt8>
  private var position: Int

  init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) {
    self.bytes = bytes
    self.position = start
  }

  mutating func next() -> Range<Int>? {
    guard position < bytes.count else { return nil }
    let start = position
    let lineFeed = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) ?? bytes.count
    position = lineFeed + 1
    var end = lineFeed
    while end > start, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return start..<end
  }

  /// `range` without the spaces and tabs it starts with.
  static func leadingTrimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    var start = range.lowerBound
    while start < range.upperBound, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    return start..<range.upperBound
  }

  /// Whether `bytes[range]` is a Markdown code fence: three backticks or tildes, then at most a
  /// language name.
  static func isFence(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    let line = leadingTrimmed(bytes, range)
    return bytes.hasPrefix("```", in: line) || bytes.hasPrefix("~~~", in: line)
  }
}
