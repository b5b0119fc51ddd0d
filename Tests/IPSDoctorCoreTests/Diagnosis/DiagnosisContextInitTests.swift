import Testing

@testable import IPSDoctorCheck
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport
@testable import IPSDoctorSymbolication

/// The facts `DiagnosisContext(report:)` gathers, and the text helpers they use.
@Suite("Diagnosis context facts")
struct DiagnosisContextInitTests {
  @Test(
    "containsIgnoringCase: both texts lowercased, compared by Characters",
    arguments: [
      ("--->  STACK GUARD  16f600000", "stack guard", true), ("--->  STACK GUARD  16f600000", "D  16F", true),
      ("stack guard", "STACK", true), ("Stack Guar", "stack guard", false), ("", "STACK", false),
      ("straße STACK GUARD", "ß", true), ("straße STACK GUARD", "guard  1", false), ("a\r\nb", "\r\nb", true),
      ("a\r\nb", "\nb", false), ("ÉCLAIR", "éclair", true),
    ])
  func containsIgnoringCase(text: String, needle: String, expected: Bool) {
    #expect(text.containsIgnoringCase(needle) == expected)
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

  @Test("dyld values are read from the termination reasons and the dyld lines")
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
