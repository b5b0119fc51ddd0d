import IPSDoctorBatch
import IPSDoctorSupport

/// `ips-doctor mcp`: the Model Context Protocol server on standard input and output (see
/// ``MCPServer``). Exit 0 when the client closed standard input, 73 when standard output could
/// not be written, 65 when standard input could not be read.
struct MCPCommand<IO: CLIIO> {
  let io: IO

  func run() -> ExitCode {
    let io = self.io
    let server = MCPServer(
      jobs: min(DiagnoseCommand<IO>.coreCount(), 4),
      write: { line in
        do throws(FileError) {
          try io.writeStandardOutput(line)
          return true
        } catch {
          return false
        }
      },
      log: { message in io.writeStandardError("ips-doctor mcp: " + TerminalText.escaped(message) + "\n") })
    let served: Bool
    if io is ProcessIO {
      // The process's own standard input, read as the client writes it.
      served = server.serve(StandardInputSource())
    } else {
      // Streams given in memory (the tests of the whole command line): all of the input at once.
      switch io.readStandardInput(limit: 1 << 30) {
      case .success(let bytes): served = server.serve(MemorySource(bytes))
      case .failure(let error):
        CLI.writeError("cannot read standard input: \(error.message)", io: io)
        return .dataError
      }
    }
    if served { return .success }
    return server.hasOutputFailed ? .cannotCreate : .dataError
  }
}
