// libFuzzer entry point for the reader and the rule engine. Built by Fuzz/fuzz.sh together with the
// IPSDoctorCore sources into one module, with `-sanitize=fuzzer,address`.

@_cdecl("LLVMFuzzerTestOneInput")
public func ipsDoctorFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // The JSON parser on its own, at a small depth limit too.
  _ = try? JSONParser.parse(bytes)
  _ = try? JSONParser.parse(bytes, maxDepth: 8)
  // The reader, the engine, and everything that renders a result.
  if let report = try? ReportReader.read(bytes) {
    #if FUZZ_READER_ONLY
      FuzzSink.checksum &+= report.threads.count &+ report.warnings.count
    #else
      let result = Doctor.diagnose(report)
      FuzzSink.consume(result, report)
    #endif
  }
  return 0
}

enum FuzzSink {
  static func consume(_ result: DiagnosisResult, _ report: CrashReport) {
    var total = result.signature.id.utf8.count
    for diagnosis in result.diagnoses {
      total &+= TerminalText.escaped(diagnosis.summary).utf8.count
      total &+= JSONWriter.quoted(diagnosis.remedy).utf8.count
    }
    if let header = report.headerJSON { total &+= JSONWriter.string(header, style: .compact).utf8.count }
    // The tree built from the (possibly partial) body tape.
    if case .object(let body)? = report.bodyJSON { total &+= body.count }
    FuzzSink.checksum &+= total
  }

  nonisolated(unsafe) static var checksum = 0
}
