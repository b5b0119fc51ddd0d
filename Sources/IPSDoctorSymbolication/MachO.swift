import IPSDoctorSupport

/// One architecture of a Mach-O file: what symbolication needs from its load commands.
struct MachOSlice {
  struct Section {
    var segment: String
    var name: String
    var address: UInt64
    var size: UInt64
    /// The section's bytes in the file, or empty when it has none there (`__TEXT` in a dSYM).
    var data: UnsafeRawBufferPointer
  }

  /// e.g. "arm64", "arm64e", "x86_64"; "cpu 0x…" for others.
  var arch: String
  /// Lowercased with dashes, e.g. "82d13d98-219e-3040-b62a-07a297007a7c".
  var uuid: String?
  /// `__TEXT`'s vmaddr: file address = report address − load address + this.
  var textAddress: UInt64 = 0
  var sections: [Section] = []
  /// `LC_SYMTAB`'s symbols and strings, empty when absent or out of range.
  var symbols = UnsafeRawBufferPointer(start: nil, count: 0)
  var symbolCount = 0
  var strings = UnsafeRawBufferPointer(start: nil, count: 0)
  var is64 = true

  /// The data of the DWARF section `__debug_<name>` (section names are cut at 16 bytes:
  /// `__debug_str_offs`), or empty.
  func dwarf(_ name: String) -> UnsafeRawBufferPointer {
    let full = String(("__debug_" + name).utf8.prefix(16)) ?? ""
    return sections.first { $0.name == full && $0.segment == "__DWARF" }?.data
      ?? sections.first { $0.name == full }?.data
      ?? UnsafeRawBufferPointer(start: nil, count: 0)
  }
}

/// Reads the slices of a thin or fat (universal) Mach-O file. Little-endian 32- and 64-bit
/// images; big-endian ones (PowerPC) are not read. Every offset and count is checked against the
/// file, and load commands are capped, so a hostile file yields fewer slices, never a crash.
enum MachOReader {
  static let maxLoadCommands = 4096
  static let maxSections = 4096
  static let maxFatArchitectures = 64

  static func slices(_ file: UnsafeRawBufferPointer) -> [MachOSlice] {
    var cursor = ByteCursor(file)
    guard let magic = cursor.u32BigEndian() else { return [] }
    if magic == 0xCAFE_BABE || magic == 0xCAFE_BABF {
      let wide = magic == 0xCAFE_BABF
      guard let count = cursor.u32BigEndian() else { return [] }
      // 0xcafebabe is also Java's class-file magic; its "count" is a version number ≥ 45.
      guard count <= maxFatArchitectures else { return [] }
      var slices: [MachOSlice] = []
      // Slices at one place are one slice: a header naming it 64 times reads it once.
      var seen = Set<UInt64>()
      for _ in 0..<count {
        guard cursor.skip(8) else { break }  // cputype, cpusubtype: the slice's own header says
        let offset: UInt64?
        let size: UInt64?
        if wide {
          offset = cursor.u64BigEndian()
          size = cursor.u64BigEndian()
          cursor.skip(8)  // align, reserved
        } else {
          offset = cursor.u32BigEndian().map(UInt64.init)
          size = cursor.u32BigEndian().map(UInt64.init)
          cursor.skip(4)
        }
        guard let offset, let size, seen.insert(offset).inserted, let bytes = file.slice(offset: offset, count: size)
        else { continue }
        if let slice = thin(bytes) { slices.append(slice) }
      }
      return slices
    }
    return thin(file).map { [$0] } ?? []
  }

  /// The architecture name for a CPU type and subtype.
  static func archName(cpuType: UInt32, cpuSubtype: UInt32) -> String {
    switch cpuType {
    case 0x0100_000C: (cpuSubtype & 0x00FF_FFFF) == 2 ? "arm64e" : "arm64"
    case 0x0200_000C: "arm64_32"
    case 0x0100_0007: (cpuSubtype & 0x00FF_FFFF) == 8 ? "x86_64h" : "x86_64"
    case 7: "i386"
    case 12: "armv7"
    default: "cpu 0x" + String(cpuType, radix: 16)
    }
  }

