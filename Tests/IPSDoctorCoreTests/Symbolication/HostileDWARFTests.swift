import Foundation
import Testing

@testable import IPSDoctorSymbolication

/// DWARF and Mach-O files made to break the reader (issue 43): values at the edges of 64 bits,
/// inputs that made lookups scan everything per address, and small files that made the reader
/// hold gigabytes. Each file is made here from a recipe (``MachOBuilder``, ``DWARFBuilder``).
/// The time cases carry no clock: their sizes make a per-address scan take hours, so a return
/// to one keeps the test run from finishing, while a wall-clock limit would fail whenever other
/// suites hold the cores.
@Suite("Hostile DWARF: exact values, bounded time and memory")
struct HostileDWARFTests {
  typealias D = DWARFBuilder

  /// Runs `body` with a symbolizer over a dSYM of `dwarf`'s sections.
  static func withSymbolizer<R>(_ dwarf: [String: [UInt8]], _ body: (DWARFSymbolizer) throws -> R) throws -> R {
    let file = MachOBuilder.dSYM(code: 0x1000..<0x10_0000, dwarf: dwarf).bytes()
    return try file.withUnsafeBytes { raw in
      let slice = try #require(MachOReader.slices(raw).first)
      return try body(DWARFSymbolizer(DWARFSections(slice)))
    }
  }

  /// A compile unit (`DW_AT_stmt_list` 0, `low ..< low + size`) holding one subprogram `name`
  /// at the same addresses.
  static func unitWithFunction(_ name: String, low: UInt64, size: UInt32) -> (abbrev: [UInt8], info: [UInt8]) {
    (functionAbbreviations, D.unit4(functionEntries(name, low: low, size: size)))
  }

  static let functionAbbreviations =
    D.declaration(
      code: 1, tag: D.tagCompileUnit, children: true,
      [(D.atStmtList, D.formSecOffset), (D.atLowPC, D.formAddr), (D.atHighPC, D.formData4)])
    + D.declaration(
      code: 2, tag: D.tagSubprogram, children: false,
      [(D.atName, D.formString), (D.atLowPC, D.formAddr), (D.atHighPC, D.formData4)]) + [0]

  static func functionEntries(_ name: String, low: UInt64, size: UInt32) -> [UInt8] {
    let range = DebugBytes.u64(low) + DebugBytes.u32(size)
    return [1] + DebugBytes.u32(0) + range + [2] + DebugBytes.cString(name) + range + [0]
  }

  // MARK: Item 2: exact values, no trap

  @Test("LEB128 decodes every 64-bit value exactly, and a value past 64 bits is damage")
  func lebValuesAreExact() {
    let signed: [Int64] = [
      0, 1, -1, 63, -64, 64, -65, -(1 << 55) - 1, -(1 << 60), -(1 << 62), 1 << 62, .min, .max, .min + 1,
    ]
    for value in signed {
      let bytes = DebugBytes.sleb(value)
      var cursor = ByteCursor(UnsafeRawBufferPointer(start: nil, count: 0))
      bytes.withUnsafeBytes { raw in
        cursor = ByteCursor(raw)
        #expect(cursor.sleb() == value, "\(value) as \(bytes)")
        #expect(cursor.atEnd)
      }
    }
    for value: UInt64 in [0, 127, 128, 1 << 63, .max] {
      DebugBytes.uleb(value).withUnsafeBytes { raw in
        var cursor = ByteCursor(raw)
        #expect(cursor.uleb() == value)
      }
    }
    // Padded encodings of -1 and 1 (10 and 11 bytes) fit; 2^63 and 2^64 do not.
    let cases: [([UInt8], Int64?)] = [
      (Array(repeating: 0xFF, count: 9) + [0x7F], -1),
      ([0x81] + Array(repeating: 0x80, count: 9) + [0x00], 1),
      (Array(repeating: 0x80, count: 9) + [0x01], nil),
      (Array(repeating: 0x80, count: 9) + [0x7E], nil),
      (Array(repeating: 0xFF, count: 10) + [0x00], nil),
    ]
    for (bytes, expected) in cases {
      bytes.withUnsafeBytes { raw in
        var cursor = ByteCursor(raw)
        #expect(cursor.sleb() == expected, "\(bytes)")
        #expect(cursor.atEnd, "a damaged value is still consumed")
      }
    }
    ([UInt8](repeating: 0x80, count: 9) + [0x02]).withUnsafeBytes { raw in
      var cursor = ByteCursor(raw)
      #expect(cursor.uleb() == nil)
    }
  }

