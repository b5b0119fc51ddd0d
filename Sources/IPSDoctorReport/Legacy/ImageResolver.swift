import IPSDoctorSupport

/// The ``ImageResolver/NameFilter`` slots of an image's name, bundle identifier and path's file
/// name, found by the text reader on the bytes it made them from, so that the resolver turns most
/// images away without touching their strings.
struct ImageKeySlots {
  /// The key is `nil`.
  static let absentSlot: Int16 = -1
  /// Not known from the bytes (not ASCII): the resolver asks the string.
  static let unknownSlot: Int16 = -2

  var name: Int16
  var bundleID: Int16
  var fileName: Int16
  /// Whether the image has a base and a size above zero: the resolver's address range, from
  /// `base` to `last`.
  var hasRange = false
  var base: UInt64 = 0
  var last: UInt64 = 0

  static let absent = ImageKeySlots(name: absentSlot, bundleID: absentSlot, fileName: absentSlot)
  static let unknown = ImageKeySlots(name: unknownSlot, bundleID: unknownSlot, fileName: unknownSlot)

  /// `NameFilter.slot` of the text `bytes[range]` makes when it is ASCII (the text is then those
  /// bytes); ``unknownSlot`` otherwise.
  @inline(__always)
  static func slot(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int16 {
    let key = UnsafeBufferPointer(rebasing: bytes[range])
    guard ByteSearch.isASCII(key) else { return unknownSlot }
    return Int16(ImageResolver.NameFilter.slot(key))
  }
}

/// Finds the image of a frame by name or by address.
struct ImageResolver {
  let images: [BinaryImage]
  /// For each image name the frames use, the first image whose name, bundle identifier or file
  /// name it is. Only the frames' names are looked up: a report has hundreds of images but uses
  /// a few dozen.
  var byName: [String: Int] = [:]
  /// (base, last address, index), sorted by base.
  var ranges: [(base: UInt64, last: UInt64, index: Int)] = []
  /// ``byName`` when every name is ASCII (``init(images:frameNamesOf:keySlots:)``).
  var names: NameTable?

  /// - Parameter keySlots: For each image, the slots of its keys (``ImageKeySlots``), or `nil`.
  init(images: [BinaryImage], frameImageNames: Set<String>, keySlots: [ImageKeySlots]? = nil) {
    self.images = images
    var filter = NameFilter()
    for name in frameImageNames { filter.insert(name) }
    ranges.reserveCapacity(images.count)
    let keySlots = keySlots?.count == images.count ? keySlots : nil
    /// Whether the key with this slot may be a frame's: a known slot outside the filter is not.
    func mayMatch(_ slot: Int16) -> Bool {
      slot == ImageKeySlots.unknownSlot || (slot >= 0 && filter.contains(slot: Int(slot)))
    }
    // With the slots, the address ranges come from them too, and the images are left once every
    // name is found.
    if let keySlots {
      for index in keySlots.indices where keySlots[index].hasRange {
        ranges.append((keySlots[index].base, keySlots[index].last, index))
      }
    }
    // Images are read in place, by index.
    for index in images.indices {
      if keySlots != nil && byName.count >= frameImageNames.count { break }
      if byName.count < frameImageNames.count {
        func add(_ key: String) {
          if filter.mayContain(key), frameImageNames.contains(key), byName[key] == nil {
            byName[key] = index
          }
        }
        let slots = keySlots?[index] ?? .unknown
        if mayMatch(slots.name), let name = images[index].name { add(name) }
        if mayMatch(slots.bundleID), let bundleID = images[index].bundleID { add(bundleID) }
        if mayMatch(slots.fileName), let path = images[index].path,
          let fileName = filter.fileNameIfMayContain(path)
        {
          add(fileName)
        }
      }
      if keySlots == nil, let base = images[index].base, let size = images[index].size, size > 0 {
        ranges.append((base, base &+ (size - 1), index))
      }
    }
    ranges.sort { $0.base < $1.base }
  }

  /// A 256-bit Bloom filter over (length, first byte, last byte) of the frames' image names: it
  /// turns most image keys away before they are hashed (or, for a path's file name, copied).
  struct NameFilter {
    var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    @inline(__always)
    static func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
      guard let first = bytes.first, let last = bytes.last else { return 0 }
      return (bytes.count &* 31 &+ Int(first) &* 7 &+ Int(last)) & 255
    }

    static func slot(of text: String) -> Int {
      text.utf8.withContiguousStorageIfAvailable(slot) ?? Array(text.utf8).withUnsafeBufferPointer(slot)
    }

