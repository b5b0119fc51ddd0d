/// A growable run of bytes appended to at its end, with value semantics (copied on write): what an
/// output writer fills. Appending a few bytes to an `[UInt8]` through `append(contentsOf:)` went
/// through the generic sequence copy, about a hundred instructions a call, and a report's JSON
/// makes several hundred such calls.
struct ByteBuffer {
  private var storage: Storage

  init(capacity: Int) {
    storage = Storage(capacity: max(capacity, 16))
  }

  var count: Int { storage.count }

  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    let storage = uniqueStorage(adding: bytes.count)
    (storage.base + storage.count).copyMemory(from: source, byteCount: bytes.count)
    storage.count += bytes.count
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    append(UnsafeRawBufferPointer(bytes))
  }

  mutating func append(_ literal: StaticString) {
    append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  mutating func append(_ byte: UInt8) {
    let storage = uniqueStorage(adding: 1)
    storage.base.storeBytes(of: byte, toByteOffset: storage.count, as: UInt8.self)
    storage.count += 1
  }

  mutating func append(_ first: UInt8, _ second: UInt8) {
    let storage = uniqueStorage(adding: 2)
    storage.base.storeBytes(of: first, toByteOffset: storage.count, as: UInt8.self)
    storage.base.storeBytes(of: second, toByteOffset: storage.count + 1, as: UInt8.self)
    storage.count += 2
  }

  func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try body(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
  }

  /// The storage, alone and with room for `more` bytes.
  private mutating func uniqueStorage(adding more: Int) -> Storage {
    if !isKnownUniquelyReferenced(&storage) || storage.count + more > storage.capacity {
      storage = storage.copy(capacity: max(storage.capacity * 2, storage.count + more))
    }
    return storage
  }

  private final class Storage {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    var count = 0

    init(capacity: Int) {
      self.capacity = capacity
      base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }

    deinit { base.deallocate() }

    func copy(capacity: Int) -> Storage {
      let copy = Storage(capacity: capacity)
      copy.base.copyMemory(from: base, byteCount: count)
      copy.count = count
      return copy
    }
  }
}
