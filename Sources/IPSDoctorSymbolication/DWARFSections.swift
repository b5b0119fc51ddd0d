import IPSDoctorSupport

/// The DWARF sections of one Mach-O slice (empty buffers for absent ones).
struct DWARFSections {
  var info, abbrev, line, lineStr, str, strOffsets, addr, ranges, rnglists, aranges: UnsafeRawBufferPointer

  init(_ slice: MachOSlice) {
    info = slice.dwarf("info")
    abbrev = slice.dwarf("abbrev")
    line = slice.dwarf("line")
    lineStr = slice.dwarf("line_str")
    str = slice.dwarf("str")
    strOffsets = slice.dwarf("str_offsets")
    addr = slice.dwarf("addr")
    ranges = slice.dwarf("ranges")
    rnglists = slice.dwarf("rnglists")
    aranges = slice.dwarf("aranges")
  }

  var isEmpty: Bool { info.isEmpty }

  /// The bytes the sections cover, each byte once: a damaged file may declare several sections
  /// over the same bytes, and what the reader may keep is bounded by the file, not by the sum.
  var distinctByteCount: Int {
    Self.distinctByteCount([info, abbrev, line, lineStr, str, strOffsets, addr, ranges, rnglists, aranges])
  }

  /// The size of the union of `buffers`' byte ranges.
  static func distinctByteCount(_ buffers: [UnsafeRawBufferPointer]) -> Int {
    let spans = buffers.compactMap { buffer -> (start: UInt, end: UInt)? in
      guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
      let start = UInt(bitPattern: base)
      return (start, start + UInt(buffer.count))
    }.sorted { $0.start < $1.start }
    var total: UInt = 0
    var covered: UInt = 0  // the end of what is counted so far
    for span in spans where span.end > covered {
      total += span.end - max(span.start, covered)
      covered = span.end
    }
    return Int(total)
  }
}

/// A half-open address range `[low, high)`.
struct AddressRange: Equatable {
  var low: UInt64
  var high: UInt64

  func contains(_ address: UInt64) -> Bool { low <= address && address < high }
}