  @Test("A 9-byte negative DW_FORM_implicit_const (enum : long long { Neg = -(1LL << 60) }) is read")
  func implicitConstantNear64Bits() throws {
    let abbrev =
      D.declaration(
        code: 1, tag: D.tagCompileUnit, children: true,
        [(D.atStmtList, D.formSecOffset), (D.atLowPC, D.formAddr), (D.atHighPC, D.formData4)])
      + D.declaration(
        code: 2, tag: D.tagSubprogram, children: false,
        [(D.atName, D.formString), (D.atLowPC, D.formAddr), (D.atHighPC, D.formData4)],
        implicit: [(D.atConstValue, -(1 << 60)), (0x3E, .min)]) + [0]
    let entries = Self.functionEntries("neg", low: 0x2000, size: 0x10)
    try Self.withSymbolizer(["info": D.unit4(entries), "abbrev": abbrev]) { symbolizer in
      #expect(symbolizer.frames(at: 0x2004)?.frames.map(\.function) == ["neg"])
      let unit = try #require(symbolizer.unit(at: 0))
      let entry = try #require(unit.entry(at: UInt64(11 + 17)))
      guard case .signed(let value)? = entry[D.atConstValue] else {
        Issue.record("no constant")
        return
      }
      #expect(value == -(1 << 60))
    }
  }

  @Test("A line program whose line register overflows keeps the rows before it, and traps nothing")
  func lineRegisterOverflowIsDamage() throws {
    let (abbrev, info) = Self.unitWithFunction("f", low: 0x1000, size: 0x100)
    let program =
      D.setAddress(0x1000) + D.copy + D.advancePC(4) + D.copy + D.advanceLine(.max) + D.copy + D.advancePC(4)
      + D.advanceLine(.max) + D.copy + D.advancePC(4) + D.endSequence
    try Self.withSymbolizer(["info": info, "abbrev": abbrev, "line": D.lineProgram4(files: ["a.c"], program: program)])
    {
      symbolizer in
      let frames = try #require(symbolizer.frames(at: 0x1002)?.frames)
      #expect(frames.map(\.line) == [1])
      #expect(frames.map(\.file) == ["a.c"])
      // The rows past the damage are gone; the address after them has no line.
      #expect(symbolizer.frames(at: 0x1006)?.frames.first?.line == nil)
    }
    // Line 1 minus 2 is no line either.
    try Self.withSymbolizer([
      "info": info, "abbrev": abbrev,
      "line": D.lineProgram4(
        files: ["a.c"], program: D.setAddress(0x1000) + D.copy + D.advanceLine(-2) + D.copy + D.endSequence),
    ]) { symbolizer in
      #expect(symbolizer.frames(at: 0x1000)?.frames.first?.line == nil)
    }
  }

  // MARK: Item 4: lookups in O(log n)

  @Test("The interval index answers as a scan of every range does")
  func intervalIndexAgreesWithAScan() {
    var random = HostileDebugFileTests.Random(state: 43)
    for round in 0..<200 {
      let count = Int(random.next() % 40)
      var ranges: [AddressRange] = []
      for _ in 0..<count {
        let low = random.next() % 64
        ranges.append(AddressRange(low: low, high: low + 1 + random.next() % UInt64(round % 3 == 0 ? 4 : 40)))
      }
      let sorted = ranges.enumerated().sorted { ($0.element.low, $0.offset) < ($1.element.low, $1.offset) }.map(
        \.element)
      let index = AddressIntervalIndex(sorted: sorted)
      for address: UInt64 in 0..<110 {
        for limit in [sorted.count, sorted.count / 2] {
          let scan = sorted.indices.last { $0 < limit && sorted[$0].contains(address) }
          #expect(index.lastContaining(address, below: limit) == scan)
        }
      }
    }
  }

