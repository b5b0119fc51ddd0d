import Testing

@testable import IPSDoctorCLI
@testable import IPSDoctorDiagnosis
@testable import IPSDoctorJSON
@testable import IPSDoctorOutput
@testable import IPSDoctorReport
@testable import IPSDoctorSupport

/// Small legacy text reports shared by the parser and renderer tests.
enum LegacyTextSamples {
  /// A modern iOS report with every section.
  static let ios = """
    Incident Identifier: 6A1B2C3D-0000-4000-8000-123456789ABC
    CrashReporter Key:   0123456789abcdef0123456789abcdef01234567
    Hardware Model:      iPhone14,2
    Process:             ChatApp [4242]
    Path:                /private/var/containers/Bundle/Application/AAAA/ChatApp.app/ChatApp
    Identifier:          com.example.chat
    Version:             2.4 (118)
    Code Type:           ARM-64 (Native)
    Role:                Foreground
    Parent Process:      launchd [1]

    Date/Time:           2024-05-01 10:00:00.0000 +0200
    Launch Time:         2024-05-01 09:59:00.0000 +0200
    OS Version:          iPhone OS 17.4 (21E219)
    Release Type:        User
    Report Version:      104

    Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
    Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000010
    Exception Codes: 0x0000000000000001, 0x0000000000000010
    Exception Message: something odd
    Exception Note:  EXC_CORPSE_NOTIFY
    Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d
    Termination Description: SPRINGBOARD, scene-update watchdog transgression
    Triggered by Thread:  3, Dispatch queue: com.example.sync

    Application Specific Information:
    abort() called
    second line: with a colon

    Kernel Triage:
    VM - pmap_enter retried due to resource shortage

    VM Region Info: 0x10 is not in any region.
          REGION TYPE                 START - END      [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL
          UNUSED SPACE AT START

    Last Exception Backtrace:
    0   CoreFoundation                0x0000000180001234 __exceptionPreprocess + 164
    1   libobjc.A.dylib               0x0000000181000100 objc_exception_throw + 60

    Thread 0 name:  Dispatch queue: com.apple.main-thread
    Thread 0:
    0   libsystem_kernel.dylib        0x00000001e0000008 mach_msg2_trap + 8
    1   Google Chrome Framework       0x0000000104a00100 0x104a00000 + 256

    Thread 1 name:  Some Name
    Thread 1:
    0   libsystem_pthread.dylib       0x00000001f0000020 start_wqthread + 8

    Thread 2:
    0   ???                           0x0000000000000000 ???

    Thread 3 Crashed:
    0   ChatApp                       0x00000001045a1234 ChatViewModel.send(_:) + 52 (ChatViewModel.swift:42)
    1   ChatApp                       0x00000001045a1000 closure #1 in ChatViewModel.load() + 8 (ChatViewModel.swift:17) [inlined]
    2   ChatApp                       0x00000001045a2000 0x1045a0000 + 8192
    3   libdispatch.dylib             0x00000001a0000100 _dispatch_call_block_and_release + 32

    Thread 3 crashed with ARM Thread State (64-bit):
        x0: 0x0000000000000000   x1: 0xffffffffffffffff   x2: 0x0000000000000002   x3: 0x0000000000000003
        fp: 0x000000016d000000   lr: 0x00000001045a1000
        sp: 0x000000016cfff000   pc: 0x00000001045a1234 cpsr: 0x60000000
       far: 0x0000000000000010  esr: 0x92000006 (Data Abort) byte read Translation fault

    Binary Images:
    0x1045a0000 - 0x1046bffff ChatApp arm64  <6f1c3b2a9d8e4f00a1b2c3d4e5f60718> /private/var/containers/Bundle/Application/AAAA/ChatApp.app/ChatApp
    0x104a00000 - 0x104afffff Google Chrome Framework arm64  <00112233445566778899aabbccddeeff> /Applications/Google Chrome.app/Frameworks/Google Chrome Framework
    0x180000000 - 0x1803fffff CoreFoundation arm64e  <11112222333344445555666677778888> /System/Library/Frameworks/CoreFoundation.framework/CoreFoundation
    0x181000000 - 0x18103ffff libobjc.A.dylib arm64e  <22223333444455556666777788889999> /usr/lib/libobjc.A.dylib
    0x1a0000000 - 0x1a004ffff libdispatch.dylib arm64e  <3333444455556666777788889999aaaa> /usr/lib/system/libdispatch.dylib
    0x1e0000000 - 0x1e003ffff libsystem_kernel.dylib arm64e  <4444555566667777888899990000bbbb> /usr/lib/system/libsystem_kernel.dylib
    0x1f0000000 - 0x1f000ffff libsystem_pthread.dylib arm64e  <55556666777788889999aaaabbbbcccc> /usr/lib/system/libsystem_pthread.dylib
    0x1ff000000 - 0x1ff000fff ??? arm64  <66667777888899990000aaaabbbbdddd> ???

    EOF
    this text is not part of the report
    """

