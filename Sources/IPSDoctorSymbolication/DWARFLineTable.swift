import IPSDoctorSupport

/// A unit's line-number program (`.debug_line`, DWARF 2–5), run into rows.
struct DWARFLineTable {
  struct Row {
    var address: UInt64
    var file: UInt64
    var line: UInt32
    var endSequence: Bool
  }

  static let maxFiles = 1 << 16
  static let maxRows = 1 << 22

  /// The file names, by the program's file number (1-based before DWARF 5, 0-based from it).
  private(set) var files: [UInt64: String] = [:]
  /// The rows of each sequence, in program order.
  private(set) var rows: [Row] = []

  /// Reads the program at `offset`; a damaged one yields the rows read before the damage.
  /// `compDir` and `compName` are the unit's, for DWARF 2–4's directory and file 0.
  init(_ sections: DWARFSections, offset: UInt64, unit: DWARFUnit) {
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
    guard let defaultIsStmt = cursor.u8(), let lineBase = cursor.u8().map({ Int8(bitPattern: $0) }),
      let lineRange = cursor.u8(), let opcodeBase = cursor.u8()
    else { return }
    var standardLengths: [UInt8] = []
    for _ in 1..<max(Int(opcodeBase), 1) { standardLengths.append(cursor.u8() ?? 0) }
    _ = defaultIsStmt

    let format = DWARFFormat(version: version, addressSize: addressSize, offsetSize: offsetSize, unitOffset: 0)
    if version >= 5 {
      let directories = Self.entries(&cursor, format: format, unit: unit, sections: sections)
      let names = Self.entries(&cursor, format: format, unit: unit, sections: sections)
      for (index, entry) in names.enumerated() {
        guard let name = entry.name else { continue }
        let directory = entry.directory.flatMap { $0 < directories.count ? directories[Int($0)].name : nil }
        files[UInt64(index)] = Self.join(directory, name)
      }
    } else {
      var directories: [String] = [unit.root.flatMap { $0[DWARFCode.compDir] }.flatMap(unit.string) ?? ""]
      while directories.count < Self.maxFiles, let directory = cursor.cString(), !directory.isEmpty {
        directories.append(directory)
      }
      var number: UInt64 = 1
      while number < UInt64(Self.maxFiles), let name = cursor.cString(), !name.isEmpty {
        let directory = cursor.uleb() ?? 0
        _ = cursor.uleb()  // modification time
        _ = cursor.uleb()  // length
        files[number] = Self.join(directory < UInt64(directories.count) ? directories[Int(directory)] : nil, name)
        number += 1
      }
    }

    // The state machine (DWARF 5 §6.2.5); every opcode consumes at least one byte.
    cursor.seek(programStart)
    let firstFile: UInt64 = 1
    var address: UInt64 = 0
    var file = firstFile
    var line: Int64 = 1
    func emit(_ endSequence: Bool = false) {
      guard rows.count < Self.maxRows else { return }
      rows.append(Row(address: address, file: file, line: UInt32(clamping: max(line, 0)), endSequence: endSequence))
    }
    let minimum = UInt64(minimumLength)
    while !cursor.atEnd {
      guard let opcode = cursor.u8() else { break }
      if opcode >= opcodeBase {
        let adjusted = Int(opcode - opcodeBase)
        let range = max(Int(lineRange), 1)
        address &+= UInt64(adjusted / range) &* minimum
        line += Int64(lineBase) + Int64(adjusted % range)
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
      case 3: line += cursor.sleb() ?? 0
      case 4: file = cursor.uleb() ?? file
      case 5, 7: _ = cursor.uleb()  // column, isa
      case 6, 10, 11: break  // negate_stmt, prologue_end, epilogue_begin
      case 8:
        let adjusted = Int(255 - opcodeBase)
        address &+= UInt64(adjusted / max(Int(lineRange), 1)) &* minimum
      case 9: address &+= UInt64(cursor.u16() ?? 0)
      default:
        // An unknown standard opcode: skip its ULEB operands.
        let count = Int(opcode) - 1 < standardLengths.count ? Int(standardLengths[Int(opcode) - 1]) : 0
        for _ in 0..<count { _ = cursor.uleb() }
      }
    }
  }

  /// The row for `address`: the last row at or before it in a sequence that goes past it.
  func row(for address: UInt64) -> Row? {
    var best: Row?
    var previous: Row?
    for row in rows {
      if let before = previous, !before.endSequence, before.address <= address, address < row.address {
        if best == nil || before.address >= best!.address { best = before }
      }
      previous = row
    }
    return best
  }

  func fileName(_ number: UInt64) -> String? { files[number] }

  /// DWARF 5's directory and file entry formats, then the entries.
  private static func entries(
    _ cursor: inout ByteCursor, format: DWARFFormat, unit: DWARFUnit, sections: DWARFSections
  ) -> [(name: String?, directory: UInt64?)] {
    guard let formatCount = cursor.u8() else { return [] }
    var kinds: [(content: UInt64, form: UInt64)] = []
    for _ in 0..<formatCount {
      guard let content = cursor.uleb(), let form = cursor.uleb() else { return [] }
      kinds.append((content, form))
    }
    guard let count = cursor.uleb() else { return [] }
    var result: [(name: String?, directory: UInt64?)] = []
    for _ in 0..<min(count, UInt64(maxFiles)) {
      var name: String?
      var directory: UInt64?
      for kind in kinds {
        guard let value = format.read(kind.form, from: &cursor) else { return result }
        switch kind.content {
        case 1: name = lineString(value, unit: unit, sections: sections)  // DW_LNCT_path
        case 2: directory = value.number  // DW_LNCT_directory_index
        default: break
        }
      }
      result.append((name, directory))
    }
    return result
  }

  private static func lineString(_ value: DWARFValue, unit: DWARFUnit, sections: DWARFSections) -> String? {
    switch value {
    case .string(let text): return text
    case .stringOffset(let offset, let lineSection):
      return ByteCursor.cString(in: lineSection ? sections.lineStr : sections.str, at: Int(clamping: offset))
    default: return unit.string(value)
    }
  }

  private static func join(_ directory: String?, _ name: String) -> String {
    guard let directory, !directory.isEmpty, !name.hasPrefix("/") else { return name }
    return directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
