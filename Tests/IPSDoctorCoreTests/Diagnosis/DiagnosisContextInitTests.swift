import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSymbolication

/// The shortcuts that make `DiagnosisContext(report:)` and its helpers cheap must answer exactly
/// what the code they stand in for answers.
@Suite("Diagnosis context shortcuts")
struct DiagnosisContextInitTests {
  @Test("containsIgnoringCase answers lowercased().contains")
  func containsIgnoringCase() {
    let texts = ["--->  STACK GUARD  16f600000", "stack guard", "Stack Guar", "", "straße STACK GUARD", "a\r\nb"]
    for text in texts {
      // (No empty needle: with Foundation imported, as in the tests, `contains("")` means another function.)
      for needle in ["stack guard", "STACK", "\r\nb", "ß", "guard  1", "D  16F"] {
        #expect(
          text.containsIgnoringCase(needle) == text.lowercased().contains(needle.lowercased()),
          "\(text.debugDescription) \(needle.debugDescription)")
      }
    }
  }

  @Test("app images and frames are the ones isAppImage names")
  func appImages() throws {
    var report = CrashReport(format: .json)
    report.processName = "ChatApp"
    report.images = [
      BinaryImage(name: "ChatApp", path: "/private/var/containers/Bundle/Application/X/ChatApp.app/ChatApp"),
      BinaryImage(name: "UIKitCore", path: "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
      BinaryImage(
        name: "Kit", path: "/private/var/containers/Bundle/Application/X/ChatApp.app/Frameworks/Kit.framework/Kit"),
      BinaryImage(name: nil, path: "/private/var/containers/Bundle/Application/X/ChatApp.app/Nameless"),
    ]
    let context = DiagnosisContext(report: report)
    #expect(context.appImageIndexes == [0, 2])
    #expect(context.appImageNames == ["ChatApp", "Kit"])
    #expect(context.isAppFrame(Frame(imageIndex: 2)))
    #expect(!context.isAppFrame(Frame(imageIndex: 1)))
    #expect(!context.isAppFrame(Frame(imageIndex: 3)))
    #expect(!context.isAppFrame(Frame(imageIndex: 7)))
    #expect(!context.isAppFrame(Frame(imageIndex: -1)))
    #expect(context.isAppFrame(Frame(imageName: "Kit")))
    #expect(!context.isAppFrame(Frame(imageName: "UIKitCore")))
    // A text report's frame that names its image: the names are found with the context.
    var textReport = report
    textReport.threads = [CrashThread(index: 0, frames: [Frame(imageName: "Kit"), Frame(imageName: "UIKitCore")])]
    let textContext = DiagnosisContext(report: textReport)
    #expect(textContext.appImageNames == ["ChatApp", "Kit"])
    #expect(textContext.isAppFrame(textReport.threads[0].frames[0]))
    #expect(!textContext.isAppFrame(textReport.threads[0].frames[1]))
    // Without app images, the process name stands for the app.
    var bare = CrashReport(format: .legacyText)
    bare.processName = "Tool"
    #expect(DiagnosisContext(report: bare).isAppFrame(Frame(imageName: "Tool")))
  }

  @Test("dyld values are found with and without the joined texts' shortcut")
  func dyldValues() throws {
    var report = CrashReport(format: .json)
    var termination = Termination()
    termination.namespace = "DYLD"
    termination.reasons = [
      "Library missing", "Library not loaded: @rpath/Kit.framework/Kit | Referenced from: <UUID> /App",
    ]
    report.termination = termination
    report.applicationSpecificInfo = [
      ApplicationSpecificInfo(image: "dyld", lines: ["Symbol not found: _f\nExpected in: /usr/lib/x"])
    ]
    let dyld = DyldError(DiagnosisContext(report: report))
    #expect(dyld.missingLibrary?.path == "@rpath/Kit.framework/Kit")
    #expect(dyld.missingLibrary?.evidence.path == "termination.reasons[1]")
    #expect(dyld.referencedFrom == "/App")
    #expect(dyld.missingSymbol?.symbol == "_f")
    #expect(dyld.missingSymbol?.evidence.path == "asi[\"dyld\"][0]")
    #expect(dyld.expectedIn == "/usr/lib/x")
    #expect(dyld.value(after: "tried: ") == nil)
    #expect(
      dyld.lines.map(\.detail) == [
        "Library missing", "Library not loaded: @rpath/Kit.framework/Kit", "Referenced from: <UUID> /App",
        "Symbol not found: _f", "Expected in: /usr/lib/x",
      ])
  }
}