  /// An older macOS report.
  static let macOS = """
    Process:               Editor [62970]
    Path:                  /Applications/Editor.app/Contents/MacOS/Editor
    Identifier:            com.example.editor
    Version:               1.0 (1)
    Code Type:             X86-64 (Native)
    Parent Process:        ??? [1]

    Date/Time:             2020-11-12 20:24:32.496 +0000
    OS Version:            Mac OS X 10.15.7 (19H2)
    Report Version:        12

    Crashed Thread:        3  Dispatch queue: com.apple.root.default-qos

    Exception Type:        EXC_BAD_ACCESS (SIGSEGV)
    Exception Codes:       KERN_INVALID_ADDRESS at 0x0000000000000018
    Exception Note:        EXC_CORPSE_NOTIFY

    Termination Signal:    Segmentation fault: 11
    Termination Reason:    Namespace SIGNAL, Code 0xb
    Terminating Process:   exc handler [62970]

    Thread 0 Crashed:: Dispatch queue: com.apple.main-thread
    0   libsystem_kernel.dylib        	0x00007fff6bdc4812 __pthread_kill + 10

    Thread 1:: com.apple.NSURLConnectionLoader
    0   com.apple.CoreFoundation      	0x00007fff42e19f2c __CFRunLoopRun + 12

    Thread 3 Crashed:: Dispatch queue: com.apple.root.default-qos
    0   com.example.editor            	0x0000000100d1c5ab start_threads + 259

    Thread 3 crashed with X86 Thread State (64-bit):
      rax: 0x0000000000000000  rbx: 0xffffffffffffffff  rcx: 0x0000000000000000  rdx: 0x0000000000000000
      rip: <unavailable>  rfl: 0x0000000000000287  cr2: 0x0000000000000018

    Logical CPU:     2
    Error Code:      0x00000006 (no mapping for user data write)
    Trap Number:     14

    Binary Images:
           0x100d18000 -        0x100d1ffff +com.example.editor (1.0 - 1) <FF3A48AD-D9E4-3DD4-9534-FD867A871C47> /Applications/Editor.app/Contents/MacOS/Editor
        0x7fff42d00000 -     0x7fff4319ffff  com.apple.CoreFoundation (6.9 - 1575.19) <4F7D2B0A-0D5C-3E43-B5DE-BB4B4C1DD4F7> /System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation
        0x7fff6bdbe000 -     0x7fff6bdeafff  libsystem_kernel.dylib (6153.141.2) <A0B3F1A6-0DAB-3E1F-8E6F-4B79F6F7A2E5> /usr/lib/system/libsystem_kernel.dylib
                   0x0 - 0xffffffffffffffff ??? (*) <00000000-0000-0000-0000-000000000000> ???
    """

  static func parse(_ text: String, firstLine: Int = 1) -> CrashReport {
    var report = CrashReport(format: .legacyText)
    LegacyTextParser.parse(text, firstLine: firstLine, into: &report)
    return report
  }
}

