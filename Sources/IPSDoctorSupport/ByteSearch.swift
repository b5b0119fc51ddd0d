/// Byte-level substring search for ASCII markers in large texts (`memchr` for the first byte, which
/// the C library vectorises, then `memcmp`), for hot paths where `String.contains` would walk
/// grapheme clusters.
@usableFromInline package enum ByteSearch {
  /// The offset of the first occurrence of `needle` in `haystack` at or after `start`.
  ///
  /// `memchr` looks for the needle's byte at `anchor` (any index into it; the first by default).
  /// Callers that search long texts for markers starting with a common byte pass their rarest
  /// byte, so `memchr` stops less often; the answer is the same for every anchor.
  @inlinable package static func firstIndex(
    of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0,
    anchor: Int = 0
  ) -> Int? {
    guard !needle.isEmpty, start >= 0, haystack.count - start >= needle.count,
      let base = haystack.baseAddress, let needleBase = needle.baseAddress
    else { return nil }
    let byte = Int32(needle[anchor])
    // A match starting at `offset` has the anchor byte at `offset + anchor`; those positions
    // ascend with `offset`, so the first that matches is the first occurrence.
    let last = haystack.count - needle.count + anchor  // the last position the anchor can be at
    var position = start + anchor
    while position <= last {
      guard let hit = memchr(base + position, byte, last - position + 1) else { return nil }
      let found = base.distance(to: UnsafeRawPointer(hit))
      if memcmp(base + found - anchor, needleBase, needle.count) == 0 { return found - anchor }
      position = found + 1
    }
    return nil
  }

  /// ``firstIndex(of:in:from:anchor:)`` of a literal (its UTF-8 in place: no array to make and
  /// free) in `haystack`.
  @inline(__always)
  @inlinable package static func firstIndex(
    of literal: StaticString, in haystack: UnsafeBufferPointer<UInt8>, from start: Int = 0, anchor: Int = 0
  ) -> Int? {
    firstIndex(
      of: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount),
      in: UnsafeRawBufferPointer(haystack), from: start, anchor: anchor)
  }

  /// The offset of the first `byte` in `buffer` at or after `start` (`memchr`).
  @inlinable package static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int)
    -> Int?
  {
    guard start >= 0, start < buffer.count, let base = buffer.baseAddress else { return nil }
    guard let hit = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
  }

  /// What a byte search says about a `Character`-wise one (`StringProtocol.byteSearch`), or about
  /// which frame matches (`FrameSymbolText`).
  @usableFromInline package enum Outcome: Equatable, Sendable {
    /// Found, at this UTF-8 offset (or frame index).
    case found(Int)
    case absent
    case undecided
  }

  /// Whether every byte is ASCII.
  @inlinable package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var bits: UInt8 = 0
    for byte in bytes { bits |= byte }
    return bits < 0x80
  }

  /// Whether every byte is printable ASCII (space to `~`): text with nothing to escape for a
  /// terminal. One loop the optimizer turns into vector code.
  static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var highest: UInt8 = 0
    for byte in bytes { highest = max(highest, byte &- 0x20) }
    return highest < 0x5F
  }

  /// Whether every byte is ASCII and none is a carriage return.
  package static func isASCIIWithoutCarriageReturn(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var bits: UInt8 = 0
    var returns: UInt8 = 0
    for byte in bytes {
      bits |= byte
      returns |= byte == 0x0D ? 1 : 0
    }
    return bits < 0x80 && returns == 0
  }

  /// Whether the ASCII byte at `index` is a `Character` of its own in text without carriage
  /// returns: it is when both neighbours are ASCII (no rule of Unicode joins two ASCII characters
  /// but CR LF); next to a non-ASCII byte a combining mark or a prepended scalar could join it.
  @inline(__always)
  package static func standsAlone(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
    (index == 0 || bytes[index - 1] < 0x80) && (index + 1 == bytes.count || bytes[index + 1] < 0x80)
  }

  /// Whether the UTF-8 of `text` contains the UTF-8 of `needle`.
  @inlinable package static func contains(_ text: String, _ needle: String) -> Bool {
    text.withBorrowedUTF8 { haystack in
      needle.withBorrowedUTF8 { pattern in
        firstIndex(of: UnsafeRawBufferPointer(pattern), in: UnsafeRawBufferPointer(haystack)) != nil
      }
    }
  }
}

