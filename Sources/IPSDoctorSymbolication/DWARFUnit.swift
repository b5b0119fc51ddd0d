import IPSDoctorSupport

/// DWARF attribute and tag codes used here.
enum DWARFCode {
  static let tagCompileUnit: UInt64 = 0x11, tagSubprogram: UInt64 = 0x2E
  static let tagInlinedSubroutine: UInt64 = 0x1D, tagPartialUnit: UInt64 = 0x3C, tagSkeletonUnit: UInt64 = 0x4A
  static let name: UInt64 = 0x03, stmtList: UInt64 = 0x10, lowPC: UInt64 = 0x11, highPC: UInt64 = 0x12
  static let compDir: UInt64 = 0x1B, abstractOrigin: UInt64 = 0x31, specification: UInt64 = 0x47
  static let ranges: UInt64 = 0x55, callFile: UInt64 = 0x58, callLine: UInt64 = 0x59
  static let linkageName: UInt64 = 0x6E, mipsLinkageName: UInt64 = 0x2007
  static let strOffsetsBase: UInt64 = 0x72, addrBase: UInt64 = 0x73, rnglistsBase: UInt64 = 0x74
}

/// One debugging information entry: its tag and attribute values, in declaration order.
struct DWARFEntry {
  var offset: UInt64
  var tag: UInt64
  var hasChildren: Bool
  var attributes: [(name: UInt64, value: DWARFValue)]

  subscript(name: UInt64) -> DWARFValue? { attributes.first { $0.name == name }?.value }
}

/// A unit of `.debug_info`: its header, abbreviations and the bases of its indexed forms.
struct DWARFUnit {
  let sections: DWARFSections
  let format: DWARFFormat
  let abbreviations: DWARFAbbreviations
  /// The first entry's offset, and the end of the unit (both in `.debug_info`).
  let entriesStart: Int
  let end: Int
  private(set) var root: DWARFEntry?
  var strOffsetsBase: UInt64 = 0
  var addrBase: UInt64 = 0
  var rnglistsBase: UInt64 = 0
  /// The unit's `low_pc`: the base of `.debug_ranges` and `offset_pair` entries.
  var baseAddress: UInt64 = 0

  /// Reads the unit at `offset`; `nil` when its header does not fit or is not DWARF 2–5.
  /// `abbreviationTable` reads (or recalls) the table at an offset: units share tables, and a
  /// file of many units pointing at one large table must not read it once per unit.
  init?(
    _ sections: DWARFSections, offset: Int,
    abbreviationTable: (UInt64) -> DWARFAbbreviations = { _ in DWARFAbbreviations() }
  ) {
    self.sections = sections
    var cursor = ByteCursor(sections.info, offset: offset)
    guard cursor.offset == offset, var length = cursor.u32().map(UInt64.init) else { return nil }
    var offsetSize = 4
    if length == 0xFFFF_FFFF {
      guard let wide = cursor.u64() else { return nil }
      length = wide
      offsetSize = 8
    }
    guard length <= UInt64(cursor.remaining) else { return nil }
    end = cursor.offset + Int(length)
    guard let version = cursor.u16(), (2...5).contains(version) else { return nil }
    var addressSize: Int
    let abbrevOffset: UInt64
    if version == 5 {
      guard let unitType = cursor.u8(), let size = cursor.u8(), let abbrev = cursor.unsigned(offsetSize)
      else { return nil }
      addressSize = Int(size)
      abbrevOffset = abbrev
      switch unitType {
      case 0x02, 0x06: cursor.skip(8 + offsetSize)  // type units: signature, type offset
      case 0x04, 0x05: cursor.skip(8)  // skeleton and split units: the DWO id
      default: break
      }
    } else {
      guard let abbrev = cursor.unsigned(offsetSize), let size = cursor.u8() else { return nil }
      addressSize = Int(size)
      abbrevOffset = abbrev
    }
    guard addressSize == 4 || addressSize == 8, cursor.offset <= end else { return nil }
    entriesStart = cursor.offset
    format = DWARFFormat(version: version, addressSize: addressSize, offsetSize: offsetSize, unitOffset: UInt64(offset))
    abbreviations = abbreviationTable(abbrevOffset)
    // The root entry first: its bases resolve the indexed forms of every entry, its own too.
    var rootCursor = unitCursor(at: entriesStart)
    root = entry(&rootCursor)
    if let root {
      strOffsetsBase = root[DWARFCode.strOffsetsBase]?.number ?? (version == 5 ? UInt64(8) : 0)
      addrBase = root[DWARFCode.addrBase]?.number ?? (version == 5 ? UInt64(8) : 0)
      rnglistsBase = root[DWARFCode.rnglistsBase]?.number ?? 0
      baseAddress = root[DWARFCode.lowPC].flatMap(address) ?? 0
    }
  }

