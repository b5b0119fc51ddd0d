import IPSDoctorSupport

/// The subprograms and inlined calls of one unit with their address ranges, in the order of the
/// unit's entries, found by one walk over it: asking about an address then reads no entry but the
/// few that contain it.
struct DWARFScopeIndex {
  struct Scope {
    /// The entry's offset in `.debug_info` (``DWARFUnit/entry(at:)``).
    var offset: UInt64
    var depth: Int
    var isSubprogram: Bool
    /// Sorted, overlaps joined (``DWARFRangeLists/normalized(_:)``); shared with every scope
    /// whose entry names the same list.
    var ranges: [AddressRange]
    /// The index of the first scope after this one's subtree: the scopes nested in it are those
    /// between it and this index.
    var subtreeEnd: Int
  }

  private(set) var scopes: [Scope] = []
  /// Every scope's ranges, sorted by start; `rangeScopes[i]` is the scope of `ranges.ranges[i]`.
  private var ranges = AddressIntervalIndex(sorted: [])
  private var rangeScopes: [Int] = []

  /// Bytes a scope holds besides its ranges, and each entry of the range index (charged).
  static let bytesPerScope = 48
  static let bytesPerIndexedRange = 24
  /// At most this many scopes containing one address are considered (nesting that deep is
  /// damage).
  static let maxContainingScopes = 1 << 12

  /// Walks `unit`'s entries (at most `maxEntries`), as ``DWARFSymbolizer`` walked them for each
  /// address: depth counts open children lists, and the walk ends with the root's children.
  /// `rangesOf` gives an entry's normalized ranges; the walk stops when `budget` is exhausted.
  init(
    _ unit: DWARFUnit, maxEntries: Int, budget: DWARFBudget, rangesOf: (DWARFEntry, DWARFUnit) -> [AddressRange]
  ) {
    var cursor = unit.unitCursor(at: unit.entriesStart)
    var depth = 0
    var count = 0
    // Scopes whose subtree is still open, innermost last.
    var open: [Int] = []
    func close(atDepth depth: Int) {
      while let last = open.last, scopes[last].depth >= depth {
        scopes[last].subtreeEnd = scopes.count
        open.removeLast()
      }
    }
    while !cursor.atEnd, count < maxEntries {
      count += 1
      let position = cursor.offset
      guard let code = cursor.uleb() else { break }
      if code == 0 {
        depth -= 1
        if depth <= 0 { break }
        continue
      }
      cursor.seek(position)
      guard let entry = unit.entry(&cursor) else { break }
      // An entry at this depth ends the subtree of every open scope at it or deeper.
      close(atDepth: depth)
      if entry.tag == DWARFCode.tagSubprogram || entry.tag == DWARFCode.tagInlinedSubroutine {
        let found = rangesOf(entry, unit)
        if !found.isEmpty {
          guard budget.charge(Self.bytesPerScope) else { break }
          open.append(scopes.count)
          scopes.append(
            Scope(
              offset: entry.offset, depth: depth, isSubprogram: entry.tag == DWARFCode.tagSubprogram, ranges: found,
              subtreeEnd: 0))
        }
      }
      if entry.hasChildren { depth += 1 }
      if depth == 0 { break }
    }
    close(atDepth: .min)
    var entries: [(range: AddressRange, scope: Int)] = []
    for (index, scope) in scopes.enumerated() {
      guard budget.charge(scope.ranges.count * Self.bytesPerIndexedRange) else { break }
      for range in scope.ranges { entries.append((range, index)) }
    }
    entries.sort { $0.range.low != $1.range.low ? $0.range.low < $1.range.low : $0.scope < $1.scope }
    self.ranges = AddressIntervalIndex(sorted: entries.map(\.range))
    rangeScopes = entries.map(\.scope)
  }

  /// The scopes that contain `address`, each nested in the one before it: the first scope in
  /// entry order that contains it, then the first inside that one's subtree, and so on. Only the
  /// scopes that contain the address are looked at (found in O(log n) each).
  func chain(containing address: UInt64) -> [(scope: Scope, low: UInt64)] {
    // A scope's ranges do not overlap (they were joined), so each range found is another scope.
    var containing: [Int] = []
    var below = ranges.count
    while containing.count < Self.maxContainingScopes, let position = ranges.lastContaining(address, below: below) {
      containing.append(rangeScopes[position])
      below = position
    }
    containing.sort()
    var chain: [(scope: Scope, low: UInt64)] = []
    var end = scopes.count
    for index in containing where index < end {
      let scope = scopes[index]
      guard let range = DWARFRangeLists.containing(address, in: scope.ranges) else { continue }
      chain.append((scope, scope.isSubprogram ? scope.ranges[0].low : range.low))
      end = scope.subtreeEnd
    }
    return chain
  }
}
