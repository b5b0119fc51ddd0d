import IPSDoctorSupport

/// The report of a rule example, described by its parts and rendered as the text of an `.ips` file.
///
/// Every rule builds its inline examples with this one type. A crash report names what the
/// crash reporter wrote, and nothing else; frames name their image and symbol:
///
/// ```swift
/// ExampleReport(
///   exception: ExampleReport.Exception("EXC_BAD_ACCESS", signal: "SIGSEGV", subtype: "KERN_INVALID_ADDRESS at 0x8"),
///   threads: [.main([.frame(.libobjc, "objc_msgSend"), .frame(.app, "ChatCell.configure(with:)")])])
/// ```
///
/// The presets below (``uncaughtException(name:reason:throwingFrames:appFrame:hasBacktrace:asi:crashedFrames:)``,
/// ``badAccess(_:frames:signal:registers:vmRegionInfo:queue:)``, ``trap(frames:asi:type:signal:)``,
/// …) fill in the parts a kind of crash always has. Reports of other kinds are built by what they
/// are about (`ExampleReport+OtherReports.swift`): ``jetsam(pageSize:largestProcess:processes:)``,
/// ``panic(_:product:build:)``, ``fullPanic(_:product:build:)``,
/// ``stackshot(reason:product:processes:frontmost:)``, ``systemWatchdog(process:event:reason:)``,
/// ``resource(_:event:action:measures:format:)``, ``cpuUsage(cpu:action:)`` and
/// ``diskWrites(writes:action:format:)``. A case that lives in the text itself (a legacy text
/// report, a header without a body) is written out with ``text(_:)``; a case whose point is a
/// malformed or odd body gives its ``Kind`` and payload, and says so. Examples that need a real
/// report use `.fixture(…)` instead.
///
/// Every image of ``Image`` is listed in `usedImages`, the app at index 0, so a frame names its
/// image and nothing else.
package struct ExampleReport: Sendable {
  /// The kind of report, written as the header's `bug_type`.
  package enum Kind: String, Sendable {
    case crash = "309"
    case panic = "210"
    case fullPanic = "151"
    case jetsam = "298"
    case stackshot = "288"
    case systemWatchdog = "409"
    case cpuResource = "202"
    case wakeupsResource = "206"
    case diskWritesResource = "145"
    case resourceException = "185"
    case userFault = "385"
  }

  /// The images of every example report, in `usedImages` order.
  package enum Image: String, Sendable, CaseIterable {
    case app = "Example"
    case coreFoundation = "CoreFoundation"
    case libobjc = "libobjc.A.dylib"
    case foundation = "Foundation"
    case libsystemKernel = "libsystem_kernel.dylib"
    case libcxxabi = "libc++abi.dylib"
    case uiKit = "UIKitCore"
    case libsystemC = "libsystem_c.dylib"
    case libswiftCore = "libswiftCore.dylib"
    case libdispatch = "libdispatch.dylib"
    case coreData = "CoreData"
    case libsystemMalloc = "libsystem_malloc.dylib"
    case gpuSupport = "GPUSupportMobile"
    case libsqlite3 = "libsqlite3.dylib"
    case tcc = "TCC"
    case avfCapture = "AVFCapture"
    case pushKit = "PushKit"
    case libswiftConcurrency = "libswift_Concurrency.dylib"
    case coreUI = "CoreUI"
    case dyld = "dyld"
    case userNotifications = "UserNotifications"
    case webKit = "WebKit"
    case libsystemBlocks = "libsystem_blocks.dylib"
    case libsystemPthread = "libsystem_pthread.dylib"
    case libsystemPlatform = "libsystem_platform.dylib"
    case coreAutoLayout = "CoreAutoLayout"
    case swiftData = "SwiftData"
    case swiftUICore = "SwiftUICore"
    case appKit = "AppKit"
  }

  /// One stack frame: the image, the symbol (`nil` for an unsymbolicated frame), the offset in the
  /// image and, when the report gives it, the offset in the symbol ("symbol + 24").
  package struct Frame: Sendable {
    package var image: Image
    package var symbol: String?
    package var offset: Int
    package var symbolLocation: Int?
    package var isInline: Bool

    package static func frame(
      _ image: Image, _ symbol: String? = nil, offset: Int = 4096, symbolLocation: Int? = nil, inline: Bool = false
    ) -> Frame {
      Frame(image: image, symbol: symbol, offset: offset, symbolLocation: symbolLocation, isInline: inline)
    }
  }

  /// The `exception` object: type, signal, codes, subtype and message.
  package struct Exception: Sendable {
    package var type: String
    package var signal: String
    package var codes: String?
    package var subtype: String?
    package var message: String?

    package init(
      _ type: String, signal: String, codes: String? = nil, subtype: String? = nil, message: String? = nil
    ) {
      self.type = type
      self.signal = signal
      self.codes = codes
      self.subtype = subtype
      self.message = message
    }
  }

  /// The `termination` object: who ended the process and why.
  package struct Termination: Sendable {
    package var namespace: String?
    package var code: UInt64?
    package var indicator: String?
    package var reasons: [String]
    package var details: [String]
    /// The process that sent the termination, and its pid.
    package var byProcess: String?
    package var byPID: Int?

    package init(
      namespace: String? = nil, code: UInt64? = nil, indicator: String? = nil, reasons: [String] = [],
      details: [String] = [], byProcess: String? = nil, byPID: Int? = nil
    ) {
      self.namespace = namespace
      self.code = code
      self.indicator = indicator
      self.reasons = reasons
      self.details = details
      self.byProcess = byProcess
      self.byPID = byPID
    }
  }

  /// The `exceptionReason` object of an uncaught language exception.
  package struct LanguageException: Sendable {
    /// `objc-exception`, `c++-exception`, …
    package var type: String
    package var name: String?
    package var reason: String?

    /// An uncaught `NSException`.
    package static func objc(_ name: String?, reason: String?) -> LanguageException {
      LanguageException(type: "objc-exception", name: name, reason: reason)
    }
  }

  /// The `threadState` of a thread: the registers the crash reporter saved.
  package struct Registers: Sendable {
    package var pc: UInt64?
    package var lr: UInt64?
    package var sp: UInt64?
    package var far: UInt64?
    package var esr: UInt64?
    /// The reporter's reading of `esr`, e.g. "(Data Abort) byte read Translation fault".
    package var esrDescription: String?
    /// `x0`, `x1`, …: each a value and the symbol it points to, if any.
    package var x: [(value: UInt64, symbol: String?)]

    package init(
      pc: UInt64? = nil, lr: UInt64? = nil, sp: UInt64? = nil, far: UInt64? = nil, esr: UInt64? = nil,
      esrDescription: String? = nil, x: [(value: UInt64, symbol: String?)] = []
    ) {
      self.pc = pc
      self.lr = lr
      self.sp = sp
      self.far = far
      self.esr = esr
      self.esrDescription = esrDescription
      self.x = x
    }
  }

  /// A thread: its dispatch queue, frames (innermost first) and registers.
  package struct Thread: Sendable {
    package var queue: String?
    package var frames: [Frame]
    package var registers: Registers?

    package init(queue: String? = nil, _ frames: [Frame], registers: Registers? = nil) {
      self.queue = queue
      self.frames = frames
      self.registers = registers
    }

    /// The main thread (`com.apple.main-thread`).
    package static func main(_ frames: [Frame], registers: Registers? = nil) -> Thread {
      Thread(queue: "com.apple.main-thread", frames, registers: registers)
    }
  }

  package var kind: Kind
  /// The executable's path; the example app's when `nil`.
  package var processPath: String?
  package var exception: Exception?
  package var termination: Termination?
  /// Application-specific information: messages by the image that wrote them.
  package var asi: [String: [String]]
  package var languageException: LanguageException?
  package var vmRegionInfo: String?
  /// Where an uncaught language exception was thrown.
  package var lastExceptionBacktrace: [Frame]?
  package var threads: [Thread]
  /// The index in ``threads`` of the thread that crashed.
  package var crashedThread: Int
  package var isNonFatal: Bool
  package var isSimulated: Bool
  /// Whether an x86-64 process ran translated by Rosetta on Apple silicon.
  package var isTranslated = false
  /// The body of a report of another kind (jetsam, panic, …), as its JSON or text.
  package var payload: String?
  /// The whole report text, header included, when the case lives in the text itself.
  private var verbatim: String?

  /// A crash report.
  package init(
    processPath: String? = nil, exception: Exception? = nil, termination: Termination? = nil,
    asi: [String: [String]] = [:], languageException: LanguageException? = nil, vmRegionInfo: String? = nil,
    lastExceptionBacktrace: [Frame]? = nil, threads: [Thread] = [], crashedThread: Int = 0,
    isNonFatal: Bool = false, isSimulated: Bool = false, kind: Kind = .crash
  ) {
    self.kind = kind
    self.processPath = processPath
    self.exception = exception
    self.termination = termination
    self.asi = asi
    self.languageException = languageException
    self.vmRegionInfo = vmRegionInfo
    self.lastExceptionBacktrace = lastExceptionBacktrace
    self.threads = threads
    self.crashedThread = crashedThread
    self.isNonFatal = isNonFatal
    self.isSimulated = isSimulated
  }

  /// A report of another kind: the example header with `kind`'s bug_type, then `payload`. The
  /// builders of `ExampleReport+OtherReports.swift` write the bodies of well-formed reports; an
  /// example gives a payload itself only when its point is a malformed or odd body.
  package init(_ kind: Kind, payload: String) {
    self.init(kind: kind)
    self.payload = payload
  }

  /// A report written out in full: a legacy text report, or a header whose own fields are the case.
  package static func text(_ text: String) -> ExampleReport {
    var report = ExampleReport()
    report.verbatim = text
    return report
  }

  /// This report, of a process that Rosetta translated from x86-64.
  package func translatedByRosetta() -> ExampleReport {
    var report = self
    report.isTranslated = true
    return report
  }

  /// The report as the text of a file.
  package var rendered: String {
    if let verbatim { return verbatim }
    return Self.header(bugType: kind.rawValue) + "\n" + (payload ?? crashBody)
  }
}

