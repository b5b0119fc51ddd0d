import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// KSCrash JSON reports and the forks that keep their layout become ``CrashReport``s that the
/// rules read as they read Apple's.
@Suite("KSCrash JSON reports")
struct KSCrashReportTests {
  @Test("A KSCrash NSException report: header, images, frames keyed to images, registers, exception")
  func nsException() throws {
    let report = try ReportReader.read(try Fixtures.bytes("thirdparty/kscrash-nsexception-trailing-comma.json"))
    #expect(report.source == .kscrash)
    #expect(report.processName == "ShopApp")
    #expect(report.bundleID == "com.example.shop")
    #expect(report.appVersion == "3.2")
    #expect(report.osVersion?.description == "iOS 26.6 (23G80)")
    #expect(report.modelCode == "iPhone17,1")
    #expect(report.exception?.type == "EXC_CRASH")
    #expect(report.exception?.signal == "SIGABRT")
    #expect(report.exceptionReason?.name == "NSInvalidArgumentException")
    #expect(report.images.count == 3)
    #expect(report.images.filter(\.isAppImage).map(\.name) == ["ShopApp"])
    let crashed = try #require(report.crashedThread)
    #expect(crashed.queue == "com.apple.main-thread")
    #expect(crashed.frames[3].imageIndex == 0)
    #expect(crashed.frames[3].imageOffset == 4_295_291_560 - 4_294_967_296)
    #expect(crashed.frames[3].symbolLocation == 212)
    #expect(crashed.state?["pc"] == 8_077_982_804)
    #expect(report.threads[1].name == "KSCrash Exception Handler (Primary)")
    #expect(report.missing.isEmpty)
    // The trailing comma after `"address": 0` is removed, with a warning at its line.
    #expect(report.warnings.map(\.description) == ["line 27: ignored a trailing comma (not valid JSON)"])
    let result = Doctor.diagnose(report)
    #expect(result.diagnoses.first?.ruleID == "objc-unrecognized-selector")
    // KSCrash's own diagnosis text is not repeated as a finding.
    #expect(!result.diagnoses.contains { $0.summary.contains("Some other verdict") })
  }

  @Test("Only a trailing comma is forgiven: other broken JSON is not read as KSCrash, and its error stays")
  func onlyTrailingCommas() throws {
    var text = String(decoding: try Fixtures.bytes("thirdparty/kscrash-nsexception-trailing-comma.json"), as: UTF8.self)
    text = text.replacingOccurrences(of: #""address": 0,"#, with: #""address": 0x0"#)
    let report = try ReportReader.read(text)
    #expect(report.source != .kscrash)
    #expect(report.bodyError?.message.contains("not valid JSON") == true)
  }

  @Test("A report the app filed itself is a handled error, not a crash")
  func userReported() throws {
    let report = try ReportReader.read(try Fixtures.bytes("thirdparty/kscrash-user-reported-handled.json"))
    #expect(report.kind == .unknown)
    #expect(report.isNonFatal == true)
    #expect(report.exception == nil)
    #expect(report.warnings.first?.message.contains("handled error") == true)
    #expect(Doctor.diagnose(report).diagnoses.isEmpty)
  }

  @Test("A KSCrash report with an empty crash section is named as holding no crash")
  func emptyCrash() {
    let text = #"{"report": {"id": "x", "version": "3.3.0"}, "binary_images": [], "crash": {}}"#
    do {
      _ = try ReportReader.read(text)
      Issue.record("read as a report")
    } catch {
      #expect(error.notACrash == "a KSCrash report with no crash in it")
    }
  }

  @Test("Mangled C++ type names read as C++ spells them")
  func demangledTypeNames() {
    #expect(KSCrashReader.demangledTypeName("11MyException") == "MyException")
    #expect(KSCrashReader.demangledTypeName("N3app5ErrorE") == "app::Error")
    #expect(KSCrashReader.demangledTypeName("St13runtime_error") == "St13runtime_error")
    #expect(KSCrashReader.demangledTypeName("99Short") == "99Short")
  }
}

/// The crash reporters' own test data in `../shared/third-party` (skipped without it): each file
/// of a format read here is read, and its top diagnosis is one its `expected` column allows, or
/// none. A confident wrong answer fails; an inconclusive one counts against the hit rate.
@Suite("Third-party fixtures")
struct ThirdPartyCorpusTests {
  struct Row {
    var file: String
    var format: String
    var expected: [String]
  }

