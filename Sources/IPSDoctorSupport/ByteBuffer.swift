/// A growable run of bytes appended to at its end: what an output writer, or a line being wrapped,
/// fills. Noncopyable, so that it owns its memory outright: `base` holds `capacity` bytes, the
/// first `count` of them written, and an append is a `memcpy` into that memory (see
/// docs/performance-history.md, 'Output on bytes').
@usableFromInline package struct ByteBuffer: ~Copyable {
  @usableFromInline var base: UnsafeMutableRawPointer
  @usableFromInline var capacity: Int
  @usableFromInline package internal(set) var count = 0

  @inlinable package init(capacity: Int) {
    self.capacity = max(capacity, 16)
    base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 1)
  }

  deinit { base.deallocate() }

  @inlinable @inline(__always)
  package mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
    (base + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  @inlinable @inline(__always)
  package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    append(UnsafeRawBufferPointer(bytes))
  }

  @inlinable @inline(__always)
  package mutating func append(_ literal: StaticString) {
    append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  @inlinable @inline(__always)
  package mutating func append(_ byte: UInt8) {
    if count + 1 > capacity { grow(toHold: count + 1) }
    base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
    count += 1
  }

  @inlinable @inline(__always)
  package mutating func append(_ first: UInt8, _ second: UInt8) {
    if count + 2 > capacity { grow(toHold: count + 2) }
    base.storeBytes(of: first, toByteOffset: count, as: UInt8.self)
    base.storeBytes(of: second, toByteOffset: count + 1, as: UInt8.self)
    count += 2
  }

  /// Empties the buffer, keeping its memory.
  @inlinable package mutating func removeAll() { count = 0 }

  /// The bytes as a string; they must be whole UTF-8 text (appended from strings, or cut only at
  /// ASCII bytes).
  @inlinable package var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

  @inlinable package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
  {
    try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// Moves the bytes to memory of at least twice the capacity, and at least `needed` bytes.
  @usableFromInline mutating func grow(toHold needed: Int) {
    let newCapacity = max(capacity * 2, needed)
    let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
    newBase.copyMemory(from: base, byteCount: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}
