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
  /// The units' ranges (their own and `.debug_aranges`'), each unit's overlapping ones joined,
  /// sorted by start; `unitIndexOffsets[i]` is the unit of `unitIndex.ranges[i]`.
  private var unitIndex: AddressIntervalIndex?
  private var unitIndexOffsets: [Int] = []
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
    let sizes = [
      sections.info, sections.abbrev, sections.line, sections.lineStr, sections.str, sections.strOffsets,
      sections.addr, sections.ranges, sections.rnglists, sections.aranges,
    ].reduce(0) { $0 + $1.count }
    budget = DWARFBudget(inputBytes: sizes)
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
    guard budget.charge(table.rowCount * DWARFLineTable.bytesPerRow + table.fileCount * 48) else { return nil }
    lineTables[offset] = table
    return table
  }

  /// The units whose ranges contain `address` (at most ``maxUnitsPerAddress``), in unit order:
  /// from each unit's root entry and from `.debug_aranges`. O(log ranges) per unit found.
  private func unitsCovering(_ address: UInt64) -> [Int] {
    buildIndex()
    guard let unitIndex else { return [] }
    var result: [Int] = []
    var limit = unitIndex.count
    // A unit's own ranges do not overlap (they were joined), so each range found is another unit.
    while result.count < Self.maxUnitsPerAddress, let found = unitIndex.lastContaining(address, below: limit) {
      result.append(unitIndexOffsets[found])
      limit = found
    }
    return result.sorted()
  }

  private func buildIndex() {
    guard unitIndex == nil else { return }
    var entries: [(range: AddressRange, offset: Int)] = []
    var offset = 0
    var offsets: [Int] = []
    while offset < sections.info.count, offsets.count < Self.maxUnits {
      guard let unit = unit(at: offset) else { break }
      offsets.append(offset)
      if let root = unit.root {
        let ranges = ranges(of: root, unit: unit)
        guard budget.charge(ranges.count * 24) else { break }
        for range in ranges { entries.append((range, offset)) }
      }
      guard unit.nextUnitOffset > offset else { break }
      offset = unit.nextUnitOffset
    }
    let aranges = DWARFArangesReader.read(sections.aranges)
    if budget.charge(aranges.count * 24) { entries += aranges }
    // Each unit's ranges joined where they overlap (`.debug_aranges` repeats the units' own), then
    // all of them sorted by start.
    entries.sort { $0.offset != $1.offset ? $0.offset < $1.offset : $0.range.low < $1.range.low }
    var joined: [(range: AddressRange, offset: Int)] = []
    for entry in entries {
      if let last = joined.last, last.offset == entry.offset, entry.range.low <= last.range.high {
        joined[joined.count - 1].range.high = max(last.range.high, entry.range.high)
      } else {
        joined.append(entry)
      }
    }
    joined.sort { $0.range.low != $1.range.low ? $0.range.low < $1.range.low : $0.offset < $1.offset }
    unitOffsets = offsets
    unitIndexOffsets = joined.map(\.offset)
    unitIndex = AddressIntervalIndex(sorted: joined.map(\.range))
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