@Suite("Legacy text parser")
struct LegacyTextParserTests {
  let ios = LegacyTextSamples.parse(LegacyTextSamples.ios)
  let macOS = LegacyTextSamples.parse(LegacyTextSamples.macOS)

  @Test("Header fields")
  func header() {
    #expect(ios.kind == .crash)
    #expect(ios.incidentID == "6A1B2C3D-0000-4000-8000-123456789ABC")
    #expect(ios.modelCode == "iPhone14,2")
    #expect(ios.processName == "ChatApp")
    #expect(ios.pid == 4242)
    #expect(ios.processPath == "/private/var/containers/Bundle/Application/AAAA/ChatApp.app/ChatApp")
    #expect(ios.bundleID == "com.example.chat")
    #expect(ios.buildVersion == "118")
    #expect(ios.appVersion == "2.4")
    #expect(ios.cpuType == "ARM-64")
    #expect(ios.parentProcess == "launchd [1]")
    #expect(ios.captureTime == "2024-05-01 10:00:00.0000 +0200")
    #expect(ios.launchTime == "2024-05-01 09:59:00.0000 +0200")
    #expect(ios.osVersion?.train == "iPhone OS 17.4")
    #expect(ios.osVersion?.build == "21E219")
    #expect(ios.osVersion?.releaseType == "User")
    #expect(ios.warnings.isEmpty, "\(ios.warnings)")
  }

  @Test("Exception, termination and crashed thread")
  func exception() throws {
    let exception = try #require(ios.exception)
    #expect(exception.type == "EXC_BAD_ACCESS")
    #expect(exception.signal == "SIGSEGV")
    #expect(exception.codes == "0x0000000000000001, 0x0000000000000010")
    #expect(exception.rawCodes == [1, 0x10])
    #expect(exception.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
    #expect(exception.faultAddress == 0x10)
    #expect(exception.message == "something odd")
    #expect(exception.notes == ["EXC_CORPSE_NOTIFY"])
    #expect(ios.isCorpse == true)
    let termination = try #require(ios.termination)
    #expect(termination.namespace == "SPRINGBOARD")
    #expect(termination.code == 0x8bad_f00d)
    #expect(termination.reasons == ["SPRINGBOARD, scene-update watchdog transgression"])
    #expect(ios.faultingThread == 3)
    #expect(ios.crashedThread?.index == 3)
    #expect(ios.crashedThread?.triggered == true)
    // The queue named on the "Triggered by Thread" line goes to the thread.
    #expect(ios.crashedThread?.queue == "com.example.sync")
  }

  @Test("Application Specific Information, Kernel Triage and VM Region Info")
  func diagnostics() {
    #expect(ios.applicationSpecificLines == ["abort() called", "second line: with a colon"])
    #expect(ios.kernelTriage == "VM - pmap_enter retried due to resource shortage")
    #expect(ios.vmRegionInfo?.hasPrefix("0x10 is not in any region.\n") == true)
    #expect(ios.vmRegionInfo?.split(separator: "\n").count == 3)
  }

  @Test("Threads, names and queues")
  func threads() {
    #expect(ios.threads.map(\.index) == [0, 1, 2, 3])
    #expect(ios.threads[0].queue == "com.apple.main-thread")
    #expect(ios.threads[0].name == nil)
    #expect(ios.threads[0].isMainThread)
    #expect(ios.threads[1].name == "Some Name")
    #expect(ios.threads[1].queue == nil)
    #expect(ios.threads.map(\.frames.count) == [2, 1, 1, 4])
    #expect(ios.threads.filter(\.triggered).map(\.index) == [3])
  }