  /// 20,000 addresses against a program of 1,000,000 rows: each lookup scanned every row (20
  /// billion row visits; 200 addresses against 4 million rows took 6.3 s in a release build).
  @Test("20,000 addresses against a million-row line program")
  func manyAddressesAgainstManyRows() throws {
    let rows = 1_000_000
    let (abbrev, info) = Self.unitWithFunction("f", low: 0x1000, size: UInt32(rows + 16))
    var program = D.setAddress(0x1000)
    program += Array(repeating: D.special(address: 1, line: 1), count: rows)
    program += D.advancePC(1) + D.endSequence
    try Self.withSymbolizer(["info": info, "abbrev": abbrev, "line": D.lineProgram4(files: ["a.c"], program: program)])
    {
      symbolizer in
      var random = HostileDebugFileTests.Random(state: 4)
      for _ in 0..<20_000 {
        let offset = random.next() % UInt64(rows - 1)
        // Row k is at 0x1001 + k, line 2 + k.
        let line = symbolizer.frames(at: 0x1001 + offset)?.frames.first?.line
        #expect(line == Int(offset) + 2)
      }
    }
  }

  /// 100,000 `.debug_aranges` sets, each naming another unit for one range: the units of an
  /// address were collected with a list search per set (quadratic: 3.8 s for one address).
  @Test("100,000 address-range sets that all cover one address")
  func manyArangeSetsForOneAddress() throws {
    let (abbrev, info) = Self.unitWithFunction("f", low: 0x1000, size: 0x100)
    var aranges: [UInt8] = []
    for unit in 0..<100_000 {
      // Header: length, version 2, unit offset, address size 8, segment size 0, padding to 16.
      let tuples = DebugBytes.u64(0x1000) + DebugBytes.u64(0x100) + DebugBytes.u64(0) + DebugBytes.u64(0)
      let body = DebugBytes.u16(2) + DebugBytes.u32(UInt32(unit == 99_999 ? 0 : 1_000 + unit)) + [8, 0] + [0, 0, 0, 0]
      aranges += DebugBytes.u32(UInt32(body.count + tuples.count)) + body + tuples
    }
    try Self.withSymbolizer(["info": info, "abbrev": abbrev, "aranges": aranges]) { symbolizer in
      for address: UInt64 in stride(from: 0x1000, to: 0x1100, by: 8) {
        #expect(symbolizer.frames(at: address)?.frames.map(\.function) == ["f"])
      }
    }
  }

  // MARK: Item 3: memory bounded by the input

  @Test("A segment claiming 4,096 sections is read within its own size, and 64 fat slices at one offset once")
  func sectionsPastTheCommandAreNotRead() throws {
    // One segment command of 72 bytes (no room for a section) that claims 4,096, followed by
    // 4,096 section-sized blocks of zeros counted in the commands' size.
    var commands = DebugBytes.u32(0x19) + DebugBytes.u32(72) + Array("__DWARF".utf8) + Array(repeating: 0, count: 9)
    commands += Array(repeating: 0, count: 32) + DebugBytes.u32(7) + DebugBytes.u32(7) + DebugBytes.u32(4096)
    commands += DebugBytes.u32(0)
    let filler = [UInt8](repeating: 0, count: 4096 * 80)
    let thin =
      DebugBytes.u32(0xFEED_FACF) + DebugBytes.u32(0x0100_000C) + DebugBytes.u32(0) + DebugBytes.u32(10)
      + DebugBytes.u32(1) + DebugBytes.u32(UInt32(commands.count + filler.count)) + DebugBytes.u32(0)
      + DebugBytes.u32(0) + commands + filler
    let thinSlices = thin.withUnsafeBytes { MachOReader.slices($0) }
    #expect(thinSlices.count == 1)
    #expect(thinSlices.first?.sections.count == 0)
    // A fat header naming that slice 64 times.
    var fat = DebugBytes.u32BigEndian(0xCAFE_BABE) + DebugBytes.u32BigEndian(64)
    let sliceOffset = UInt32(8 + 64 * 20)
    for _ in 0..<64 {
      fat += DebugBytes.u32BigEndian(0x0100_000C) + DebugBytes.u32BigEndian(0) + DebugBytes.u32BigEndian(sliceOffset)
      fat += DebugBytes.u32BigEndian(UInt32(thin.count)) + DebugBytes.u32BigEndian(12)
    }
    fat += thin
    #expect(fat.withUnsafeBytes { MachOReader.slices($0) }.count == 1)
  }

