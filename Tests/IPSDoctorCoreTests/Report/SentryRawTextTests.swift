import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// The text of a stack trace copied from Sentry's issue page ("Raw"), in the layout Sentry's
/// `displayRawContent` writes for native frames, and Sentry's app hang events.
@Suite("Sentry raw stack trace text")
struct SentryRawTextTests {
  @Test("A Mach exception: the thread, frames newest first with addresses and source locations, the fault")
  func badAccess() throws {
    let report = try ReportReader.read(try Fixtures.bytes("pasted/sentry-raw-bad-access.txt"))
    #expect(report.source == .sentryText)
    #expect(report.kind == .crash)
    #expect(report.exception?.type == "EXC_BAD_ACCESS")
    #expect(report.exception?.rawCodes == [1, 16])
    #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
    let thread = try #require(report.crashedThread)
    #expect(thread.queue == "com.apple.main-thread")
    #expect(thread.frames.count == 13)
    #expect(thread.frames[0].imageName == "TrailMap")
    #expect(thread.frames[0].address == 0x1_00a3_a1f4)
    #expect(thread.frames[0].symbol == "MapViewController.loadTrails()")
    #expect(thread.frames[0].sourceFile == "MapViewController.swift")
    #expect(thread.frames[0].sourceLine == 142)
    #expect(
      thread.frames[4].symbol == "-[UINavigationController _updateScrollViewFromViewController:toViewController:]")
    #expect(thread.frames[4].sourceFile == nil)
    #expect(report.processName == "TrailMap")
    #expect(report.images.filter { $0.source == "P" }.map(\.name) == ["TrailMap"])
    #expect(report.missing == [.registers, .images, .otherThreads])
    #expect(report.warnings.contains { $0.message.contains("does not say whether the error was handled") })
    #expect(Doctor.diagnose(report).diagnoses.first?.ruleID == "null-pointer-dereference")
  }

  @Test("Pasted in an issue: an exception's name and reason; long and library image names")
  func exceptionInIssue() throws {
    let report = try ReportReader.read(try Fixtures.bytes("pasted/sentry-raw-unrecognized-selector-in-issue.md"))
    #expect(report.source == .sentryText)
    #expect(report.exceptionReason?.name == "NSInvalidArgumentException")
    #expect(
      report.exceptionReason?.composedMessage
        == "-[__NSCFNumber length]: unrecognized selector sent to instance 0x8c1e2f0")
    let frames = try #require(report.crashedThread?.frames)
    #expect(frames[1].imageName == "libobjc.A.dylib")
    // A name of 20 characters touches its address; "undefined" is no function.
    #expect(frames[8].imageName == "libswift_Concurrency.dylib")
    #expect(frames[8].address == 0x1_b0c2_d3e4)
    #expect(frames[8].symbol == nil)
    #expect(Doctor.diagnose(report).diagnoses.first?.ruleID == "objc-unrecognized-selector")
  }

  @Test("An app hang: a hang summary of the main thread, its wait named by the symbolicated frames")
  func appHang() throws {
    let report = try ReportReader.read(try Fixtures.bytes("pasted/sentry-raw-app-hang-semaphore.txt"))
    #expect(report.kind == .resource)
    #expect(report.resource?.measure == .hang)
    #expect(report.resource?.event == "hang (at least 2000 ms)")
    #expect(report.crashedThread?.isMainThread == true)
    let finding = try #require(Doctor.diagnose(report).diagnoses.first)
    #expect(finding.ruleID == "main-thread-hang")
    #expect(finding.confidence == .likely)
    #expect(finding.summary.contains("for at least 2000 ms. This is a hang report, not a crash."))
    #expect(finding.summary.contains("waiting on a semaphore"))
    #expect(finding.summary.contains("ImageCache.image(for:)"))
    #expect(!finding.summary.contains("main (ShopApp.swift"))
  }

  @Test("A value over several lines, chained exceptions (the last read), a signal")
  func layout() throws {
    let text = """
      Thread: Worker
      NSInternalInconsistencyException: first
        ShopApp             0x0000000102b4f2a8  Store.load()

      SIGABRT: Signal 6, Code 0
      Originated at or in a subcall of Store.save()
        libsystem_kernel    0x00000001d3f2f1a8  __pthread_kill
        libsystem_c         0x00000001a1b2c3d4  abort
        ShopApp             0x0000000102b4f300  Store.save() (Store.swift:9)
      """
    let report = try ReportReader.read(Array(text.utf8))
    #expect(report.source == .sentryText)
    #expect(report.exception?.signal == "SIGABRT")
    #expect(report.exceptionReason == nil)
    #expect(report.crashedThread?.name == "Worker")
    #expect(report.crashedThread?.frames.map(\.symbol) == ["__pthread_kill", "abort", "Store.save()"])
    #expect(
      report.warnings.contains { $0.message == "read the last of 2 chained exceptions, the one that ended the app" })
  }

  @Test("Other pasted text is not taken for Sentry's")
  func notSentry() throws {
    let crashlytics = try ReportReader.read(try Fixtures.bytes("pasted/crashlytics-bad-access-unsymbolicated.txt"))
    #expect(crashlytics.source == .crashlyticsText)
    #expect(throws: ReportError.self) {
      try ReportReader.read(Array("Note: the build is 3.1\n  see the wiki for 0x10 details\n".utf8))
    }
  }

  @Test("A Sentry app hang event (JSON) is a hang of its main thread, not a crash")
  func appHangEvent() throws {
    let event = """
      {"event_id": "a1", "platform": "cocoa",
       "exception": {"values": [{"type": "App Hanging", "value": "App hanging for at least 2000 ms.",
         "mechanism": {"type": "AppHang", "handled": true}}]},
       "threads": {"values": [{"id": 0, "name": "com.apple.main-thread", "current": true,
         "stacktrace": {"frames": [
           {"function": "main", "package": "/private/var/containers/Bundle/Application/X/ShopApp.app/ShopApp", "instruction_addr": "0x102b01e3c", "filename": "ShopApp.swift", "lineno": 10},
           {"function": "ProductCell.configure(with:)", "package": "/private/var/containers/Bundle/Application/X/ShopApp.app/ShopApp", "instruction_addr": "0x102b61f4c", "filename": "ProductCell.swift", "lineno": 31},
           {"function": "__open_nocancel", "package": "/usr/lib/system/libsystem_kernel.dylib", "instruction_addr": "0x1d3f2f1a8"}]}}]}}
      """
    let report = try ReportReader.read(Array(event.utf8))
    #expect(report.kind == .resource)
    #expect(report.isNonFatal == true)
    #expect(report.crashedThread?.frames.first?.symbol == "__open_nocancel")
    let finding = try #require(Doctor.diagnose(report).diagnoses.first)
    #expect(finding.ruleID == "main-thread-hang")
    #expect(finding.summary.contains("waiting for file I/O"))
  }

  @Test("A Bugsnag app hang is a hang of its main thread; a fatal one ended the app")
  func bugsnagAppHang() throws {
    func event(_ errorClass: String, unhandled: Bool) -> [UInt8] {
      Array(
        """
        {"events": [{"unhandled": \(unhandled), "severityReason": {"type": "appHang"},
          "exceptions": [{"errorClass": "\(errorClass)", "message": "The app's main thread failed to respond to an event within 2000 milliseconds",
            "stacktrace": [{"method": "__psynch_mutexwait", "machoFile": "/usr/lib/system/libsystem_kernel.dylib", "frameAddress": "0x1d3f2f1a8", "machoLoadAddress": "0x1d3f2e000"},
              {"method": "Store.load()", "machoFile": "/private/var/containers/Bundle/Application/X/ShopApp.app/ShopApp", "frameAddress": "0x102b4f2a8", "machoLoadAddress": "0x102b00000"}]}],
          "threads": []}]}
        """.utf8)
    }
    let hang = try ReportReader.read(event("App Hang", unhandled: false))
    #expect(hang.kind == .resource)
    #expect(hang.resource?.event == "hang (2000 milliseconds)")
    let finding = try #require(Doctor.diagnose(hang).diagnoses.first)
    #expect(finding.ruleID == "main-thread-hang")
    #expect(finding.summary.contains("waiting for a lock"))
    #expect(finding.summary.contains("Store.load()"))
    #expect(finding.severity == .warning)
    let fatal = try #require(
      Doctor.diagnose(try ReportReader.read(event("Fatal App Hang", unhandled: true))).diagnoses.first)
    #expect(fatal.ruleID == "main-thread-hang")
    #expect(fatal.summary.contains("ended while it hung"))
    #expect(fatal.severity == .error)
  }
}
