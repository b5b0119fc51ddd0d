import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the process is handed by its caller: closed standard streams, file names that are not
/// UTF-8, paths longer than the kernel takes, unreadable folders, non-blocking pipes, links out
/// of the scanned folder.
@Suite struct HostileEnvironmentTests {
  static let report = Fixtures.url("reports/null-pointer-dereference.ips").path

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  // MARK: Closed standard streams

  @Test func aClosedStandardErrorIsNotTakenByTheOutputFile() throws {
    guard ProcessTest.available else { return }
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let output = root.appendingPathComponent("o.json").path
    let missing = root.appendingPathComponent("missing.ips").path
    let run = try ProcessTest.run(
      [
        Self.bytes(Self.report), Self.bytes(missing), Self.bytes("--format"), Self.bytes("json"),
        Self.bytes("-o"), Self.bytes(output),
      ],
      in: root.path, stderr: .closed)
    #expect(run.status == ExitCode.noInput.rawValue)
    let written = try String(contentsOfFile: output, encoding: .utf8)
    #expect(!written.contains("ips-doctor: error"))
    #expect(written.hasPrefix("{"))
  }

  @Test func aClosedStandardInputIsAnErrorNotATemporaryFile() throws {
    guard ProcessTest.available else { return }
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let output = root.appendingPathComponent("o.txt").path
    let run = try ProcessTest.run(
      [Self.bytes("-"), Self.bytes("-o"), Self.bytes(output)], in: root.path, stdin: .closed)
    #expect(run.status == ExitCode.dataError.rawValue)
    #expect(run.stderr.contains("standard input is closed"))
    #expect(!((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("ips-doctor-spool"))
  }

  @Test func aClosedOrFullStandardOutputExits73() throws {
    guard ProcessTest.available else { return }
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let arguments = [
      Self.bytes(Self.report), Self.bytes("--format"), Self.bytes("sarif"), Self.bytes("--fail-on"),
      Self.bytes("never"),
    ]
    // A file that cannot grow past 512 bytes fails as a full disk does, on every system.
    let output = root.appendingPathComponent("stdout.sarif").path
    let limited = try ProcessTest.run(
      arguments, in: root.path, stdout: .file(output, flags: O_WRONLY | O_CREAT | O_TRUNC), fileSizeLimit: 1)
    #expect(limited.status == ExitCode.cannotCreate.rawValue, "\(limited.stderr)")
    #expect(limited.stderr.contains("cannot write standard output: file too large"), "\(limited.stderr)")
    if Capability.devFull {
      let full = try ProcessTest.run(arguments, in: root.path, stdout: .file("/dev/full", flags: O_WRONLY))
      #expect(full.status == ExitCode.cannotCreate.rawValue)
      #expect(full.stderr.contains("cannot write standard output: no space left on device"), "\(full.stderr)")
    }
    let closed = try ProcessTest.run(arguments, in: root.path, stdout: .closed)
    #expect(closed.status == ExitCode.cannotCreate.rawValue)
    #expect(closed.stderr.contains("standard output is closed"))
  }

  // MARK: File names that are not UTF-8

