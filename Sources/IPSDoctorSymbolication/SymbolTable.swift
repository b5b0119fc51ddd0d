import IPSDoctorSupport

/// The function symbols of a Mach-O slice, sorted by address, for "the nearest preceding symbol".
struct SymbolTable {
  struct Symbol {
    var address: UInt64
    /// The name's offset in the string table: names are decoded only for symbols looked up.
    var nameOffset: UInt32
  }

  /// Sorted by address; one symbol per address (the first non-local one when several).
  let symbols: [Symbol]
  /// The end of the last section holding code, so an address past all code finds nothing.
  let codeEnd: UInt64

  init(_ slice: MachOSlice) {
    var found: [(symbol: Symbol, external: Bool)] = []
    var codeSections = Set<Int>()
    var end: UInt64 = 0
    for (index, section) in slice.sections.enumerated() where section.segment == "__TEXT" || section.name == "__text" {
      codeSections.insert(index + 1)  // n_sect counts from 1
      end = max(end, section.address &+ section.size)
    }
    let entrySize = slice.is64 ? 16 : 12
    var cursor = ByteCursor(slice.symbols)
    for index in 0..<slice.symbolCount {
      guard cursor.seek(index * entrySize), let nameOffset = cursor.u32(), let type = cursor.u8(),
        let section = cursor.u8(), cursor.skip(2), let value = cursor.unsigned(slice.is64 ? 8 : 4)
      else { break }
      // Not a debugging (stab) entry, defined in a section of code.
      guard type & 0xE0 == 0, type & 0x0E == 0x0E, codeSections.contains(Int(section)) else { continue }
      // Assembler-local labels (`ltmp0`, `l_…`, `L…`) are not functions; nor are empty names.
      guard Int(nameOffset) < slice.strings.count else { continue }
      let start = Int(nameOffset)
      let prefix = slice.strings[start..<min(start + 4, slice.strings.count)]
      if prefix.first == 0 || prefix.first == UInt8(ascii: "L") || prefix.starts(with: "l_".utf8)
        || prefix.elementsEqual("ltmp".utf8)
      {
        continue
      }
      found.append((Symbol(address: value, nameOffset: nameOffset), type & 0x01 != 0))
    }
    found.sort {
      $0.symbol.address != $1.symbol.address ? $0.symbol.address < $1.symbol.address : $0.external && !$1.external
    }
    var unique: [Symbol] = []
    for entry in found where unique.last?.address != entry.symbol.address { unique.append(entry.symbol) }
    symbols = unique
    codeEnd = end
    strings = slice.strings
  }

  /// The string table the names are in.
  private let strings: UnsafeRawBufferPointer

  /// A symbol's name without the C underscore: `main`, `$s4Main3fooyyF`, `-[MyClass crash]`.
  func name(of symbol: Symbol) -> String? {
    guard var name = ByteCursor.cString(in: strings, at: Int(symbol.nameOffset)), !name.isEmpty else { return nil }
    if name.hasPrefix("_") { name.removeFirst() }
    return name
  }

  /// The symbol at or before `address`, or `nil` before the first or past the code.
  func symbol(containing address: UInt64) -> Symbol? {
    guard codeEnd == 0 || address < codeEnd else { return nil }
    var low = 0
    var high = symbols.count
    while low < high {
      let middle = (low + high) / 2
      if symbols[middle].address <= address { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : symbols[low - 1]
  }
}
