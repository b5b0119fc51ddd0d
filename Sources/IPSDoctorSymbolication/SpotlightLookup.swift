import IPSDoctorDiagnosis
import IPSDoctorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Asks Spotlight for the dSYM of an image UUID, as Xcode does:
/// `mdfind "com_apple_xcode_dsym_uuids == <UUID>"`, each answer a path to a `.dSYM` bundle. Each
/// UUID is asked once per run, whichever thread asks first; the answers are shared.
///
/// On macOS the query is `mdfind`; elsewhere there is none. `IPS_DOCTOR_MDFIND` names another
/// command on any platform (a wrapper, or a test's stand-in); set empty, it turns the lookup off.
package final class SpotlightLookup: @unchecked Sendable {
  /// The command the query follows, as a shell word list (`mdfind`).
  let command: String
  private let monitor = Monitor(conditions: 0)
  /// The Mach-O files found for each UUID asked so far (uppercase, dashed).
  private var answers: [String: [PathName]] = [:]

  init(command: String) {
    self.command = command
  }

  /// The lookup for a run in `environment`, or `nil` where there is none.
  package static func forRun(environment: [String: String]) -> SpotlightLookup? {
    if let command = environment["IPS_DOCTOR_MDFIND"] {
      return command.isEmpty ? nil : SpotlightLookup(command: command)
    }
    #if os(macOS)
      return SpotlightLookup(command: "mdfind")
    #else
      return nil
    #endif
  }

  /// The Mach-O files of the dSYMs Spotlight knows for `uuid`; empty when it knows none, or when
  /// `uuid` is not 32 hexadecimal digits (with dashes), so nothing but digits reaches the shell.
  func files(for uuid: String) -> [PathName] {
    guard let query = SymbolicationHint.findDSYMCommand(uuid: uuid.uppercased()) else { return [] }
    let key = uuid.uppercased()
    // Asked under the lock, so that two reports of one image ask once between them.
    return monitor.locked {
      if let known = answers[key] { return known }
      // "mdfind …" with the configured command in its place; the answer's errors are not ours.
      let commandLine = command + query.dropFirst("mdfind".count) + " 2>/dev/null"
      let found = Self.lines(of: commandLine).flatMap { DebugImageLocator.machOFiles(in: [PathName($0)]) }
      answers[key] = found
      return found
    }
  }

  /// The non-empty lines `commandLine` writes through `/bin/sh`, at most 64 KiB of them.
  static func lines(of commandLine: String) -> [String] {
    guard let pipe = popen(commandLine, "r") else { return [] }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 65_536 {
      let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, pipe) }
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    pclose(pipe)
    return bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
  }
}