  /// One image starting at the first byte of `bytes`.
  static func thin(_ bytes: UnsafeRawBufferPointer) -> MachOSlice? {
    var cursor = ByteCursor(bytes)
    guard let magic = cursor.u32(), magic == 0xFEED_FACF || magic == 0xFEED_FACE,
      let cpuType = cursor.u32(), let cpuSubtype = cursor.u32(),
      cursor.skip(4),  // filetype
      let commandCount = cursor.u32(), let commandsSize = cursor.u32(),
      cursor.skip(4)  // flags
    else { return nil }
    let is64 = magic == 0xFEED_FACF
    if is64 { cursor.skip(4) }  // reserved
    var slice = MachOSlice(arch: archName(cpuType: cpuType, cpuSubtype: cpuSubtype))
    slice.is64 = is64
    let commandsEnd = min(cursor.offset + Int(commandsSize), bytes.count)
    var commandStart = cursor.offset
    for _ in 0..<min(Int(commandCount), maxLoadCommands) {
      guard commandStart + 8 <= commandsEnd else { break }
      var header = ByteCursor(UnsafeRawBufferPointer(rebasing: bytes[0..<commandsEnd]), offset: commandStart)
      guard let kind = header.u32(), let size = header.u32(), size >= 8, commandStart + Int(size) <= commandsEnd
      else { break }
      // A command is read within its own size: a segment cannot claim sections past it.
      var command = ByteCursor(
        UnsafeRawBufferPointer(rebasing: bytes[0..<(commandStart + Int(size))]), offset: header.offset)
      switch kind {
      case 0x19, 0x1: readSegment(&command, in: bytes, wide: kind == 0x19, into: &slice)
      case 0x1B:
        if let raw = command.slice(16) { slice.uuid = uuidText(raw) }
      case 0x2:
        if let symbolOffset = command.u32(), let count = command.u32(), let stringOffset = command.u32(),
          let stringSize = command.u32()
        {
          let entrySize: UInt64 = is64 ? 16 : 12
          let clamped = min(UInt64(count), UInt64(bytes.count) / entrySize)
          if let table = bytes.slice(offset: UInt64(symbolOffset), count: clamped * entrySize) {
            slice.symbols = table
            slice.symbolCount = Int(clamped)
          }
          slice.strings = bytes.slice(offset: UInt64(stringOffset), count: UInt64(stringSize)) ?? slice.strings
        }
      default: break
      }
      commandStart += Int(size)
    }
    return slice
  }

  private static func readSegment(
    _ command: inout ByteCursor, in bytes: UnsafeRawBufferPointer, wide: Bool, into slice: inout MachOSlice
  ) {
    let word = wide ? 8 : 4
    guard let segment = command.fixedString(16), let vmaddr = command.unsigned(word),
      command.skip(3 * word + 8), let sectionCount = command.u32(), command.skip(4)
    else { return }
    if segment == "__TEXT" { slice.textAddress = vmaddr }
    for _ in 0..<min(Int(sectionCount), maxSections) {
      guard let name = command.fixedString(16), let owner = command.fixedString(16),
        let address = command.unsigned(word), let size = command.unsigned(word),
        let offset = command.u32(), command.skip(wide ? 28 : 24)
      else { return }
      // Zero-fill sections and sections without file contents (dSYM `__TEXT`) have no data.
      let data = offset == 0 ? nil : bytes.slice(offset: UInt64(offset), count: size)
      slice.sections.append(
        .init(
          segment: owner, name: name, address: address, size: size,
          data: data ?? UnsafeRawBufferPointer(start: nil, count: 0)))
    }
  }

  static func uuidText(_ raw: UnsafeRawBufferPointer) -> String {
    var text = ""
    for (index, byte) in raw.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text += "-" }
      text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }
    return text
  }
}

extension ByteCursor {
  /// The next `count` bytes, consumed, or `nil` when fewer remain.
  mutating func slice(_ count: Int) -> UnsafeRawBufferPointer? {
    guard count >= 0, count <= remaining else { return nil }
    let start = offset
    skip(count)
    return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
  }
}
