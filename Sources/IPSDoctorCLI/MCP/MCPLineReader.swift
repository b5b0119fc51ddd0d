import IPSDoctorSupport

/// Where the server's messages come from: standard input, or bytes in memory in the tests.
protocol MCPByteSource {
  /// Reads up to `buffer.count` bytes into `buffer`: how many, 0 at the end of the input, or -1
  /// when the input cannot be read.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
}

/// Standard input, read with `read(2)`: blocks until the client writes, retries after a signal,
/// and waits when a client left the pipe non-blocking.
struct StandardInputSource: MCPByteSource {
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      let count = readDescriptor(0, buffer)
      if count >= 0 { return count }
      switch errno {
      case EINTR: continue
      case EAGAIN:
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, -1)
      default: return -1
      }
    }
  }
}

/// `read(2)` into a buffer.
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
  read(fd, buffer.baseAddress, buffer.count)
}

/// Bytes in memory, handed out in pieces of at most `pieceSize` (so that the tests cross piece
/// boundaries in the middle of messages).
struct MemorySource: MCPByteSource {
  let bytes: [UInt8]
  var pieceSize: Int = 1 << 16
  private var offset = 0

  init(_ bytes: [UInt8], pieceSize: Int = 1 << 16) {
    self.bytes = bytes
    self.pieceSize = max(1, pieceSize)
  }

  mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let count = min(buffer.count, pieceSize, bytes.count - offset)
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
    }
    offset += count
    return count
  }
}

/// Splits the input into messages, one a line (MCP's stdio transport: newline-delimited JSON, no
/// line feed inside a message). A line longer than `limit` bytes is not kept: its bytes are
/// dropped as they arrive (memory stays within about twice `limit`), and the reader says how
/// long it was, so the server can refuse it and go on with the next line.
struct MCPLineReader<Source: MCPByteSource> {
  enum Line: Equatable {
    /// A message, without its line feed (and without a carriage return before it).
    case message([UInt8])
    /// A line of this many bytes or more, over the limit, dropped.
    case tooLong(Int)
    /// The input ended (a last line without a line feed was returned before this).
    case end
    /// The input could not be read.
    case failed
  }

  private var source: Source
  let limit: Int
  private var pending: [UInt8] = []
  /// Where the next line starts in `pending` (the bytes before it were returned).
  private var start = 0
  /// Where to look for the next line feed in `pending`.
  private var searched = 0
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)
  private var ended = false

  init(source: Source, limit: Int) {
    self.source = source
    self.limit = max(1, limit)
  }

  mutating func next() -> Line {
    var dropped = 0  // bytes of an over-long line dropped so far
    while true {
      if let newline = pending.withUnsafeBufferPointer({ ByteSearch.firstIndex(of: 0x0A, in: $0, from: searched) }) {
        let line = pending[start..<newline]
        start = newline + 1
        searched = start
        if dropped > 0 || line.count > limit { return .tooLong(dropped + line.count) }
        guard let message = Self.message(line) else { continue }  // a blank line carries nothing
        return .message(message)
      }
      searched = pending.count
      if pending.count - start > limit {
        dropped += pending.count - start
        pending.removeAll(keepingCapacity: false)
        (start, searched) = (0, 0)
      }
      if ended {
        let line = pending[start...]
        pending = []
        (start, searched) = (0, 0)
        if dropped > 0 || line.count > limit { return .tooLong(dropped + line.count) }
        guard let message = Self.message(line) else { return .end }
        return .message(message)
      }
      // The lines already returned go before more is read.
      if start > 0 {
        pending.removeSubrange(..<start)
        searched -= start
        start = 0
      }
      let count = chunk.withUnsafeMutableBytes { source.read(into: $0) }
      if count < 0 { return .failed }
      if count == 0 {
        ended = true
      } else {
        pending.append(contentsOf: chunk[..<count])
      }
    }
  }

  /// The line without a carriage return at its end; `nil` when nothing is left.
  private static func message(_ line: ArraySlice<UInt8>) -> [UInt8]? {
    var line = line
    if line.last == 0x0D { line = line.dropLast() }
    return line.isEmpty ? nil : Array(line)
  }
}
