import IPSDoctorSupport

/// One source position of an address: a function, and where in it. An address in inlined code
/// has several, innermost first.
package struct SourceFrame: Sendable, Equatable {
  /// The function's linkage (mangled) name when it has one, else its name.
  package var function: String
  /// The path as the debug information gives it, or `nil` without line information.
  package var file: String?
  package var line: Int?

  package init(function: String, file: String?, line: Int?) {
    self.function = function
    self.file = file
    self.line = line
  }
}

/// Finds the functions, inlined calls, files and lines of addresses in a slice's DWARF.
/// Reads only the units that cover the addresses asked for.
final class DWARFSymbolizer {
  static let maxUnits = 1 << 20
  static let maxEntriesPerUnit = 1 << 22
  static let maxReferenceHops = 8

  let sections: DWARFSections
  private var unitIndex: [(range: AddressRange, offset: Int)]?
  private var unitOffsets: [Int] = []
  private var lineTables: [UInt64: DWARFLineTable] = [:]
  /// Each unit's scopes, by unit offset, indexed when an address in it is first asked for.
  private var scopeIndexes: [Int: DWARFScopeIndex] = [:]

  init(_ sections: DWARFSections) {
    self.sections = sections
  }

  private var abbreviationTables: [UInt64: DWARFAbbreviations] = [:]

  /// The unit at `offset`, its abbreviation table read once per offset for the whole file.
  func unit(at offset: Int) -> DWARFUnit? {
    DWARFUnit(sections, offset: offset) { tableOffset in
      if let known = self.abbreviationTables[tableOffset] { return known }
      let table = DWARFAbbreviations(self.sections.abbrev, offset: tableOffset)
      self.abbreviationTables[tableOffset] = table
      return table
    }
  }

  /// The source frames of `address` (innermost first) and the start of the outermost function,
  /// or `nil` when no unit covers it.
  func frames(at address: UInt64) -> (frames: [SourceFrame], functionStart: UInt64?)? {
    guard !sections.isEmpty else { return nil }
    for offset in unitsCovering(address) {
      guard let unit = unit(at: offset), let root = unit.root else { continue }
      if let result = frames(at: address, in: unit, at: offset, root: root) { return result }
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
      file = element.entry[DWARFCode.callFile]?.number.flatMap { table?.fileName($0) }
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

  private func unitContaining(offset: UInt64) -> DWARFUnit? {
    buildIndex()
    var candidate: Int?
    for start in unitOffsets where UInt64(start) <= offset { candidate = start }
    return candidate.flatMap { unit(at: $0) }
  }

  private func scopeIndex(_ unit: DWARFUnit, at offset: Int) -> DWARFScopeIndex {
    if let known = scopeIndexes[offset] { return known }
    let index = DWARFScopeIndex(unit, maxEntries: Self.maxEntriesPerUnit)
    scopeIndexes[offset] = index
    return index
  }

  private func lineTable(unit: DWARFUnit, root: DWARFEntry) -> DWARFLineTable? {
    guard let offset = root[DWARFCode.stmtList]?.number else { return nil }
    if let cached = lineTables[offset] { return cached }
    let table = DWARFLineTable(sections, offset: offset, unit: unit)
    lineTables[offset] = table
    return table
  }

  /// The units whose ranges contain `address`: from `.debug_aranges` when it names any, else
  /// from each unit's root entry.
  private func unitsCovering(_ address: UInt64) -> [Int] {
    buildIndex()
    var result: [Int] = []
    for item in unitIndex ?? [] where item.range.contains(address) && !result.contains(item.offset) {
      result.append(item.offset)
    }
    return result
  }

  private func buildIndex() {
    guard unitIndex == nil else { return }
    var index: [(range: AddressRange, offset: Int)] = []
    var offset = 0
    var offsets: [Int] = []
    while offset < sections.info.count, offsets.count < Self.maxUnits {
      guard let unit = unit(at: offset) else { break }
      offsets.append(offset)
      if let root = unit.root {
        for range in unit.ranges(root) { index.append((range, offset)) }
      }
      guard unit.nextUnitOffset > offset else { break }
      offset = unit.nextUnitOffset
    }
    index.append(contentsOf: DWARFArangesReader.read(sections.aranges))
    unitOffsets = offsets
    unitIndex = index
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
