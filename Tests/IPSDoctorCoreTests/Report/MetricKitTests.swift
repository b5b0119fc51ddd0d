import Foundation
import Testing

@testable import IPSDoctorBatch
@testable import IPSDoctorCLI
@testable import IPSDoctorReport

/// MetricKit payloads: each diagnostic its own report, labelled in every output; hangs and
/// resource exceptions named for what they are; frames symbolicated by binary UUID and offset,
/// with the iOS 14 / macOS 12 load-address quirk detected.
@Suite("MetricKit payloads")
struct MetricKitTests {
  static let uuid = "82D13D98-219E-3040-B62A-07A297007A7C"
  static let loadAddress: UInt64 = 0x1_007d_4000

  /// A payload with one crash in `iOSCrashingTest` (two frames, at offsets 0x64bc and 0x61cc) and
  /// one hang; `quirk` writes the load address where the offsets belong, as iOS 14 did.
  static func payload(quirk: Bool) -> String {
    func frame(_ offset: UInt64, sub: String = "") -> String {
      let written = quirk ? loadAddress : offset
      return
        #"{"binaryUUID": "\#(uuid)", "binaryName": "iOSCrashingTest", "offsetIntoBinaryTextSegment": \#(written), "address": \#(loadAddress + offset), "sampleCount": 1\#(sub)}"#
    }
    let stack = frame(0x64bc, sub: #", "subFrames": ["# + frame(0x61cc) + "]")
    return """
      {"timeStampBegin": "2026-09-08 16:00:00", "timeStampEnd": "2026-09-08 17:00:00",
       "crashDiagnostics": [{"version": "1.0.0", "diagnosticMetaData": {"appVersion": "1.0", "appBuildVersion": "1",
         "osVersion": "iPhone OS 17.5 (21F79)", "deviceType": "iPhone15,2", "platformArchitecture": "arm64e",
         "exceptionType": 6, "exceptionCode": 1, "signal": 5, "terminationReason": "Namespace SIGNAL, Code 5"},
         "callStackTree": {"callStackPerThread": true, "callStacks": [{"threadAttributed": true, "callStackRootFrames": [\(stack)]}]}}],
       "hangDiagnostics": [{"version": "1.0.0", "diagnosticMetaData": {"appVersion": "1.0", "hangDuration": "4 sec"},
         "callStackTree": {"callStackPerThread": true, "callStacks": [{"threadAttributed": true, "callStackRootFrames": [\(stack)]}]}}]}
      """
  }

  @Test("Each diagnostic is a report of its own; a hang is named, not diagnosed as a crash")
  func eachDiagnostic() throws {
    let reports = try ReportReader.readAll(Array(Self.payload(quirk: false).utf8), texts: nil)
    #expect(reports.map(\.label) == ["crashDiagnostics[0]", "hangDiagnostics[0]"])
    let crash = reports[0].report
    #expect(crash.source == .metrickit)
    #expect(crash.kind == .crash)
    #expect(crash.exception?.type == "EXC_BREAKPOINT")
    #expect(crash.exception?.signal == "SIGTRAP")
    #expect(crash.termination?.namespace == "SIGNAL")
    #expect(crash.termination?.code == 5)
    #expect(crash.images.map(\.uuid) == [Self.uuid])
    #expect(crash.images.first?.base == Self.loadAddress)
    #expect(crash.crashedThread?.frames.map(\.imageOffset) == [0x64bc, 0x61cc])
    #expect(crash.missing.contains(.symbols))
    #expect(crash.warnings.isEmpty)
    let hang = reports[1].report
    #expect(hang.kind == .resource)
    #expect(hang.resource?.event == "hang (4 sec)")
  }

  @Test("Offsets that hold the load address (iOS 14, macOS 12) are detected and read as offsets, with a warning")
  func loadAddressQuirk() throws {
    let reports = try ReportReader.readAll(Array(Self.payload(quirk: true).utf8), texts: nil)
    let crash = reports[0].report
    #expect(crash.crashedThread?.frames.map(\.imageOffset) == [0x64bc, 0x61cc])
    #expect(crash.images.first?.base == Self.loadAddress)
    #expect(crash.warnings.map(\.location) == ["callStackTree"])
    #expect(crash.warnings.first?.message.contains("load address") == true)
  }

  @Test("Through the CLI: labelled paths, and frames symbolicated through the dSYM by UUID", arguments: [false, true])
  func symbolicated(quirk: Bool) throws {
    guard let shared = Fixtures.shared?.appendingPathComponent("symbolication/iOSCrashingTest.app.dSYM") else { return }
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let path = directory.appendingPathComponent("payload.json").path
    try Data(Self.payload(quirk: quirk).utf8).write(to: URL(fileURLWithPath: path))
    let run = CLITest.run([path, "--dsym", shared.path, "--format", "json", "--fail-on", "never"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let reports = try #require(object["reports"] as? [[String: Any]])
    #expect(reports.map { $0["path"] as? String } == [path + "#crashDiagnostics[0]", path + "#hangDiagnostics[0]"])
    let thread = try #require(reports[0]["crashedThread"] as? [String: Any])
    let frames = try #require(thread["topFrames"] as? [[String: Any]])
    #expect((frames.first?["description"] as? String)?.contains("CrashClass.pleaseCrash()") == true)
    #expect(reports[0]["missing"] as? [String] == ["registers", "other-threads"])
    // The hang's frames in the image the dSYM matched are the app's: its summary names them.
    let hang = try #require((reports[1]["diagnoses"] as? [[String: Any]])?.first)
    #expect(hang["rule"] as? String == "main-thread-hang")
    #expect(hang["confidence"] as? String == "likely")
    #expect((hang["summary"] as? String)?.contains("The app's frames on the stack") == true)
    #expect((hang["summary"] as? String)?.contains("CrashClass.pleaseCrash()") == true)
  }
}
