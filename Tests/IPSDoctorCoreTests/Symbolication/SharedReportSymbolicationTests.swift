import Foundation
import Testing

@testable import IPSDoctorReport
@testable import IPSDoctorSupport
@testable import IPSDoctorSymbolication

/// The real reports and dSYMs of `../shared/symbolication` (MacSymbolicator's test data): every
/// app frame must symbolicate to exactly the function and file:line of the expected output.
@Suite struct SharedReportSymbolicationTests {
  struct Case: Sendable, CustomStringConvertible {
    var report: String
    var dSYMs: [String]
    var description: String { report }
  }

  static let cases = [
    Case(report: "ios-crash", dSYMs: ["iOSCrashingTest.app.dSYM"]),
    Case(report: "single-target-crash", dSYMs: ["CrashingTest.dSYM"]),
    Case(report: "multi-target-crash", dSYMs: ["CrashingInAnotherTargetTest.dSYM", "AnotherTarget.framework.dSYM"]),
  ]

  static var folder: URL? {
    Fixtures.shared.map { $0.appendingPathComponent("symbolication") }
      .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
  }

  static func symbolicator(_ testCase: Case, in folder: URL) -> Symbolicator {
    Symbolicator(
      images: DebugImageLocator.images(in: testCase.dSYMs.map { PathName(folder.appendingPathComponent($0).path) }))
  }

  /// The frame lines of the expected output that name a source position: "(in Image)".
  static func expectedFrames(_ text: String) -> [String] {
    text.split(separator: "\n").filter { $0.contains(" (in ") }.map { line in
      let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      let address = words.firstIndex { $0.hasPrefix("0x") }!
      return words[(address + 1)...].joined(separator: " ")
    }
  }

  @Test(arguments: cases)
  func legacyTextBecomesTheExpectedText(_ testCase: Case) throws {
    guard let folder = Self.folder else { return }
    let input = try String(contentsOf: folder.appendingPathComponent(testCase.report + ".crash"), encoding: .utf8)
    let expected = try String(
      contentsOf: folder.appendingPathComponent(testCase.report + "_symbolicated.crash"), encoding: .utf8)
    let report = try ReportReader.read(Array(input.utf8))
    let symbolicator = Self.symbolicator(testCase, in: folder)
    let (text, count) = LegacyTextSymbolication.rewrite(input, report: report, symbolicator: symbolicator)
    #expect(count == Self.expectedFrames(expected).count)
    #expect(Self.expectedFrames(text) == Self.expectedFrames(expected))
    #expect(text == expected)
  }

  @Test(arguments: cases)
  func jsonFramesGetTheExpectedFunctionAndLine(_ testCase: Case) throws {
    guard let folder = Self.folder else { return }
    let input = try Data(contentsOf: folder.appendingPathComponent(testCase.report + ".ips"))
    let expected = try String(
      contentsOf: folder.appendingPathComponent(testCase.report + "_symbolicated.crash"), encoding: .utf8)
    let report = try ReportReader.read([UInt8](input))
    let (symbolicated, summary) = Self.symbolicator(testCase, in: folder).symbolicate(report)
    #expect(summary.mismatches.isEmpty)
    var got: [String] = []
    for frames in symbolicated.threads.map(\.frames) + [symbolicated.lastExceptionBacktrace ?? []] {
      for frame in frames where !frame.isInline && frame.sourceFile != nil {
        got.append(
          "\(frame.symbol ?? "") (in \(frame.imageName ?? "")) (\(frame.sourceFile ?? ""):\(frame.sourceLine ?? 0))")
      }
    }
    #expect(got == Self.expectedFrames(expected))
    #expect(summary.symbolicatedFrames == got.count)
    // `symbolicate`'s summary, made without the symbolicated copy, is the same.
    #expect(Self.symbolicator(testCase, in: folder).summary(of: report) == summary)
  }
}
