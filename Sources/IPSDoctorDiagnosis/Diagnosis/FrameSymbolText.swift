import IPSDoctorReport
import IPSDoctorSupport

/// The raw symbols of a backtrace's frames as one NUL-separated UTF-8 byte string, so that finding
/// the first frame whose symbol contains a marker is one byte search over the backtrace.
///
/// For frames `[a: "main", b: nil, c: "abort"]` the bytes are `main\0abort\0` and the symbols
/// `[(start: 0, frame: 0), (start: 5, frame: 2)]`: a hit at byte 6 is in the symbol starting at 5,
/// frame 2. A match never spans a NUL, because no symbol holds one (`init` fails otherwise).
struct FrameSymbolText: Sendable {
  /// Every symbolicated frame's symbol, each followed by a NUL.
  private let bytes: [UInt8]
  /// Where each symbol starts in `bytes` (ascending) and the index of its frame.
  private let symbols: [Symbol]

  /// Where a symbol starts in `bytes` and the index of its frame.
  fileprivate struct Symbol {
    var start: Int
    var frame: Int
  }

  /// `nil` when a symbol itself contains a NUL (then a match could not be told from a separator).
  init?(_ frames: [Frame]) {
    var capacity = 0
    var symbolCount = 0
    for index in frames.indices {
      guard let count = frames[index].symbol?.utf8.count else { continue }
      capacity += count + 1
      symbolCount += 1
    }
    // In bounds: `capacity` and `symbolCount` count the same symbols, each with its NUL, of the
    // same immutable array.
    var hasNUL = false
    var symbols: [Symbol] = []
    symbols.reserveCapacity(symbolCount)
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { bytes, written in
      var end = 0
      for index in frames.indices {
        let start = end
        let copied = frames[index].symbol?.withBorrowedUTF8 { utf8 -> Int in
          if let source = utf8.baseAddress {
            (bytes.baseAddress! + start).initialize(from: source, count: utf8.count)
          }
          return utf8.count
        }
        guard let copied else { continue }
        // Only the separators may be NULs.
        if copied > 0 && memchr(bytes.baseAddress! + start, 0, copied) != nil {
          hasNUL = true
          break
        }
        bytes[start + copied] = 0
        end = start + copied + 1
        symbols.append(Symbol(start: start, frame: index))
      }
      written = end
    }
    guard !hasNUL else { return nil }
    self.bytes = bytes
    self.symbols = symbols
  }

  /// Any texts (`nil` ones are skipped); "frame" indexes are then indexes into `texts`.
  init?(texts: [String?]) {
    var capacity = 0
    for text in texts { capacity += (text?.utf8.count ?? 0) + 1 }
    var builder = Builder(capacity: capacity, count: texts.count)
    for text in texts { builder.append(text) }
    self.init(builder)
  }

  /// `nil` when a text held a NUL.
  init?(_ builder: consuming Builder) {
    guard !builder.hasNUL else { return nil }
    bytes = builder.bytes
    symbols = builder.symbols
  }

  /// Collects the texts one at a time, so that callers with texts in several places need not
  /// gather them into an array first; each `append` is the next "frame" index, `nil` or not.
  struct Builder {
    fileprivate var bytes: [UInt8] = []
    fileprivate var symbols: [Symbol] = []
    fileprivate var hasNUL = false
    private var count = 0

    /// `capacity` bytes (each text and its NUL) and `count` texts, when known, spare regrowing.
    init(capacity: Int = 0, count: Int = 0) {
      bytes.reserveCapacity(capacity)
      symbols.reserveCapacity(count)
    }

    mutating func append(_ text: String?) {
      defer { count += 1 }
      guard let text, !hasNUL else { return }
      symbols.append(Symbol(start: bytes.count, frame: count))
      // Only the separators may be NULs.
      hasNUL = text.withBorrowedUTF8 { utf8 in
        bytes.append(contentsOf: utf8)
        return utf8.baseAddress.map { memchr($0, 0, utf8.count) != nil } ?? false
      }
      bytes.append(0)
    }
  }

