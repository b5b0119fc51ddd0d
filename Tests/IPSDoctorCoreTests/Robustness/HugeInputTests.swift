import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorReport

@Suite("Hostile input: huge values")
struct HugeInputTests {
  private func peakRSSBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return usage.ru_maxrss * 1024
    #else
      getrusage(RUSAGE_SELF, &usage)
      return usage.ru_maxrss
    #endif
  }

  @Test(
    "A 100 MB string parses within a bounded amount of memory",
    .enabled(if: Sweeps.full, "a full sweep (IPS_DOCTOR_SWEEPS=1)"))
  func hugeString() throws {
    var bytes = [UInt8]()
    let size = 100 * 1024 * 1024
    bytes.reserveCapacity(size + 2)
    bytes.append(0x22)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "a"), count: size))
    bytes.append(0x22)
    let before = peakRSSBytes()
    let value = try JSONParser.parse(bytes)
    #expect(value.stringValue?.utf8.count == size)
    // The input (100 MB) plus one copy for the string; nothing quadratic.
    let grown = peakRSSBytes() - before
    #expect(grown < 3 * size, "peak RSS grew by \(grown) bytes")
  }

  @Test(
    "A 100 MB string with escapes and an unterminated one fail or pass cleanly",
    .enabled(if: Sweeps.full, "a full sweep (IPS_DOCTOR_SWEEPS=1)"))
  func hugeEscapedString() throws {
    let unit = Array(#"\u00e9\n"#.utf8)
    var bytes: [UInt8] = [0x22]
    for _ in 0..<(8 * 1024 * 1024) { bytes.append(contentsOf: unit) }
    let closed = bytes + [0x22]
    #expect(try JSONParser.parse(closed).stringValue?.unicodeScalars.count == 16 * 1024 * 1024)
    #expect(throws: JSONError.self) { try JSONParser.parse(bytes) }
  }

  @Test("A 10,000-digit number keeps its text and converts without trapping")
  func hugeNumber() throws {
    let digits = "9" + String(repeating: "8", count: 9_999)
    let value = try JSONParser.parse("[\(digits), -\(digits), 0.\(digits)e99999]")
    #expect(value[0]?.numberValue == .other(digits))
    #expect(value[0]?.numberValue?.uint64 == nil)
    #expect(value[1]?.numberValue?.int64 == nil)
    #expect(value[0]?.numberValue?.double == .infinity)
    #expect(value[2]?.numberValue?.double == .infinity)
  }

  @Test("A huge number in a register field becomes a warning, not a crash")
  func hugeRegister() throws {
    let digits = String(repeating: "7", count: 10_000)
    let report = try ReportReader.read(
      ExampleReport.ips(
        #"""
        {"threads":[{"triggered":true,"threadState":{"flavor":"ARM_THREAD_STATE64","pc":{"value":\#(digits)},"x":[{"value":18446744073709551615}]},"frames":[]}]}
        """#))
    #expect(report.threads[0].state?["x0"] == .max)
    #expect(report.threads[0].state?["pc"] == nil)
    #expect(report.warnings.contains { $0.location == "threads[0].threadState.pc.value" })
  }
}
