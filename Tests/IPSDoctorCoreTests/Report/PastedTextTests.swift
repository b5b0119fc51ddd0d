import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Crash text as people paste it: Crashlytics console traces, and Apple's text inside Markdown
/// quotes and fences or cut down to an excerpt. Each becomes a ``CrashReport`` that says where it
/// came from and what it lacks, and the rules diagnose it as they would Apple's report.
@Suite("Pasted crash text")
struct PastedTextTests {
  static func read(_ fixture: String) throws -> CrashReport {
    try ReportReader.read(try Fixtures.bytes("pasted/" + fixture))
  }

  @Test("A Crashlytics trace of the founding crash gets the founding diagnosis")
  func crashlyticsFoundingCrash() throws {
    let report = try Self.read("crashlytics-async-bridge-willpresent.txt")
    #expect(report.source == .crashlyticsText)
    #expect(report.bundleID == "com.example.chat")
    #expect(report.appVersion == "2.4")
    #expect(report.buildVersion == "118")
    #expect(report.exceptionReason?.name == "NSInternalInconsistencyException")
    #expect(report.exceptionMessage == "Call must be made on main thread")
    let crashed = try #require(report.crashedThread)
    #expect(crashed.index == 0)
    #expect(crashed.queue == "com.apple.root.user-initiated-qos.cooperative")
    #expect(crashed.frames.count == 14)
    #expect(
      report.threads.map(\.queue) == [
        "com.apple.root.user-initiated-qos.cooperative", "com.apple.main-thread",
        "com.apple.uikit.eventfetch-thread", nil,
      ])
    // The app's image is the one whose frames show source locations and `main`.
    #expect(report.processName == "ChatApp")
    #expect(report.images.filter(\.isAppImage).map(\.name) == ["ChatApp"])
    // Small values are offsets into the image, not addresses.
    #expect(crashed.frames[6].imageOffset == 0x7954c)
    #expect(crashed.frames[6].address == nil)
    #expect(report.missing == [.exception, .registers, .images, .addresses])

    let result = Doctor.diagnose(report)
    #expect(result.diagnoses.first?.ruleID == "async-bridge-completion-off-main")
  }

  @Test("A Crashlytics trace inside an issue's prose and code fence")
  func crashlyticsInIssue() throws {
    let report = try Self.read("crashlytics-unrecognized-selector-in-issue.md")
    #expect(report.source == .crashlyticsText)
    #expect(report.exceptionReason?.name == "NSInvalidArgumentException")
    #expect(report.exceptionMessage == "-[__NSCFNumber length]: unrecognized selector sent to instance 0x8c1e2f0")
    #expect(report.threads.count == 1)
    #expect(report.crashedThread?.frames.count == 10)
    #expect(report.crashedThread?.frames[5].sourceFile == "CartCell.swift")
    #expect(report.crashedThread?.frames[5].sourceLine == 88)
    #expect(report.missing.contains(.otherThreads))
    let result = Doctor.diagnose(report)
    #expect(result.diagnoses.first?.ruleID == "objc-unrecognized-selector")
  }

  @Test("The line after a Crashlytics `Crashed:` header gives the exception; unsymbolicated frames have no symbol")
  func crashlyticsBadAccess() throws {
    let report = try Self.read("crashlytics-bad-access-unsymbolicated.txt")
    #expect(report.exception?.type == "EXC_BAD_ACCESS")
    #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
    #expect(report.exception?.faultAddress == 0x10)
    let frames = try #require(report.crashedThread?.frames)
    #expect(frames[0].imageName == "TrailMap")
    #expect(frames[0].symbol == nil)
    #expect(frames[0].imageOffset == 0x3a1f4)
    #expect(!report.missing.contains(.exception))
    let result = Doctor.diagnose(report)
    #expect(result.diagnoses.first?.ruleID == "null-pointer-dereference")
  }

  @Test("Apple's text quoted in an issue reads as the report itself")
  func quotedAppleText() throws {
    let quoted = try Self.read("apple-text-quoted-in-issue.md")
    #expect(quoted.source == .appleText)
    #expect(quoted.processName == "ChatApp")
    #expect(quoted.crashedThread?.index == 7)
    #expect(!quoted.images.isEmpty)
    #expect(quoted.warnings.first?.message == "read the text inside Markdown quote markers and code fences")
    #expect(Doctor.diagnose(quoted).diagnoses.first?.ruleID == "async-bridge-completion-off-main")
  }

  @Test("An excerpt from `Exception Type:` is read and says it lacks the header and images")
  func excerptFromExceptionType() throws {
    let report = try Self.read("apple-excerpt-from-exception-type.md")
    #expect(report.source == .excerpt)
    #expect(report.exception?.type == "EXC_CRASH")
    #expect(report.lastExceptionBacktrace?.count == 15)
    #expect(report.missing.contains(.header))
    #expect(report.missing.contains(.images))
    #expect(Doctor.diagnose(report).diagnoses.first?.ruleID == "async-bridge-completion-off-main")
  }

  @Test("A crashed thread's block alone is an excerpt with one thread")
  func excerptThreadBlock() throws {
    let report = try Self.read("apple-excerpt-crashed-thread-only.txt")
    #expect(report.source == .excerpt)
    #expect(report.threads.count == 1)
    #expect(report.crashedThread?.queue == "com.apple.root.user-initiated-qos.cooperative")
    #expect(report.missing == [.header, .exception, .registers, .images, .otherThreads])
  }

  @Test("Prose that mentions crash words, or a trace without frames, is not a report")
  func notACrash() {
    let texts = [
      "We saw Fatal Exception: in the console but nothing else.\n",
      "Crashed: com.apple.main-thread\nno frames were copied\n",
      "> just a quote\n> of an email\n",
      "```\nlet x = 1\n```\n",
    ]
    for text in texts {
      #expect(throws: ReportError.self) { try ReportReader.read(text) }
    }
  }

  @Test("Apple's reports keep their source and lack nothing")
  func appleSources() throws {
    let ips = try ReportReader.read(try Fixtures.bytes("reports/async-bridge-willpresent.ips"))
    #expect(ips.source == .appleIPS)
    #expect(ips.missing.isEmpty)
    let text = try ReportReader.read(try Fixtures.bytes("reports/async-bridge-didreceive-legacy.crash"))
    #expect(text.source == .appleText)
    #expect(text.missing.isEmpty)
  }
}
