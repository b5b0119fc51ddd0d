import IPSDoctorSupport

/// A unit's line-number program (`.debug_line`, DWARF 2–5), run into rows and indexed by address.
struct DWARFLineTable {
  /// One row: the position of the addresses from the row's up to the next row's in its sequence.
  struct Row {
    var file: UInt32
    var line: UInt32
  }

  static let maxFiles = 1 << 16
  static let maxRows = 1 << 22
  /// Bytes held per row: its range and its position.
  static let bytesPerRow = MemoryLayout<AddressRange>.stride + MemoryLayout<Row>.stride

  /// The bytes the table holds in rows and their index (charged to the budget).
  var heldBytes: Int { rows.count * Self.bytesPerRow + spans.treeBytes }

  /// Each file's name as the program gives it (`DW_LNCT_path`, or the file entry's name), by the
  /// program's file number (1-based before DWARF 5, 0-based from it). Read when asked for
  /// (``fileName(_:)``): a table may name thousands of files that no address asked for uses.
  private var fileNames: [UInt32: DWARFValue] = [:]
  /// The unit the program is of: string forms of the names resolve through it.
  private let unit: DWARFUnit?
  /// The rows' address ranges, sorted by start, and each one's position (`rows[i]` is that of
  /// `spans.ranges[i]`).
  private(set) var spans = AddressIntervalIndex(sorted: [])
  private var rows: [Row] = []
  /// How many files the program names.
  var fileCount: Int { fileNames.count }

  /// Reads the program at `offset`; a damaged one yields the rows read before the damage.
  init(_ sections: DWARFSections, offset: UInt64, unit: DWARFUnit) {
    self.unit = unit
    var ranges: [AddressRange] = []
    var positions: [Row] = []
    var previous: (address: UInt64, row: Row, endSequence: Bool)?
    // A row covers its address up to the next row's in one sequence; rows at one address cover
    // nothing but the last.
    readProgram(sections, offset: offset, unit: unit) { address, row, endSequence in
      if let before = previous, !before.endSequence, before.address < address {
        ranges.append(AddressRange(low: before.address, high: address))
        positions.append(before.row)
      }
      previous = (address, row, endSequence)
    }
    if !ranges.indices.dropFirst().allSatisfy({ ranges[$0 - 1].low <= ranges[$0].low }) {
      // Sorted by start; of ranges that start together, the program's later one last.
      let order = ranges.indices.sorted { ranges[$0].low != ranges[$1].low ? ranges[$0].low < ranges[$1].low : $0 < $1 }
      ranges = order.map { ranges[$0] }
      positions = order.map { positions[$0] }
    }
    spans = AddressIntervalIndex(sorted: ranges)
    rows = positions
  }

