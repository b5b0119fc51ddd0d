import IPSDoctorSupport

/// One source position of an address: a function, and where in it. An address in inlined code
/// has several, innermost first.
package struct SourceFrame: Sendable, Equatable {
  /// The function's linkage (mangled) name when it has one, else its name.
  package var function: String
  /// The last component of the file's path as the debug information gives it, or `nil` without
  /// line information.
  package var file: String?
  package var line: Int?

  package init(function: String, file: String?, line: Int?) {
    self.function = function
    self.file = file
    self.line = line
  }
}

/// Finds the functions, inlined calls, files and lines of addresses in a slice's DWARF.
/// Reads only the units that cover the addresses asked for. What it keeps is charged to a
/// ``DWARFBudget``; once that is exhausted it answers nothing more (``exceededBudget``).
final class DWARFSymbolizer {
  static let maxUnits = 1 << 20
  static let maxEntriesPerUnit = 1 << 22
  static let maxReferenceHops = 8
  /// At most this many units are tried for one address (units of a sound file do not overlap).
  static let maxUnitsPerAddress = 16
  /// Bytes an abbreviation declaration and an attribute of one hold (charged to the budget).
  static let bytesPerDeclaration = 64
  static let bytesPerAttribute = 24

  let sections: DWARFSections
  let budget: DWARFBudget
  /// The units' own ranges and `.debug_aranges`', indexed when first asked for.
  private var ownRanges: UnitRangeIndex?
  private var arangesRanges: UnitRangeIndex?
  /// Every unit's offset, ascending.
  private var unitOffsets: [Int] = []
  private var lineTables: [UInt64: DWARFLineTable] = [:]
  /// Each unit's scopes, by unit offset, indexed when an address in it is first asked for.
  private var scopeIndexes: [Int: DWARFScopeIndex] = [:]
  private var abbreviationTables: [UInt64: DWARFAbbreviations] = [:]
  /// Normalized range lists by where they are and what resolves them: entries that name one
  /// list share one array.
  private var rangeLists: [RangeListKey: [AddressRange]] = [:]

  struct RangeListKey: Hashable {
    var offset: UInt64
    var version5: Bool
    var base: UInt64
    var addrBase: UInt64
    var addressSize: Int
  }

  init(_ sections: DWARFSections) {
    self.sections = sections
    budget = DWARFBudget(inputBytes: sections.distinctByteCount)
  }

  /// Whether the DWARF was given up for keeping more than its budget allows.
  var exceededBudget: Bool { budget.isExhausted }

  /// The unit at `offset`, its abbreviation table read once per offset for the whole file.
  func unit(at offset: Int) -> DWARFUnit? {
    guard !budget.isExhausted else { return nil }
    let unit = DWARFUnit(sections, offset: offset) { tableOffset in
      if let known = self.abbreviationTables[tableOffset] { return known }
      let table = DWARFAbbreviations(self.sections.abbrev, offset: tableOffset)
      let held = table.declarationCount * Self.bytesPerDeclaration + table.attributeCount * Self.bytesPerAttribute
      guard self.budget.charge(held) else { return DWARFAbbreviations() }
      self.abbreviationTables[tableOffset] = table
      return table
    }
    return budget.isExhausted ? nil : unit
  }

  /// The source frames of `address` (innermost first) and the start of the outermost function,
  /// or `nil` when no unit covers it.
  func frames(at address: UInt64) -> (frames: [SourceFrame], functionStart: UInt64?)? {
    guard !sections.isEmpty else { return nil }
    for offset in unitsCovering(address) {
      guard let unit = unit(at: offset), let root = unit.root else { continue }
      if let result = frames(at: address, in: unit, at: offset, root: root) {
        return budget.isExhausted ? nil : result
      }
    }
    return nil
  }

  private func frames(at address: UInt64, in unit: DWARFUnit, at unitOffset: Int, root: DWARFEntry)
    -> (frames: [SourceFrame], functionStart: UInt64?)?
  {
    // The chain of subprograms and inlined calls that contain the address, outermost first:
    // DWARF nests them, so each one found is inside the previous.
    var chain: [(entry: DWARFEntry, low: UInt64)] = []
    for link in scopeIndex(unit, at: unitOffset).chain(containing: address) {
      guard let entry = unit.entry(at: link.scope.offset) else { break }
      chain.append((entry, link.low))
    }
    guard let outermost = chain.first(where: { $0.entry.tag == DWARFCode.tagSubprogram }) else {
      let table = lineTable(unit: unit, root: root)
      guard let row = table?.row(for: address) else { return nil }
      return ([SourceFrame(function: "", file: table?.fileName(row.file), line: Int(row.line))], nil)
    }
    let start = chain.firstIndex { $0.entry.offset == outermost.entry.offset } ?? 0
    let nested = Array(chain[start...])
    let table = lineTable(unit: unit, root: root)
    var frames: [SourceFrame] = []
    // Innermost: the line table's row. Each outer frame: the call site of the one inside it.
    var file: String? = nil
    var line: Int? = nil
    if let row = table?.row(for: address) {
      file = table?.fileName(row.file)
      line = Int(row.line)
    }
    for element in nested.reversed() {
      frames.append(SourceFrame(function: name(of: element.entry, unit: unit) ?? "", file: file, line: line))
      file = element.entry[DWARFCode.callFile]?.number.flatMap { UInt32(exactly: $0) }.flatMap { table?.fileName($0) }
      line = element.entry[DWARFCode.callLine]?.number.map { Int(clamping: $0) }
    }
    return (frames, outermost.low)
  }