  @Test("Frames: symbols, offsets, source locations, inlined and unsymbolicated")
  func frames() throws {
    let crashed = try #require(ios.crashedThread).frames
    #expect(crashed[0].imageName == "ChatApp")
    #expect(crashed[0].address == 0x1_045a_1234)
    #expect(crashed[0].symbol == "ChatViewModel.send(_:)")
    #expect(crashed[0].symbolLocation == 52)
    #expect(crashed[0].sourceFile == "ChatViewModel.swift")
    #expect(crashed[0].sourceLine == 42)
    #expect(crashed[0].imageIndex == 0)
    #expect(crashed[0].imageOffset == 0x1234)
    #expect(crashed[1].isInline)
    #expect(crashed[1].symbol == "closure #1 in ChatViewModel.load()")
    #expect(crashed[1].sourceLine == 17)
    #expect(crashed[2].symbol == nil)
    #expect(crashed[2].imageOffset == 8192)
    #expect(crashed[2].imageIndex == 0)
    #expect(crashed[3].imageName == "libdispatch.dylib")
    #expect(crashed[3].imageIndex == 4)
    // Image names with spaces are split at the address column.
    let chrome = ios.threads[0].frames[1]
    #expect(chrome.imageName == "Google Chrome Framework")
    #expect(chrome.imageIndex == 1)
    #expect(chrome.imageOffset == 256)
    // "???" is no symbol and no image.
    let unknown = ios.threads[2].frames[0]
    #expect(unknown.symbol == nil)
    #expect(unknown.imageName == nil)
    #expect(unknown.imageIndex == nil)
  }

  @Test("Last Exception Backtrace with numbered frames")
  func lastExceptionBacktrace() throws {
    let frames = try #require(ios.lastExceptionBacktrace)
    #expect(frames.map(\.symbol) == ["__exceptionPreprocess", "objc_exception_throw"])
    #expect(frames.map(\.imageIndex) == [2, 3])
    #expect(frames[0].imageOffset == 0x1234)
  }

  @Test("One-line unsymbolicated Last Exception Backtrace resolves by address")
  func oneLineBacktrace() throws {
    let text = """
      Incident Identifier: 1
      Exception Type:  EXC_CRASH (SIGABRT)
      Triggered by Thread:  0

      Last Exception Backtrace:
      (0x180001234 0x181000100 0x1045a2000
       0x1999)

      Thread 0 Crashed:
      0   libsystem_kernel.dylib        0x00000001e0000008 __pthread_kill + 8

      Binary Images:
      0x1045a0000 - 0x1046bffff ChatApp arm64  <6f1c3b2a9d8e4f00a1b2c3d4e5f60718> /var/ChatApp.app/ChatApp
      0x180000000 - 0x1803fffff CoreFoundation arm64e  <11112222333344445555666677778888> /System/CoreFoundation
      0x181000000 - 0x18103ffff libobjc.A.dylib arm64e  <22223333444455556666777788889999> /usr/lib/libobjc.A.dylib
      """
    let report = LegacyTextSamples.parse(text)
    let frames = try #require(report.lastExceptionBacktrace)
    #expect(frames.map(\.address) == [0x1_8000_1234, 0x1_8100_0100, 0x1_045a_2000, 0x1999])
    #expect(frames.map(\.imageIndex) == [1, 2, 0, nil])
    #expect(frames.map(\.imageName) == ["CoreFoundation", "libobjc.A.dylib", "ChatApp", nil])
    #expect(frames[2].imageOffset == 0x2000)
    #expect(frames.allSatisfy { $0.symbol == nil })
    #expect(report.threads.count == 1)
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }

  @Test("Registers keep exact 64-bit values and the ESR description")
  func registers() throws {
    let state = try #require(ios.crashedThread?.state)
    #expect(state.flavor == "ARM_THREAD_STATE64")
    #expect(state["x1"] == .max)
    #expect(state["x3"] == 3)
    #expect(state["fp"] == 0x1_6d00_0000)
    #expect(state["pc"] == 0x1_045a_1234)
    #expect(state["cpsr"] == 0x6000_0000)
    #expect(state["far"] == 0x10)
    #expect(state["esr"] == 0x9200_0006)
    #expect(state.esrDescription == "(Data Abort) byte read Translation fault")
    #expect(state.registers.count == 11)
  }

