import IPSDoctorJSON
import IPSDoctorSupport

/// JSON crash reports that crash reporters write in their own layouts (KSCrash and its forks), each
/// read into the same ``CrashReport`` as Apple's.
///
/// Recognised by their keys, never by a file's name. Apple's reports (a `bug_type` on the first
/// line, or the keys of Apple's body) are left to the usual framing. The parser stays strict, with
/// one exception for the writers known to leave it behind: a comma before a closing bracket or
/// brace, removed with a warning.
enum ThirdPartyJSON {
  /// The most trailing commas removed from one report; more is not a known writer's slip.
  static let maxTrailingCommas = 16

  /// The report in the JSON at `start`, or `nil` when it is not a layout read here.
  static func read(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) throws(ReportError) -> CrashReport? {
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
      guard let document, document.withRoot({ KSCrashReader.isReport($0) }) else { return nil }
      var report = try document.withRoot { KSCrashReader.read($0) }.get()
      report.warnings = warnings + report.warnings
      return report
    }
    return nil
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
