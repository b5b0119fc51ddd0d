import IPSDoctorSupport

/// The process's standard streams, injected so that tests run the whole CLI in process and
/// capture what it prints.
package protocol CLIIO {
  /// Writes to standard output; throws when the text could not be written whole (a full disk, a
  /// closed pipe, standard output closed when the process started).
  func writeStandardOutput(_ text: String) throws(FileError)
  /// Writes whole UTF-8 text already in bytes (spooled output read back), without making a
  /// `String` of it first where the stream takes bytes.
  func writeStandardOutput(utf8 bytes: UnsafeRawBufferPointer) throws(FileError)
  /// Writes to standard error. Nothing can be done when that fails, so it does not say.
  func writeStandardError(_ text: String)
  /// Whether standard output is a terminal (decides colour and wrapping width).
  var standardOutputIsTerminal: Bool { get }
  /// Whether standard error is a terminal (decides the progress line).
  var standardErrorIsTerminal: Bool { get }
  /// Whether standard input is a pipe or a file, which `ips-doctor` with no path reads.
  var standardInputIsData: Bool { get }
  /// Whether standard input is a terminal: a person ran the command.
  var standardInputIsTerminal: Bool { get }
  /// The terminal's width in columns, when standard output is a terminal.
  var terminalColumns: Int? { get }
  /// Everything on standard input, or an error message. Reads at most `limit` bytes plus one, so
  /// the caller can tell that the input was larger.
  func readStandardInput(limit: Int) -> Result<[UInt8], FileError>
  /// The descriptor standard input can be read from as a stream, when there is one (`merge -`
  /// copies it to a temporary file rather than holding it); `nil` to read it with
  /// ``readStandardInput(limit:)``.
  var standardInputDescriptor: Int32? { get }
}

extension CLIIO {
  package var standardInputIsData: Bool { false }
  package var standardInputDescriptor: Int32? { nil }
  package var standardInputIsTerminal: Bool { false }

  package func writeStandardOutput(utf8 bytes: UnsafeRawBufferPointer) throws(FileError) {
    try writeStandardOutput(String(decoding: bytes, as: UTF8.self))
  }
}

/// The real standard streams, written with `write(2)` (no buffering in `FILE*`, no Foundation).
package struct ProcessIO: CLIIO {
  /// The standard descriptors (0, 1, 2) that were closed when the process started; they are held
  /// by `/dev/null` (see ``openStandardStreams()``), and reading or writing them is an error.
  let closedStreams: Set<Int32>

  package init(closedStreams: Set<Int32> = []) {
    self.closedStreams = closedStreams
  }

  /// Makes sure descriptors 0, 1 and 2 are open, opening `/dev/null` on each one that is not, as
  /// the BSD tools do: a file the program opens later must never become its standard output or
  /// error by taking a free low number. Returns the descriptors that were closed.
  package static func openStandardStreams() -> Set<Int32> {
    var closed: Set<Int32> = []
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
      if opened >= 0 && opened != fd {
        dup2(opened, fd)
        close(opened)
      }
      closed.insert(fd)
    }
    return closed
  }

  /// Closes standard output and returns why that failed, if it did: some file systems report a
  /// failed write only when the file is closed.
  package static func closeStandardOutput() -> FileError? {
    guard close(1) != 0 else { return nil }
    let code = errno
    return code == EBADF || code == EINTR ? nil : POSIX.error(code)
  }

  package func writeStandardOutput(_ text: String) throws(FileError) {
    let written = text.withBorrowedUTF8 { writeOutput(UnsafeRawBufferPointer($0)) }
    if let written { throw written }
  }

  package func writeStandardOutput(utf8 bytes: UnsafeRawBufferPointer) throws(FileError) {
    if let failure = writeOutput(bytes) { throw failure }
  }

  private func writeOutput(_ bytes: UnsafeRawBufferPointer) -> FileError? {
    if closedStreams.contains(1) { return FileError(.other, "standard output is closed") }
    return POSIX.writeAll(1, bytes) ? nil : POSIX.error(errno)
  }

  package func writeStandardError(_ text: String) { POSIX.writeAll(2, text) }
  package var standardOutputIsTerminal: Bool { isatty(1) == 1 }
  package var standardErrorIsTerminal: Bool { isatty(2) == 1 }

  package var standardInputIsTerminal: Bool { !closedStreams.contains(0) && isatty(0) == 1 }

  package var standardInputIsData: Bool {
    guard !closedStreams.contains(0) else { return false }
    var info = stat()
    guard fstat(0, &info) == 0 else { return false }
    let kind = FileKind(mode: UInt32(info.st_mode))
    return kind == .fifo || kind == .regular || kind == .socket
  }

  package var terminalColumns: Int? {
    var size = winsize()
    // An `Int32` macro in Glibc, a `UInt` constant of the Darwin overlay (TiocConstants.swift).
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  package var standardInputDescriptor: Int32? { closedStreams.contains(0) ? nil : 0 }

  package func readStandardInput(limit: Int) -> Result<[UInt8], FileError> {
    if closedStreams.contains(0) { return .failure(FileError(.other, "standard input is closed")) }
    return POSIX.readAll(fd: 0, sizeHint: 0, limit: limit, waitForData: true)
  }
}

extension CLI {
  /// The environment as a dictionary, from a C `environ` array.
  package static func environment(_ variables: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
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

extension CLI {
  /// The whole process: the allocator tuned for the platform, then ``main(argc:argv:environment:)``
  /// with the process's environment, and its status as the exit status.
  package static func runProcess(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Never {
    Platform.tuneAllocator()
    exit(main(argc: argc, argv: argv, environment: Platform.environment))
  }

  /// The process from its C arguments to its exit status: standard streams made safe, arguments
  /// taken as the bytes the user typed, the command run, standard output closed and checked.
  package static func main(
    argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    environment variables: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> Int32 {
    // Before anything opens a file: a closed standard stream must not be taken by the next open.
    let closedStreams = ProcessIO.openStandardStreams()
    // A signal that ends the run removes the temporary files beside the outputs; a closed pipe on
    // standard output is a write error (exit 73), not the end of the process with the `--output`
    // files unwritten.
    TemporaryFiles.installSignalHandlers()
    TemporaryFiles.ignoreBrokenPipe()

    // The arguments as the bytes the user typed: a file name that is not UTF-8 still names its file.
    let arguments = (1..<Int(argc)).map { index in
      let argument = argv[index]!
      return PathName.commandLineArgument(Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument))))
    }

    var status = run(arguments, environment: environment(variables), io: ProcessIO(closedStreams: closedStreams))
    if !closedStreams.contains(1), let failure = ProcessIO.closeStandardOutput() {
      ProcessIO().writeStandardError("ips-doctor: error: cannot write standard output: \(failure.message)\n")
      status = max(status, .cannotCreate)
    }
    return status.rawValue
  }
}