  /// Runs the program, giving each row to `emit` (at most ``maxRows``).
  private mutating func readProgram(
    _ sections: DWARFSections, offset: UInt64, unit: DWARFUnit,
    emit emitRow: (UInt64, Row, Bool) -> Void
  ) {
    var cursor = ByteCursor(sections.line)
    guard cursor.seek(Int(clamping: offset)), var length = cursor.u32().map(UInt64.init) else { return }
    var offsetSize = 4
    if length == 0xFFFF_FFFF {
      guard let wide = cursor.u64() else { return }
      length = wide
      offsetSize = 8
    }
    guard length <= UInt64(cursor.remaining) else { return }
    let end = cursor.offset + Int(length)
    cursor = ByteCursor(UnsafeRawBufferPointer(rebasing: sections.line[0..<end]), offset: cursor.offset)
    guard let version = cursor.u16(), (2...5).contains(version) else { return }
    var addressSize = unit.format.addressSize
    if version >= 5 {
      guard let size = cursor.u8(), cursor.skip(1) else { return }  // address_size, seg_selector_size
      if size == 4 || size == 8 { addressSize = Int(size) }
    }
    guard let headerLength = cursor.unsigned(offsetSize), headerLength <= UInt64(cursor.remaining) else { return }
    let programStart = cursor.offset + Int(headerLength)
    guard let minimumLength = cursor.u8() else { return }
    if version >= 4 { cursor.skip(1) }  // maximum_operations_per_instruction (VLIW only)
    guard cursor.u8() != nil, let lineBase = cursor.u8().map({ Int8(bitPattern: $0) }),  // default_is_stmt
      let lineRange = cursor.u8(), let opcodeBase = cursor.u8()
    else { return }
    var standardLengths: [UInt8] = []
    for _ in 1..<max(Int(opcodeBase), 1) { standardLengths.append(cursor.u8() ?? 0) }

    let format = DWARFFormat(version: version, addressSize: addressSize, offsetSize: offsetSize, unitOffset: 0)
    if version >= 5 {
      _ = Self.entries(&cursor, format: format)  // directories: only the names' last components are used
      for (index, name) in Self.entries(&cursor, format: format).enumerated() {
        if let name { fileNames[UInt32(index)] = name }
      }
    } else {
      var directories = 0
      while directories < Self.maxFiles, let directory = cursor.cString(), !directory.isEmpty { directories += 1 }
      var number: UInt32 = 1
      while number < UInt32(Self.maxFiles), let name = cursor.cString(), !name.isEmpty {
        _ = cursor.uleb()  // directory index
        _ = cursor.uleb()  // modification time
        _ = cursor.uleb()  // length
        fileNames[number] = .string(name)
        number += 1
      }
    }

    // The state machine (DWARF 5 §6.2.5); every opcode consumes at least one byte. `line` is an
    // unsigned register: a program that takes it below 0 or past `UInt32.max` is damaged, and
    // its rows end there.
    cursor.seek(programStart)
    let firstFile: UInt32 = 1
    var address: UInt64 = 0
    var file = firstFile
    var line: Int64 = 1
    var emitted = 0
    func emit(_ endSequence: Bool = false) {
      emitted += 1
      emitRow(address, Row(file: file, line: UInt32(clamping: line)), endSequence)
    }
    func advanceLine(_ delta: Int64?) -> Bool {
      guard let delta else { return false }
      let (sum, overflow) = line.addingReportingOverflow(delta)
      guard !overflow, sum >= 0, sum <= Int64(UInt32.max) else { return false }
      line = sum
      return true
    }
    let minimum = UInt64(minimumLength)
    let range = max(Int(lineRange), 1)
    while !cursor.atEnd, emitted < Self.maxRows {
      guard let opcode = cursor.u8() else { break }
      if opcode >= opcodeBase {
        let adjusted = Int(opcode - opcodeBase)
        address &+= UInt64(adjusted / range) &* minimum
        guard advanceLine(Int64(lineBase) + Int64(adjusted % range)) else { break }
        emit()
        continue
      }
      switch opcode {
      case 0:  // extended
        guard let size = cursor.uleb(), size <= UInt64(cursor.remaining), size > 0 else {
          cursor.seek(cursor.bytes.count)
          break
        }
        let next = cursor.offset + Int(size)
        let sub = cursor.u8() ?? 0
        switch sub {
        case 1:
          emit(true)
          address = 0
          file = firstFile
          line = 1
        case 2: address = cursor.unsigned(Int(size) - 1) ?? address
        default: break  // define_file (DWARF ≤ 4), set_discriminator, vendor
        }
        cursor.seek(next)
      case 1: emit()
      case 2: address &+= (cursor.uleb() ?? 0) &* minimum
      case 3:
        guard advanceLine(cursor.sleb()) else { return }
      case 4: file = cursor.uleb().map { UInt32(clamping: $0) } ?? file
      case 5, 7: _ = cursor.uleb()  // column, isa
      case 6, 10, 11: break  // negate_stmt, prologue_end, epilogue_begin
      case 8: address &+= UInt64((255 - Int(opcodeBase)) / range) &* minimum
      case 9: address &+= UInt64(cursor.u16() ?? 0)
      default:
        // An unknown standard opcode: skip its ULEB operands.
        let count = Int(opcode) - 1 < standardLengths.count ? Int(standardLengths[Int(opcode) - 1]) : 0
        for _ in 0..<count { _ = cursor.uleb() }
      }
    }
  }

  /// The row for `address`: the last row at or before it in a sequence that goes past it (of
  /// rows at one address, the last). O(log rows).
  func row(for address: UInt64) -> Row? {
    spans.lastContaining(address).map { rows[$0] }
  }

  /// The last path component of file `number`'s name (a name may hold directories): all that a
  /// symbolicated frame shows, so a long directory part is never copied into an answer.
  func fileName(_ number: UInt32) -> String? {
    guard let value = fileNames[number], let unit else { return nil }
    let text: String?
    switch value {
    case .stringOffset(let offset, let lineSection):
      text = ByteCursor.cString(in: lineSection ? unit.sections.lineStr : unit.sections.str, at: Int(clamping: offset))
    default: text = unit.string(value)
    }
    return text.map(Self.lastComponent)
  }

  static func lastComponent(_ path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }

  /// DWARF 5's entry formats, then the entries: each entry's `DW_LNCT_path` value (unresolved).
  private static func entries(_ cursor: inout ByteCursor, format: DWARFFormat) -> [DWARFValue?] {
    guard let formatCount = cursor.u8() else { return [] }
    var kinds: [(content: UInt64, form: UInt64)] = []
    for _ in 0..<formatCount {
      guard let content = cursor.uleb(), let form = cursor.uleb() else { return [] }
      kinds.append((content, form))
    }
    guard let count = cursor.uleb() else { return [] }
    var result: [DWARFValue?] = []
    for _ in 0..<min(count, UInt64(maxFiles)) {
      var name: DWARFValue?
      for kind in kinds {
        guard let value = format.read(kind.form, from: &cursor) else { return result }
        if kind.content == 1 { name = value }  // DW_LNCT_path
      }
      result.append(name)
    }
    return result
  }
}
