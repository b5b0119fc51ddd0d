import Foundation
import Testing

/// Type-checks Swift sources against the stub SDK modules in `Resources/SDKStubs` (UserNotifications,
/// UIKit, WebKit, PushKit, Intents), with `swiftc -typecheck -swift-version 6
/// -strict-concurrency=complete`. The stubs are compiled once per test run into a temporary folder;
/// without `swiftc` on `PATH` the tests that need it are skipped.
enum SDKStubCompiler {
  static let swiftc: String? = ShellStep.tool("swiftc")

  static let stubs = ["UserNotifications", "UIKit", "WebKit", "PushKit", "Intents"]

  struct Output {
    var status: Int32
    var text: String

    /// The `error:` lines.
    var errors: [String] { lines(containing: ": error: ") }

    func lines(containing needle: String) -> [String] {
      text.split(separator: "\n").map(String.init).filter { $0.contains(needle) }
    }
  }

  /// The folder holding the compiled stub modules, or a description of why they did not compile.
  static let modules: Result<URL, StubError> = {
    guard let swiftc else { return .failure(StubError(text: "no swiftc")) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ips-doctor-sdk-stubs-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let sources = Fixtures.root.appendingPathComponent("Tests/IPSDoctorCoreTests/Resources/SDKStubs")
      for stub in stubs {
        let output = try run(
          swiftc,
          [
            "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", stub,
            "-emit-module-path", folder.appendingPathComponent("\(stub).swiftmodule").path,
            sources.appendingPathComponent("\(stub).swift").path,
          ])
        guard output.status == 0 else { return .failure(StubError(text: "\(stub): \(output.text)")) }
      }
      return .success(folder)
    } catch {
      return .failure(StubError(text: "\(error)"))
    }
  }()

  struct StubError: Error {
    var text: String
  }

  /// Type-checks `source` (one file named `name`) against the stubs.
  static func typecheck(_ source: [UInt8], name: String) throws -> Output {
    let swiftc = try #require(swiftc)
    let folder = try modules.get()
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let file = directory.appendingPathComponent(name)
    try Data(source).write(to: file)
    return try run(
      swiftc,
      [
        "-typecheck", "-swift-version", "6", "-strict-concurrency=complete", "-I", folder.path, file.path,
      ])
  }

  private static func run(_ tool: String, _ arguments: [String]) throws -> Output {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
  }
}
