import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorCheck
@testable import IPSDoctorSupport

/// Captures what the CLI prints; the terminal flags and standard input are set per test.
class CapturedIO: CLIIO, @unchecked Sendable {
  private let lock = NSLock()
  private var out = ""
  private var err = ""
  var standardOutputIsTerminal: Bool
  var standardErrorIsTerminal: Bool
  var terminalColumns: Int?
  var input: [UInt8]
  /// Whether standard input is a pipe (what `ips-doctor` with no path reads).
  var standardInputIsData = false
  var standardInputIsTerminal = false

  init(stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false, input: [UInt8] = []) {
    standardOutputIsTerminal = stdoutIsTerminal
    standardErrorIsTerminal = stderrIsTerminal
    terminalColumns = stdoutIsTerminal ? 80 : nil
    self.input = input
  }

  var standardOutput: String { lock.withLock { out } }
  var standardError: String { lock.withLock { err } }

  func writeStandardOutput(_ text: String) throws(FileError) { lock.withLock { out += text } }
  func writeStandardError(_ text: String) { lock.withLock { err += text } }

  func readStandardInput(limit: Int) -> Result<[UInt8], FileError> {
    .success(Array(input.prefix(limit + 1)))
  }
}

/// The result of one in-process run.
struct CLIRun {
  var status: ExitCode
  var stdout: String
  var stderr: String
}

enum CLITest {
  /// Runs from the repository root, so fixture paths print relative, as a user would type them.
  static let moveToRoot: Void = {
    _ = FileManager.default.changeCurrentDirectoryPath(Fixtures.root.path)
  }()

  /// Runs the CLI in process as the executable runs it: on a thread with a main thread's stack
  /// (a test runs on one of Dispatch's, 512 KiB on macOS), and without Spotlight unless the test
  /// names a stand-in (`IPS_DOCTOR_MDFIND`), so no test asks the real `mdfind` by accident.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], io: CapturedIO = CapturedIO()
  ) -> CLIRun {
    _ = moveToRoot
    final class Status: @unchecked Sendable { var value = ExitCode.software }
    let status = Status()
    var environment = environment
    if environment["IPS_DOCTOR_MDFIND"] == nil { environment["IPS_DOCTOR_MDFIND"] = "" }
    let variables = environment
    WorkerThreads.run(count: 1) { _ in status.value = CLI.run(arguments, environment: variables, io: io) }
    return CLIRun(status: status.value, stdout: io.standardOutput, stderr: io.standardError)
  }

  /// A fresh temporary folder, removed by the caller with `cleanUp`.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("ips-doctor-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func cleanUp(_ url: URL) {
    // Restore permissions first so that a chmod 000 file or folder can be removed.
    if let enumerator = FileManager.default.enumerator(atPath: url.path) {
      for case let name as String in enumerator {
        try? FileManager.default.setAttributes(
          [.posixPermissions: 0o755], ofItemAtPath: url.appendingPathComponent(name).path)
      }
    }
    try? FileManager.default.removeItem(at: url)
  }

  static func copyFixture(_ relativePath: String, to directory: URL, as name: String) throws {
    try FileManager.default.copyItem(
      at: Fixtures.root.appendingPathComponent(relativePath), to: directory.appendingPathComponent(name))
  }

  static let diagnosed = "Fixtures/reports/async-bridge-didreceive-simplified-symbols.ips"
  static let unsymbolicated = "Fixtures/reports/async-bridge-didreceive-unsymbolicated.ips"
  static let otherCrash = "Fixtures/reports/uikit-call-must-be-main-other.ips"
  static let inconclusive = "Fixtures/cli/inconclusive-sigusr1.ips"
  static let jetsam = "Fixtures/cli/jetsam-event.ips"
  static let panic = "Fixtures/reports/kernel-panic-210.ips"
  static let truncated = "Fixtures/cli/truncated-body.ips"
}
