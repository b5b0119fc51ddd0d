import IPSDoctorReport
import IPSDoctorSupport

extension Frame {
  /// The symbol with its demangled forms (full and simplified, through the Swift runtime's
  /// `swift_demangle`), or `nil` when the frame is unsymbolicated. Computed on demand: most rules
  /// never need a demangled name.
  package var symbolName: SymbolName? {
    guard hasSymbolText, let symbol else { return nil }
    return SymbolName(symbol)
  }
}
