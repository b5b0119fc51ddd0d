import IPSDoctorSupport

/// Builders for the minimal reports in the language-exception, Swift-runtime and memory-access
/// rule examples.
enum LanguageRuntimeExamples {
  /// Images of the example reports, by index.
  enum Image: Int {
    case app = 0, coreFoundation, libobjc, foundation, kernel, libcxxabi, uiKit, libc, swiftCore,
      libdispatch, coreData, libsystemMalloc, openGL
  }

  static let usedImages: String = {
    let names = [
      "CoreFoundation", "libobjc.A.dylib", "Foundation", "libsystem_kernel.dylib", "libc++abi.dylib",
      "UIKitCore", "libsystem_c.dylib", "libswiftCore.dylib", "libdispatch.dylib", "CoreData",
      "libsystem_malloc.dylib", "GPUSupportMobile",
    ]
    var entries = [ExampleReport.appImage]
    for (offset, name) in names.enumerated() {
      entries.append(ExampleReport.systemImage(name, base: 6_442_450_944 + UInt64(offset) * 16_777_216))
    }
    return "[" + entries.joined(separator: ",\n") + "]"
  }()

  /// One frame: `image`, optional symbol, and an optional `inline` flag.
  struct F {
    var image: Image
    var symbol: String?
    var offset: Int
    var isInline = false

    init(_ image: Image, _ symbol: String? = nil, offset: Int = 4096, inline: Bool = false) {
      self.image = image
      self.symbol = symbol
      self.offset = offset
      self.isInline = inline
    }

    var json: String {
      var text = #"{"imageIndex":\#(image.rawValue),"imageOffset":\#(offset)"#
      if let symbol {
        let escaped = symbol.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        text += #","symbol":"\#(escaped)","symbolLocation":24"#
      }
      if isInline { text += #","inline":true"# }
      return text + "}"
    }
  }

  static func frames(_ frames: [F]) -> String {
    "[" + frames.map(\.json).joined(separator: ",") + "]"
  }

  /// The crashed thread of an uncaught Objective-C exception.
  static let abortFrames: [F] = [
    F(.kernel, "__pthread_kill"), F(.libc, "abort"), F(.libcxxabi, "__abort_message"),
    F(.libcxxabi, "demangling_terminate_handler()"), F(.libobjc, "_objc_terminate()"),
    F(.libcxxabi, "std::__terminate(void (*)())"), F(.libcxxabi, "__cxa_throw"),
    F(.libobjc, "objc_exception_throw"), F(.coreFoundation, "CFRunLoopRunSpecific"),
  ]

  /// The top of a thread the Swift runtime aborted with `swift::fatalError`.
  static let swiftRuntimeAbortFrames: [F] = [
    F(.kernel, "__pthread_kill"), F(.libc, "abort"),
    F(.swiftCore, "swift::fatalErrorv(unsigned int, char const*, char*)"),
    F(.swiftCore, "swift::fatalError(unsigned int, char const*, ...)"),
  ]

  /// The last exception backtrace: the throw machinery, `middle`, the app frame, then UIKit.
  static func exceptionBacktrace(middle: [F], app: String?) -> [F] {
    [F(.coreFoundation, "__exceptionPreprocess"), F(.libobjc, "objc_exception_throw")] + middle
      + [F(.app, app, offset: 81_920), F(.uiKit, "-[UIViewController loadViewIfRequired]")]
  }