// MARK: - Presets

extension ExampleReport {
  /// The crashed thread of an uncaught Objective-C exception: the terminate handler's abort.
  package static let objcAbortFrames: [Frame] = [
    .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
    .frame(.libcxxabi, "__abort_message"), .frame(.libcxxabi, "demangling_terminate_handler()"),
    .frame(.libobjc, "_objc_terminate()"), .frame(.libcxxabi, "std::__terminate(void (*)())"),
    .frame(.libcxxabi, "__cxa_throw"), .frame(.libobjc, "objc_exception_throw"),
    .frame(.coreFoundation, "CFRunLoopRunSpecific"),
  ]

  /// The top of a thread the Swift runtime aborted with `swift::fatalError`.
  package static let swiftRuntimeAbortFrames: [Frame] = [
    .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"),
    .frame(.libswiftCore, "swift::fatalErrorv(unsigned int, char const*, char*)"),
    .frame(.libswiftCore, "swift::fatalError(unsigned int, char const*, ...)"),
  ]

  /// A main thread idling in its run loop.
  package static let idleMainThread: [Frame] = [
    .frame(.libsystemKernel, "mach_msg2_trap"), .frame(.libsystemKernel, "mach_msg2_internal"),
    .frame(.coreFoundation, "__CFRunLoopServiceMachPort"), .frame(.coreFoundation, "__CFRunLoopRun"),
    .frame(.uiKit, "UIApplicationMain"), .frame(.app, "main"),
  ]