extension String {
  /// `contains(_:)` for the hot paths: a byte search when `needle` is ASCII (frame symbols and reason
  /// texts are checked against dozens of markers per report, and `String.contains` builds a search
  /// table over `Character`s on every call). The one difference: an ASCII match is found even when
  /// a combining mark follows it in `self`. Non-ASCII needles go through `String.contains`, so
  /// canonical equivalence still applies to them.
  @inlinable package func utf8Contains(_ needle: String) -> Bool {
    guard needle.utf8.allSatisfy({ $0 < 0x80 }) else { return Self.characterContains(self, needle) }
    return ByteSearch.contains(self, needle)
  }

  /// The standard library's `Character`-wise `contains(_:)`. Called through `StringProtocol`, so a
  /// `String.contains(_:)` of a module's own (Diagnosis defines one on top of this file) never
  /// stands in for it, also where the layers are compiled as one module (`Fuzz/fuzz.sh`).
  @inlinable package static func characterContains<Text: StringProtocol>(_ text: Text, _ needle: String) -> Bool {
    text.contains(needle)
  }
}

extension StringProtocol {
  /// Exactly `contains(_:)`, answered by a byte search whenever the bytes decide it (see
  /// `byteSearch(_:)`); only the undecided cases go through `String.contains`, which builds a
  /// search table on every call.
  @inlinable package func prefilteredContains(_ needle: String) -> Bool {
    switch byteSearch(needle) {
    case .found: return true
    case .absent: return false
    case .undecided: return contains(needle)
    }
  }

  /// Exactly `firstRange(of:)`, with the same byte search as `prefilteredContains`.
  @inlinable package func prefilteredFirstRange(of needle: String) -> Range<Index>? {
    switch byteSearch(needle) {
    case .found(let offset):
      let start = utf8.index(utf8.startIndex, offsetBy: offset)
      return start..<utf8.index(start, offsetBy: needle.utf8.count)
    case .absent: return nil
    case .undecided: return firstRange(of: needle)
    }
  }

  /// What the UTF-8 bytes alone say about a `Character`-wise search for `needle`:
  /// * bytes absent and `needle` prefilterable (ASCII without `K`, `;`, `` ` ``): absent, since a
  ///   `Character`-wise match implies a byte match (three non-ASCII scalars are canonically
  ///   equivalent to ASCII ones — U+212A KELVIN SIGN to `K`, U+037E to `;`, U+1FEF to `` ` `` — so
  ///   needles with those characters are only decided in ASCII text);
  /// * `self` all ASCII and `needle` ASCII without CR and LF: the byte answer is the `Character`
  ///   answer (in ASCII text every byte is a `Character` except the "\r\n" pair, which a match of
  ///   such a needle can neither contain nor split);
  /// * anything else (non-ASCII text with a byte hit, needles with CR/LF or non-ASCII needles,
  ///   non-contiguous text): undecided.
  /// The empty needle is reported absent, as the byte pre-check reports it.
  @inlinable func byteSearch(_ needle: String) -> ByteSearch.Outcome {
    let outcome = utf8.withContiguousStorageIfAvailable { haystack -> ByteSearch.Outcome in
      needle.withBorrowedUTF8 { pattern -> ByteSearch.Outcome in
        var needleBits: UInt8 = 0
        var hasLineBreak = false
        var prefilterable = true
        for byte in pattern {
          needleBits |= byte
          // Every byte tested here is at most "`", so lowercase letters, most of a marker, skip.
          guard byte <= UInt8(ascii: "`") else { continue }
          if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") { hasLineBreak = true }
          if byte == UInt8(ascii: "K") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "`") {
            prefilterable = false
          }
        }
        guard needleBits < 0x80 else { return .undecided }
        let offset = ByteSearch.firstIndex(
          of: UnsafeRawBufferPointer(pattern), in: UnsafeRawBufferPointer(haystack))
        if let offset {
          return !hasLineBreak && ByteSearch.isASCII(haystack) ? .found(offset) : .undecided
        }
        return prefilterable || ByteSearch.isASCII(haystack) ? .absent : .undecided
      }
    }
    return outcome ?? .undecided
  }
}
