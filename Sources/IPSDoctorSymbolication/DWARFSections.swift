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
}

/// A half-open address range `[low, high)`.
struct AddressRange: Equatable {
  var low: UInt64
  var high: UInt64

  func contains(_ address: UInt64) -> Bool { low <= address && address < high }
}