  static let readFormats: Set<String> = [
    "kscrash-report", "embrace-kscrash-report", "bugsnag-kscrash-report", "sentrycrash-report", "kscrash-apple-text",
    "sentry-event", "bugsnag-event", "metrickit-payload", "metrickit-callstacktree",
  ]

  static func rows() -> [Row] {
    guard let base = Fixtures.shared?.appendingPathComponent("third-party"),
      let manifest = try? String(contentsOf: base.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
    else { return [] }
    let lines = manifest.split(separator: "\n").dropFirst()
    return lines.compactMap { line in
      let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard columns.count >= 8 else { return nil }
      return Row(file: columns[0], format: columns[1], expected: columns[7].split(separator: "|").map(String.init))
    }
  }

  @Test("Each KSCrash-family file and event is read or named, and never diagnosed outside its expected rules")
  func kscrashFamily() throws {
    let rows = Self.rows().filter { Self.readFormats.contains($0.format) }
    guard let base = Fixtures.shared?.appendingPathComponent("third-party"), !rows.isEmpty else { return }
    var hits = 0
    var expectingRule = 0
    for row in rows {
      let bytes = [UInt8](try Data(contentsOf: base.appendingPathComponent(row.file)))
      let top: String?
      do {
        let report = try ReportReader.read(bytes)
        top = Doctor.diagnose(report).diagnoses.first?.ruleID
      } catch {
        #expect(row.expected.contains("not-a-crash"), "\(row.file): \(error)")
        #expect(error.notACrash != nil, "\(row.file): \(error)")
        continue
      }
      let rules = row.expected.filter { $0 != "not-a-crash" && $0 != "inconclusive" }
      if !rules.isEmpty { expectingRule += 1 }
      guard let top else {
        continue
      }
      let allowed = rules.contains { top.hasPrefix($0) }
      #expect(allowed, "\(row.file): \(top), expected \(row.expected.joined(separator: "|"))")
      if allowed { hits += 1 }
    }
    #expect(expectingRule > 0)
    #expect(Double(hits) >= 0.85 * Double(expectingRule), "\(hits) of \(expectingRule)")
  }
}

/// Sentry and Bugsnag events become ``CrashReport``s; handled errors are named, not diagnosed.
@Suite("Sentry and Bugsnag events")
struct CrashReporterEventTests {
  @Test("A Sentry event: frames crashing first, addresses from hexadecimal strings, the Mach exception")
  func sentryEvent() throws {
    let report = try ReportReader.read(try Fixtures.bytes("thirdparty/sentry-event-bad-access.json"))
    #expect(report.source == .sentryEvent)
    #expect(report.bundleID == "com.example.trailmap")
    #expect(report.osVersion?.description == "iOS 26.6 (23G80)")
    #expect(report.exception?.type == "EXC_BAD_ACCESS")
    #expect(report.exception?.signal == "SIGSEGV")
    #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
    let frames = try #require(report.crashedThread?.frames)
    #expect(
      frames.map(\.symbol) == [
        "MapViewController.loadTrails()", "MapViewController.viewDidLoad()",
        "-[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]",
      ])
    #expect(frames[0].imageIndex == 0)
    #expect(frames[0].imageOffset == 0x3a1f4)
    #expect(frames[0].symbolLocation == 0x74)
    #expect(report.crashedThread?.state?["pc"] == 0x1_0003_a1f4)
    #expect(Doctor.diagnose(report).diagnoses.first?.ruleID == "null-pointer-dereference")
  }

  @Test("A Bugsnag payload of a handled error is named as handled and not diagnosed")
  func bugsnagHandled() throws {
    let report = try ReportReader.read(try Fixtures.bytes("thirdparty/bugsnag-event-handled-error.json"))
    #expect(report.source == .bugsnag)
    #expect(report.kind == .unknown)
    #expect(report.isNonFatal == true)
    #expect(
      report.warnings.first?.message
        == "a handled error the app reported, not a crash: NSError: The cart could not be saved")
    #expect(Doctor.diagnose(report).diagnoses.isEmpty)
  }
}
