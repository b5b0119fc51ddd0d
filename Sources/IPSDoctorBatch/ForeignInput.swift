import IPSDoctorJSON
import IPSDoctorReport
import IPSDoctorSupport

/// Inputs that look like crash reports to a file scan but are something else: other crash tools'
/// binary records (PLCrashReporter, Crashlytics), JSON that is no crash reporter's, and the text outputs of Apple's
/// `leaks`, `sample` and `spindump`. They are named for what they are and never diagnosed as
/// crashes.
///
/// Detection is positive and conservative: an Apple report, even a damaged one, has a `bug_type`
/// or Apple's own keys and labels, and is never taken for one of these.
enum ForeignInput {
  /// What the bytes are, as a phrase ("a Sentry event (JSON)"), or `nil` for anything that may be
  /// an Apple crash report.
  static func identify(_ bytes: [UInt8]) -> String? {
    // Nearly every input is an Apple report whose first kilobytes say so: answer those without
    // decoding anything.
    let sure = bytes.withUnsafeBufferPointer { buffer in
      let head = UnsafeBufferPointer(rebasing: buffer.prefix(4096))
      return ByteSearch.firstIndex(of: "\"bug_type\"", in: head, anchor: 1) != nil
        || ByteSearch.firstIndex(of: "Exception Type:", in: head, anchor: 1) != nil
    }
    if sure { return nil }
    if let record = binaryRecord(bytes) { return record }
    let prefix = bytes.prefix(1 << 16)
    var start = prefix.startIndex
    if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
    while start < prefix.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[start]) { start += 1 }
    guard start < prefix.endIndex else { return nil }
    let text = String(decoding: prefix[start...], as: UTF8.self)
    if prefix[start] == UInt8(ascii: "{") || prefix[start] == UInt8(ascii: "[") {
      return json(text, bytes: bytes)
    }
    return textOutput(text)
  }

  /// PLCrashReporter's binary report (its file magic, "plcrash" and a version byte) and the
  /// records Crashlytics keeps on the device before upload (JSON lines that start with the SDK's
  /// `identity` record): named, not read.
  static func binaryRecord(_ bytes: [UInt8]) -> String? {
    if bytes.starts(with: Array("plcrash".utf8)) {
      return "a PLCrashReporter binary report (.plcrash; convert it with plcrashutil to Apple's text first)"
    }
    let head = String(decoding: bytes.prefix(512), as: UTF8.self)
    if head.hasPrefix("{\"identity\":"), head.contains("Crashlytics") {
      return "a Crashlytics on-device record (.clsrecord; the console's trace of it can be read)"
    }
    return nil
  }

  /// Keys only Apple's reports have, in the header line or the body.
  static let appleKeys = [
    "\"bug_type\"", "\"procName\"", "\"usedImages\"", "\"crashReporterKey\"", "\"incident_id\"",
    "\"faultingThread\"", "\"legacyInfo\"",
  ]

  static func json(_ text: String, bytes: [UInt8]) -> String? {
    if appleKeys.contains(where: { text.contains($0) }) { return nil }
    // KSCrash and its forks, Sentry and Bugsnag events: the reader reads them, or says why they
    // hold no crash. MetricKit payloads and call-stack trees too.
    let readKeys = [
      "\"binary_images\"", "\"event_id\"", "\"exceptions\"", "\"callStacks\"", "\"crashDiagnostics\"",
      "\"hangDiagnostics\"", "\"cpuExceptionDiagnostics\"", "\"diskWriteExceptionDiagnostics\"",
      "\"appLaunchDiagnostics\"",
    ]
    if readKeys.contains(where: { text.contains($0) }) || (text.contains("\"crash\"") && text.contains("\"report\"")) {
      return nil
    }
    // Any other JSON document, when it is one whole: a damaged Apple report fails to parse. A
    // crash reporter's report whose keys lie beyond the prefix is the reader's.
    guard let value = try? JSONParser.parse(bytes) else { return nil }
    if ["report", "event_id", "exceptions", "events"].contains(where: { value[$0] != nil }) { return nil }
    return "a JSON document that is not an Apple crash report"
  }

  /// `leaks`, `sample` and `spindump` outputs, by the labels only they write.
  static func textOutput(_ text: String) -> String? {
    if text.contains("\nleaks Report Version:") || text.hasPrefix("leaks Report Version:") {
      return "the output of leaks (a memory leak report, not a crash)"
    }
    if text.hasPrefix("Analysis of sampling ") || text.contains("\nAnalysis of sampling ") {
      return "the output of sample (a CPU sample, not a crash)"
    }
    let lines = text.split(separator: "\n", maxSplits: 200, omittingEmptySubsequences: true)
    let labels = lines.prefix(200).map { $0.trimmingPrefix(while: { $0 == " " }) }
    let hasCrashLabels = labels.contains {
      $0.hasPrefix("Exception Type:") || $0.hasPrefix("Crashed Thread:") || $0.hasPrefix("Triggered by Thread:")
        || $0.hasPrefix("Termination Reason:")
    }
    if !hasCrashLabels && labels.contains(where: { $0.hasPrefix("Num samples:") })
      && labels.contains(where: { $0.hasPrefix("Time Since Fork:") || $0.hasPrefix("Data Source:") })
    {
      return "the output of spindump or sample (a CPU sample, not a crash)"
    }
    return nil
  }
}