    func contains(slot: Int) -> Bool {
      let mask = UInt64(1) << UInt64(slot & 63)
      switch slot >> 6 {
      case 0: return bits.0 & mask != 0
      case 1: return bits.1 & mask != 0
      case 2: return bits.2 & mask != 0
      default: return bits.3 & mask != 0
      }
    }

    mutating func insert(_ text: String) {
      let slot = Self.slot(of: text)
      let mask = UInt64(1) << UInt64(slot & 63)
      switch slot >> 6 {
      case 0: bits.0 |= mask
      case 1: bits.1 |= mask
      case 2: bits.2 |= mask
      default: bits.3 |= mask
      }
    }

    func mayContain(_ text: String) -> Bool { contains(slot: Self.slot(of: text)) }

    /// ``insert(_:)`` of the text whose UTF-8 is `name`.
    mutating func insert(name: UnsafeBufferPointer<UInt8>) {
      let slot = Self.slot(name)
      let mask = UInt64(1) << UInt64(slot & 63)
      switch slot >> 6 {
      case 0: bits.0 |= mask
      case 1: bits.1 |= mask
      case 2: bits.2 |= mask
      default: bits.3 |= mask
      }
    }

    /// `CrashReport.lastPathComponent(path)`, made only when the filter lets it through.
    func fileNameIfMayContain(_ path: String) -> String? {
      let fileName: (UnsafeBufferPointer<UInt8>) -> String? = { bytes in
        let start = bytes.lastIndex(of: 0x2F).map { $0 + 1 } ?? 0
        let name = UnsafeBufferPointer(rebasing: bytes[start...])
        return contains(slot: Self.slot(name)) ? String(decoding: name, as: UTF8.self) : nil
      }
      return path.utf8.withContiguousStorageIfAvailable(fileName)
        ?? Array(path.utf8).withUnsafeBufferPointer(fileName)
    }
  }

  /// The resolver of the frames of `threads` and `lastExceptionBacktrace` (a report's, passed
  /// on their own) when every image name a frame uses is ASCII, as is
  /// every image key that might be one: the
  /// names are then kept and compared as bytes (``NameTable``), which for ASCII text is `String`
  /// equality. `nil` otherwise (the caller then uses ``init(images:frameImageNames:keySlots:)``,
  /// which gives the same images for ASCII names).
  init?(
    images: [BinaryImage], threads: [CrashThread], lastExceptionBacktrace: [Frame]?, keySlots: [ImageKeySlots]?
  ) {
    let names = NameTable()
    for thread in threads.indices {
      // Neighbouring frames are mostly in one image: a name equal to the last one is not looked up.
      var last: String?
      for frame in threads[thread].frames.indices {
        if let name = threads[thread].frames[frame].imageName, name != last {
          guard names.insert(name) else { return nil }
          last = name
        }
      }
    }
    if let frames = lastExceptionBacktrace {
      for frame in frames.indices {
        if let name = frames[frame].imageName { guard names.insert(name) else { return nil } }
      }
    }
    self.images = images
    ranges.reserveCapacity(images.count)
    let keySlots = keySlots?.count == images.count ? keySlots : nil
    if let keySlots {
      for index in keySlots.indices where keySlots[index].hasRange {
        ranges.append((keySlots[index].base, keySlots[index].last, index))
      }
    }
    /// Whether the key with this slot may be a frame's: a known slot outside the filter is not.
    func mayMatch(_ slot: Int16) -> Bool {
      slot == ImageKeySlots.unknownSlot || (slot >= 0 && names.filter.contains(slot: Int(slot)))
    }
    // As in ``init(images:frameImageNames:keySlots:)``: the first image with a key wins.
    for index in images.indices {
      if keySlots != nil && names.found >= names.count { break }
      if names.found < names.count {
        let slots = keySlots?[index] ?? .unknown
        if mayMatch(slots.name), let name = images[index].name {
          guard names.assign(index, toName: name, fileNameOnly: false) else { return nil }
        }
        if mayMatch(slots.bundleID), let bundleID = images[index].bundleID {
          guard names.assign(index, toName: bundleID, fileNameOnly: false) else { return nil }
        }
        if mayMatch(slots.fileName), let path = images[index].path {
          guard names.assign(index, toName: path, fileNameOnly: true) else { return nil }
        }
      }
      if keySlots == nil, let base = images[index].base, let size = images[index].size, size > 0 {
        ranges.append((base, base &+ (size - 1), index))
      }
    }
    ranges.sort { $0.base < $1.base }
    self.names = names
  }