  @Test func argumentBytesRoundTripThroughTheArgumentString() {
    var generator = SystemRandomNumberGenerator()
    var samples: [[UInt8]] = [
      [0x78, 0xFF, 0x2E], [0xF4, 0x8F, 0xBC, 0x80], [0xF4, 0x8F, 0xBF, 0xBF, 0xC3, 0xA9], [0xED, 0xA0, 0x80],
      Array("plain/path.ips".utf8), Array("é/ü.crash".utf8), [],
    ]
    for _ in 0..<500 {
      samples.append(
        (0..<Int.random(in: 0..<12, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
    for bytes in samples {
      let argument = PathName.commandLineArgument(bytes)
      #expect(PathName(argument).bytes == bytes, "\(bytes)")
    }
    // Valid UTF-8 outside the escape range is the argument itself.
    #expect(PathName.commandLineArgument(Array("crash é.ips".utf8)) == "crash é.ips")
  }

  @Test(
    .enabled(
      if: Capability.keepsNonUTF8Names(in: FileManager.default.temporaryDirectory.path),
      "this file system refuses such names"))
  func aFileNameThatIsNotUTF8IsReadAndWritten() throws {
    guard ProcessTest.available else { return }
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let name = Self.bytes(root.path + "/x") + [0xFF] + Self.bytes(".ips")
    let contents = try Fixtures.bytes("reports/null-pointer-dereference.ips")
    let fd = (name + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    }
    try #require(fd >= 0)
    _ = contents.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    close(fd)
    let output = Self.bytes(root.path + "/out") + [0xFE]
    let run = try ProcessTest.run([name, Self.bytes("-q"), Self.bytes("-o"), output], in: root.path)
    #expect(run.status == ExitCode.findings.rawValue, "\(run.stderr)")
    var info = stat()
    let exists = (output + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) }
    }
    #expect(exists == 0)
  }

  // MARK: Folders

  /// A folder tree deeper than PATH_MAX is walked a piece at a time: its report is found and read.
  @Test func aPathLongerThanPathMaxIsScanned() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    var directory = open(root.path, O_RDONLY | O_DIRECTORY)
    try #require(directory >= 0)
    let component = String(repeating: "d", count: 200)
    for _ in 0..<25 {
      #expect(mkdirat(directory, component, 0o755) == 0)
      let next = openat(directory, component, O_RDONLY | O_DIRECTORY)
      close(directory)
      directory = next
      try #require(directory >= 0)
    }
    let contents = try Fixtures.bytes("reports/null-pointer-dereference.ips")
    let fd = openat(directory, "deep.ips", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    close(directory)
    try #require(fd >= 0)
    _ = contents.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    close(fd)
    let run = CLITest.run([root.path, "-q"])
    #expect(run.status == .findings, "\(run.stderr)")
    #expect(run.stdout.contains("null-pointer-dereference"))
    #expect(!run.stderr.contains("disappeared"))
  }

  /// A folder that cannot be searched says so (a non-root user is refused by its permissions).
  @Test(.enabled(if: geteuid() != 0, "root reads every folder"))
  func anUnsearchableFolderSaysPermissionDenied() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let locked = root.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try CLITest.copyFixture("Fixtures/reports/null-pointer-dereference.ips", to: locked, as: "a.ips")
    chmod(locked.path, 0o644)  // readable, not searchable
    let run = CLITest.run([root.path, "-q"])
    #expect(run.stderr.contains("permission denied"))
    #expect(!run.stderr.contains("disappeared"))
  }

  /// Links to folders inside a scanned folder are not followed unless `--follow`; a linked file is
  /// read either way.
  @Test func linksToFoldersAreFollowedOnlyWithFollow() throws {
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let scanned = root.appendingPathComponent("scanned")
    let elsewhere = root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: scanned, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    try CLITest.copyFixture("Fixtures/reports/null-pointer-dereference.ips", to: elsewhere, as: "far.ips")
    try CLITest.copyFixture("Fixtures/reports/kernel-panic-210.ips", to: root, as: "linked.ips")
    try FileManager.default.createSymbolicLink(
      atPath: scanned.appendingPathComponent("out").path, withDestinationPath: elsewhere.path)
    try FileManager.default.createSymbolicLink(
      atPath: scanned.appendingPathComponent("file.ips").path,
      withDestinationPath: root.appendingPathComponent("linked.ips").path)
    // A link back up makes a loop only a followed scan can meet.
    try FileManager.default.createSymbolicLink(
      atPath: elsewhere.appendingPathComponent("up").path, withDestinationPath: scanned.path)

    let plain = CLITest.run([scanned.path, "--format", "jsonl"])
    #expect(plain.stdout.split(separator: "\n").count == 1)
    #expect(!plain.stdout.contains("far.ips"))
    #expect(plain.stderr.contains("symbolic link to a folder"))

    let followed = CLITest.run([scanned.path, "--format", "jsonl", "--follow"])
    #expect(followed.stdout.split(separator: "\n").count == 2)
    #expect(followed.stdout.contains("far.ips"))
    #expect(followed.stderr.contains("loop"))
  }

  // MARK: Standard input

  /// A non-blocking pipe (both ends close-on-exec: only a child's standard input may hold the read
  /// end, or the child would never see the end of the input) whose writer sends `contents` in two
  /// halves with a pause between; returns the read end.
  static func pipeFedInTwoParts(_ contents: [UInt8]) throws -> Int32 {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
    let writer = ends[1]
    let thread = Thread {
      let half = contents.count / 2
      contents.withUnsafeBytes { _ = write(writer, $0.baseAddress!, half) }
      usleep(150_000)
      contents.withUnsafeBytes { _ = write(writer, $0.baseAddress! + half, contents.count - half) }
      close(writer)
    }
    thread.start()
    return ends[0]
  }

  /// A pipe left `O_NONBLOCK` by its writer is read to its end, not to its first pause.
  @Test func aNonBlockingPipeIsReadToItsEnd() throws {
    let contents = try Fixtures.bytes("reports/null-pointer-dereference.ips")
    let reader = try Self.pipeFedInTwoParts(contents)
    defer { close(reader) }
    let read = POSIX.readAll(fd: reader, sizeHint: 0, limit: 1 << 20, waitForData: true)
    #expect((try? read.get()) == contents)
  }

  @Test func theExecutableReadsANonBlockingStandardInputWhole() throws {
    guard ProcessTest.available else { return }
    let root = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(root) }
    let reader = try Self.pipeFedInTwoParts(try Fixtures.bytes("reports/null-pointer-dereference.ips"))
    defer { close(reader) }
    let run = try ProcessTest.run([Self.bytes("-"), Self.bytes("-q")], in: root.path, stdin: .descriptor(reader))
    #expect(run.status == ExitCode.findings.rawValue, "\(run.stderr)")
  }
}
