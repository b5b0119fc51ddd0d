#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard streams, injected so that tests run the whole CLI in process and
/// capture what it prints.
public protocol CLIIO {
  func writeStandardOutput(_ text: String)
  /// Writes whole UTF-8 text already in bytes (spooled output read back), without making a
  /// `String` of it first where the stream takes bytes.
  func writeStandardOutput(utf8 bytes: UnsafeRawBufferPointer)
  func writeStandardError(_ text: String)
  /// Whether standard output is a terminal (decides colour and wrapping width).
  var standardOutputIsTerminal: Bool { get }
  /// Whether standard error is a terminal (decides the progress line).
  var standardErrorIsTerminal: Bool { get }
  /// The terminal's width in columns, when standard output is a terminal.
  var terminalColumns: Int? { get }
  /// Everything on standard input, or an error message. Reads at most `limit` bytes plus one, so
  /// the caller can tell that the input was larger.
  func readStandardInput(limit: Int) -> Result<[UInt8], FileError>
}

extension CLIIO {
  public func writeStandardOutput(utf8 bytes: UnsafeRawBufferPointer) {
    writeStandardOutput(String(decoding: bytes, as: UTF8.self))
  }
}

/// The real standard streams, written with `write(2)` (no buffering in `FILE*`, no Foundation).
public struct ProcessIO: CLIIO {
  public init() {}

  public func writeStandardOutput(_ text: String) { POSIX.writeAll(1, text) }
  public func writeStandardOutput(utf8 bytes: UnsafeRawBufferPointer) { POSIX.writeAll(1, bytes) }
  public func writeStandardError(_ text: String) { POSIX.writeAll(2, text) }
  public var standardOutputIsTerminal: Bool { isatty(1) == 1 }
  public var standardErrorIsTerminal: Bool { isatty(2) == 1 }

  public var terminalColumns: Int? {
    var size = winsize()
    #if canImport(Glibc)
      let request = UInt(TIOCGWINSZ)
    #else
      let request: UInt = 0x4008_7468  // TIOCGWINSZ: a function-like macro Swift cannot import
    #endif
    guard ioctl(1, request, &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  public func readStandardInput(limit: Int) -> Result<[UInt8], FileError> {
    POSIX.readAll(fd: 0, sizeHint: 0, limit: limit)
  }
}

extension CLI {
  /// The environment as a dictionary, from a C `environ` array.
  public static func environment(_ variables: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
    -> [String: String]
  {
    var environment: [String: String] = [:]
    guard var entry = variables else { return environment }
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return environment
  }
}
