import IPSDoctorJSON
import IPSDoctorSupport

/// Texts that the reports one worker reads have in common, kept once.
///
/// Reports from the same devices name the same binary images (their paths, names and bundle
/// identifiers) and the same system symbols (`__pthread_kill`, `_dispatch_lane_serial_drain`, …): in
/// the benchmark's 76 distinct JSON reports, three in four of the texts too long to be stored inline
/// in a `String` repeat one read before, in the same report or an earlier one. A reader given a
/// table answers such a text with the string made the first time. The strings are equal either
/// way; only their storage is shared.
///
/// The table is a fixed number of slots, each holding the last text whose hash chose it, so its
/// memory is bounded (slots plus the texts they hold) however many reports pass through it. Only
/// texts of more than 15 and at most ``maxLength`` UTF-8 bytes are kept: shorter ones are stored inline
/// in their `String`, longer ones rarely repeat.
///
/// Not thread-safe: one table per thread (``ReportReader/read(_:sharing:)``).
public final class SharedTexts {
  struct Slot {
    var hash: UInt64
    /// The bytes the text was read from, in memory the table owns (`keyCapacity` bytes): a JSON
    /// string's raw bytes, escapes included, or the bytes a legacy text was decoded from. A hit is
    /// a comparison of plain memory; the slot's string is not read.
    var key: UnsafeMutableRawPointer?
    /// -1 when the slot answers no lookup (empty, or a text that decoding repaired).
    var keyCount: Int32
    var keyCapacity: Int32
    /// Whether `key` holds a JSON string's raw bytes with escapes (`\/` in every path), which only
    /// the same raw bytes match: a text read from legacy text may hold a backslash that means
    /// itself.
    var escaped: Bool
    var text: String
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
    slots.initialize(
      repeating: Slot(hash: 0, key: nil, keyCount: -1, keyCapacity: 0, escaped: false, text: ""), count: count)
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: 2)
    counts.initialize(repeating: 0, count: 2)
    handle = Handle(slots: slots, mask: count - 1, counts: counts)
  }

  deinit {
    for index in 0...handle.mask { handle.slots[index].key?.deallocate() }
    handle.slots.deinitialize(count: handle.mask + 1)
    handle.slots.deallocate()
    handle.counts.deallocate()
  }

  /// Whether a text of `count` bytes is one the table keeps.
  @inline(__always)
  static func keeps(_ count: Int) -> Bool { count > 15 && count <= maxLength }

  /// The table's memory without the class: what the readers keep while they read one report.
  ///
  /// A handle is plain pointers and holds no reference, so a lookup through it touches no
  /// reference count. It is valid only while its table is alive, and the readers keep it only for
  /// the call that was given the table.
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
      let raw = UnsafeRawPointer(base + entry.start)
      let hasEscapes = entry.flags & JSONTapeEntry.stringHasEscapes != 0
      let hash = SharedTexts.hash(raw, count)
      let slot = slots + (Int(truncatingIfNeeded: hash) & mask)
      if let text = answer(slot, hash, raw, count, escaped: hasEscapes) { return text }
      let text = decode(node)
      // A JSON string the parser has validated decodes to exactly its bytes when it has no escapes.
      store(text, in: slot, hash, raw, count, escaped: hasEscapes, checked: true)
      return text
    }

    /// The text of `bytes`, which `decode` turns into a string: from the table when it holds a
    /// string whose UTF-8 is exactly these bytes, else decoded and stored.
    @inline(__always)
    func text(_ bytes: UnsafeBufferPointer<UInt8>, decode: (UnsafeBufferPointer<UInt8>) -> String) -> String {
      let count = bytes.count
      guard SharedTexts.keeps(count), let base = bytes.baseAddress else { return decode(bytes) }
      let raw = UnsafeRawPointer(base)
      let hash = SharedTexts.hash(raw, count)
      let slot = slots + (Int(truncatingIfNeeded: hash) & mask)
      if let text = answer(slot, hash, raw, count, escaped: false) { return text }
      let text = decode(bytes)
      store(text, in: slot, hash, raw, count, escaped: false, checked: false)
      return text
    }

    /// The slot's text when it was read from the `count` bytes at `raw` (escaped as `escaped`
    /// says).
    @inline(__always)
    private func answer(
      _ slot: UnsafeMutablePointer<Slot>, _ hash: UInt64, _ raw: UnsafeRawPointer, _ count: Int, escaped: Bool
    ) -> String? {
      guard slot.pointee.hash == hash, Int(slot.pointee.keyCount) == count, slot.pointee.escaped == escaped,
        let key = slot.pointee.key, SharedTexts.equalBytes(UnsafeRawPointer(key), raw, count)
      else { return nil }
      counts[0] &+= 1
      return slot.pointee.text
    }

    /// Puts `text`, read from the `count` bytes at `raw`, in `slot`. Unless `checked`, a text
    /// whose UTF-8 is not those bytes (decoding repaired them) is kept where no lookup finds it,
    /// so that a hit is always what decoding would have made.
    private func store(
      _ text: String, in slot: UnsafeMutablePointer<Slot>, _ hash: UInt64, _ raw: UnsafeRawPointer, _ count: Int,
      escaped: Bool, checked: Bool
    ) {
      var exact = checked || escaped
      if !exact {
        var copy = text
        exact = copy.withUTF8 { $0.count == count && memcmp($0.baseAddress!, raw, count) == 0 }
      }
      if Int(slot.pointee.keyCapacity) < count {
        slot.pointee.key?.deallocate()
        let capacity = (count + 15) & ~15
        slot.pointee.key = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        slot.pointee.keyCapacity = Int32(capacity)
      }
      slot.pointee.key!.copyMemory(from: raw, byteCount: count)
      slot.pointee.hash = hash
      slot.pointee.keyCount = exact ? Int32(count) : -1
      slot.pointee.escaped = escaped
      slot.pointee.text = text
      counts[1] &+= 1
    }
  }

  /// Whether the `count` (at least 8) bytes at `a` and at `b` are the same, eight at a time (the
  /// last eight read again where the count is not a multiple of eight): the texts are short, too
  /// short for a call to `memcmp` to pay.
  @inline(__always)
  static func equalBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var offset = 0
    while offset &+ 8 < count {
      let word = a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      guard word == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
      offset &+= 8
    }
    return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
  }

  /// A hash of `count` (at least 16) bytes from their length and three of their words: the first,
  /// the last and one in the middle; texts that agree in all four (two paths of one length that differ only in between)
  /// merely take turns in a slot: a hit still compares every byte.
  @inline(__always)
  static func hash(_ bytes: UnsafeRawPointer, _ count: Int) -> UInt64 {
    var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    hash = (hash ^ bytes.loadUnaligned(as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
    hash ^= hash &>> 31
    hash = (hash ^ bytes.loadUnaligned(fromByteOffset: count &>> 1 &- 4, as: UInt64.self)) &* 0x94D0_49BB_1331_11EB
    hash ^= hash &>> 31
    hash = (hash ^ bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
    return hash ^ hash &>> 31
  }
}
