import IPSDoctorSupport

/// Writes JSON text with keys in the order given, so output is byte-for-byte deterministic.
///
/// Strings are escaped per RFC 8259; control characters, and the Unicode line and paragraph
/// separators and bidirectional controls, are written as `\u` escapes so that no report text can
/// change how a terminal or viewer renders the output. The first `#` of `##[` is written `\u0023`,
/// so no line of JSON holds a CI runner's legacy workflow command (a string's text never starts
/// a line: it follows its opening quote, and line feeds in it are escaped).
package struct JSONWriter: ~Copyable {
  package enum Style: Sendable {
    case compact
    case pretty
  }

  /// The UTF-8 written so far, made a `String` only when asked (``output``).
  package private(set) var buffer: ByteBuffer
  let style: Style

  /// Where the bytes go as they are written, for a writer made with one; `nil` keeps them all in
  /// ``buffer``.
  private let sink: ((UnsafeRawBufferPointer) -> Void)?

  /// How many bytes a writer with a sink holds before it hands them on (at the next value), and
  /// from how long a string is written on its own.
  static let flushSize = 1 << 16

  /// The text written so far.
  package var output: String { buffer.string }

  /// The buffer's first size, and its size again after a long string.
  private static let initialCapacity = 8192

  /// A writer that keeps what it writes in ``buffer`` or, given a `sink`, hands its bytes to it as
  /// it goes, each chunk whole UTF-8 text: whenever ``flushSize`` bytes are buffered at the end of
  /// a value, and a string of ``flushSize`` bytes or more on its own, from a buffer made at its
  /// size. With a sink it holds at most one long string's bytes, never a whole record's; call
  /// ``flush()`` after the last write.
  package init(style: Style = .pretty, sink: ((UnsafeRawBufferPointer) -> Void)? = nil) {
    self.style = style
    buffer = ByteBuffer(capacity: Self.initialCapacity)
    self.sink = sink
  }

  /// Hands what is buffered to the sink, if there is one.
  package mutating func flush() {
    guard let sink, buffer.count > 0 else { return }
    buffer.withUnsafeBytes(sink)
    buffer.removeAll()
  }

  package static func string(_ value: JSONValue, style: Style = .pretty) -> String {
    var writer = JSONWriter(style: style)
    writer.write(value, indent: 0)
    return writer.output
  }

  /// Appends `literal` as it is: punctuation, keywords, and what goes around a written value.
  @inline(__always)
  package mutating func append(_ literal: StaticString) { buffer.append(literal) }

  package mutating func write(_ value: JSONValue, indent: Int) {
    switch value {
    case .null: append("null")
    case .bool(let flag): flag ? append("true") : append("false")
    case .number(let number): number.description.withBorrowedUTF8 { buffer.append($0) }
    case .string(let text):
      if sink != nil && text.utf8.count >= Self.flushSize {
        writeLongString(text)
      } else {
        Self.appendQuoted(text, to: &buffer)
      }
    case .array(let elements):
      if elements.isEmpty {
        append("[]")
        return
      }
      buffer.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { buffer.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        write(element, indent: indent + 1)
        if buffer.count >= Self.flushSize { flush() }
      }
      newline(indent)
      buffer.append(UInt8(ascii: "]"))
    case .object(let object):
      if object.members.isEmpty {
        append("{}")
        return
      }
      buffer.append(UInt8(ascii: "{"))
      for (index, member) in object.members.enumerated() {
        if index > 0 { buffer.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        Self.appendQuoted(member.key, to: &buffer)
        style == .pretty ? append(": ") : append(":")
        write(member.value, indent: indent + 1)
        if buffer.count >= Self.flushSize { flush() }
      }
      newline(indent)
      buffer.append(UInt8(ascii: "}"))
    }
  }

  /// A long string, with a sink: what is buffered goes first, then the string from a buffer made
  /// at its size (escapes aside), so its bytes are not grown by doubling, which would hold a copy
  /// and one twice its size at once.
  private mutating func writeLongString(_ text: String) {
    flush()
    buffer = ByteBuffer(capacity: text.utf8.count + 2)
    Self.appendQuoted(text, to: &buffer)
    flush()
    buffer = ByteBuffer(capacity: Self.initialCapacity)
  }

  private mutating func newline(_ indent: Int) {
    guard style == .pretty else { return }
    buffer.append(0x0A)
    // Copied from a run of spaces, not appended from `repeatElement`, which goes through the
    // generic sequence copy a byte at a time.
    var remaining = 2 * indent
    while remaining > 0 {
      let count = min(remaining, Self.spaces.utf8CodeUnitCount)
      buffer.append(UnsafeRawBufferPointer(start: Self.spaces.utf8Start, count: count))
      remaining -= count
    }
  }

  private static let spaces: StaticString = "                                                                "

  /// Appends `text` as a JSON string literal.
  package static func appendQuoted(_ text: String, to output: inout String) {
    var bytes = ByteBuffer(capacity: text.utf8.count + 16)
    appendQuoted(text, to: &bytes)
    output += bytes.string
  }

  /// Appends `text` as a JSON string literal, in UTF-8.
  ///
  /// Runs of printable ASCII other than `"` and `\` (nearly all of a report's text) are copied as
  /// they are, straight from the string's UTF-8; every other scalar is read from its bytes and
  /// written by ``appendEscaped(_:to:)``. Text holding `##[`, or without contiguous UTF-8, is
  /// written one scalar at a time.
  static func appendQuoted(_ text: String, to output: inout ByteBuffer) {
    output.append(0x22)
    let copied: Void? =
      text.utf8.withContiguousStorageIfAvailable { bytes -> Void? in
        if holdsLegacyCommandMarker(bytes) { return nil }
        var runStart = 0
        var offset = 0
        let count = bytes.count
        let base = UnsafeRawPointer(bytes.baseAddress)
        while offset < count {
          // Eight bytes at a time up to the first that is not plain printable ASCII.
          if let base, offset &+ 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let marked = JSONWordBytes.unplain(word)
            if marked == 0 {
              offset &+= 8
              continue
            }
            offset &+= marked.trailingZeroBitCount &>> 3
          }
          let byte = bytes[offset]
          if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
            offset &+= 1
            continue
          }
          // A string's UTF-8 is valid: the lead byte gives the scalar's length.
          let (scalar, width) = Self.scalar(in: bytes, at: offset)
          if byte >= 0x80 && !isEscapedAsHex(scalar.value) {
            // Written as it is (dashes, quotes, accented letters): part of the run.
            offset &+= width
            continue
          }
          if runStart < offset { output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<offset])) }
          appendEscaped(scalar, to: &output)
          offset &+= width
          runStart = offset
        }
        if runStart < count { output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
        return ()
      } ?? nil
    if copied == nil {
      let scalars = Array(text.unicodeScalars)
      for index in scalars.indices {
        if isLegacyCommandMarker(scalars, index) {
          output.append("\\u0023" as StaticString)
        } else {
          appendEscaped(scalars[index], to: &output)
        }
      }
    }
    output.append(0x22)
  }

  /// Whether `bytes` hold `##[`.
  static func holdsLegacyCommandMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let count = bytes.count
    var start = 0
    while start + 2 < count, let found = memchr(base + start, Int32(UInt8(ascii: "#")), count - start - 2) {
      let index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
      if bytes[index + 1] == UInt8(ascii: "#") && bytes[index + 2] == UInt8(ascii: "[") { return true }
      start = index + 1
    }
    return false
  }

  /// Whether the scalar at `index` is the first `#` of `##[`.
  static func isLegacyCommandMarker(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
    index + 2 < scalars.count && scalars[index] == "#" && scalars[index + 1] == "#" && scalars[index + 2] == "["
  }

  /// The scalar whose valid UTF-8 starts at `offset`, and its length in bytes.
  @inline(__always)
  static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int) {
    let lead = UInt32(bytes[offset])
    func continuation(_ index: Int) -> UInt32 { UInt32(bytes[offset + index] & 0x3F) }
    let value: UInt32
    let width: Int
    switch lead {
    case 0..<0x80: (value, width) = (lead, 1)
    case 0xC0..<0xE0: (value, width) = ((lead & 0x1F) << 6 | continuation(1), 2)
    case 0xE0..<0xF0: (value, width) = ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3)
    default: (value, width) = ((lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3), 4)
    }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", width)
  }

  /// Appends `scalar` as it is written inside a JSON string: a short escape for `"`, `\`, line
  /// feed, carriage return and tab; `\u` and four lowercase hex digits for the scalars
  /// ``isEscapedAsHex(_:)`` names; itself, in UTF-8, otherwise.
  @inline(__always)
  private static func appendEscaped(_ scalar: Unicode.Scalar, to output: inout ByteBuffer) {
    let value = scalar.value
    switch scalar {
    case "\"": output.append(0x5C, 0x22)
    case "\\": output.append(0x5C, 0x5C)
    case "\n": output.append(0x5C, UInt8(ascii: "n"))
    case "\r": output.append(0x5C, UInt8(ascii: "r"))
    case "\t": output.append(0x5C, UInt8(ascii: "t"))
    default:
      if isEscapedAsHex(value) {
        // Every such scalar is below U+10000: four lowercase hex digits.
        output.append(0x5C, UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
          let digit = UInt8(truncatingIfNeeded: value >> UInt32(shift)) & 0xF
          output.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
      } else {
        for byte in UTF8.encode(scalar)! { output.append(byte) }
      }
    }
  }

  /// Control characters, DEL, C1 controls, bidi controls and the line and paragraph separators.
  @inline(__always)
  private static func isEscapedAsHex(_ value: UInt32) -> Bool {
    value < 0x20 || value == 0x7F || (value >= 0x80 && value < 0xA0) || TerminalText.isBidiOrSeparator(value)
  }

  package static func quoted(_ text: String) -> String {
    var output = ""
    appendQuoted(text, to: &output)
    return output
  }
}
