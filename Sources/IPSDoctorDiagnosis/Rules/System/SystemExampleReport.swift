import IPSDoctorSupport

/// Builders for the minimal reports in the system, resource, launch and other-report rule examples.
enum SystemExampleReport {
  /// The images every example lists, in `usedImages` order. Index 0 is the example app.
  static let imageNames = [
    "Example", "libsystem_kernel.dylib", "UIKitCore", "libdispatch.dylib", "Foundation",
    "CoreFoundation", "libsystem_c.dylib", "libsqlite3.dylib", "TCC", "AVFCapture", "PushKit",
    "libswift_Concurrency.dylib", "CoreData", "CoreUI", "dyld",
  ]

  static var usedImages: String {
    var entries = [ExampleReport.appImage]
    for (index, name) in imageNames.enumerated().dropFirst() {
      entries.append(ExampleReport.systemImage(name, base: 6_442_450_944 + UInt64(index) * 1_048_576))
    }
    return "[" + entries.joined(separator: ",") + "]"
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
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  static func quotedList(_ items: [String]) -> String {
    "[" + items.map(quoted).joined(separator: ",") + "]"
  }

  /// Frames written as "Image`symbol" ("Example`" for an unsymbolicated app frame).
  static func frames(_ specs: [String]) -> String {
    var offset = 4096
    let parts = specs.map { spec -> String in
      offset += 64
      let pieces = spec.split(separator: "`", maxSplits: 1, omittingEmptySubsequences: false)
      let image = imageNames.firstIndex(of: String(pieces[0])) ?? 1
      let symbol = pieces.count > 1 && !pieces[1].isEmpty ? ",\"symbol\":" + quoted(String(pieces[1])) : ""
      return "{\"imageIndex\":\(image),\"imageOffset\":\(offset)\(symbol)}"
    }
    return "[" + parts.joined(separator: ",") + "]"
  }

  /// A crash report body with `exception`, optional `termination`, `asi` and threads (thread 0 is
  /// the main thread), wrapped in the example header.
  static func report(
    exceptionType: String = "EXC_CRASH", signal: String = "SIGKILL", codes: String? = nil,
    subtype: String? = nil, message: String? = nil, namespace: String? = nil, code: UInt64? = nil,
    indicator: String? = nil, reasons: [String] = [], details: [String] = [],
    asi: [String: [String]] = [:], mainFrames: [String], otherThreads: [[String]] = [],
    faultingThread: Int = 0, procPath: String? = nil, extra: String = "", bugType: String = "309"
  ) -> String {
    var exception = "{\"type\":\(quoted(exceptionType)),\"signal\":\(quoted(signal))"
    if let codes { exception += ",\"codes\":\(quoted(codes))" }
    if let subtype { exception += ",\"subtype\":\(quoted(subtype))" }
    if let message { exception += ",\"message\":\(quoted(message))" }
    exception += "}"
    var body = "{\"procName\":\"Example\""
    body +=
      ",\"procPath\":"
      + quoted(procPath ?? "/private/var/containers/Bundle/Application/0C7E/Example.app/Example")
    body += ",\"exception\":\(exception)"
    if namespace != nil || code != nil || !reasons.isEmpty || !details.isEmpty || indicator != nil {
      var termination: [String] = []
      if let namespace { termination.append("\"namespace\":\(quoted(namespace))") }
      if let code { termination.append("\"code\":\(code)") }
      if let indicator { termination.append("\"indicator\":\(quoted(indicator))") }
      if !reasons.isEmpty { termination.append("\"reasons\":\(quotedList(reasons))") }
      if !details.isEmpty { termination.append("\"details\":\(quotedList(details))") }
      body += ",\"termination\":{" + termination.joined(separator: ",") + "}"
    }
    if !asi.isEmpty {
      let entries = asi.sorted(by: { $0.key < $1.key }).map { "\(quoted($0.key)):\(quotedList($0.value))" }
      body += ",\"asi\":{" + entries.joined(separator: ",") + "}"
    }
    var threads = [
      "{\"id\":1,\(faultingThread == 0 ? "\"triggered\":true," : "")\"queue\":\"com.apple.main-thread\",\"frames\":\(frames(mainFrames))}"
    ]
    for (offset, specs) in otherThreads.enumerated() {
      let index = offset + 1
      threads.append(
        "{\"id\":\(index + 1),\(faultingThread == index ? "\"triggered\":true," : "")\"frames\":\(frames(specs))}")
    }
    body += ",\"faultingThread\":\(faultingThread),\"threads\":[" + threads.joined(separator: ",") + "]"
    body += extra
    body += ",\"usedImages\":\(usedImages)}"
    return ExampleReport.ips(body, bugType: bugType)
  }

  /// A main thread idling in its run loop.
  static let idleMainThread = [
    "libsystem_kernel.dylib`mach_msg2_trap", "libsystem_kernel.dylib`mach_msg2_internal",
    "CoreFoundation`__CFRunLoopServiceMachPort", "CoreFoundation`__CFRunLoopRun",
    "UIKitCore`UIApplicationMain", "Example`main",
  ]

  /// A main thread blocked on a semaphore under an app frame.
  static let blockedMainThread = [
    "libsystem_kernel.dylib`semaphore_wait_trap", "libdispatch.dylib`_dispatch_sema4_wait",
    "libdispatch.dylib`_dispatch_semaphore_wait_slow", "Example`CatalogStore.loadSynchronously()",
    "Example`AppDelegate.application(_:didFinishLaunchingWithOptions:)",
    "UIKitCore`-[UIApplication _handleDelegateCallbacksWithOptions:isSuspended:restoreState:]",
    "UIKitCore`UIApplicationMain", "Example`main",
  ]

  /// An abort on the main thread: `abort()` from `caller`.
  static func abortFrames(caller: String = "Example`Database.open()") -> [String] {
    [
      "libsystem_kernel.dylib`__pthread_kill", "libsystem_c.dylib`abort", caller,
      "UIKitCore`UIApplicationMain", "Example`main",
    ]
  }
}