  /// A main thread blocked on a semaphore under an app frame.
  package static let blockedMainThread: [Frame] = [
    .frame(.libsystemKernel, "semaphore_wait_trap"), .frame(.libdispatch, "_dispatch_sema4_wait"),
    .frame(.libdispatch, "_dispatch_semaphore_wait_slow"), .frame(.app, "CatalogStore.loadSynchronously()"),
    .frame(.app, "AppDelegate.application(_:didFinishLaunchingWithOptions:)"),
    .frame(.uiKit, "-[UIApplication _handleDelegateCallbacksWithOptions:isSuspended:restoreState:]"),
    .frame(.uiKit, "UIApplicationMain"), .frame(.app, "main"),
  ]

  /// A main thread that called `abort()` from `caller`.
  package static func abortFrames(caller: Frame = .frame(.app, "Database.open()")) -> [Frame] {
    [
      .frame(.libsystemKernel, "__pthread_kill"), .frame(.libsystemC, "abort"), caller,
      .frame(.uiKit, "UIApplicationMain"), .frame(.app, "main"),
    ]
  }

  /// `EXC_CRASH (SIGABRT)` from an uncaught language exception named `name` with `reason` (either
  /// may be elided), on the main thread `crashedFrames`. With `hasBacktrace`, the last exception
  /// backtrace holds the throw machinery, `throwingFrames`, the app frame `appFrame`, then UIKit.
  package static func uncaughtException(
    name: String?, reason: String?, throwingFrames: [Frame] = [],
    appFrame: String? = "ViewController.viewDidLoad()", hasBacktrace: Bool = true,
    asi: [String: [String]] = ["libsystem_c.dylib": ["abort() called"]], crashedFrames: [Frame] = objcAbortFrames
  ) -> ExampleReport {
    let backtrace: [Frame] =
      [.frame(.coreFoundation, "__exceptionPreprocess"), .frame(.libobjc, "objc_exception_throw")]
      + throwingFrames
      + [.frame(.app, appFrame, offset: 81_920), .frame(.uiKit, "-[UIViewController loadViewIfRequired]")]
    return ExampleReport(
      exception: Exception("EXC_CRASH", signal: "SIGABRT", codes: "0x0000000000000000, 0x0000000000000000"),
      termination: Termination(namespace: "SIGNAL", code: 6, indicator: "Abort trap: 6"), asi: asi,
      languageException: name == nil && reason == nil ? nil : .objc(name, reason: reason),
      lastExceptionBacktrace: hasBacktrace ? backtrace : nil, threads: [.main(crashedFrames)])
  }