  @Test("Binary images: names with spaces, UUIDs, sizes and ??? names")
  func images() throws {
    #expect(ios.images.count == 8)
    let app = ios.images[0]
    #expect(app.base == 0x1_045a_0000)
    #expect(app.size == 0x12_0000)
    #expect(app.arch == "arm64")
    #expect(app.uuid == "6F1C3B2A-9D8E-4F00-A1B2-C3D4E5F60718")
    #expect(app.name == "ChatApp")
    #expect(app.path == "/private/var/containers/Bundle/Application/AAAA/ChatApp.app/ChatApp")
    #expect(ios.mainImage == app)
    #expect(ios.images[1].name == "Google Chrome Framework")
    #expect(ios.images[1].path == "/Applications/Google Chrome.app/Frameworks/Google Chrome Framework")
    #expect(ios.images[7].name == nil)
    #expect(ios.images[7].path == nil)
    #expect(ios.images[7].size == 0x1000)
  }

  @Test("macOS report: bundle identifiers, version order, thread name forms and x86 state")
  func macOSReport() throws {
    let report = macOS
    #expect(report.warnings.isEmpty, "\(report.warnings)")
    #expect(report.appVersion == "1.0")
    #expect(report.buildVersion == "1")
    #expect(report.cpuType == "X86-64")
    #expect(report.parentProcess == "??? [1]")
    #expect(report.exception?.codes == "KERN_INVALID_ADDRESS at 0x0000000000000018")
    #expect(report.exception?.faultAddress == 0x18)
    #expect(report.termination?.namespace == "SIGNAL")
    #expect(report.termination?.code == 11)
    #expect(report.termination?.indicator == "Segmentation fault: 11")
    #expect(report.termination?.byProc == "exc handler")
    #expect(report.termination?.byPid == 62970)
    #expect(report.faultingThread == 2)
    #expect(report.crashedThread?.index == 3)
    #expect(report.threads[0].queue == "com.apple.main-thread")
    #expect(report.threads[1].name == "com.apple.NSURLConnectionLoader")
    #expect(report.threads[1].queue == nil)
    #expect(report.threads[2].queue == "com.apple.root.default-qos")

    let app = report.images[0]
    #expect(app.name == "Editor")
    #expect(app.bundleID == "com.example.editor")
    #expect(app.bundleShortVersion == "1.0")
    #expect(app.bundleVersion == "1")
    #expect(app.source == "P")
    #expect(app.uuid == "FF3A48AD-D9E4-3DD4-9534-FD867A871C47")
    #expect(report.images[1].name == "CoreFoundation")
    #expect(report.images[1].bundleID == "com.apple.CoreFoundation")
    #expect(report.images[2].name == "libsystem_kernel.dylib")
    #expect(report.images[2].bundleVersion == "6153.141.2")
    #expect(report.images[3].name == nil)
    #expect(report.images[3].size == nil)

    // Frames written with the bundle identifier resolve to the image and take its name.
    let frame = try #require(report.crashedThread?.frames.first)
    #expect(frame.imageIndex == 0)
    #expect(frame.imageName == "Editor")
    #expect(frame.imageOffset == 0x45ab)
    #expect(report.threads[1].frames[0].imageIndex == 1)

    let state = try #require(report.crashedThread?.state)
    #expect(state.flavor == "x86_THREAD_STATE")
    #expect(state["rbx"] == .max)
    #expect(state["rflags"] == 0x287)
    #expect(state["rip"] == nil)
    #expect(state["cpu"] == 2)
    #expect(state["err"] == 6)
    #expect(state["trap"] == 14)
  }

  @Test(
    "Exception Type forms",
    arguments: [
      ("EXC_BAD_ACCESS (SIGSEGV)", "EXC_BAD_ACCESS", "SIGSEGV"),
      ("SIGSEGV", nil, "SIGSEGV"),
      ("EXC_CRASH (SIGKILL - CODESIGNING)", "EXC_CRASH", "SIGKILL - CODESIGNING"),
      ("EXC_GUARD", "EXC_GUARD", nil),
    ] as [(String, String?, String?)])
  func exceptionTypes(_ text: String, _ type: String?, _ signal: String?) {
    let parsed = LegacyTextLine.exceptionType(text)
    #expect(parsed.type == type)
    #expect(parsed.signal == signal)
  }

