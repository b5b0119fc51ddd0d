import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The `atos` command of an image lists each unsymbolicated address of the app once, in the order
/// the backtraces first show it, however many frames the report holds.
@Suite("Symbolication hint addresses")
struct SymbolicationHintAddressTests {
  static func report(offsets: [UInt64]) -> CrashReport {
    var report = CrashReport(format: .json)
    report.images = [
      BinaryImage(
        name: "ChatApp", path: "/private/var/containers/Bundle/Application/X/ChatApp.app/ChatApp",
        uuid: "7776e1e7-d921-35c9-8bae-089c0ffad3b2", base: 0x1_0000_0000)
    ]
    report.images[0].arch = "arm64"
    let frames = offsets.map {
      Frame(imageIndex: 0, imageOffset: $0, imageName: "ChatApp", address: 0x1_0000_0000 + $0)
    }
    report.threads = [CrashThread(index: 0, frames: frames)]
    report.threads[0].triggered = true
    report.faultingThread = 0
    return report
  }

  @Test("Repeated addresses are listed once, in first-seen order")
  func onceInOrder() throws {
    let report = Self.report(offsets: [0x30, 0x10, 0x30, 0x20, 0x10])
    let hint = try #require(SymbolicationHint(context: DiagnosisContext(report: report)))
    #expect(hint.images.first?.addresses == [0x1_0000_0030, 0x1_0000_0010, 0x1_0000_0020])
    #expect(hint.images.first?.atos.hasSuffix(" -l 0x100000000 0x100000030 0x100000010 0x100000020") == true)
  }

  /// 200,000 distinct addresses (a deep unsymbolicated stack of a large report): each is listed,
  /// and every one is looked up once, not compared with all the others.
  @Test("Every one of 200,000 distinct addresses is listed")
  func manyAddresses() throws {
    let offsets = (0..<200_000).map { UInt64($0) * 4 }
    let hint = try #require(SymbolicationHint(context: DiagnosisContext(report: Self.report(offsets: offsets))))
    #expect(hint.images.first?.addresses.count == 200_000)
    #expect(hint.images.first?.addresses.last == 0x1_0000_0000 + 199_999 * 4)
  }
}