  /// `EXC_BAD_ACCESS` (`signal`) with `subtype` (e.g. "KERN_INVALID_ADDRESS at 0x…") on the crashed
  /// thread `frames`.
  package static func badAccess(
    _ subtype: String,
    frames: [Frame] = [.frame(.app, "ImageCache.decode(_:)"), .frame(.app, "ImageCache.load()")],
    signal: String = "SIGSEGV", registers: Registers? = nil, vmRegionInfo: String? = nil,
    queue: String = "com.apple.main-thread"
  ) -> ExampleReport {
    ExampleReport(
      exception: Exception("EXC_BAD_ACCESS", signal: signal, subtype: subtype), vmRegionInfo: vmRegionInfo,
      threads: [Thread(queue: queue, frames, registers: registers)])
  }

  /// A trap (by default `EXC_BREAKPOINT (SIGTRAP)`, as the Swift runtime raises) with `asi` on the
  /// crashed main thread `frames`.
  package static func trap(
    frames: [Frame], asi: [String: [String]] = [:], type: String = "EXC_BREAKPOINT", signal: String = "SIGTRAP"
  ) -> ExampleReport {
    ExampleReport(
      exception: Exception(type, signal: signal, codes: "0x0000000000000001, 0x0000000100014000"),
      termination: Termination(namespace: "SIGNAL", code: 5, indicator: "Trace/BPT trap: 5"), asi: asi,
      threads: [.main(frames)])
  }

  /// An `NSInternalInconsistencyException` with `reason`, thrown on `queue` (thread 1) by
  /// `assertion` in `framework` inside `-[UIView(Hierarchy) addSubview:]`, which the app's
  /// `appSymbol` (unsymbolicated when `nil`) called.
  package static func addSubviewOffMain(
    reason: String, queue: String, assertion: String, in framework: Image, appSymbol: String?
  ) -> ExampleReport {
    ExampleReport(
      exception: Exception("EXC_CRASH", signal: "SIGABRT"), asi: ["libsystem_c.dylib": ["abort() called"]],
      languageException: .objc("NSInternalInconsistencyException", reason: reason),
      lastExceptionBacktrace: [
        .frame(.libobjc, "objc_exception_throw"), .frame(framework, assertion),
        .frame(.uiKit, "-[UIView(Hierarchy) addSubview:]"), .frame(.app, appSymbol),
      ],
      threads: [.main([]), Thread(queue: queue, [.frame(.libsystemKernel, "__pthread_kill")])], crashedThread: 1)
  }

