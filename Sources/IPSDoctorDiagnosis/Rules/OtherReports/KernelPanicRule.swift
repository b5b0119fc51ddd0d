import IPSDoctorSupport

/// A kernel panic report (bug_type 210): the whole device or Mac restarted.
package struct KernelPanicRule: DiagnosisRule {
  package init() {}

  package static let description = RuleDescription(
    id: "kernel-panic",
    title: "Kernel Panic",
    summary: "The operating system kernel panicked and the device restarted; this is not an app crash.",
    category: .otherReports,
    severity: .note,
    tier: .specific,
    rationale: """
      A panic report (bug_type 210, `panic-full-*.ips`, or text starting with `panic(cpu …)`) is \
      written when the kernel stops the whole system. Its panic string names the cause (a \
      driver, a hardware watchdog, a coprocessor that stopped responding) and the task and \
      thread that were running. Apps cannot cause panics through public APIs; a panic that \
      names an app as the panicked task usually still points at a kernel or driver bug the app \
      happened to trigger.
      """,
    remedy: """
      Nothing to fix in the app. Install OS updates; if panics recur on one device, run Apple \
      Diagnostics and contact Apple support or file a Feedback report with the panic file \
      attached. If the panicked task is your app and the panic is reproducible, file a Feedback \
      report with the steps.
      """,
    references: ["https://support.apple.com/guide/mac-help/if-your-mac-restarts-and-a-message-appears-mchlp2890/mac"],
    examples: [
      .triggers(
        "bridgeOS panic",
        .panic(
          """
          panic(cpu 0 caller 0xfffffff009773984): x86 global reset detected
          Debugger message: panic
          Panicked task 0xffffffe000121720: 3422 pages, 204 threads: pid 0: kernel_task
          Panicked thread: 0xffffffe0005b2d90, backtrace: 0xffffffe037663530, tid: 342
          """,
          product: "iBridge2,3", build: "Bridge OS 2.4.1 (15P6703)"),
        .definite, summaryContains: ["x86 global reset detected", "pid 0: kernel_task", "not a crash of the app"]),
      .triggers(
        "old kernel panic file with the GPU driver in the backtrace",
        .text(
          """
          Incident Identifier: 3E8D2B10-4C71-4B5E-9A0F-1D2C3B4A5F60
          Hardware Model:      iPad4,1
          Date/Time:       2014-05-02 10:10:10 +0100
          OS Version:      iOS 7.1.1 (11D201)

          panic(cpu 1 caller 0x8a12c3d4): "AGX: GPU hang, restarting (channel 2)"
          Debugger message: panic
          Panicked task 0xffffff80d1e2f3a0: 4521 pages, 12 threads: pid 47: backboardd
          panicked thread: 0xffffff80d2a3b4c0, backtrace: 0xffffff80ee3b3a60
          \t\tlr: 0xffffff8004f0a2b8  fp: 0xffffff80ee3b3ab0
          \t  Kernel Extensions in backtrace:
          \t     com.apple.AGX(1.0)[9F8E7D6C-5B4A-3928-1706-F5E4D3C2B1A0]@0xffffff8005a00000->0xffffff8005aff000
          """),
        .definite,
        summaryContains: ["`iPad4,1`", "GPU hang, restarting", "pid 47: backboardd", "GPU driver `com.apple.AGX`"]),
      .ignores(
        "a crash report",
        ExampleReport(
          exception: ExampleReport.Exception("EXC_CRASH", signal: "SIGABRT"),
          threads: [.main(ExampleReport.abortFrames())])),
    ])

  /// "panic(cpu 1 caller 0x…): \"A \" \"B\" \"\\nC" → "A B"
  static func panicMessage(_ headline: String) -> String {
    var message = headline.firstRange(of: "): ").map { String(headline[$0.upperBound...]) } ?? headline
    if let range = message.firstRange(of: "\\n") { message = String(message[..<range.lowerBound]) }
    message = message.replacing("\" \"", with: " ").replacing("  ", with: " ")
    while message.first == "\"" || message.first == " " { message.removeFirst() }
    while message.last == "\"" || message.last == " " { message.removeLast() }
    return message
  }

  /// The bundle identifiers listed under "Kernel Extensions in backtrace:", e.g.
  /// `com.apple.AGX(1.0)[9F8E…]@0xffffff8005a00000->…` → `com.apple.AGX`.
  static func backtraceExtensions(_ panicString: String) -> [String] {
    var names: [String] = []
    var inList = false
    for line in panicString.split(whereSeparator: \.isNewline) {
      let text = line.trimmingWhitespace()
      if text.hasPrefix("Kernel Extensions in backtrace") {
        inList = true
      } else if inList {
        guard let end = text.firstIndex(of: "("), end > text.startIndex, !text.contains(" ") else { break }
        names.append(String(text[..<end]))
      }
    }
    return names
  }

  /// Whether a kernel extension is a GPU driver (Apple's AGX and IOGPU families, AMD, NVIDIA and
  /// Intel graphics drivers).
  static func isGPUDriver(_ bundleID: String) -> Bool {
    ["AGX", "IOGPU", "AMDRadeon", "NVDA", "GeForce", "IntelGraphics", "IntelHD", "IntelIris"].contains {
      bundleID.contains($0)
    }
  }

  package func diagnose(_ context: DiagnosisContext) -> Diagnosis? {
    guard context.report.kind == .panic else { return nil }
    let panic = context.report.panic
    var evidence: [Evidence] = []
    var summary = "This is a kernel panic report: the operating system stopped and restarted"
    if let product = panic?.product { summary += " on \(CodeSpan.markdown(product))" }
    if let build = panic?.build { summary += " running \(build)" }
    summary += "."
    if let headline = panic?.headline {
      evidence.append(Evidence("panicString", headline))
      summary += " The panic reads \"\(Self.panicMessage(headline))\"."
    } else if context.report.bodyError != nil {
      evidence.append(Evidence("bug_type", context.report.bugType?.rawValue ?? "210"))
      summary += " The panic body could not be read."
    }
    var appPanicked = false
    if let task = panic?.panickedTask {
      evidence.append(Evidence("panicString (Panicked task)", task))
      summary += " Panicked task: \(CodeSpan.markdown(task))."
      let names = [context.report.header.appName, context.report.processName].compactMap { $0 }
      appPanicked = names.contains(where: { task.contains($0) })
    }
    if let thread = panic?.panickedThread { summary += " \(thread.trimmingWhitespace())." }
    let extensions = panic?.panicString.map(Self.backtraceExtensions) ?? []
    if let driver = extensions.first(where: Self.isGPUDriver) {
      evidence.append(Evidence("panicString (Kernel Extensions in backtrace)", driver))
      summary +=
        " The GPU driver \(CodeSpan.markdown(driver)) is in the panic's backtrace: the GPU or its driver "
        + "stopped responding (a GPU hang or a driver bug). Heavy Metal or OpenGL work can trigger it, "
        + "but the fault is in the driver."
    }
    summary +=
      appPanicked
      ? " The panicked task is the app itself: the app triggered the panic, but the bug is in the kernel or a driver."
      : " This is not a crash of the app."
    if evidence.isEmpty { evidence.append(Evidence("bug_type", context.report.bugType?.rawValue ?? "210")) }
    return finding(confidence: panic?.headline != nil ? .definite : .likely, summary: summary, evidence: evidence)
  }
}
