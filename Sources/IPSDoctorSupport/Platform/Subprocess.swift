/// Runs another program and reads what it writes, without a shell: the arguments reach it as
/// they are, so nothing in them is ever interpreted as a command.
///
/// Processes are started with `posix_spawnp`, the one way both platforms offer: Darwin marks
/// `popen`, `pclose` and `system` unavailable in Swift and the overlay marks `fork` unavailable
/// (see `docs/platforms.md`). The child gets `/dev/null` as standard input and error, the
/// default action for every signal and no blocked signal, whatever this process set for itself.
package enum Subprocess {
  /// What a run of a program gave back.
  package struct Output: Sendable, Equatable {
    /// Standard output, at most the limit asked for.
    package var bytes: [UInt8]
    /// Whether the program wrote more than the limit, or was still writing when time ran out;
    /// it was stopped then.
    package var wasCut: Bool
    /// The program's exit status, or `nil` when a signal ended it (our own `SIGKILL` included).
    package var exitStatus: Int32?

    /// The non-empty lines of ``bytes`` (a line cut by the limit is kept as it is).
    package var lines: [String] {
      bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// Runs `program` (a path, or a name looked up in `PATH`) with `arguments` and collects its
  /// standard output: at most `limit` bytes, for at most `timeout` milliseconds, after which the
  /// program is killed. `nil` when it could not be started.
  package static func run(
    _ program: String, arguments: [String], limit: Int = 1 << 20, timeout milliseconds: Int = 10_000
  ) -> Output? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    // Not inherited by anything else this process may start; the child gets its copy of the
    // write end through the `dup2` below, which clears the flag on descriptor 1.
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    defer { close(readEnd) }

    let started = spawn(program, arguments: arguments, standardOutput: writeEnd)
    close(writeEnd)
    guard let pid = started else { return nil }

    var output = Output(bytes: [], wasCut: false, exitStatus: nil)
    let deadline = monotonicMilliseconds() &+ max(0, milliseconds)
    var buffer = [UInt8](repeating: 0, count: 16_384)
    reading: while true {
      let remaining = deadline &- monotonicMilliseconds()
      guard remaining > 0 else {
        output.wasCut = true
        break
      }
      var request = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, Int32(clamping: remaining))
      if ready < 0 && errno == EINTR { continue }
      if ready <= 0 { continue }
      let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
      switch count {
      case 0: break reading
      case ..<0:
        if errno == EINTR || errno == EAGAIN { continue }
        break reading
      default:
        let room = max(0, limit - output.bytes.count)
        output.bytes += buffer[0..<min(count, room)]
        if count > room {
          output.wasCut = true
          break reading
        }
      }
    }
    if output.wasCut { kill(pid, SIGKILL) }
    output.exitStatus = waitForExit(pid)
    return output
  }

  /// Starts `program` with its standard output on `standardOutput`; its process id, or `nil`.
  private static func spawn(_ program: String, arguments: [String], standardOutput: Int32) -> pid_t? {
    // posix_spawn's action and attribute objects are opaque pointers on Darwin, structs on Linux.
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    guard posix_spawn_file_actions_init(&actions) == 0 else { return nil }
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard posix_spawnattr_init(&attributes) == 0 else { return nil }
    defer { posix_spawnattr_destroy(&attributes) }

    guard posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) == 0,
      posix_spawn_file_actions_adddup2(&actions, standardOutput, 1) == 0,
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) == 0
    else { return nil }

    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var everySignal = sigset_t()
    sigfillset(&everySignal)
    sigdelset(&everySignal, SIGKILL)
    sigdelset(&everySignal, SIGSTOP)
    guard posix_spawnattr_setsigmask(&attributes, &noSignals) == 0,
      posix_spawnattr_setsigdefault(&attributes, &everySignal) == 0,
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)) == 0
    else { return nil }

    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    let status = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
    return status == 0 ? pid : nil
  }

  /// Waits for `pid` to end: its exit status, or `nil` when a signal ended it.
  private static func waitForExit(_ pid: pid_t) -> Int32? {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return nil }
    }
    // The <sys/wait.h> macros are not imported into Swift: the low 7 bits are the signal that
    // ended the process (0: it exited), the next 8 its exit status.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
  }

  private static func monotonicMilliseconds() -> Int {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int(now.tv_sec) &* 1000 &+ Int(now.tv_nsec) / 1_000_000
  }
}