  /// A Swift fatal error (`message` in `asi["libswiftCore.dylib"]`) on the main thread, raised by
  /// `frameworkSymbol` in `framework`, called by the app's `appSymbol`.
  package static func swiftFatalError(
    _ message: String, from frameworkSymbol: String, in framework: Image, calledBy appSymbol: String
  ) -> ExampleReport {
    ExampleReport(
      exception: Exception("EXC_BREAKPOINT", signal: "SIGTRAP"), asi: ["libswiftCore.dylib": [message]],
      threads: [
        .main([
          .frame(.libswiftCore, "_assertionFailure(_:_:file:line:flags:)"), .frame(framework, frameworkSymbol),
          .frame(.app, appSymbol),
        ])
      ])
  }
}

// MARK: - Rendering

extension ExampleReport {
  /// The one-line `.ips` header of the example app.
  package static func header(bugType: String = "309") -> String {
    #"{"app_name":"Example","app_version":"1.0","build_version":"1","bundleID":"com.example.app","#
      + #""bug_type":"\#(bugType)","os_version":"iPhone OS 26.6 (23G80)","platform":2,"#
      + #""name":"Example","incident_id":"00000000-0000-4000-8000-000000000001"}"#
  }

  /// `usedImages`: the app's executable, then the system images at shared-cache paths.
  static let usedImages: String = {
    var entries = [
      #"{"source":"P","arch":"arm64","base":4294967296,"size":1048576,"#
        + #""uuid":"8A3C5E0F-1B2D-4E6F-9A0B-1C2D3E4F5A6B","#
        + #""path":"/private/var/containers/Bundle/Application/0C7E/Example.app/Example","name":"Example"}"#
    ]
    for (offset, image) in Image.allCases.dropFirst().enumerated() {
      let name = image.rawValue
      let path: String
      switch name {
      case "libobjc.A.dylib", "libc++abi.dylib", "libdispatch.dylib", "libsqlite3.dylib":
        path = "/usr/lib/" + name
      case "dyld":
        path = "/usr/lib/dyld"
      case _ where name.hasSuffix(".dylib"):
        path = "/usr/lib/system/" + name
      default:
        path = "/System/Library/PrivateFrameworks/\(name).framework/\(name)"
      }
      let base = 6_442_450_944 + offset * 16_777_216
      entries.append(
        #"{"source":"P","arch":"arm64e","base":\#(base),"size":65536,"#
          + #""uuid":"11111111-2222-3333-4444-555555555555","path":"\#(path)","name":"\#(name)"}"#)
    }
    return "[" + entries.joined(separator: ",\n") + "]"
  }()

  private var crashBody: String {
    var fields: [String] = []
    fields.append(#""procName":"Example""#)
    let path = processPath ?? "/private/var/containers/Bundle/Application/0C7E/Example.app/Example"
    fields.append(#""procPath":"# + Self.quoted(path))
    if isNonFatal { fields.append(#""isNonFatal":true"#) }
    if isSimulated { fields.append(#""isSimulated":true"#) }
    if isTranslated { fields.append(#""translated":true,"cpuType":"X86-64""#) }
    if let exception {
      var parts = [#""type":"# + Self.quoted(exception.type), #""signal":"# + Self.quoted(exception.signal)]
      if let codes = exception.codes { parts.append(#""codes":"# + Self.quoted(codes)) }
      if let subtype = exception.subtype { parts.append(#""subtype":"# + Self.quoted(subtype)) }
      if let message = exception.message { parts.append(#""message":"# + Self.quoted(message)) }
      fields.append(#""exception":{"# + parts.joined(separator: ",") + "}")
    }
    if let termination {
      var parts: [String] = []
      if let namespace = termination.namespace { parts.append(#""namespace":"# + Self.quoted(namespace)) }
      if let code = termination.code { parts.append(#""code":\#(code)"#) }
      if let indicator = termination.indicator { parts.append(#""indicator":"# + Self.quoted(indicator)) }
      if !termination.reasons.isEmpty { parts.append(#""reasons":"# + Self.quotedList(termination.reasons)) }
      if !termination.details.isEmpty { parts.append(#""details":"# + Self.quotedList(termination.details)) }
      if let byProcess = termination.byProcess { parts.append(#""byProc":"# + Self.quoted(byProcess)) }
      if let byPID = termination.byPID { parts.append(#""byPid":\#(byPID)"#) }
      fields.append(#""termination":{"# + parts.joined(separator: ",") + "}")
    }
    if !asi.isEmpty {
      let entries = asi.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + Self.quotedList($0.value) }
      fields.append(#""asi":{"# + entries.joined(separator: ",") + "}")
    }
    if let languageException {
      var parts = [#""type":"# + Self.quoted(languageException.type)]
      if let name = languageException.name { parts.append(#""name":"# + Self.quoted(name)) }
      if let reason = languageException.reason { parts.append(#""composed_message":"# + Self.quoted(reason)) }
      if languageException.type == "objc-exception" { parts.append(#""class":"NSException""#) }
      fields.append(#""exceptionReason":{"# + parts.joined(separator: ",") + "}")
    }
    if let vmRegionInfo { fields.append(#""vmRegionInfo":"# + Self.quoted(vmRegionInfo)) }
    if let lastExceptionBacktrace {
      fields.append(#""lastExceptionBacktrace":"# + Self.frameList(lastExceptionBacktrace))
    }
    fields.append(#""faultingThread":\#(crashedThread)"#)
    let threadList = threads.enumerated().map { index, thread in
      var parts = [#""id":\#(index + 1)"#]
      if index == crashedThread { parts.append(#""triggered":true"#) }
      if let queue = thread.queue { parts.append(#""queue":"# + Self.quoted(queue)) }
      parts.append(#""frames":"# + Self.frameList(thread.frames))
      if let registers = thread.registers { parts.append(#""threadState":"# + Self.threadState(registers)) }
      return "{" + parts.joined(separator: ",") + "}"
    }
    fields.append(#""threads":["# + threadList.joined(separator: ",\n") + "]")
    fields.append(#""usedImages":"# + Self.usedImages)
    return "{" + fields.joined(separator: ",\n") + "}"
  }

  private static func frameList(_ frames: [Frame]) -> String {
    let entries = frames.map { frame in
      let index = Image.allCases.firstIndex(of: frame.image) ?? 0
      var text = #"{"imageIndex":\#(index),"imageOffset":\#(frame.offset)"#
      if let symbol = frame.symbol { text += #","symbol":"# + quoted(symbol) }
      if let symbolLocation = frame.symbolLocation { text += #","symbolLocation":\#(symbolLocation)"# }
      if frame.isInline { text += #","inline":true"# }
      return text + "}"
    }
    return "[" + entries.joined(separator: ",") + "]"
  }

  private static func threadState(_ registers: Registers) -> String {
    var parts = [#""flavor":"ARM_THREAD_STATE64""#]
    if !registers.x.isEmpty {
      let values = registers.x.map { register in
        #"{"value":\#(register.value)"# + (register.symbol.map { #","symbol":"# + quoted($0) } ?? "") + "}"
      }
      parts.append(#""x":["# + values.joined(separator: ",") + "]")
    }
    for (name, value) in [("pc", registers.pc), ("lr", registers.lr), ("sp", registers.sp), ("far", registers.far)] {
      if let value { parts.append(#""\#(name)":{"value":\#(value)}"#) }
    }
    if let esr = registers.esr {
      let description = registers.esrDescription.map { #","description":"# + quoted($0) } ?? ""
      parts.append(#""esr":{"value":\#(esr)\#(description)}"#)
    }
    return "{" + parts.joined(separator: ",") + "}"
  }

  /// A JSON string literal for `text`.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// A JSON array of the string literals of `items`.
  static func quotedList(_ items: [String]) -> String {
    "[" + items.map(quoted).joined(separator: ",") + "]"
  }
}