  @Test("600 units whose DW_AT_ranges name one 65,536-entry list keep it once")
  func oneRangeListSharedByEveryUnit() throws {
    var ranges: [UInt8] = []
    for entry in 0..<65_536 {
      ranges += DebugBytes.u64(0x1000 + UInt64(entry) * 16) + DebugBytes.u64(0x1000 + UInt64(entry) * 16 + 8)
    }
    ranges += DebugBytes.u64(0) + DebugBytes.u64(0)
    let abbrev =
      D.declaration(code: 1, tag: D.tagCompileUnit, children: true, [(D.atRanges, D.formSecOffset)])
      + D.declaration(
        code: 2, tag: D.tagSubprogram, children: false, [(D.atName, D.formString), (D.atRanges, D.formSecOffset)])
      + [0]
    var info: [UInt8] = []
    for _ in 0..<600 {
      // The unit and five subprograms, all on the one list.
      var entries: [UInt8] = [1] + DebugBytes.u32(0)
      for _ in 0..<5 { entries += [2] + DebugBytes.cString("f") + DebugBytes.u32(0) }
      info += D.unit4(entries + [0])
    }
    try Self.withSymbolizer(["info": info, "abbrev": abbrev, "ranges": ranges]) { symbolizer in
      #expect(symbolizer.frames(at: 0x1004)?.frames.map(\.function) == ["f"])
      #expect(symbolizer.frames(at: 0x1000 + 65_535 * 16 + 4)?.frames.map(\.function) == ["f"])
      #expect(symbolizer.frames(at: 0x1008) == nil)
      // Before: 600 units x 65,536 ranges in the unit index and the same per subprogram (over
      // 600 MB). Now the list is kept once and the index joins each unit's ranges.
      #expect(!symbolizer.exceededBudget)
      #expect(symbolizer.budget.used < 64 << 20, "\(symbolizer.budget.used) bytes kept")
    }
  }

  @Test("65,536 DWARF 5 file names pointing into one 64 KiB string cost nothing until asked for")
  func fileNamesIntoOneLongString() throws {
    let long = String(repeating: "d", count: 65_000) + "/x.c"
    let names = (0..<65_536).map { UInt32($0 % 64) }
    let abbrev = Self.functionAbbreviations
    let entries = Self.functionEntries("f", low: 0x1000, size: 0x100)
    let program = [4] + DebugBytes.uleb(7) + D.setAddress(0x1000) + D.copy + D.advancePC(0x100) + D.endSequence
    try Self.withSymbolizer([
      "info": D.unit5(entries), "abbrev": abbrev, "line": D.lineProgram5(nameOffsets: names, program: program),
      "line_str": DebugBytes.cString(long),
    ]) { symbolizer in
      for address: UInt64 in stride(from: 0x1000, to: 0x1100, by: 4) {
        #expect(symbolizer.frames(at: address)?.frames.first?.file == "x.c")
      }
      // Before: each of the 65,536 names joined and kept whole (4 GiB).
      #expect(symbolizer.budget.used < 16 << 20, "\(symbolizer.budget.used) bytes kept")
    }
  }

  @Test("600 units each reading one large abbreviation table from another offset are given up")
  func abbreviationTableReadFromManyOffsets() throws {
    // 65,536 declarations without a terminating 0: read from offset k, a table is every
    // declaration from k on.
    var abbrev: [UInt8] = []
    var offsets: [UInt32] = []
    for code in 1...65_536 {
      offsets.append(UInt32(abbrev.count))
      abbrev += DebugBytes.uleb(UInt64(code)) + DebugBytes.uleb(D.tagCompileUnit) + [0]
      abbrev += DebugBytes.uleb(D.atName) + DebugBytes.uleb(D.formString) + [0, 0]
    }
    var info: [UInt8] = []
    for unit in 0..<600 {
      info += D.unit4(abbreviationOffset: offsets[unit * 100], DebugBytes.uleb(UInt64(unit * 100 + 1)) + [0x61, 0])
    }
    try Self.withSymbolizer(["info": info, "abbrev": abbrev]) { symbolizer in
      _ = symbolizer.frames(at: 0x1000)
      #expect(symbolizer.exceededBudget)
      #expect(symbolizer.budget.used <= symbolizer.budget.limit)
      #expect(symbolizer.budget.limit < 64 << 20 + DWARFBudget.perInputByte * (abbrev.count + info.count) + 4096)
      #expect(symbolizer.frames(at: 0x1000) == nil)
    }
  }

