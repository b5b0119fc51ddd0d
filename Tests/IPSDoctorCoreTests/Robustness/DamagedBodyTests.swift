import Foundation
import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// A header whose bug_type promises a JSON body, followed by something that is not one: the
/// report is damaged (a `bodyError`, exit 65), never a complete report that ends after its header.
@Suite("Damaged bodies after a header that promises one")
struct DamagedBodyTests {
  static let fixture = "reports/null-pointer-dereference.ips"

  /// The fixture's header line and the rest of the file.
  static func parts() throws -> (header: [UInt8], body: [UInt8]) {
    let bytes = try Fixtures.bytes(fixture)
    let newline = try #require(bytes.firstIndex(of: 0x0A))
    return (Array(bytes[...newline]), Array(bytes[(newline + 1)...]))
  }

  static let bodies: [(name: String, body: @Sendable (_ original: [UInt8]) -> [UInt8], expected: String)] = [
    ("a stray byte before the body", { Array("x".utf8) + $0 }, "not valid JSON"),
    ("NUL bytes", { Array(repeating: 0, count: $0.count) }, "not valid JSON"),
    ("an array", { _ in Array("[1, 2, 3]\n".utf8) }, "not a JSON object: found array"),
    ("a number", { _ in Array("42\n".utf8) }, "not a JSON object: found number"),
    ("garbage", { _ in Array("%%%% garbage ~~~~\n".utf8) }, "not valid JSON"),
  ]

  @Test("A body that is not JSON keeps the header and says why", arguments: bodies.indices)
  func unreadableBody(_ index: Int) throws {
    let (header, original) = try Self.parts()
    let variant = Self.bodies[index]
    let report = try ReportReader.read(header + variant.body(original))
    let error = try #require(report.bodyError, "\(variant.name): read as a complete report")
    #expect(error.message.contains(variant.expected), "\(variant.name): \(error.message)")
    #expect(error.line == 2)
    #expect(report.bugType?.rawValue == "309")
    #expect(report.appVersion != nil)
    #expect(!report.warnings.contains { $0.message.contains("ends after its header") })
  }

  @Test("Through the CLI a stray byte before the body exits 65; a truncated body that still names the crash does not")
  func exitCode() throws {
    let (header, original) = try Self.parts()
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let stray = directory.appendingPathComponent("stray.ips")
    let truncated = directory.appendingPathComponent("truncated.ips")
    try Data(header + Array("x".utf8) + original).write(to: stray)
    try Data(header + original.prefix(original.count / 2)).write(to: truncated)
    let strayRun = CLITest.run([stray.path])
    let truncatedRun = CLITest.run([truncated.path])
    // Half a body still holds the crash: diagnosed, with a warning naming the damage.
    #expect(truncatedRun.status == .findings)
    #expect(truncatedRun.stderr.contains("the report body is not valid JSON"))
    // A body that is not one leaves nothing to diagnose: unreadable, the error on standard error.
    #expect(strayRun.status == .dataError, "\(strayRun.stdout)")
    #expect(strayRun.stderr.contains("the report body is not valid JSON"))
  }

  @Test("Header-only kinds and a text body after a header still read as before")
  func unchanged() throws {
    let (header, _) = try Self.parts()
    // A 309 header with no body at all: a header-only report with a warning, not a body error.
    let headerOnly = try ReportReader.read(header)
    #expect(headerOnly.bodyError == nil)
    #expect(headerOnly.format == .headerOnly)
    // A bug_type whose reports are not JSON bodies: garbage after it is text, as before.
    let other = Array(#"{"bug_type":"226","app_name":"x"}"#.utf8) + [0x0A] + Array("%%%% garbage\n".utf8)
    #expect(try ReportReader.read(other).bodyError == nil)
  }
}