  /// The image names of a report's frames, kept as their UTF-8 (all ASCII) in an open-addressing
  /// table, each with the image it resolves to. A class, shared by the closures that look up
  /// a name's bytes. Its properties are not checked for exclusive access at run time: one resolver
  /// uses the table, on one thread, and no access to a property overlaps another.
  final class NameTable {
    struct Entry {
      var start: Int
      var count: Int
      var hash: UInt64
      /// The first image with this name as a key, or -1.
      var image: Int
    }
    /// The names' bytes, one after another.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    @exclusivity(unchecked) var entries: [Entry] = []
    /// Per slot, the index of its entry, or -1.
    @exclusivity(unchecked) var slots: [Int] = Array(repeating: -1, count: 64)
    /// How many names have their image.
    @exclusivity(unchecked) var found = 0
    @exclusivity(unchecked) var filter = NameFilter()

    var count: Int { entries.count }

    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
      guard key.count >= 8, let base = key.baseAddress else {
        var word = UInt64(truncatingIfNeeded: key.count) &* 0x9E37_79B9_7F4A_7C15
        for byte in key { word = (word ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return word ^ (word &>> 29)
      }
      return SharedTexts.hash(UnsafeRawPointer(base), key.count)
    }

    /// The entry holding `key`, or `nil`.
    func find(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] >= 0 {
        let entry = entries[slots[slot]]
        if entry.hash == hash && entry.count == key.count
          && bytes.withUnsafeBufferPointer({ stored in
            key.isEmpty || memcmp(stored.baseAddress! + entry.start, key.baseAddress!, key.count) == 0
          })
        {
          return slots[slot]
        }
        slot = (slot + 1) & mask
      }
      return nil
    }

    /// Adds `name` (a frame's image name); `false` when it is not ASCII.
    func insert(_ name: String) -> Bool {
      var name = name
      return name.withUTF8 { key in
        guard ByteSearch.isASCII(key) else { return false }
        let hash = Self.hash(key)
        if find(key, hash: hash) != nil { return true }
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append(Entry(start: bytes.count, count: key.count, hash: hash, image: -1))
        bytes.append(contentsOf: key)
        place(entries.count - 1)
        filter.insert(name: key)
        return true
      }
    }

    func place(_ entry: Int) {
      let mask = slots.count - 1
      var slot = Int(truncatingIfNeeded: entries[entry].hash) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }

    func grow() {
      slots = Array(repeating: -1, count: slots.count * 2)
      for entry in entries.indices { place(entry) }
    }

    /// Gives the name `key` (or, with `fileNameOnly`, the file name of the path `key`) the image
    /// `index` when a frame uses it and no image had it before. `false` when the key the filter
    /// lets through is not ASCII.
    func assign(_ index: Int, toName key: String, fileNameOnly: Bool) -> Bool {
      var key = key
      return key.withUTF8 { text in
        var name = text
        if fileNameOnly {
          let start = LegacyTextLine.lastIndex(of: 0x2F, in: text, 0..<text.count).map { $0 + 1 } ?? 0
          name = UnsafeBufferPointer(rebasing: text[start...])
        }
        guard filter.contains(slot: NameFilter.slot(name)) else { return true }
        guard ByteSearch.isASCII(name) else { return false }
        if let entry = find(name, hash: Self.hash(name)), entries[entry].image < 0 {
          entries[entry].image = index
          found += 1
        }
        return true
      }
    }

    /// The image of the frames named `name`, or `nil`.
    func image(named name: String) -> Int? {
      var name = name
      let entry = name.withUTF8 { find($0, hash: Self.hash($0)) }
      guard let entry, entries[entry].image >= 0 else { return nil }
      return entries[entry].image
    }
  }

  func imageIndex(containing address: UInt64) -> Int? {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].base <= address { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let candidate = ranges[low - 1]
    return address <= candidate.last ? candidate.index : nil
  }

  func contains(_ image: BinaryImage, _ address: UInt64) -> Bool {
    guard let base = image.base, let size = image.size else { return true }
    return address >= base && address - base < size
  }

  /// Fills each frame in place.
  func resolve(_ frames: inout [Frame]) {
    // Neighbouring frames are mostly in one image: the last name's lookup answers for an equal one.
    var lastName: String?
    var lastIndex: Int?
    for position in frames.indices {
      let address = frames[position].address
      var found: Int?
      var named: Int?
      if let name = frames[position].imageName {
        if name != lastName {
          lastName = name
          if let names { lastIndex = names.image(named: name) } else { lastIndex = byName[name] }
        }
        named = lastIndex
      }
      if let index = named {
        if let address, !contains(images[index], address), let byAddress = imageIndex(containing: address) {
          found = byAddress
        } else {
          found = index
        }
      } else if let address {
        found = imageIndex(containing: address)
      }
      guard let found else { continue }
      frames[position].imageIndex = found
      if let name = images[found].name { frames[position].imageName = name }
      if let base = images[found].base, let address, address >= base {
        frames[position].imageOffset = address - base
      }
    }
  }
}
