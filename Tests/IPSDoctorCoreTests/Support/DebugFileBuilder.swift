import Foundation

/// Writes the bytes of small Mach-O files with DWARF sections and symbol tables, so that tests
/// make hostile debug files from a recipe instead of committing them.
enum DebugBytes {
  static func u16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
  static func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
  static func u64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
  static func u32BigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

  static func uleb(_ value: UInt64) -> [UInt8] {
    var value = value
    var bytes: [UInt8] = []
    repeat {
      var byte = UInt8(value & 0x7F)
      value >>= 7
      if value != 0 { byte |= 0x80 }
      bytes.append(byte)
    } while value != 0
    return bytes
  }

  static func sleb(_ value: Int64) -> [UInt8] {
    var value = value
    var bytes: [UInt8] = []
    while true {
      let byte = UInt8(value & 0x7F)
      value >>= 7
      let done = (value == 0 && byte & 0x40 == 0) || (value == -1 && byte & 0x40 != 0)
      bytes.append(done ? byte : byte | 0x80)
      if done { return bytes }
    }
  }

  static func cString(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }
}

/// DWARF pieces: abbreviation declarations, unit headers, line programs.
enum DWARFBuilder {
  static let tagCompileUnit: UInt64 = 0x11, tagSubprogram: UInt64 = 0x2E
  static let atName: UInt64 = 0x03, atStmtList: UInt64 = 0x10, atLowPC: UInt64 = 0x11, atHighPC: UInt64 = 0x12
  static let atConstValue: UInt64 = 0x1C, atRanges: UInt64 = 0x55
  static let formAddr: UInt64 = 0x01, formData4: UInt64 = 0x06, formString: UInt64 = 0x08
  static let formStrp: UInt64 = 0x0E, formSecOffset: UInt64 = 0x17, formLineStrp: UInt64 = 0x1F
  static let formImplicitConst: UInt64 = 0x21

  /// One declaration: `attributes` are (name, form) pairs, or (name, implicit_const, value).
  static func declaration(
    code: UInt64, tag: UInt64, children: Bool, _ attributes: [(UInt64, UInt64)], implicit: [(UInt64, Int64)] = []
  ) -> [UInt8] {
    var bytes = DebugBytes.uleb(code) + DebugBytes.uleb(tag) + [children ? 1 : 0]
    for (name, form) in attributes { bytes += DebugBytes.uleb(name) + DebugBytes.uleb(form) }
    for (name, value) in implicit {
      bytes += DebugBytes.uleb(name) + DebugBytes.uleb(formImplicitConst) + DebugBytes.sleb(value)
    }
    return bytes + [0, 0]
  }

  /// A DWARF 4 unit (32-bit, 8-byte addresses) with `entries` after its header.
  static func unit4(abbreviationOffset: UInt32 = 0, _ entries: [UInt8]) -> [UInt8] {
    DebugBytes.u32(UInt32(7 + entries.count)) + DebugBytes.u16(4) + DebugBytes.u32(abbreviationOffset) + [8]
      + entries
  }

  /// A DWARF 5 compile unit (32-bit, 8-byte addresses).
  static func unit5(abbreviationOffset: UInt32 = 0, _ entries: [UInt8]) -> [UInt8] {
    DebugBytes.u32(UInt32(8 + entries.count)) + DebugBytes.u16(5) + [1, 8] + DebugBytes.u32(abbreviationOffset)
      + entries
  }

  /// Standard opcode lengths for opcode base 13.
  static let standardLengths: [UInt8] = [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]

  /// A DWARF 4 line program naming `files` (in no directory), running `program`.
  static func lineProgram4(files: [String], program: [UInt8]) -> [UInt8] {
    var header: [UInt8] = [1, 1, 1, 0xFB, 14, 13] + standardLengths  // min length, max ops, is_stmt, base -5, range 14
    header += [0]  // no include directories
    for file in files { header += DebugBytes.cString(file) + [0, 0, 0] }
    header += [0]
    let body = DebugBytes.u16(4) + DebugBytes.u32(UInt32(header.count)) + header + program
    return DebugBytes.u32(UInt32(body.count)) + body
  }

  /// A DWARF 5 line program whose file names are `DW_FORM_line_strp` offsets `nameOffsets`.
  static func lineProgram5(nameOffsets: [UInt32], program: [UInt8]) -> [UInt8] {
    var header: [UInt8] = [1, 1, 1, 0xFB, 14, 13] + standardLengths
    header += [1] + DebugBytes.uleb(1) + DebugBytes.uleb(formString)  // directories: path as a string
    header += DebugBytes.uleb(1) + DebugBytes.cString("/")
    header += [1] + DebugBytes.uleb(1) + DebugBytes.uleb(formLineStrp)  // files: path as line_strp
    header += DebugBytes.uleb(UInt64(nameOffsets.count))
    for offset in nameOffsets { header += DebugBytes.u32(offset) }
    let body = DebugBytes.u16(5) + [8, 0] + DebugBytes.u32(UInt32(header.count)) + header + program
    return DebugBytes.u32(UInt32(body.count)) + body
  }