  /// The offset of the unit after this one.
  var nextUnitOffset: Int { end }

  /// A cursor over this unit's bytes (so no entry is read past the unit), at `offset`.
  func unitCursor(at offset: Int) -> ByteCursor {
    let upper = min(end, sections.info.count)
    return ByteCursor(UnsafeRawBufferPointer(rebasing: sections.info[0..<upper]), offset: offset)
  }

  /// Reads the entry at the cursor; `nil` for a null entry (end of siblings) or damage, which the
  /// caller tells apart by `isNull`.
  func entry(_ cursor: inout ByteCursor) -> DWARFEntry? {
    let start = UInt64(cursor.offset)
    guard let code = cursor.uleb(), code != 0, let abbreviation = abbreviations[code] else { return nil }
    var attributes: [(name: UInt64, value: DWARFValue)] = []
    attributes.reserveCapacity(abbreviation.attributes.count)
    for attribute in abbreviation.attributes {
      guard let value = format.read(attribute.form, implicitConstant: attribute.implicitConstant, from: &cursor)
      else {
        cursor.seek(cursor.bytes.count)  // unknown form or truncated: the unit cannot be read on
        return nil
      }
      attributes.append((attribute.name, value))
    }
    return DWARFEntry(
      offset: start, tag: abbreviation.tag, hasChildren: abbreviation.hasChildren, attributes: attributes)
  }

  /// The entry at an absolute `.debug_info` offset inside this unit.
  func entry(at offset: UInt64) -> DWARFEntry? {
    guard offset >= UInt64(entriesStart), offset < UInt64(end) else { return nil }
    var cursor = unitCursor(at: Int(offset))
    return entry(&cursor)
  }

  // MARK: Resolving values

  func string(_ value: DWARFValue) -> String? {
    switch value {
    case .string(let text): return text
    case .stringOffset(let offset, let lineSection):
      return ByteCursor.cString(in: lineSection ? sections.lineStr : sections.str, at: Int(clamping: offset))
    case .stringIndex(let index):
      let size = UInt64(format.offsetSize)
      guard index < UInt64(Int32.max) else { return nil }
      var cursor = ByteCursor(sections.strOffsets)
      guard cursor.seek(Int(clamping: strOffsetsBase &+ index * size)), let offset = cursor.unsigned(Int(size))
      else { return nil }
      return ByteCursor.cString(in: sections.str, at: Int(clamping: offset))
    default: return nil
    }
  }

  func address(_ value: DWARFValue) -> UInt64? {
    switch value {
    case .address(let address): return address
    case .addressIndex(let index): return indexedAddress(index)
    default: return nil
    }
  }

  func indexedAddress(_ index: UInt64) -> UInt64? {
    guard index < UInt64(Int32.max) else { return nil }
    var cursor = ByteCursor(sections.addr)
    guard cursor.seek(Int(clamping: addrBase &+ index * UInt64(format.addressSize))) else { return nil }
    return cursor.unsigned(format.addressSize)
  }

  /// The address ranges of an entry: `low_pc`/`high_pc`, or `ranges`. Capped.
  func ranges(_ entry: DWARFEntry) -> [AddressRange] {
    if let low = entry[DWARFCode.lowPC].flatMap(address) {
      guard let high = entry[DWARFCode.highPC] else { return [AddressRange(low: low, high: low &+ 1)] }
      let end = high.isConstant ? low &+ (high.number ?? 0) : (address(high) ?? low)
      return end > low ? [AddressRange(low: low, high: end)] : []
    }
    guard let value = entry[DWARFCode.ranges] else { return [] }
    return DWARFRangeLists.read(value, unit: self)
  }
}
