/// How much of a document the tape keeps, for documents too large to keep whole in memory.
///
/// Every value is still read and validated; a value that is not kept leaves no entry on the tape,
/// and the container it was in records how many it lost (``JSONOmission``). Containers are never
/// dropped half-way: a kept container holds the first of its values, in order.
///
/// - An array keeps its first ``maxArrayElements`` elements.
/// - Once the tape holds ``outlineEntries`` entries, elements of arrays at depth
///   ``outlineDepth`` or deeper are no longer kept: the document's outline (its top-level members
///   and the elements of their arrays) stays, its nested lists are cut.
/// - Once the tape holds ``maxEntries`` entries, no further value is kept.
///
/// - An element past an array's limit that is an object with a member named ``marker`` whose
///   value is `true` (a report's crashed thread) is kept anyway, up to ``maxMarked`` of them.
///
/// So the tape never holds more than ``maxEntries`` entries plus the open containers.
package struct JSONTapeBudget: Sendable, Equatable {
  package var maxArrayElements: Int
  package var outlineEntries: Int
  /// The depth of an array inside the root (1), a member of the root (2), …
  package var outlineDepth: Int
  package var maxEntries: Int
  /// A member name, as its bytes in the document (no escapes).
  package var marker: [UInt8]
  package var maxMarked: Int

  package init(
    maxArrayElements: Int, outlineEntries: Int, outlineDepth: Int, maxEntries: Int, marker: String = "",
    maxMarked: Int = 0
  ) {
    self.maxArrayElements = maxArrayElements
    self.outlineEntries = outlineEntries
    self.outlineDepth = outlineDepth
    self.maxEntries = maxEntries
    self.marker = Array(marker.utf8)
    self.maxMarked = maxMarked
  }
}

/// Values of one container that a ``JSONTapeBudget`` did not keep.
package struct JSONOmission: Sendable, Equatable {
  /// The container's tape index.
  package var index: Int
  /// How many of its elements or members were read and not kept (their own contents aside).
  package var count: Int

  package init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }
}
