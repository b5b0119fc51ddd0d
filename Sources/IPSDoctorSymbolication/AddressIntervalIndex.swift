import IPSDoctorSupport

/// Non-empty address ranges sorted by start, answering "the last range before a position that
/// contains an address" in O(log n), however the ranges overlap.
///
/// Invariants: `ranges` is sorted by `low` (ties keep the order given) and holds no empty range;
/// `maxHigh` is empty when no two ranges overlap (then the highs are sorted too), else it is a
/// segment tree of the highs: node 1 is the root, node `n`'s children are `2n` and `2n + 1`, and
/// leaf `i` is node `leafCount + i`.
struct AddressIntervalIndex {
  let ranges: [AddressRange]
  private let maxHigh: [UInt64]
  private let leafCount: Int

  /// `ranges` sorted by `low` (stably); empty ones are dropped by the caller.
  init(sorted ranges: [AddressRange]) {
    self.ranges = ranges
    var overlapping = false
    for index in ranges.indices.dropFirst() where ranges[index - 1].high > ranges[index].low {
      overlapping = true
      break
    }
    guard overlapping else {
      maxHigh = []
      leafCount = 0
      return
    }
    var leaves = 1
    while leaves < ranges.count { leaves *= 2 }
    var tree = [UInt64](repeating: 0, count: 2 * leaves)
    for (index, range) in ranges.enumerated() { tree[leaves + index] = range.high }
    for node in stride(from: leaves - 1, through: 1, by: -1) { tree[node] = max(tree[2 * node], tree[2 * node + 1]) }
    maxHigh = tree
    leafCount = leaves
  }

  var count: Int { ranges.count }
  /// The bytes of the segment tree (none when no ranges overlap).
  var treeBytes: Int { maxHigh.count * MemoryLayout<UInt64>.stride }

  /// How many ranges start at or before `address`.
  func startCount(atOrBefore address: UInt64) -> Int {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = low + (high - low) / 2
      if ranges[middle].low <= address { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The greatest index below `limit` whose range contains `address`: of the ranges that contain
  /// it, the one that starts last (the last given of those that start together).
  func lastContaining(_ address: UInt64, below limit: Int? = nil) -> Int? {
    let bound = min(limit ?? ranges.count, startCount(atOrBefore: address))
    guard bound > 0 else { return nil }
    if maxHigh.isEmpty {
      // Disjoint and sorted: only the last range starting at or before the address can hold it.
      return ranges[bound - 1].contains(address) ? bound - 1 : nil
    }
    // Every range below `bound` starts at or before the address: it holds the address when its
    // high is above it.
    return rightmost(node: 1, from: 0, to: leafCount, below: bound, above: address)
  }

  /// The greatest leaf in `from ..< to` (node `node`'s leaves) and below `limit` whose high is
  /// above `address`. Depth is the tree's height (at most 64).
  private func rightmost(node: Int, from: Int, to: Int, below limit: Int, above address: UInt64) -> Int? {
    guard from < limit, maxHigh[node] > address else { return nil }
    if to - from == 1 { return from }
    let middle = from + (to - from) / 2
    return rightmost(node: 2 * node + 1, from: middle, to: to, below: limit, above: address)
      ?? rightmost(node: 2 * node, from: from, to: middle, below: limit, above: address)
  }
}