  /// Calls `body` with the index of every frame whose symbol may be mangled, ascending: a superset
  /// of the frames for which `SwiftDemangler.isMangled` holds, told from each symbol's first two
  /// bytes (`SwiftDemangler.mayBeMangled`).
  func forEachPossiblyMangledSymbol(_ body: (_ frame: Int) -> Void) {
    bytes.withUnsafeBufferPointer { bytes in
      for symbol in symbols {
        // Every symbol ends with a NUL, so the byte after a non-empty symbol's first is in bounds;
        // an empty symbol is its NUL alone.
        let first = bytes[symbol.start]
        let second = first == 0 ? 0 : bytes[symbol.start + 1]
        if SwiftDemangler.mayBeMangled(first: first, second: second) { body(symbol.frame) }
      }
    }
  }

  /// The first frame whose symbol's UTF-8 contains the UTF-8 of `needle` (what `utf8Contains`
  /// answers frame by frame): `.found` with the frame index, `.absent`, or `.undecided` for a
  /// needle that is not ASCII (those need `String.contains`) or that contains a NUL.
  func firstFrame(containing needle: String) -> ByteSearch.Outcome {
    firstFrame(containing: needle, before: .max)
  }

  /// `firstFrame(containing:)` among the frames before `limit` only: the search stops where the
  /// symbol of the first frame at or after `limit` starts (a match holds no NUL, so it lies inside
  /// one symbol), instead of going through the rest of the backtrace.
  func firstFrame(containing needle: String, before limit: Int) -> ByteSearch.Outcome {
    firstFrame(containing: needle, searching: end(before: limit))
  }

  /// Where the symbols of the frames before `limit` end: where the first symbol of a frame at or
  /// after `limit` starts (the symbols ascend by frame), or the end of the text.
  private func end(before limit: Int) -> Int {
    guard let last = symbols.last, last.frame >= limit else { return bytes.count }
    return symbols.first { $0.frame >= limit }?.start ?? bytes.count
  }

  /// `firstFrame(containing:)` over the first `count` bytes, which end where a symbol starts.
  private func firstFrame(containing needle: String, searching count: Int) -> ByteSearch.Outcome {
    needle.withBorrowedUTF8 { pattern -> ByteSearch.Outcome in
      // An empty needle matches no symbol, as `utf8Contains` answers, and no needle matches when
      // there is no symbol (many reports have no reason text at all).
      guard !pattern.isEmpty, !symbols.isEmpty, count > 0 else { return .absent }
      let anchor: Int
      if count < Self.shortText {
        // A short text is searched from the needle's first byte.
        guard Self.isPlainASCII(pattern) else { return .undecided }
        if pattern.count > count { return .absent }
        anchor = 0
      } else {
        // One pass over the needle both picks the anchor and rules out NULs and non-ASCII bytes.
        guard let rarest = Self.anchor(of: UnsafeRawBufferPointer(pattern)) else { return .undecided }
        anchor = rarest
      }
      let offset = bytes.withUnsafeBytes { haystack in
        ByteSearch.firstIndex(
          of: UnsafeRawBufferPointer(pattern), in: UnsafeRawBufferPointer(rebasing: haystack[0..<count]),
          anchor: anchor)
      }
      guard let offset else { return .absent }
      return .found(symbols[symbol(containing: offset)].frame)
    }
  }

  /// The first frame before `limit` whose symbol contains any of `markers`, in one pass over the
  /// symbols; `nil` when none does. Exact, as `utf8Contains` answers: no marker holds a NUL, so a
  /// match lies inside one symbol.
  func firstFrame(containingAny markers: MarkerSet, before limit: Int = .max) -> Int? {
    guard !symbols.isEmpty else { return nil }
    let end = end(before: limit)
    let offset = bytes.withUnsafeBytes { markers.firstOffset(in: UnsafeRawBufferPointer(rebasing: $0[0..<end])) }
    return offset.map { symbols[symbol(containing: $0)].frame }
  }

