import Foundation
import Testing

@testable import IPSDoctorSymbolication

/// Truncated, bit-flipped and lying Mach-O and DWARF files never crash or hang the readers.
/// Every mutation is deterministic (a fixed linear congruential sequence), so a failure repeats.
@Suite struct HostileDebugFileTests {
  /// Reads everything a symbolication reads from `bytes`: slices, symbols, and lookups of a few
  /// addresses (each function start of the symbol table and some fixed ones).
  static func exercise(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
      for slice in MachOReader.slices(raw) {
        let table = SymbolTable(slice)
        let symbolizer = DWARFSymbolizer(DWARFSections(slice))
        var addresses: [UInt64] = [0, 1, 0x1_0000_0000, slice.textAddress &+ 0x60c4, .max]
        addresses += table.symbols.prefix(16).map(\.address)
        for address in addresses {
          _ = symbolizer.frames(at: address)
          _ = table.symbol(containing: address)
        }
      }
    }
  }

  static func sharedDWARF() -> [[UInt8]] {
    guard let folder = SharedReportSymbolicationTests.folder else { return [] }
    return [
      "iOSCrashingTest.app.dSYM/Contents/Resources/DWARF/iOSCrashingTest",
      "AnotherTarget.framework.dSYM/Contents/Resources/DWARF/AnotherTarget",
    ].compactMap {
      try? [UInt8](Data(contentsOf: folder.appendingPathComponent($0)))
    }
  }

  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
  }

  @Test func truncatedFilesAreRead() {
    for file in Self.sharedDWARF() {
      var random = Random(state: 1)
      for _ in 0..<40 {
        Self.exercise(Array(file.prefix(Int(random.next() % UInt64(file.count)))))
      }
    }
  }

  @Test func bitFlippedFilesAreRead() {
    for file in Self.sharedDWARF() {
      var random = Random(state: 2)
      for _ in 0..<60 {
        var copy = file
        for _ in 0..<8 {
          let index = Int(random.next() % UInt64(copy.count))
          copy[index] ^= UInt8(1 << (random.next() % 8))
        }
        Self.exercise(copy)
      }
    }
  }

  @Test func lyingHeadersAreRead() {
    // A fat header claiming 2^32-1 architectures, and one pointing past the end.
    Self.exercise([0xCA, 0xFE, 0xBA, 0xBE, 0xFF, 0xFF, 0xFF, 0xFF])
    Self.exercise(
      [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 1] + [0, 0, 0, 7, 0, 0, 0, 3] + [
        0x7F, 0xFF, 0xFF, 0xF0, 0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0,
      ])
    // A thin header claiming a million load commands of size 8, and commands past the end.
    var thin: [UInt8] = [0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0, 0, 1, 0, 0, 0, 0, 6, 0, 0, 0]
    thin += [0x40, 0x42, 0x0F, 0x00, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0]
    Self.exercise(thin + Array(repeating: 0, count: 64))
    // Word-sized fields overwritten with huge values all over a real file.
    for file in Self.sharedDWARF() {
      var random = Random(state: 3)
      for _ in 0..<40 {
        var copy = file
        let index = Int(random.next() % UInt64(copy.count - 4)) & ~3
        for offset in 0..<4 { copy[index + offset] = 0xFF }
        Self.exercise(copy)
      }
    }
  }

  /// A unit whose abbreviation table is one entry that has children and no attributes: every byte
  /// after the root is a child, nested ever deeper. The walk must end at the unit's end.
  @Test func endlessNestingEnds() {
    var info: [UInt8] = []
    let entries = Array(repeating: UInt8(1), count: 5000)
    let length = UInt32(2 + 4 + 1 + entries.count)
    info += withUnsafeBytes(of: length.littleEndian, Array.init)
    info += [4, 0, 0, 0, 0, 0, 8] + entries
    let abbrev: [UInt8] = [1, 0x2E, 1, 0, 0, 0]  // code 1: subprogram, children, no attributes
    info.withUnsafeBytes { infoBytes in
      abbrev.withUnsafeBytes { abbrevBytes in
        var slice = MachOSlice(arch: "arm64")
        slice.sections = [
          .init(segment: "__DWARF", name: "__debug_info", address: 0, size: UInt64(info.count), data: infoBytes),
          .init(segment: "__DWARF", name: "__debug_abbrev", address: 0, size: UInt64(abbrev.count), data: abbrevBytes),
        ]
        let symbolizer = DWARFSymbolizer(DWARFSections(slice))
        #expect(symbolizer.frames(at: 0x10) == nil)
      }
    }
  }

  /// A chain of `abstract_origin` references that points back at itself.
  @Test func referenceCyclesEnd() {
    // Unit: root (compile unit, no attributes), then a subprogram with low_pc, high_pc and an
    // abstract_origin (ref4) to itself.
    let abbrev: [UInt8] = [
      1, 0x11, 1, 0, 0,
      2, 0x2E, 0, 0x11, 0x01, 0x12, 0x06, 0x31, 0x13, 0, 0, 0,
    ]
    var body: [UInt8] = [1]
    let subprogramOffset = UInt32(11 + body.count)
    body +=
      [2] + withUnsafeBytes(of: UInt64(0x1000).littleEndian, Array.init)
      + withUnsafeBytes(of: UInt32(0x100).littleEndian, Array.init)
      + withUnsafeBytes(of: subprogramOffset.littleEndian, Array.init) + [0]
    let length = UInt32(7 + body.count)
    let info = withUnsafeBytes(of: length.littleEndian, Array.init) + [4, 0, 0, 0, 0, 0, 8] + body
    info.withUnsafeBytes { infoBytes in
      abbrev.withUnsafeBytes { abbrevBytes in
        var slice = MachOSlice(arch: "arm64")
        slice.sections = [
          .init(segment: "__DWARF", name: "__debug_info", address: 0, size: UInt64(info.count), data: infoBytes),
          .init(segment: "__DWARF", name: "__debug_abbrev", address: 0, size: UInt64(abbrev.count), data: abbrevBytes),
        ]
        // The unit has no ranges of its own: found through the entry walk only when asked by
        // offset; the cycle must end either way.
        let symbolizer = DWARFSymbolizer(DWARFSections(slice))
        _ = symbolizer.frames(at: 0x1010)
        let unit = symbolizer.unit(at: 0)
        if let unit, let entry = unit.entry(at: UInt64(subprogramOffset)) {
          #expect(symbolizer.name(of: entry, unit: unit) == nil)
        }
      }
    }
  }

  /// 200,000 function symbols whose names all start in a 4 MB string table without a NUL: names
  /// are decoded only when looked up, and each decode stops after a bounded length.
  @Test func unterminatedNamesCostLittle() {
    let count = 200_000
    var table: [UInt8] = []
    table.reserveCapacity(count * 16)
    for index in 0..<count {
      table += [0, 0, 0, 0, 0x0F, 1, 0, 0] + withUnsafeBytes(of: UInt64(0x1000 + index * 4).littleEndian, Array.init)
    }
    let strings = [UInt8](repeating: UInt8(ascii: "a"), count: 4 << 20)
    table.withUnsafeBytes { symbols in
      strings.withUnsafeBytes { names in
        var slice = MachOSlice(arch: "arm64")
        slice.sections = [
          .init(
            segment: "__TEXT", name: "__text", address: 0x1000, size: UInt64(count * 4),
            data: .init(start: nil, count: 0))
        ]
        slice.symbols = symbols
        slice.symbolCount = count
        slice.strings = names
        let symbolTable = SymbolTable(slice)
        #expect(symbolTable.symbols.count == count)
        let found = symbolTable.symbol(containing: 0x1000 + 400)
        #expect(found?.address == 0x1000 + 400)
        #expect(found.flatMap(symbolTable.name(of:)) == nil)
      }
    }
  }
}
