import IPSDoctorSupport

/// The memory a slice's DWARF reader may hold in what it parses and keeps (abbreviation tables,
/// range lists, line tables, scope and unit indexes): a fixed floor plus a multiple of the DWARF
/// sections' size (a line program of one-byte rows keeps 24 bytes a row). Everything kept is charged once, when read; what is shared (a range list or
/// a table at one offset) is charged once. When a charge does not fit, the budget is exhausted for
/// good: the reader answers nothing more, and its image says so (``DebugImage/exceededBudget``).
final class DWARFBudget {
  static let floor = 64 << 20
  static let perInputByte = 32

  let limit: Int
  private(set) var used = 0
  private(set) var isExhausted = false

  init(inputBytes: Int) {
    let (scaled, overflow) = inputBytes.multipliedReportingOverflow(by: Self.perInputByte)
    limit = overflow ? Int.max : Self.floor.addingReportingOverflow(scaled).overflow ? Int.max : Self.floor + scaled
  }

  /// Adds `bytes` to what is held; `false` (and exhausted from then on) when that passes the limit.
  @discardableResult
  func charge(_ bytes: Int) -> Bool {
    guard !isExhausted else { return false }
    guard bytes <= limit - used else {
      isExhausted = true
      return false
    }
    used += max(bytes, 0)
    return true
  }
}