  @Test("A 65 KB function name at 2,000 addresses is kept once")
  func longNameAtManyAddressesIsShared() throws {
    let name = String(repeating: "n", count: 65_000)
    let (abbrev, info) = Self.unitWithFunction(name, low: 0x1000, size: 4_000)
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let path = try MachOBuilder.dSYM(code: 0x1000..<0x20000, dwarf: ["info": info, "abbrev": abbrev]).write(
      to: folder, as: "App")
    let image = try #require(DebugImage.load(path: .init(path)).first)
    var storages = Set<UInt>()
    for address: UInt64 in stride(from: 0x1000, to: 0x1000 + 4_000, by: 2) {
      let answer = try #require(image.lookup(fileAddress: address))
      if let storage = SharedTextsTests.storage(answer.frames[0].function) { storages.insert(storage) }
    }
    // Before: one 65 KB copy per address (1.3 GB for 20,000).
    #expect(storages.count == 1)
  }
}

/// The same values as clang writes them: `clang -target arm64-apple-ios17.0 -g` of an enum whose
/// values need 9- and 10-byte SLEBs (skipped when clang is not installed).
@Suite("Hostile DWARF: clang-emitted objects")
struct ClangDWARFTests {
  static let source = """
    enum Big : long long { Neg = -(1LL << 60), Min = (-9223372036854775807LL - 1), Pos = 1LL << 62 };
    static inline int twice(int x) { return x * 2; }
    int f(enum Big b, int x) { return twice(x) + (b == Neg); }
    int main(void) { return f(Neg, 3); }
    """

  static func clang() -> String? {
    ["/usr/bin/clang", "/opt/swift/usr/bin/clang", "/usr/local/bin/clang"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  @Test("A 9-byte negative enumerator in clang's DWARF 4 and 5 is read", arguments: ["-gdwarf-4", "-gdwarf-5"])
  func clangEnumNear64Bits(_ flag: String) throws {
    guard let clang = Self.clang() else { return }
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let source = folder.appendingPathComponent("big.c")
    try Data(Self.source.utf8).write(to: source)
    let object = folder.appendingPathComponent("big.o")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: clang)
    process.arguments = ["-target", "arm64-apple-ios17.0", flag, "-c", source.path, "-o", object.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return }
    let image = try #require(DebugImage.load(path: .init(object.path)).first)
    #expect(image.hasDebugInformation)
    // Before: SIGILL while reading the enumerators.
    let names = (0..<64).compactMap { image.lookup(fileAddress: UInt64($0))?.outermost.function }
    #expect(names.contains("f"))
  }

  @Test("Sections declared over the same bytes count once toward the DWARF budget")
  func aliasedSectionsCountOnce() {
    let bytes = [UInt8](repeating: 0, count: 1000)
    bytes.withUnsafeBytes { file in
      let whole = UnsafeRawBufferPointer(rebasing: file[0..<1000])
      let head = UnsafeRawBufferPointer(rebasing: file[0..<600])
      let tail = UnsafeRawBufferPointer(rebasing: file[400..<1000])
      let middle = UnsafeRawBufferPointer(rebasing: file[100..<200])
      // Ten sections over one file of 1,000 bytes: the budget scales with 1,000, not 10,000.
      #expect(DWARFSections.distinctByteCount(Array(repeating: whole, count: 10)) == 1000)
      #expect(DWARFSections.distinctByteCount([head, tail, middle]) == 1000)
      #expect(DWARFSections.distinctByteCount([middle, head]) == 600)
      #expect(DWARFSections.distinctByteCount([UnsafeRawBufferPointer(start: nil, count: 0), middle]) == 100)
      // Apart, they add up.
      let first = UnsafeRawBufferPointer(rebasing: file[0..<100])
      let second = UnsafeRawBufferPointer(rebasing: file[500..<550])
      #expect(DWARFSections.distinctByteCount([second, first]) == 150)
    }
  }
}
