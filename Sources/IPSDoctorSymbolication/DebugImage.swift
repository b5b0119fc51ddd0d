import IPSDoctorSupport

/// One architecture of a dSYM's DWARF file or of a Mach-O with a symbol table, ready to
/// symbolicate addresses of the image with its UUID. It fills caches as it answers, so one thread
/// at a time uses it (``DebugImagePool`` lends it so).
package final class DebugImage {
  package let uuid: String?
  package let arch: String
  /// Where it was read from, for messages.
  package let path: String
  /// `__TEXT`'s vmaddr, the image's file address of its load address.
  package let textAddress: UInt64

  /// Keeps the mapping alive: `slice` and the readers point into it.
  private let file: MappedFile
  private let slice: MachOSlice
  private lazy var symbols = SymbolTable(slice)
  private lazy var dwarf = DWARFSymbolizer(DWARFSections(slice))
  /// The display name of each function named so far: a batch's reports name the same few.
  private var displayNames: [String: String] = [:]
  /// The function and file names of the answers, one copy of each: many addresses of one
  /// function share its name, however long.
  private var names = Set<String>()
  /// The answer for each address asked so far (at most ``maxAnswers``): a batch's reports of one
  /// crash ask the same addresses.
  private var answers: [UInt64: Symbolication?] = [:]
  static let maxAnswers = 1 << 16

  init(file: MappedFile, slice: MachOSlice, path: String) {
    self.file = file
    self.slice = slice
    self.path = path
    uuid = slice.uuid
    arch = slice.arch
    textAddress = slice.textAddress
  }

  /// Every architecture of the Mach-O file at `path`; empty when it is not one or cannot be read.
  package static func load(path: PathName) -> [DebugImage] {
    guard let file = MappedFile(path: path) else { return [] }
    return MachOReader.slices(file.bytes).map { DebugImage(file: file, slice: $0, path: path.display) }
  }

  /// `function` as a report shows it (``SwiftSymbolDisplay/simplified(_:)``).
  func displayName(of function: String) -> String {
    if let known = displayNames[function] { return known }
    let name = SwiftSymbolDisplay.simplified(function)
    displayNames[function] = name
    return name
  }

  /// "path (arch uuid)", for messages.
  package var summary: String { "\(path) (\(arch) \(uuid ?? "no UUID"))" }

  package var hasDebugInformation: Bool { !DWARFSections(slice).isEmpty }

  /// Whether its DWARF was given up for holding more than ``DWARFBudget`` allows (the symbol
  /// table still answers).
  package var exceededBudget: Bool { dwarf.exceededBudget }

  /// The DWARF budget's limit in bytes, for messages.
  package var budgetLimit: Int { dwarf.budget.limit }

  /// What is known of `fileAddress` (an address in this file's address space): its source
  /// frames, innermost first, and its function's start. `nil` when neither DWARF nor the symbol
  /// table knows it.
  package func lookup(fileAddress: UInt64) -> Symbolication? {
    if let known = answers[fileAddress] { return known }
    let answer = find(fileAddress: fileAddress).map(interned)
    if answers.count < Self.maxAnswers { answers[fileAddress] = answer }
    return answer
  }

  /// `answer` with its names replaced by the equal ones kept before, if any.
  private func interned(_ answer: Symbolication) -> Symbolication {
    var result = answer
    for index in result.frames.indices {
      result.frames[index].function = names.insert(result.frames[index].function).memberAfterInsert
      if let file = result.frames[index].file { result.frames[index].file = names.insert(file).memberAfterInsert }
    }
    return result
  }

  /// ``lookup(fileAddress:)`` without the memory of earlier answers.
  private func find(fileAddress: UInt64) -> Symbolication? {
    let symbol = symbols.symbol(containing: fileAddress).flatMap { found in
      symbols.name(of: found).map { (address: found.address, name: $0) }
    }
    if let found = dwarf.frames(at: fileAddress) {
      var frames = found.frames
      // A function without a DWARF entry (the line table only): the symbol table names it.
      if let last = frames.indices.last, frames[last].function.isEmpty {
        guard let symbol else { return nil }
        frames[last].function = symbol.name
        return Symbolication(frames: frames, functionStart: symbol.address)
      }
      return Symbolication(frames: frames, functionStart: found.functionStart ?? symbol?.address ?? fileAddress)
    }
    guard let symbol else { return nil }
    return Symbolication(
      frames: [SourceFrame(function: symbol.name, file: nil, line: nil)], functionStart: symbol.address)
  }
}

/// The answer for one address.
package struct Symbolication: Sendable, Equatable {
  /// Innermost first; the last is the function the address's code belongs to.
  package var frames: [SourceFrame]
  /// The file address where that function starts.
  package var functionStart: UInt64

  /// The outermost function, with the position of the address inside it (for inlined code, the
  /// call site of the inlined call): what `atos` prints without `-i`.
  package var outermost: SourceFrame { frames[frames.count - 1] }
}
