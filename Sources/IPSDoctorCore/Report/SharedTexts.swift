#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Texts that the reports one worker reads have in common, kept once.
///
/// Reports from the same devices name the same binary images (their paths, names and bundle
/// identifiers) and the same system symbols (`__pthread_kill`, `_dispatch_lane_serial_drain`, …): in
/// the benchmark's 76 distinct JSON reports, three in four of the texts too long to be stored inline
/// in a `String` repeat one read before, in the same report or an earlier one. A reader given a
/// table answers such a text with the string made the first time: no allocation, no copy, no UTF-8
/// validation, and a release instead of a free when the report goes. The strings are equal either
/// way; only their storage is shared.
///
/// The table is a fixed number of slots, each holding the last text whose hash chose it, so its
/// memory is bounded (slots plus the texts they hold) however many reports pass through it. Only
/// texts of more than 15 and at most ``maxLength`` UTF-8 bytes are kept: shorter ones need no
/// allocation, longer ones rarely repeat.
///
/// Not thread-safe: one table per thread (``ReportReader/read(_:sharing:)``).
public final class SharedTexts {
  struct Slot {
    var hash: UInt64
    var text: String
    /// The bytes the text was read from when they are not its UTF-8 (a JSON string with escapes:
    /// every path, whose slashes Apple writes as `\/`), so that a hit is one `memcmp` either way.
    var escaped: String?
  }

  /// The longest text kept, in UTF-8 bytes.
  static let maxLength = 512

  /// The table's memory, which the class owns and frees.
  let handle: Handle

  /// Lookups answered from the table so far.
  var hits: Int { handle.counts[0] }
  /// Texts stored in the table so far (each replacing what its slot held).
  var stores: Int { handle.counts[1] }

  /// A table of `slotCount` slots (rounded up to a power of two, at least 16).
  public init(slotCount: Int = 8192) {
    var count = 16
    while count < slotCount && count < 1 << 24 { count <<= 1 }
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: count)
    slots.initialize(repeating: Slot(hash: 0, text: "", escaped: nil), count: count)
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2)
    counts.initialize(repeating: 0, count: 2)
    handle = Handle(slots: slots, mask: count - 1, counts: counts)
  }

  deinit {
    handle.slots.deinitialize(count: handle.mask + 1)
    handle.slots.deallocate()
    handle.counts.deallocate()
  }

  /// Whether a text of `count` bytes is one the table keeps.
  @inline(__always)
  static func keeps(_ count: Int) -> Bool { count > 15 && count <= maxLength }

  /// The table's memory without the class: what the readers keep while they read one report.
  ///
  /// A reader's decoder held the class and retained and released it on every lookup, 70 times a
  /// JSON report (its symbols and its images' texts), since the compiler cannot tell that a
  /// lookup leaves the decoder's reference in place. A handle is plain pointers, so a lookup costs
  /// no reference counting. It holds no reference: it is valid only while its table is alive, and
  /// the readers keep it only for the call that was given the table.
  struct Handle {
    let slots: UnsafeMutablePointer<Slot>
    let mask: Int
    /// Lookups answered from the table, then texts stored in it. In memory of their own, like the
    /// slots, so that counting needs no exclusivity check of a class property.
    let counts: UnsafeMutablePointer<Int>

    /// The text of the string node `node`, from the table when it holds the text of the same bytes,
    /// else decoded by `decode` and stored. Lookups compare the node's raw bytes, escapes included:
    /// a text escaped two ways is merely stored twice.
    @inline(__always)
    func text(_ node: JSONNode, decode: (JSONNode) -> String) -> String {
      let entry = node.entry
      let count = entry.stringEnd - entry.start
      guard SharedTexts.keeps(count), let base = node.view.bytes.baseAddress else { return decode(node) }
      let raw = base + entry.start
      let hash = SharedTexts.hash(UnsafeRawPointer(raw), count)
      let slot = slots + (Int(truncatingIfNeeded: hash) & mask)
      // Raw bytes with an escape match only raw bytes kept as such: a text read from legacy text may
      // hold a backslash that means itself. Without one, the raw bytes are the text.
      let hasEscapes = entry.flags & JSONTapeEntry.stringHasEscapes != 0
      // The slot's strings compared where they are: `escaped ?? text` made a copy of one of them to
      // compare (a retain and a release on every hit), and so did reading a string out of the slot
      // to look at its bytes (see ``hasBytes(_:_:_:)``). The first test makes `escaped` present
      // exactly when `hasEscapes` is true.
      if slot.pointee.hash == hash, (slot.pointee.escaped != nil) == hasEscapes,
        hasEscapes
          ? SharedTexts.hasBytes(&slot.pointee.escaped!, raw, count)
          : SharedTexts.hasBytes(&slot.pointee.text, raw, count)
      {
        counts[0] &+= 1
        return slot.pointee.text
      }
      let text = decode(node)
      let escaped = hasEscapes ? String(decoding: UnsafeBufferPointer(start: raw, count: count), as: UTF8.self) : nil
      slot.pointee = Slot(hash: hash, text: text, escaped: escaped)
      counts[1] &+= 1
      return text
    }

    /// The text of `bytes`, which `decode` turns into a string: from the table when it holds a
    /// string whose UTF-8 is exactly these bytes, else decoded and stored.
    @inline(__always)
    func text(_ bytes: UnsafeBufferPointer<UInt8>, decode: (UnsafeBufferPointer<UInt8>) -> String) -> String {
      let count = bytes.count
      guard SharedTexts.keeps(count), let base = bytes.baseAddress else { return decode(bytes) }
      let hash = SharedTexts.hash(UnsafeRawPointer(base), count)
      let slot = slots + (Int(truncatingIfNeeded: hash) & mask)
      if slot.pointee.hash == hash, slot.pointee.escaped == nil, SharedTexts.hasBytes(&slot.pointee.text, base, count) {
        counts[0] &+= 1
        return slot.pointee.text
      }
      let text = decode(bytes)
      slot.pointee = Slot(hash: hash, text: text, escaped: nil)
      counts[1] &+= 1
      return text
    }
  }

  /// Whether `text`'s UTF-8 is the `count` bytes at `bytes`. A repaired or otherwise different
  /// decoding of the same bytes never matches, so a hit is always what decoding would have made.
  ///
  /// `inout`, so that a slot's string is read where it is: a string loaded out of the slot to read
  /// its bytes was a copy, a retain and a release around every comparison (two atomic operations
  /// on each hit). `withUTF8` changes only a string without contiguous UTF-8, which a slot never
  /// holds (its strings are native, made by the readers).
  @inline(__always)
  static func hasBytes(_ text: inout String, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    text.withUTF8 { utf8 in
      utf8.count == count && memcmp(utf8.baseAddress!, bytes, count) == 0
    }
  }

  /// A hash of `count` (at least 8) bytes, eight at a time; the last eight bytes are read again
  /// when the count is not a multiple of eight, so nothing is read past the text.
  @inline(__always)
  static func hash(_ bytes: UnsafeRawPointer, _ count: Int) -> UInt64 {
    var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    var offset = 0
    while offset &+ 8 <= count {
      hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash &>> 31
      offset &+= 8
    }
    if offset < count {
      hash = (hash ^ bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) &* 0x94D0_49BB_1331_11EB
      hash ^= hash &>> 31
    }
    return hash
  }
}