  /// `DW_LNE_set_address`.
  static func setAddress(_ address: UInt64) -> [UInt8] { [0, 9, 2] + DebugBytes.u64(address) }
  static let copy: [UInt8] = [1]
  static let endSequence: [UInt8] = [0, 1, 1]
  static func advancePC(_ delta: UInt64) -> [UInt8] { [2] + DebugBytes.uleb(delta) }
  static func advanceLine(_ delta: Int64) -> [UInt8] { [3] + DebugBytes.sleb(delta) }
  /// The special opcode that adds `address` (0…17) and `line` (-5…8) and appends a row.
  static func special(address: Int, line: Int) -> UInt8 { UInt8((line + 5) + 14 * address + 13) }
}

/// A thin 64-bit arm64 Mach-O: `LC_UUID`, one `LC_SEGMENT_64` per segment of `sections` (in
/// order of first appearance), and `LC_SYMTAB` when there are symbols (defined in section 1).
struct MachOBuilder {
  struct Section {
    var segment: String
    var name: String
    var address: UInt64 = 0
    /// The section's size when it has no bytes in the file (`__TEXT` in a dSYM).
    var size: UInt64 = 0
    var bytes: [UInt8] = []
  }

  var uuid: [UInt8] = Array(0..<16)
  var textAddress: UInt64 = 0x1_0000_0000
  var sections: [Section] = []
  var symbols: [(name: String, address: UInt64)] = []

  /// A dSYM-like file: `__TEXT,__text` at `code` (no bytes) and the `__DWARF` sections given.
  static func dSYM(uuid: [UInt8] = Array(0..<16), code: Range<UInt64>, dwarf: [String: [UInt8]]) -> MachOBuilder {
    var builder = MachOBuilder(uuid: uuid)
    builder.sections = [
      Section(segment: "__TEXT", name: "__text", address: code.lowerBound, size: code.upperBound - code.lowerBound)
    ]
    for name in dwarf.keys.sorted() {
      builder.sections.append(
        Section(segment: "__DWARF", name: String("__debug_\(name)".prefix(16)), bytes: dwarf[name]!))
    }
    return builder
  }

  func bytes() -> [UInt8] {
    var segments: [String] = []
    for section in sections where !segments.contains(section.segment) { segments.append(section.segment) }
    let commandsSize =
      24 + segments.reduce(0) { total, segment in total + 72 + 80 * sections.filter { $0.segment == segment }.count }
      + (symbols.isEmpty ? 0 : 24)
    var dataOffset = 32 + commandsSize
    var data: [UInt8] = []
    var commands: [UInt8] = DebugBytes.u32(0x1B) + DebugBytes.u32(24) + uuid
    for segment in segments {
      let members = sections.filter { $0.segment == segment }
      commands += DebugBytes.u32(0x19) + DebugBytes.u32(UInt32(72 + 80 * members.count)) + Self.name(segment)
      commands += DebugBytes.u64(segment == "__TEXT" ? textAddress : 0) + DebugBytes.u64(0) + DebugBytes.u64(0)
      commands += DebugBytes.u64(0) + DebugBytes.u32(7) + DebugBytes.u32(7) + DebugBytes.u32(UInt32(members.count))
      commands += DebugBytes.u32(0)
      for section in members {
        let offset = section.bytes.isEmpty ? 0 : dataOffset
        commands += Self.name(section.name) + Self.name(section.segment) + DebugBytes.u64(section.address)
        commands += DebugBytes.u64(section.bytes.isEmpty ? section.size : UInt64(section.bytes.count))
        commands += DebugBytes.u32(UInt32(offset)) + Array(repeating: 0, count: 28)
        data += section.bytes
        dataOffset += section.bytes.count
      }
    }
    if !symbols.isEmpty {
      var strings: [UInt8] = [0]
      var table: [UInt8] = []
      for symbol in symbols {
        table += DebugBytes.u32(UInt32(strings.count)) + [0x0F, 1] + DebugBytes.u16(0) + DebugBytes.u64(symbol.address)
        strings += DebugBytes.cString(symbol.name)
      }
      commands += DebugBytes.u32(0x2) + DebugBytes.u32(24) + DebugBytes.u32(UInt32(dataOffset))
      commands += DebugBytes.u32(UInt32(symbols.count)) + DebugBytes.u32(UInt32(dataOffset + table.count))
      commands += DebugBytes.u32(UInt32(strings.count))
      data += table + strings
    }
    let header =
      DebugBytes.u32(0xFEED_FACF) + DebugBytes.u32(0x0100_000C) + DebugBytes.u32(0) + DebugBytes.u32(10)
      + DebugBytes.u32(symbols.isEmpty ? UInt32(1 + segments.count) : UInt32(2 + segments.count))
      + DebugBytes.u32(UInt32(commands.count)) + DebugBytes.u32(0) + DebugBytes.u32(0)
    return header + commands + data
  }

  /// Writes the file into `folder` as `name` and returns its path.
  func write(to folder: URL, as name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes()).write(to: url)
    return url.path
  }

  private static func name(_ text: String) -> [UInt8] {
    Array(text.utf8.prefix(16)) + Array(repeating: 0, count: 16 - min(text.utf8.count, 16))
  }
}
