/// The ARM64 exception syndrome register (ESR) described in the words Apple's report uses for it
/// ("(Data Abort) byte read Translation fault"), for writers that keep the value but not the
/// description.
enum ExceptionSyndrome {
  /// The description of a data or instruction abort's syndrome; `nil` for any other exception
  /// class, whose description is not read by anything.
  static func description(_ esr: UInt64) -> String? {
    let exceptionClass = (esr >> 26) & 0x3F
    let faultStatus = esr & 0x3F
    let fault: String
    switch faultStatus {
    case 0x04...0x07: fault = "Translation fault"
    case 0x09...0x0B: fault = "Access flag fault"
    case 0x0D...0x0F: fault = "Permission fault"
    case 0x21: fault = "Alignment fault"
    default: fault = "fault status 0x" + String(faultStatus, radix: 16)
    }
    switch exceptionClass {
    case 0x24, 0x25:
      let size = ["byte", "halfword", "word", "doubleword"][Int((esr >> 22) & 0x3)]
      let access = (esr >> 6) & 1 == 1 ? "write" : "read"
      return "(Data Abort) " + size + " " + access + " " + fault
    case 0x20, 0x21:
      return "(Instruction Abort) " + fault
    default:
      return nil
    }
  }
}
