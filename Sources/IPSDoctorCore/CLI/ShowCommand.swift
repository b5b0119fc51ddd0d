/// `ips-doctor show PATH`: the report in Apple's legacy text layout.
struct ShowCommand<IO: CLIIO> {
  let invocation: Invocation
  let io: IO

  func run() -> ExitCode {
    CLI.writeError("'show' is not available in this build", io: io)
    return .software
  }
}