  /// Every frame whose symbol contains `needle`, ascending (what `utf8Contains` answers frame by
  /// frame), or `nil` when undecided, as in `firstFrame(containing:)`.
  func frames(containing needle: String) -> [Int]? {
    needle.withBorrowedUTF8 { pattern -> [Int]? in
      guard !pattern.isEmpty else { return [] }
      guard let anchor = Self.anchor(of: UnsafeRawBufferPointer(pattern)) else { return nil }
      var found: [Int] = []
      bytes.withUnsafeBytes { haystack in
        var from = 0
        while from < haystack.count,
          let offset = ByteSearch.firstIndex(
            of: UnsafeRawBufferPointer(pattern), in: haystack, from: from, anchor: anchor)
        {
          // A match holds no NUL, so it lies inside one symbol; go on from the next one.
          let symbol = symbol(containing: offset)
          found.append(symbols[symbol].frame)
          from = symbol + 1 < symbols.count ? symbols[symbol + 1].start : haystack.count
        }
      }
      return found
    }
  }

  /// The index in `symbols` of the symbol holding byte `offset`: the last starting at or before it.
  private func symbol(containing offset: Int) -> Int {
    var low = 0
    var high = symbols.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if symbols[middle].start <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The offset of the first occurrence of `needle` in `haystack`, as `ByteSearch.firstIndex`
  /// answers. That one stops at every occurrence of the needle's first byte, and markers often
  /// start with a byte as common in symbols as `_`, `-` or `s`; this one stops only at the needle's
  /// rarest byte (by `commonness`), so the C library's `memchr` skips most of the text.
  static func firstIndex(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Int? {
    guard !needle.isEmpty else { return nil }
    return ByteSearch.firstIndex(of: needle, in: haystack, anchor: rarestByte(of: needle).index)
  }

  /// Texts shorter than this (in bytes) are searched from the needle's first byte.
  private static let shortText = 128

  /// Whether every byte of `needle` is ASCII and not NUL (what `anchor(of:)` requires).
  private static func isPlainASCII(_ needle: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in needle where byte &- 1 >= 0x7F { return false }
    return true
  }

  /// The index of the non-empty `needle`'s rarest byte, or `nil` when the needle holds a NUL or a
  /// non-ASCII byte (those alone have commonness 0).
  static func anchor(of needle: UnsafeRawBufferPointer) -> Int? {
    let rarest = rarestByte(of: needle)
    return rarest.commonness == 0 ? nil : rarest.index
  }

  /// The first index of the lowest `commonness` in the non-empty `needle`.
  private static func rarestByte(of needle: UnsafeRawBufferPointer) -> (index: Int, commonness: UInt8) {
    commonness.withUnsafeBufferPointer { table in
      var anchor = 0
      var lowest = table[Int(needle[0])]
      for index in 1..<needle.count where table[Int(needle[index])] < lowest {
        anchor = index
        lowest = table[Int(needle[index])]
      }
      return (anchor, lowest)
    }
  }

  /// How often a byte occurs in symbols, roughly (higher is commoner): lowercase letters by their
  /// frequency in English, then `_`, space and the separators of Objective-C and C++ names. NUL
  /// and the non-ASCII bytes alone have 0, which `anchor(of:)` reads as "undecided".
  private static let commonness: [UInt8] = {
    var table = [UInt8](repeating: 1, count: 256)
    table[0] = 0
    for byte in 0x80..<0x100 { table[byte] = 0 }
    for (rank, letter) in "zqjxkvbpgwyfmculdrhsnioate".utf8.enumerated() { table[Int(letter)] = UInt8(10 + rank) }
    for byte in "ACDEFILMNOPRSTUV".utf8 { table[Int(byte)] = 8 }
    for byte in "0123456789".utf8 { table[Int(byte)] = 6 }
    for byte in "_ :.()[]-+".utf8 { table[Int(byte)] = 40 }
    return table
  }()

  /// Whether any symbol contains `needle` (`nil` when undecided, as in `firstFrame(containing:)`).
  func contains(_ needle: String) -> Bool? {
    switch firstFrame(containing: needle) {
    case .found: true
    case .absent: false
    case .undecided: nil
    }
  }
}
