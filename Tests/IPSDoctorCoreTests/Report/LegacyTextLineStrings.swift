@testable import IPSDoctorCheck
@testable import IPSDoctorReport

/// The line readers of ``LegacyTextLine`` on a `String`, for tests.
extension LegacyTextLine {
  /// Runs `body` on the UTF-8 of `text` inside a longer buffer ("<" before it, ">" after), with the
  /// range of `text`, as the reader passes a line or a value: a reader must stay in its range.
  static func withBytes<Result>(
    of text: String, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Result
  ) -> Result {
    let padded = [0x3C] + Array(text.utf8) + [0x3E]
    return padded.withUnsafeBufferPointer { body($0, 1..<($0.count - 1)) }
  }

  /// ``frame(bytes:texts:)`` of the line `line`.
  static func frame(_ line: String) -> (number: Int, frame: Frame)? {
    Array(line.utf8).withUnsafeBufferPointer { frame(bytes: $0) }
  }

  static func exceptionType(_ value: String) -> (type: String?, signal: String?) {
    withBytes(of: value) { exceptionType($0, $1) }
  }

  static func terminationReason(_ value: String) -> Termination? {
    withBytes(of: value) { terminationReason($0, $1) }
  }
}