  /// The linkage name, else the name, following `abstract_origin` and `specification` a few hops.
  func name(of entry: DWARFEntry, unit: DWARFUnit) -> String? {
    var current = entry
    var currentUnit = unit
    var plain: String?
    for _ in 0..<Self.maxReferenceHops {
      if let value = current[DWARFCode.linkageName] ?? current[DWARFCode.mipsLinkageName],
        let text = currentUnit.string(value)
      {
        return text
      }
      if plain == nil, let value = current[DWARFCode.name] { plain = currentUnit.string(value) }
      guard case .reference(let target)? = current[DWARFCode.abstractOrigin] ?? current[DWARFCode.specification]
      else { break }
      if currentUnit.entry(at: target) == nil, let other = unitContaining(offset: target) { currentUnit = other }
      guard let next = currentUnit.entry(at: target) else { break }
      current = next
    }
    return plain
  }

  /// The unit that starts last at or before `offset`. O(log units).
  private func unitContaining(offset: UInt64) -> DWARFUnit? {
    buildIndex()
    var low = 0
    var high = unitOffsets.count
    while low < high {
      let middle = low + (high - low) / 2
      if UInt64(unitOffsets[middle]) <= offset { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : unit(at: unitOffsets[low - 1])
  }

  /// The normalized ranges of `entry` of `unit`: `low_pc`/`high_pc`, or its range list, read once
  /// per list for every entry that names it.
  func ranges(of entry: DWARFEntry, unit: DWARFUnit) -> [AddressRange] {
    guard entry[DWARFCode.lowPC] == nil, let value = entry[DWARFCode.ranges] else { return unit.ranges(entry) }
    guard let offset = DWARFRangeLists.location(of: value, unit: unit) else { return [] }
    let key = RangeListKey(
      offset: offset, version5: unit.format.version >= 5, base: unit.baseAddress, addrBase: unit.addrBase,
      addressSize: unit.format.addressSize)
    if let known = rangeLists[key] { return known }
    let list = DWARFRangeLists.normalized(DWARFRangeLists.read(at: offset, unit: unit))
    guard budget.charge(64 + list.count * MemoryLayout<AddressRange>.stride) else { return [] }
    rangeLists[key] = list
    return list
  }

  private func scopeIndex(_ unit: DWARFUnit, at offset: Int) -> DWARFScopeIndex {
    if let known = scopeIndexes[offset] { return known }
    let index = DWARFScopeIndex(unit, maxEntries: Self.maxEntriesPerUnit, budget: budget) { entry, unit in
      self.ranges(of: entry, unit: unit)
    }
    scopeIndexes[offset] = index
    return index
  }

  private func lineTable(unit: DWARFUnit, root: DWARFEntry) -> DWARFLineTable? {
    guard let offset = root[DWARFCode.stmtList]?.number else { return nil }
    if let cached = lineTables[offset] { return cached }
    guard !budget.isExhausted else { return nil }
    let table = DWARFLineTable(sections, offset: offset, unit: unit)
    guard budget.charge(table.heldBytes + table.fileCount * 48) else { return nil }
    lineTables[offset] = table
    return table
  }

  /// The units whose ranges contain `address` (at most ``maxUnitsPerAddress`` from each source),
  /// in unit order: first from the units' own ranges, then from `.debug_aranges`.
  /// O(log ranges) per unit found.
  private func unitsCovering(_ address: UInt64) -> [Int] {
    buildIndex()
    var result: [Int] = []
    for index in [ownRanges, arangesRanges] {
      for unit in index?.units(containing: address, limit: Self.maxUnitsPerAddress) ?? [] where !result.contains(unit) {
        result.append(unit)
      }
    }
    return result
  }

  private func buildIndex() {
    guard ownRanges == nil else { return }
    var own: [(range: AddressRange, group: Int)] = []
    var groups: [[Int]] = []
    // Units whose root names one range list share one group, its ranges indexed once.
    var groupOfList: [RangeListKey: Int] = [:]
    var offset = 0
    var offsets: [Int] = []
    while offset < sections.info.count, offsets.count < Self.maxUnits {
      guard let unit = unit(at: offset) else { break }
      offsets.append(offset)
      if let root = unit.root {
        let key = rangeListKey(of: root, unit: unit)
        if let key, let group = groupOfList[key] {
          guard budget.charge(8) else { break }
          groups[group].append(offset)
        } else {
          let ranges = ranges(of: root, unit: unit)
          guard budget.charge(ranges.count * 24 + 32) else { break }
          if let key { groupOfList[key] = groups.count }
          for range in ranges { own.append((range, groups.count)) }
          groups.append([offset])
        }
      }
      guard unit.nextUnitOffset > offset else { break }
      offset = unit.nextUnitOffset
    }
    unitOffsets = offsets
    ownRanges = UnitRangeIndex(own, groups: groups)
    let aranges = DWARFArangesReader.read(sections.aranges)
    guard budget.charge(aranges.count * 24) else {
      arangesRanges = UnitRangeIndex([], groups: [])
      return
    }
    // One group per unit: `.debug_aranges` may name a unit in many sets.
    var groupOfUnit: [Int: Int] = [:]
    var units: [[Int]] = []
    var entries: [(range: AddressRange, group: Int)] = []
    for item in aranges {
      let group = groupOfUnit[item.offset] ?? units.count
      if group == units.count {
        groupOfUnit[item.offset] = group
        units.append([item.offset])
      }
      entries.append((item.range, group))
    }
    arangesRanges = UnitRangeIndex(entries, groups: units)
  }

  /// Where the range list of a unit's root is, when it has one.
  private func rangeListKey(of root: DWARFEntry, unit: DWARFUnit) -> RangeListKey? {
    guard root[DWARFCode.lowPC] == nil, let value = root[DWARFCode.ranges],
      let offset = DWARFRangeLists.location(of: value, unit: unit)
    else { return nil }
    return RangeListKey(
      offset: offset, version5: unit.format.version >= 5, base: unit.baseAddress, addrBase: unit.addrBase,
      addressSize: unit.format.addressSize)
  }
}

/// Address ranges of groups of units (units that share one range list are one group), each
/// group's ranges joined where they overlap, sorted by start in an ``AddressIntervalIndex``.
struct UnitRangeIndex {
  private let index: AddressIntervalIndex
  /// The group of `index.ranges[i]`.
  private let groupOfRange: [Int]
  private let groups: [[Int]]

  init(_ entries: [(range: AddressRange, group: Int)], groups: [[Int]]) {
    var sorted = entries
    sorted.sort { $0.group != $1.group ? $0.group < $1.group : $0.range.low < $1.range.low }
    var joined: [(range: AddressRange, group: Int)] = []
    for entry in sorted {
      if let last = joined.last, last.group == entry.group, entry.range.low <= last.range.high {
        joined[joined.count - 1].range.high = max(last.range.high, entry.range.high)
      } else {
        joined.append(entry)
      }
    }
    joined.sort { $0.range.low != $1.range.low ? $0.range.low < $1.range.low : $0.group > $1.group }
    index = AddressIntervalIndex(sorted: joined.map(\.range))
    groupOfRange = joined.map(\.group)
    self.groups = groups
  }

  /// At most `limit` units whose group's ranges contain `address`, in unit order. A group's
  /// ranges do not overlap (they were joined), so each range found is another group: O(log n)
  /// per group.
  func units(containing address: UInt64, limit: Int) -> [Int] {
    var found: [Int] = []
    var below = index.count
    while found.count < limit, let position = index.lastContaining(address, below: below) {
      found += groups[groupOfRange[position]].prefix(limit - found.count)
      below = position
    }
    return found.sorted()
  }
}

/// `.debug_aranges`: address ranges and the unit that covers each.
enum DWARFArangesReader {
  static let maxRanges = 1 << 20

  package static func read(_ section: UnsafeRawBufferPointer) -> [(range: AddressRange, offset: Int)] {
    var result: [(range: AddressRange, offset: Int)] = []
    var cursor = ByteCursor(section)
    while !cursor.atEnd, result.count < maxRanges {
      let start = cursor.offset
      guard var length = cursor.u32().map(UInt64.init) else { break }
      var offsetSize = 4
      if length == 0xFFFF_FFFF {
        guard let wide = cursor.u64() else { break }
        length = wide
        offsetSize = 8
      }
      guard length <= UInt64(cursor.remaining), length > 0 else { break }
      let end = cursor.offset + Int(length)
      guard cursor.u16() != nil, let unit = cursor.unsigned(offsetSize), let addressSize = cursor.u8(),
        cursor.skip(1), addressSize == 4 || addressSize == 8
      else { break }
      // Tuples start at a multiple of twice the address size from the set's start.
      let tupleSize = 2 * Int(addressSize)
      let header = cursor.offset - start
      cursor.skip((tupleSize - header % tupleSize) % tupleSize)
      while cursor.offset + tupleSize <= end, result.count < maxRanges {
        guard let low = cursor.unsigned(Int(addressSize)), let length = cursor.unsigned(Int(addressSize)) else { break }
        if low == 0 && length == 0 { break }
        if length > 0 { result.append((AddressRange(low: low, high: low &+ length), Int(clamping: unit))) }
      }
      cursor.seek(end)
      guard end > start else { break }
    }
    return result
  }
}
