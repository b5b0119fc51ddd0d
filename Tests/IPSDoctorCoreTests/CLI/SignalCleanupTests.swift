import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run ended by a signal leaves no temporary file beside its outputs, and a closed standard
/// output is a write error (exit 73) that still completes the `--output` files and the baseline.
@Suite struct SignalCleanupTests {
  /// A child `ips-doctor` with the default action for every signal the test sends or causes
  /// (whatever the test runner ignores), its standard input and output pipes held by the test.
  struct Child {
    let pid: pid_t
    /// The write end of the child's standard input.
    let input: Int32

    init(_ arguments: [String], directory: String, closeStandardOutput: Bool = false) throws {
      let executable = try #require(ProcessTest.executable)
      var stdinPipe: [Int32] = [0, 0]
      var stdoutPipe: [Int32] = [0, 0]
      try #require(pipe(&stdinPipe) == 0 && pipe(&stdoutPipe) == 0)
      for fd in stdinPipe + stdoutPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      // No reader on the child's standard output: its first write fails with EPIPE (or SIGPIPE).
      if closeStandardOutput { close(stdoutPipe[0]) }
      defer {
        close(stdinPipe[0])
        close(stdoutPipe[1])
        if !closeStandardOutput { close(stdoutPipe[0]) }
      }

      #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
      #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
      #endif
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
      if closeStandardOutput {
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
      } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      }
      posix_spawn_file_actions_addopen(&actions, 2, directory + "/stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var defaults = sigset_t()
      sigemptyset(&defaults)
      for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
      posix_spawnattr_setsigdefault(&attributes, &defaults)
      var empty = sigset_t()
      sigemptyset(&empty)
      posix_spawnattr_setsigmask(&attributes, &empty)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

      let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid = pid_t()
      try #require(posix_spawn(&pid, executable, &actions, &attributes, argv, environ) == 0)
      self.pid = pid
      input = stdinPipe[1]
    }

    /// How the child ended: its exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
      close(input)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
  }

  static func names(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  /// The child waits on its standard input (`-`) with both outputs open as temporary files; the
  /// signal then ends it by that signal, and the temporary files are gone.
  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aSignalMidRunRemovesTheTemporaryFiles(signal: Int32) throws {
    guard ProcessTest.available else { return }
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let directory = folder.path
    let child = try Child(
      ["-", "-o", directory + "/out.json", "-o", directory + "/out.sarif"], directory: directory)
    var temporary: [String] = []
    for _ in 0..<6_000 where temporary.count < 2 {
      temporary = Self.names(in: directory).filter { $0.contains(".tmp-") }
      usleep(10_000)
    }
    #expect(temporary.count == 2, "\(Self.names(in: directory))")
    kill(child.pid, signal)
    #expect(child.wait() == 128 + signal)
    #expect(Self.names(in: directory) == ["stderr.txt"])
  }

  /// `… -f json -o out.sarif --write-baseline b.json | head -1`: standard output closed early.
  @Test func aClosedStandardOutputStillCompletesTheFilesAndExits73() throws {
    guard ProcessTest.available else { return }
    let folder = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(folder) }
    let directory = folder.path
    let report = Fixtures.root.appendingPathComponent(OutputSafetyTests.report).path
    let child = try Child(
      [report, "-f", "json", "-o", directory + "/out.sarif", "--write-baseline", directory + "/b.json"],
      directory: directory, closeStandardOutput: true)
    #expect(child.wait() == 73)
    #expect(Self.names(in: directory) == ["b.json", "out.sarif", "stderr.txt"])
    let sarif = try String(contentsOfFile: directory + "/out.sarif", encoding: .utf8)
    #expect(sarif.contains("\"version\":\"2.1.0\"") || sarif.contains("\"version\": \"2.1.0\""))
    let stderr = try String(contentsOfFile: directory + "/stderr.txt", encoding: .utf8)
    #expect(stderr.contains("cannot write standard output"))
  }
}