  @Test(
    "Termination Reason forms",
    arguments: [
      ("Namespace SPRINGBOARD, Code 0x8badf00d", "SPRINGBOARD", 0x8bad_f00d, nil),
      ("Namespace SIGNAL, Code 11 Segmentation fault: 11", "SIGNAL", 11, "Segmentation fault: 11"),
      ("SIGNAL 6 Abort trap: 6", "SIGNAL", 6, "Abort trap: 6"),
      ("DYLD 1 Library missing", "DYLD", 1, "Library missing"),
      ("Namespace TCC, Code 0", "TCC", 0, nil),
      ("FRONTBOARD 2343432205", "FRONTBOARD", 2_343_432_205, nil),
    ] as [(String, String, UInt64, String?)])
  func terminationReasons(_ text: String, _ namespace: String, _ code: UInt64, _ indicator: String?) {
    let termination = LegacyTextLine.terminationReason(text)
    #expect(termination?.namespace == namespace)
    #expect(termination?.code == code)
    #expect(termination?.indicator == indicator)
  }

  @Test("Newer termination layout: reasons and details on the following lines")
  func terminationContinuation() {
    let report = LegacyTextSamples.parse(
      """
      Process:             Viewer [12]
      Exception Type:  EXC_CRASH (SIGABRT)
      Termination Reason: DYLD 1 Library missing
      Library not loaded: /usr/local/lib/libvips.42.dylib
      Reason: tried: '/usr/local/lib/libvips.42.dylib' (no such file)
      (terminated at launch; ignore backtrace)

      Triggered by Thread:  0
      """)
    #expect(report.termination?.namespace == "DYLD")
    #expect(report.termination?.indicator == "Library missing")
    #expect(
      report.termination?.reasons == [
        "Library not loaded: /usr/local/lib/libvips.42.dylib",
        "Reason: tried: '/usr/local/lib/libvips.42.dylib' (no such file)",
      ])
    #expect(report.termination?.details == ["(terminated at launch; ignore backtrace)"])
  }

  @Test("Exception notes set the corpse, non-fatal and simulated flags")
  func notes() {
    let report = LegacyTextSamples.parse(
      """
      Process:             App [1]
      Exception Type:  EXC_RESOURCE
      Exception Note:  NON-FATAL CONDITION (this is NOT a crash)
      Exception Note:  SIMULATED (this is NOT a crash)
      """)
    #expect(report.isNonFatal == true)
    #expect(report.isSimulated == true)
    #expect(report.isCorpse == nil)
    #expect(report.exception?.notes.count == 2)
  }

  @Test("CRLF line endings read the same as LF")
  func crlf() {
    let crlf = LegacyTextSamples.ios.split(separator: "\n", omittingEmptySubsequences: false)
      .joined(separator: "\r\n")
    #expect(LegacyTextSamples.parse(crlf) == ios)
  }

  @Test("A report pasted with indentation inside other text")
  func indented() {
    let indented = LegacyTextSamples.ios.split(separator: "\n", omittingEmptySubsequences: false)
      .prefix(while: { $0 != "EOF" })
      .map { $0.isEmpty ? "" : "        " + $0 }
      .joined(separator: "\n")
    let text = "My app crashes, please help:\n\n" + indented + "\n    Any idea?\n"
    let report = LegacyTextSamples.parse(text)
    #expect(report.exception == ios.exception)
    #expect(report.threads == ios.threads)
    #expect(report.images == ios.images)
    #expect(report.lastExceptionBacktrace == ios.lastExceptionBacktrace)
    #expect(report.warnings.map(\.location) == ["line 1", "line 78"])
  }

  @Test("Leading blank lines and a version of ??? (???)")
  func leadingBlankLines() {
    let report = LegacyTextSamples.parse(
      "\n\nProcess:         Crescent [5903]\nVersion:         ??? (???)\nExceptionless: x\n"
        + "Exception Type:  EXC_GUARD\nCrashed Thread:  5\n")
    #expect(report.processName == "Crescent")
    #expect(report.appVersion == nil)
    #expect(report.buildVersion == nil)
    #expect(report.exception?.type == "EXC_GUARD")
  }

  @Test("A report that stops after its header keeps the header and warns")
  func headerOnly() {
    let report = LegacyTextSamples.parse(
      """
      Incident Identifier: 6156848E-344E-4D9E-84E0-87AFD0D0AE7B
      Hardware Model:      iPhone8,1
      Process:             TouchCanvas [1052]
      Version:             1 (3.0)

      Date/Time:           2020-03-27 18:06:51.4969 -0700
      OS Version:          iPhone OS 13.3.1 (17D50)

      """, firstLine: 3)
    #expect(report.processName == "TouchCanvas")
    #expect(report.appVersion == "3.0")
    #expect(report.buildVersion == "1")
    #expect(report.exception == nil)
    #expect(report.warnings.map(\.location) == ["line 9"])
  }

  @Test("Unreadable section lines become warnings at their file line")
  func warnings() throws {
    let text = """
      {"bug_type":"109","name":"App"}
      Process:             App [7]
      Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
      Triggered by Thread:  zero

      Thread 0 Crashed:
      0   App                           0x0000000100000010 main + 16
      1   this line is not a frame
      Thread 0 frobnicated

      Binary Images:
      0x100000000 - 0x100003fff App arm64  <6f1c3b2a9d8e4f00a1b2c3d4e5f60718> /var/App.app/App
      0xnothing here
      """
    let report = try ReportReader.read(text)
    #expect(report.format == .jsonHeaderTextBody)
    #expect(report.bugType?.rawValue == "109")
    #expect(report.kind == .crash)
    #expect(report.threads.count == 1)
    #expect(report.threads[0].frames.count == 1)
    #expect(report.threads[0].frames[0].imageIndex == 0)
    #expect(report.images.count == 1)
    #expect(report.warnings.map(\.location) == ["line 4", "line 8", "line 9", "line 13"])
  }

  @Test("A triggered thread missing from the thread list is a warning")
  func missingTriggeredThread() {
    let report = LegacyTextSamples.parse(
      """
      Process:             App [7]
      Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
      Triggered by Thread:  9

      Thread 0:
      0   App                           0x0000000100000010 main + 16
      """)
    #expect(report.faultingThread == nil)
    #expect(report.warnings.map(\.location) == ["line 3"])
  }

  @Test("Resource text body: event, action and header fields")
  func resource() throws {
    let text = """
      {"bug_type":"206","app_name":"MapMyRun","build_version":"1809212128"}
      Date/Time:       2018-09-22 08:58:50.113113 -0500
      OS Version:      iPhone OS 11.4.1 (Build 15G77)
      Architecture:    arm64

      Command:         MapMyRun
      Path:            /private/var/containers/Bundle/Application/B7/MapMyRun.app/MapMyRun
      Version:         18.8.5 (1809212128)
      PID:             2489

      Event:           cpu usage
      Action taken:    Process killed
      CPU:             48 seconds cpu time over 54 seconds

      Powerstats for:  MapMyRun [2489]
        11 ??? (libdyld.dylib + 4032) [0x1839a9fc0]
          11 ??? (MapMyRun + 1630896) [0x1044ae2b0]

        Binary Images:
               0x104320000 -                ???  com.mapmyfitness.MapMyRun 18.8.5 (1809212128)  /private/var/containers/Bundle/Application/B7/MapMyRun.app/MapMyRun
               0x183943000 -        0x1839a8fff  libdispatch.dylib <0C931AC7-6013-3DE1-87BB-6F440BEED5EB> /usr/lib/system/libdispatch.dylib
      """
    let report = try ReportReader.read(text)
    #expect(report.kind == .resource)
    let resource = try #require(report.resource)
    #expect(resource.event == "cpu usage")
    #expect(resource.actionTaken == "Process killed")
    #expect(resource["CPU"] == "48 seconds cpu time over 54 seconds")
    #expect(resource["Architecture"] == "arm64")
    #expect(report.processName == "MapMyRun")
    #expect(report.pid == 2489)
    #expect(report.appVersion == "18.8.5")
    #expect(report.buildVersion == "1809212128")
    #expect(report.osVersion?.build == "15G77")
    #expect(report.images.count == 2)
    #expect(report.images[0].name == "MapMyRun")
    #expect(report.images[0].bundleID == "com.mapmyfitness.MapMyRun")
    #expect(report.images[0].bundleShortVersion == "18.8.5")
    #expect(report.images[0].size == nil)
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }

  @Test("Resource exception (bug_type 185) keeps its exception fields and threads")
  func resourceException() throws {
    let text = """
      {"bug_type":"185","name":"Snapchat"}
      Process:             Snapchat [3151]
      Exception Type:      EXC_RESOURCE
      Exception Subtype:   WAKEUPS
      Exception Message:   (Limit 150/sec) Observed 195/sec over 300 secs
      Triggered by Thread: 0

      Thread 0:
      0       libsystem_kernel.dylib        	0x193c9ce0c 0x193c9c000 + 0xe0c 	// mach_msg_trap + 0x8
      """
    let report = try ReportReader.read(text)
    #expect(report.kind == .resource)
    #expect(report.exception?.type == "EXC_RESOURCE")
    #expect(report.exception?.subtype == "WAKEUPS")
    #expect(report.resource?["Exception Subtype"] == "WAKEUPS")
    let frame = try #require(report.crashedThread?.frames.first)
    #expect(frame.address == 0x1_93c9_ce0c)
    #expect(frame.imageOffset == 0xe0c)
    #expect(frame.symbol == "mach_msg_trap")
    #expect(frame.symbolLocation == 8)
  }

  @Test("Stackshot text body (bug_type 188)")
  func stackshot() throws {
    let text = """
      {"os_version":"iPhone OS 7.1.2 (11D257)","bug_type":"188"}
      Incident Identifier: D2604550-FFA3-45D5-8247-A3F1E72E6A40
      Hardware Model:      iPhone3,1
      Date:                2016-05-12 14:57:08 -0500
      Exception Code:      0xbaaaaaad
      Reason:              Manually triggered stackshot via backboardd

      Frontmost process PID:    34

      Process 0 info:
      	resident memory bytes:  54738944

      Process 34 info:
      	page faults:                 759

      Process 34 SpringBoard threads:
      thread 0x1 TH_WAIT|TH_UNINT 0x8037ba3c
      """
    let report = try ReportReader.read(text)
    #expect(report.kind == .stackshot)
    #expect(report.stackshot?.reason == "Manually triggered stackshot via backboardd")
    #expect(report.stackshot?.processCount == 2)
    #expect(report.stackshot?.frontmostProcesses == ["SpringBoard"])
    #expect(report.captureTime == "2016-05-12 14:57:08 -0500")
    #expect(report.exception == nil)
  }

  @Test("Frame lines that older tools wrote")
  func oddFrames() throws {
    let zero = try #require(LegacyTextLine.frame("0   ???   \t000000000000000000 0 + 0"))
    #expect(zero.frame.address == 0)
    #expect(zero.frame.imageName == nil)
    let objc = try #require(
      LegacyTextLine.frame(
        "3   libobjc.A.dylib  \t0x000000018467aef4 object_cxxDestructFromClass+ 28404 (objc_object*, objc_class*) + 148"
      ))
    #expect(objc.number == 3)
    #expect(objc.frame.symbol == "object_cxxDestructFromClass+ 28404 (objc_object*, objc_class*)")
    #expect(objc.frame.symbolLocation == 148)
    let noOffset = try #require(
      LegacyTextLine.frame("3   Crescent      0x00061f24 -[EAD openSession] (EADAccessoryController.m:227)"))
    #expect(noOffset.frame.symbol == "-[EAD openSession]")
    #expect(noOffset.frame.symbolLocation == nil)
    #expect(noOffset.frame.sourceLine == 227)
    #expect(LegacyTextLine.frame("12  no address here") == nil)
  }
}
