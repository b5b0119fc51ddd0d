import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// What the summary calls the reason, and the architecture `atos` is told.
@Suite struct CrashSummaryReasonTests {
  static func summary(_ path: String) throws -> CrashSummary {
    let report = try ReportReader.read(try Fixtures.bytes(path))
    return CrashSummary(context: DiagnosisContext(report: report))
  }

  /// A memory fault states no reason: its subtype ("KERN_INVALID_ADDRESS at 0x…") stays in the
  /// exception, and two faults without frames still group apart by it.
  @Test func aReportWithoutExceptionReasonOrASIHasNoReason() throws {
    let summary = try Self.summary("reports/invalid-address.ips")
    #expect(summary.reason == nil)
    #expect(summary.exception == "EXC_BAD_ACCESS (SIGSEGV)")
  }

  @Test func theExceptionReasonIsTheReason() throws {
    let summary = try Self.summary("reports/async-bridge-didreceive-simplified-symbols.ips")
    #expect(summary.reason?.contains("Call must be made on main thread") == true)
  }

  /// A Rosetta process ("X86-64 (Translated)") runs x86_64 code: `atos` must be told so when its
  /// images do not name their architecture.
  @Test(arguments: [
    ("X86-64 (Translated)", "x86_64"), ("X86-64 (Native)", "x86_64"), ("X86-64", "x86_64"),
    ("ARM-64 (Native)", "arm64"), ("ARM-64", "arm64"), ("ARM", "armv7"), ("X86 (Native)", "i386"),
  ])
  func atosArchitectureFromTheCodeType(codeType: String, arch: String) {
    #expect(SymbolicationHint.arch(cpuType: codeType) == arch)
  }

  @Test func aTranslatedLegacyReportGetsX86AtosCommands() throws {
    var text = String(
      decoding: try Fixtures.bytes("reports/async-bridge-didreceive-legacy-unsymbolicated-leb.crash"), as: UTF8.self)
    text = text.replacingOccurrences(of: "ARM-64 (Native)", with: "X86-64 (Translated)")
    text = text.replacingOccurrences(of: " ChatApp arm64  <", with: " ChatApp  <")
    let report = try ReportReader.read(Array(text.utf8))
    let hint = try #require(SymbolicationHint(context: DiagnosisContext(report: report)))
    #expect(hint.images.allSatisfy { $0.atos.hasPrefix("atos -arch x86_64 ") })
  }
}
