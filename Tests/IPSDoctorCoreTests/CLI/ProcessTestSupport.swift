import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `ips-doctor` executable as a child process, for what only a process shows:
/// closed standard streams, raw argument bytes, a non-blocking pipe on standard input.
enum ProcessTest {
  /// The executable in the build's bin folder, the one that holds the tests' own binary, whatever
  /// the configuration or triple; or `nil`. The tests' binary is the process on Linux (the
  /// `.xctest` executable) and an argument of the runner on macOS (`xctest` or SwiftPM's testing
  /// helper, given the `.xctest` bundle or the binary inside it). `IPS_DOCTOR_EXECUTABLE` names
  /// another.
  static let executable: String? = {
    if let named = ProcessInfo.processInfo.environment["IPS_DOCTOR_EXECUTABLE"], !named.isEmpty {
      return FileManager.default.isExecutableFile(atPath: named) ? named : nil
    }
    let starts =
      CommandLine.arguments.filter { $0.contains(".xctest") } + [CommandLine.arguments[0]]
      + Bundle.allBundles.map(\.bundlePath).filter { $0.hasSuffix(".xctest") }
    for start in starts {
      // The folder of the binary or bundle, then up through name.xctest/Contents/MacOS.
      var folder = URL(fileURLWithPath: start)
      for _ in 0..<4 {
        folder.deleteLastPathComponent()
        let candidate = folder.appendingPathComponent("ips-doctor").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }()

  /// Whether the executable is there; in CI it must be (`.ci/run` builds it before the tests).
  static var available: Bool {
    if executable == nil && ProcessInfo.processInfo.environment["CI"] != nil {
      Issue.record("the ips-doctor executable was not built beside the tests")
    }
    return executable != nil
  }

  /// What a standard descriptor of the child is.
  enum Stream {
    case inherit
    case closed
    case file(String, flags: Int32)
    case descriptor(Int32)
  }

  struct Result {
    var status: Int32
    var stderr: String
  }

  /// Runs the executable with `arguments` (raw bytes each; paths absolute: the child shares the
  /// tests' working directory, which other tests rely on and nobody may change); standard error
  /// goes to a file in `directory` that is read back unless `stderr` says otherwise.
  ///
  /// With `fileSizeLimit`, the child runs under `ulimit -f` of that many 512-byte blocks with
  /// `SIGXFSZ` ignored, so that a write past the limit fails with `EFBIG` as a full disk fails
  /// with `ENOSPC` (through `/bin/sh`, which sets both before it starts the executable).
  static func run(
    _ arguments: [[UInt8]], in directory: String, stdin: Stream = .file("/dev/null", flags: O_RDONLY),
    stdout: Stream = .file("/dev/null", flags: O_WRONLY), stderr: Stream? = nil, fileSizeLimit: Int? = nil
  ) throws -> Result {
    let ipsDoctor = try #require(executable)
    let executable = fileSizeLimit == nil ? ipsDoctor : "/bin/sh"
    let launcher: [[UInt8]] =
      fileSizeLimit.map { blocks in
        [
          Array("-c".utf8), Array("trap '' XFSZ; ulimit -f \(blocks) && exec \"$0\" \"$@\"".utf8),
          Array(ipsDoctor.utf8),
        ]
      } ?? []
    let errorFile = directory + "/.stderr-\(UUID().uuidString)"
    defer { unlink(errorFile) }
    let stderrStream = stderr ?? .file(errorFile, flags: O_WRONLY | O_CREAT | O_TRUNC)

    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
    #else
      var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (fd, stream) in [(Int32(0), stdin), (1, stdout), (2, stderrStream)] {
      switch stream {
      case .inherit: break
      case .closed: posix_spawn_file_actions_addclose(&actions, fd)
      case .file(let path, let flags): posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0o644)
      case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, fd)
      }
    }

    let argv: [UnsafeMutablePointer<CChar>?] =
      ([Array(executable.utf8)] + launcher + arguments).map { bytes in
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
      } + [nil]
    defer { for pointer in argv { pointer?.deallocate() } }
    // The tests' environment, without Spotlight: no test asks the real `mdfind` by accident.
    var variables = ProcessInfo.processInfo.environment
    variables["IPS_DOCTOR_MDFIND"] = ""
    let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for variable in environment { free(variable) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
    try #require(spawned == 0)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let text = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
    return Result(status: exitStatus, stderr: text)
  }
}