  /// A report of an uncaught language exception.
  static func exception(
    name: String?, reason: String?, type: String = "objc-exception",
    middle: [F] = [], app: String? = "ViewController.viewDidLoad()", backtrace: Bool = true,
    asi: String = #"{"libsystem_c.dylib":["abort() called"]}"#, crashed: [F] = abortFrames
  ) -> String {
    var body =
      #"{"exception":{"type":"EXC_CRASH","signal":"SIGABRT","codes":"0x0000000000000000, 0x0000000000000000"},"#
      + #""termination":{"namespace":"SIGNAL","code":6,"indicator":"Abort trap: 6"},"#
      + #""asi":\#(asi),"#
    if name != nil || reason != nil {
      var fields: [String] = [#""type":"\#(type)""#]
      if let name { fields.append(#""name":"\#(name)""#) }
      if let reason {
        let escaped = reason.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        fields.append(#""composed_message":"\#(escaped)""#)
      }
      if type == "objc-exception" { fields.append(#""class":"NSException""#) }
      body += #""exceptionReason":{\#(fields.joined(separator: ","))},"#
    }
    if backtrace {
      body += #""lastExceptionBacktrace":\#(frames(exceptionBacktrace(middle: middle, app: app))),"#
    }
    body +=
      #""faultingThread":0,"threads":[{"id":1,"triggered":true,"queue":"com.apple.main-thread","#
      + #""frames":\#(frames(crashed))}],"usedImages":\#(usedImages)}"#
    return ExampleReport.ips(body)
  }

  /// A report of a hardware exception (`EXC_BAD_ACCESS`, `EXC_BREAKPOINT`, …) on the crashed
  /// thread `frames`.
  static func signal(
    type: String, signal: String, subtype: String? = nil, codes: String? = nil,
    frames crashed: [F], asi: String? = nil, queue: String = "com.apple.main-thread",
    threadState: String? = nil, vmRegionInfo: String? = nil, exceptionReason: String? = nil,
    lastExceptionBacktrace: [F]? = nil, termination: String? = nil
  ) -> String {
    var exception = #""type":"\#(type)","signal":"\#(signal)""#
    if let subtype { exception += #","subtype":"\#(subtype)""# }
    if let codes { exception += #","codes":"\#(codes)""# }
    var body = #"{"exception":{\#(exception)},"#
    if let termination { body += #""termination":\#(termination),"# }
    if let asi { body += #""asi":\#(asi),"# }
    if let exceptionReason { body += #""exceptionReason":\#(exceptionReason),"# }
    if let vmRegionInfo {
      let escaped = vmRegionInfo.replacing("\n", with: "\\n")
      body += #""vmRegionInfo":"\#(escaped)","#
    }
    if let lastExceptionBacktrace {
      body += #""lastExceptionBacktrace":\#(frames(lastExceptionBacktrace)),"#
    }
    var thread = #"{"id":1,"triggered":true,"queue":"\#(queue)","frames":\#(frames(crashed))"#
    if let threadState { thread += #","threadState":\#(threadState)"# }
    thread += "}"
    body += #""faultingThread":0,"threads":[\#(thread)],"usedImages":\#(usedImages)}"#
    return ExampleReport.ips(body)
  }

  /// `EXC_BAD_ACCESS (SIGSEGV)` with `KERN_INVALID_ADDRESS at address`.
  static func badAccess(
    _ subtype: String, frames: [F] = [F(.app, "ImageCache.decode(_:)"), F(.app, "ImageCache.load()")],
    signal: String = "SIGSEGV", threadState: String? = nil, vmRegionInfo: String? = nil,
    queue: String = "com.apple.main-thread"
  ) -> String {
    Self.signal(
      type: "EXC_BAD_ACCESS", signal: signal, subtype: subtype, frames: frames, queue: queue,
      threadState: threadState, vmRegionInfo: vmRegionInfo)
  }

  /// `EXC_BREAKPOINT (SIGTRAP)` with `asi` and `frames`.
  static func trap(
    frames: [F], asi: String? = nil, type: String = "EXC_BREAKPOINT", signal: String = "SIGTRAP",
    exceptionReason: String? = nil
  ) -> String {
    Self.signal(
      type: type, signal: signal, codes: "0x0000000000000001, 0x0000000100014000", frames: frames,
      asi: asi, exceptionReason: exceptionReason,
      termination: #"{"namespace":"SIGNAL","code":5,"indicator":"Trace/BPT trap: 5"}"#)
  }
}
