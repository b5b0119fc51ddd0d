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

  /// Bytes a scope holds, besides its ranges (charged to the budget).
  static let bytesPerScope = 48

  /// Walks `unit`'s entries (at most `maxEntries`), as ``DWARFSymbolizer`` walked them for each
  /// address: depth counts open children lists, and the walk ends with the root's children.
  /// `ranges` gives an entry's normalized ranges; the walk stops when `budget` is exhausted.
  init(
    _ unit: DWARFUnit, maxEntries: Int, budget: DWARFBudget, ranges: (DWARFEntry, DWARFUnit) -> [AddressRange]
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
        let found = ranges(entry, unit)
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
  }

  /// The scopes that contain `address`, each nested in the one before it: the first scope in
  /// entry order that contains it, then the first inside that one's subtree, and so on.
  func chain(containing address: UInt64) -> [(scope: Scope, low: UInt64)] {
    var chain: [(scope: Scope, low: UInt64)] = []
    var index = 0
    var end = scopes.count
    while index < end {
      let scope = scopes[index]
      if let range = DWARFRangeLists.containing(address, in: scope.ranges) {
        chain.append((scope, scope.isSubprogram ? scope.ranges[0].low : range.low))
        end = scope.subtreeEnd
      }
      index += 1
    }
    return chain
  }
}
