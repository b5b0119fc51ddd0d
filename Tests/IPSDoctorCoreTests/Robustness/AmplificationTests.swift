import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// A small input never makes a huge output: what a report names once (an image, a mangled symbol)
/// and cites many times is bounded where it is expanded.
@Suite("Hostile input: small reports that would expand")
struct AmplificationTests {
  /// A JSON crash report with one image named `imageName` and one crashed thread of `frames`
  /// frames, each citing that image.
  static func oneImageReport(imageName: String, frames: Int) -> [UInt8] {
    let header = #"{"app_name":"Amp","bug_type":"309","os_version":"iPhone OS 26.6 (23G80)","name":"Amp"}"#
    var body = #"{"procName":"Amp","exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"},"#
    body += #""faultingThread":0,"threads":[{"triggered":true,"frames":["#
    body += Array(repeating: #"{"imageOffset":4096,"imageIndex":0}"#, count: frames).joined(separator: ",")
    body += #"]}],"usedImages":[{"base":4294967296,"size":65536,"name":""# + imageName + #"","path":"/x"}]}"#
    return Array((header + "\n" + body + "\n").utf8)
  }

  @Test("show pads the image column to at most 64 columns and cuts longer names")
  func showImageColumn() throws {
    let input = Self.oneImageReport(imageName: String(repeating: "N", count: 256 << 10), frames: 4_001)
    let report = try ReportReader.read(input)
    #expect(report.threads.first?.frames.count == 4_001)
    let output = LegacyTextRenderer.render(report)
    let bytes = output.utf8.count
    #expect(bytes <= 3 * input.count, "\(bytes) bytes of output for \(input.count) bytes of input")
    let frameLine = try #require(output.split(separator: "\n").first { $0.hasPrefix("0   ") })
    #expect(frameLine.hasPrefix("0   " + String(repeating: "N", count: 62) + "… 0x0000000100001000"))
  }

  @Test("Names that fit keep today's column: the longest name and a space, at least 30")
  func showImageColumnUnchanged() throws {
    let name = String(repeating: "M", count: 63)
    let output = LegacyTextRenderer.render(try ReportReader.read(Self.oneImageReport(imageName: name, frames: 2)))
    #expect(output.contains("\n0   " + name + " 0x0000000100001000"))
    let short = LegacyTextRenderer.render(try ReportReader.read(Self.oneImageReport(imageName: "Amp", frames: 2)))
    #expect(short.contains("\n0   Amp" + String(repeating: " ", count: 27) + "0x0000000100001000"))
  }
}
