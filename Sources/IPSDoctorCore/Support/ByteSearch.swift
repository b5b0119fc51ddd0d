#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Byte-level substring search for ASCII markers in large texts (`memchr` for the first byte, which
/// the C library vectorises, then `memcmp`), for hot paths where `String.contains` would walk
/// grapheme clusters.
enum ByteSearch {
  /// The offset of the first occurrence of `needle` in `haystack` at or after `start`.
  static func firstIndex(
    of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0
  ) -> Int? {
    guard !needle.isEmpty, start >= 0, haystack.count - start >= needle.count,
      let base = haystack.baseAddress, let needleBase = needle.baseAddress
    else { return nil }
    let first = Int32(needle[0])
    let last = haystack.count - needle.count  // the last offset a match can start at
    var index = start
    while index <= last {
      guard let hit = memchr(base + index, first, last - index + 1) else { return nil }
      let offset = base.distance(to: UnsafeRawPointer(hit))
      if memcmp(base + offset, needleBase, needle.count) == 0 { return offset }
      index = offset + 1
    }
    return nil
  }

  /// The offset of the first `byte` in `buffer` at or after `start` (`memchr`).
  static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    guard start >= 0, start < buffer.count, let base = buffer.baseAddress else { return nil }
    guard let hit = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
  }

  /// Whether a `Character`-wise match of `needle` implies a byte match: ASCII without `K`, `;` and
  /// `` ` `` (the only ASCII characters with non-ASCII canonical equivalents).
  static func isPrefilterable(_ needle: String) -> Bool {
    needle.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "K") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "`") }
  }

  /// Whether the UTF-8 of `text` contains the UTF-8 of `needle`.
  static func contains(_ text: String, _ needle: String) -> Bool {
    var text = text
    var needle = needle
    return text.withUTF8 { haystack in
      needle.withUTF8 { pattern in
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
  func utf8Contains(_ needle: String) -> Bool {
    guard needle.utf8.allSatisfy({ $0 < 0x80 }) else { return contains(needle) }
    return ByteSearch.contains(self, needle)
  }
}

extension StringProtocol {
  /// Exactly `contains(_:)`, answered by a byte search first. For an ASCII `needle`, a
  /// `Character`-wise match implies a byte match, so when the bytes are absent the answer is `false`
  /// without `String.contains` (which builds a search table on every call); only a byte hit is
  /// confirmed with `contains`. Unlike `utf8Contains`, the result never differs from `contains`.
  /// (Three non-ASCII scalars are canonically equivalent to ASCII ones — U+212A KELVIN SIGN to `K`,
  /// U+037E to `;`, U+1FEF to `` ` `` — so needles with those characters skip the pre-check.)
  func prefilteredContains(_ needle: String) -> Bool {
    if ByteSearch.isPrefilterable(needle), bytesAbsent(needle) { return false }
    return contains(needle)
  }

  /// Exactly `firstRange(of:)`, with the same byte pre-check as `prefilteredContains`.
  func prefilteredFirstRange(of needle: String) -> Range<Index>? {
    if ByteSearch.isPrefilterable(needle), bytesAbsent(needle) { return nil }
    return firstRange(of: needle)
  }

  /// `true` when the UTF-8 of `needle` certainly does not occur in `self` (`false` when it does or
  /// when the text is not contiguous).
  private func bytesAbsent(_ needle: String) -> Bool {
    var needle = needle
    let found = utf8.withContiguousStorageIfAvailable { haystack in
      needle.withUTF8 { pattern in
        ByteSearch.firstIndex(of: UnsafeRawBufferPointer(pattern), in: UnsafeRawBufferPointer(haystack)) != nil
      }
    }
    return found == false
  }
}
