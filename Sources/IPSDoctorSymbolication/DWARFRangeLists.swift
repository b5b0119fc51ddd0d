import IPSDoctorSupport

/// `DW_AT_ranges`: `.debug_ranges` (DWARF 2–4) and `.debug_rnglists` (DWARF 5).
enum DWARFRangeLists {
  static let maxEntries = 1 << 16

  /// Where the list of `value` starts: an offset into `.debug_ranges` (DWARF 2–4) or
  /// `.debug_rnglists` (DWARF 5), or `nil` when `value` names none.
  static func location(of value: DWARFValue, unit: DWARFUnit) -> UInt64? {
    guard unit.format.version >= 5, case .rangeListIndex(let index) = value else { return value.number }
    var table = ByteCursor(unit.sections.rnglists)
    let size = UInt64(unit.format.offsetSize)
    guard index < UInt64(Int32.max), table.seek(Int(clamping: unit.rnglistsBase &+ index * size)),
      let relative = table.unsigned(Int(size))
    else { return nil }
    return unit.rnglistsBase &+ relative
  }

  /// The ranges of the list at `offset` (``location(of:unit:)``), in the list's order.
  static func read(at offset: UInt64, unit: DWARFUnit) -> [AddressRange] {
    unit.format.version >= 5 ? rangeList(at: offset, unit: unit) : legacy(at: offset, unit: unit)
  }

  package static func read(_ value: DWARFValue, unit: DWARFUnit) -> [AddressRange] {
    location(of: value, unit: unit).map { read(at: $0, unit: unit) } ?? []
  }

  /// `ranges` sorted by start with overlapping ones joined: what ``containing(_:in:)`` searches.
  static func normalized(_ ranges: [AddressRange]) -> [AddressRange] {
    var result: [AddressRange] = []
    for range in ranges.sorted(by: { $0.low < $1.low }) {
      if let last = result.last, range.low < last.high {
        result[result.count - 1].high = max(last.high, range.high)
      } else {
        result.append(range)
      }
    }
    return result
  }

  /// The range of `normalized` ranges (``normalized(_:)``) that contains `address`. O(log n).
  static func containing(_ address: UInt64, in ranges: [AddressRange]) -> AddressRange? {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = low + (high - low) / 2
      if ranges[middle].low <= address { low = middle + 1 } else { high = middle }
    }
    return low > 0 && ranges[low - 1].contains(address) ? ranges[low - 1] : nil
  }

  private static func legacy(at offset: UInt64, unit: DWARFUnit) -> [AddressRange] {
    var cursor = ByteCursor(unit.sections.ranges)
    guard cursor.seek(Int(clamping: offset)) else { return [] }
    let size = unit.format.addressSize
    let largest: UInt64 = size == 8 ? .max : 0xFFFF_FFFF
    var base = unit.baseAddress
    var result: [AddressRange] = []
    for _ in 0..<maxEntries {
      guard let start = cursor.unsigned(size), let end = cursor.unsigned(size) else { break }
      if start == 0 && end == 0 { break }
      if start == largest {
        base = end
      } else if end > start {
        result.append(AddressRange(low: base &+ start, high: base &+ end))
      }
    }
    return result
  }

  private static func rangeList(at offset: UInt64, unit: DWARFUnit) -> [AddressRange] {
    var cursor = ByteCursor(unit.sections.rnglists)
    guard cursor.seek(Int(clamping: offset)) else { return [] }
    var base = unit.baseAddress
    var result: [AddressRange] = []
    func add(_ low: UInt64?, _ high: UInt64?) {
      if let low, let high, high > low { result.append(AddressRange(low: low, high: high)) }
    }
    let size = unit.format.addressSize
    for _ in 0..<maxEntries {
      guard let kind = cursor.u8() else { break }
      switch kind {
      case 0: return result  // end_of_list
      case 1: base = cursor.uleb().flatMap(unit.indexedAddress) ?? base  // base_addressx
      case 2:  // startx_endx
        let start = cursor.uleb().flatMap(unit.indexedAddress)
        add(start, cursor.uleb().flatMap(unit.indexedAddress))
      case 3:  // startx_length
        let start = cursor.uleb().flatMap(unit.indexedAddress)
        let length = cursor.uleb()
        add(start, start.flatMap { s in length.map { s &+ $0 } })
      case 4:  // offset_pair
        let start = cursor.uleb()
        let end = cursor.uleb()
        add(start.map { base &+ $0 }, end.map { base &+ $0 })
      case 5: base = cursor.unsigned(size) ?? base  // base_address
      case 6:  // start_end
        let start = cursor.unsigned(size)
        add(start, cursor.unsigned(size))
      case 7:  // start_length
        let start = cursor.unsigned(size)
        let length = cursor.uleb()
        add(start, start.flatMap { s in length.map { s &+ $0 } })
      default: return result
      }
      if cursor.atEnd { break }
    }
    return result
  }
}
