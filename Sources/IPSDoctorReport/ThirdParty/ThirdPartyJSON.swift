import IPSDoctorJSON
import IPSDoctorSupport

/// JSON crash reports that crash reporters write in their own layouts (KSCrash and its forks,
/// Sentry and Bugsnag events, MetricKit payloads), each read into the same ``CrashReport`` as
/// Apple's.
///
/// Recognised by their keys, never by a file's name. Apple's reports (a `bug_type` on the first
/// line, or the keys of Apple's body) are left to the usual framing. The parser stays strict, with
/// one exception for the writers known to leave it behind: a comma before a closing bracket or
/// brace, removed with a warning.
enum ThirdPartyJSON {
  /// The most trailing commas removed from one report; more is not a known writer's slip.
  static let maxTrailingCommas = 16

  /// The report in the JSON at `start`, or `nil` when it is not a layout read here. Of a MetricKit
  /// payload with several diagnostics, the first, with a warning (``readAll(_:from:)`` reads each).
  static func read(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) throws(ReportError) -> CrashReport? {
    guard let all = try readAll(buffer, from: start), var first = all.first?.report else { return nil }
    if all.count > 1, let label = all[0].label {
      first.warnings.append(
        ReportWarning(
          location: label, message: "read the first of the payload's \(all.count) diagnostics (a batch reads each)"))
    }
    return first
  }

  /// Every report in the JSON at `start`, each with its label within the file (a MetricKit
  /// payload's `crashDiagnostics[0]`; `nil` for a file that is one report), or `nil` when it is not
  /// a layout read here.
  static func readAll(
    _ buffer: UnsafeBufferPointer<UInt8>, from start: Int
  ) throws(ReportError) -> [(label: String?, report: CrashReport)]? {
    // Apple's JSON reports name their bug type on the first line.
    let lineEnd = ByteSearch.firstIndex(of: 0x0A, in: buffer, from: start) ?? buffer.count
    if ByteSearch.firstIndex(of: "\"bug_type\"", in: UnsafeBufferPointer(rebasing: buffer[..<lineEnd]), from: start)
      != nil
    {
      return nil
    }
    guard
      ByteSearch.firstIndex(of: "\"crash\"", in: buffer, from: start) != nil
        || ByteSearch.firstIndex(of: "\"report\"", in: buffer, from: start) != nil
        || ByteSearch.firstIndex(of: "\"event_id\"", in: buffer, from: start) != nil
        || ByteSearch.firstIndex(of: "\"exceptions\"", in: buffer, from: start) != nil
        || ByteSearch.firstIndex(of: "\"callStacks\"", in: buffer, from: start) != nil
    else { return nil }

    var bytes = Array(buffer[start...])
    var warnings: [ReportWarning] = []
    for _ in 0...maxTrailingCommas {
      let (document, _, failure) = bytes.withUnsafeBufferPointer { JSONParser.documentPrefix($0, from: 0) }
      if let failure {
        guard let comma = trailingComma(before: failure.location.offset, in: bytes) else { return nil }
        let location = SourceLocation(offset: comma, in: bytes)
        // The offset is in `bytes`, which starts at `start`: count the lines before it too.
        let line = location.line &+ SourceLocation(offset: start, in: buffer).line &- 1
        warnings.append(
          ReportWarning(location: "line \(line)", message: "ignored a trailing comma (not valid JSON)"))
        bytes.remove(at: comma)
        continue
      }
      guard let document else { return nil }
      let read = document.withRoot { root -> Result<[(label: String?, report: CrashReport)], ReportError>? in
        if KSCrashReader.isReport(root) { return KSCrashReader.read(root).map { [(nil, $0)] } }
        if SentryEventReader.isEvent(root) { return SentryEventReader.read(root).map { [(nil, $0)] } }
        if BugsnagEventReader.isEvent(root) { return BugsnagEventReader.read(root).map { [(nil, $0)] } }
        if MetricKitReader.isPayload(root) { return MetricKitReader.read(root) }
        return nil
      }
      guard var reports = try read?.get() else { return nil }
      for index in reports.indices { reports[index].report.warnings.insert(contentsOf: warnings, at: 0) }
      return reports
    }
    return nil
  }

  /// The first element of an array; `nil` for an empty array or another value.
  static func first(_ node: JSONNode?) -> JSONNode? {
    guard let node, node.kind == .array else { return nil }
    for element in node.elements { return element }
    return nil
  }

  /// The last element of an array; `nil` for an empty array or another value.
  static func last(_ node: JSONNode?) -> JSONNode? {
    guard let node, node.kind == .array else { return nil }
    var last: JSONNode?
    for element in node.elements { last = element }
    return last
  }

  /// An address or size written as a number or as a hexadecimal string (`"0x1000"`).
  static func address(_ node: JSONNode?) -> UInt64? {
    guard let node else { return nil }
    if let number = node.number?.uint64 { return number }
    guard let text = node.string else { return nil }
    if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt64(text.dropFirst(2), radix: 16) }
    return UInt64(text)
  }

  /// `value − base` when both are known and `value` is not below `base`; `nil` otherwise (a zero
  /// base is an unknown one).
  static func difference(_ value: UInt64?, _ base: UInt64?) -> UInt64? {
    guard let value, let base, base != 0, value >= base else { return nil }
    return value &- base
  }

  /// The comma before `offset` when only white space separates them and `bytes[offset]` closes an
  /// array or object.
  static func trailingComma(before offset: Int, in bytes: [UInt8]) -> Int? {
    guard offset > 0, offset < bytes.count, bytes[offset] == UInt8(ascii: "}") || bytes[offset] == UInt8(ascii: "]")
    else { return nil }
    var index = offset - 1
    while index > 0, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
      index -= 1
    }
    return bytes[index] == UInt8(ascii: ",") ? index : nil
  }
}

extension SourceLocation {
  init(offset: Int, in bytes: [UInt8]) {
    self = bytes.withUnsafeBufferPointer { SourceLocation(offset: offset, in: $0) }
  }
}
