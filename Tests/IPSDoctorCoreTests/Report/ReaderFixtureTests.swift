import Foundation
import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorOutput
@testable import IPSDoctorReport

@Suite("Reader over our fixtures")
struct ReaderFixtureTests {
  @Test("The manifest lists every fixture file and every file exists")
  func manifestMatchesFolder() {
    let listed = Set(FixtureRow.all.map(\.file))
    let present = Set(
      Fixtures.files(in: "reports", extensions: ["ips", "crash", "panic"]).map { ($0 as NSString).lastPathComponent })
    #expect(listed.count >= 60)
    #expect(present.subtracting(listed).isEmpty, "not in MANIFEST.tsv: \(present.subtracting(listed).sorted())")
    #expect(listed.subtracting(present).isEmpty, "missing files: \(listed.subtracting(present).sorted())")
  }

  @Test("Each fixture reads with the manifest's kind, bug_type, exception and signal", arguments: FixtureRow.all)
  func reads(_ row: FixtureRow) throws {
    let bytes = try Fixtures.bytes("reports/" + row.file)
    let outcome = Result { () throws(ReportError) -> CrashReport in try ReportReader.read(bytes) }
    if row.kind == "broken" {
      switch outcome {
      case .failure(let error):
        #expect(error.line != nil, "a broken file's error has no position: \(error)")
      case .success(let report):
        #expect(report.bodyError != nil || !report.warnings.isEmpty, "a broken file read without complaint")
        if !row.bugType.isEmpty { #expect(report.bugType?.rawValue == row.bugType) }
        if let error = report.bodyError { #expect(error.line != nil && error.column != nil) }
      }
      return
    }
    let report = try outcome.get()
    #expect(report.bodyError == nil, "\(report.bodyError.map(String.init(describing:)) ?? "")")
    let expectedKind: ReportKind? = ReportKind(rawValue: row.kind)
    #expect(report.kind == expectedKind, "kind \(report.kind) for \(row.kind)")
    if !row.bugType.isEmpty { #expect(report.bugType?.rawValue == row.bugType) }
    if !row.exceptionType.isEmpty && row.exceptionType.hasPrefix("EXC_") {
      #expect(report.exception?.type == row.exceptionType)
    }
    if !row.signal.isEmpty && row.signal.hasPrefix("SIG") {
      #expect(report.exception?.signal?.hasPrefix(row.signal) == true, "signal \(report.exception?.signal ?? "nil")")
    }
    if report.kind == .crash {
      #expect(!report.threads.isEmpty || report.termination != nil, "a crash with no threads")
    }
  }
}

@Suite("Reader traps")
struct ReaderTrapTests {
  private func read(_ name: String) throws -> CrashReport {
    try ReportReader.read(try Fixtures.bytes("reports/" + name))
  }

  @Test("CRLF line endings and a byte order mark read like the plain file")
  func crlfAndBOM() throws {
    for name in ["trap-crlf-line-endings.ips", "trap-utf8-bom.ips"] {
      let report = try read(name)
      #expect(report.format == .json)
      #expect(report.exception?.type == "EXC_BAD_ACCESS")
      #expect(report.crashedThread != nil)
      #expect(report.warnings.isEmpty, "\(name): \(report.warnings)")
    }
  }

  @Test("A header with no body is a header-only report")
  func headerOnly() throws {
    let report = try read("trap-header-only.ips")
    #expect(report.format == .headerOnly)
    #expect(report.bugType?.rawValue == "309")
    #expect(report.warnings.contains { $0.message.contains("no body") })
  }

  @Test("Text pasted before the header and after the body is skipped with a warning")
  func pastedText() throws {
    let before = try read("trap-text-before-header.ips")
    #expect(before.exception?.type == "EXC_BAD_ACCESS")
    #expect(before.warnings.contains { $0.message.contains("before the JSON header") })
    let after = try read("trap-text-after-body.ips")
    #expect(after.exception?.type == "EXC_BAD_ACCESS")
    #expect(after.warnings.contains { $0.message.contains("after the report body") })
  }

  @Test("bug_type may be a number")
  func numericBugType() throws {
    #expect(try read("trap-bug-type-number.ips").bugType?.rawValue == "309")
  }

  @Test("Registers keep 2^64-1 exactly")
  func maxRegisters() throws {
    let report = try read("trap-register-max-uint64.ips")
    let state = try #require(report.crashedThread?.state)
    #expect(state.registers.contains { $0.value == UInt64.max })
  }

  @Test("Inline frames, missing symbolLocation and nameless images")
  func frameShapes() throws {
    let inline = try read("trap-inline-frames.ips")
    #expect(inline.threads.flatMap(\.frames).contains { $0.isInline && $0.sourceLine != nil })
    let missing = try read("trap-missing-symbol-location.ips")
    #expect(missing.threads.flatMap(\.frames).contains { $0.symbol != nil && $0.symbolLocation == nil })
    let nameless = try read("trap-image-without-name-or-path.ips")
    #expect(nameless.images.contains { $0.name == nil && $0.path == nil && $0.uuid != nil })
  }

  @Test("Xcode's Translated Report wrapper reads the full report")
  func translated() throws {
    let report = try read("trap-translated-full-report.ips")
    #expect(report.format == .json)
    #expect(report.exception?.type == "EXC_BAD_ACCESS")
  }

  @Test("Numeric strings are accepted as integers")
  func numericStrings() throws {
    let report = try read("trap-numeric-strings.ips")
    #expect(report.pid != nil)
    #expect(report.faultingThread != nil)
  }

  @Test("Out-of-range indexes become warnings")
  func outOfRange() throws {
    let report = try read("trap-out-of-range-indexes.ips")
    #expect(report.warnings.contains { $0.location.hasSuffix("imageIndex") })
    _ = Doctor.diagnose(report)
  }

  @Test("A truncated body keeps the header and says where the JSON broke")
  func truncated() throws {
    let report = try read("trap-truncated-body.ips")
    let error = try #require(report.bodyError)
    #expect(report.bugType?.rawValue == "309")
    #expect(report.header.appName != nil)
    #expect(error.line != nil && error.column != nil)
    #expect(error.description.contains("error: the report body is not valid JSON"))
    // What came before the break is read, and nothing diagnosed from it is called definite.
    #expect(report.exception?.type == "EXC_BAD_ACCESS")
    #expect(report.warnings.contains { $0.message.contains("the body breaks here") })
    let result = Doctor.diagnose(report)
    #expect(!result.diagnoses.isEmpty)
    #expect(result.diagnoses.allSatisfy { $0.confidence < .definite })
  }

  @Test("A JSON header with a legacy text body (bug_type 109)")
  func legacyBody() throws {
    let report = try read("legacy-109-json-header-text-body.ips")
    #expect(report.format == .jsonHeaderTextBody)
    #expect(report.bugType?.rawValue == "109")
  }

  @Test("Unknown bug types are named from the header")
  func unknownBugType() throws {
    let report = try read("unknown-bug-type-999.ips")
    #expect(report.kind == .unknown)
    #expect(report.bugType?.name == "unknown (999)")
  }

  @Test("Empty input and plain prose are errors, not crashes")
  func notReports() {
    #expect(throws: ReportError.self) { try ReportReader.read([UInt8]()) }
    #expect(throws: ReportError.self) { try ReportReader.read("   \n\t ") }
    #expect(throws: ReportError.self) { try ReportReader.read("hello, this is not a crash report\n") }
    #expect(throws: ReportError.self) { try ReportReader.read("[1,2,3]\n") }
  }
}
