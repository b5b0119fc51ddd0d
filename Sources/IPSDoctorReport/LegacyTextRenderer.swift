import IPSDoctorSupport

/// Renders any ``CrashReport`` (read from JSON or from text) the way Xcode shows a crash: Apple's
/// legacy text layout, so a person can read an `.ips` file.
///
/// Crash reports get the header block, the exception and termination, the crashed thread,
/// Application Specific Information, the Last Exception Backtrace, every thread with numbered
/// frames, the crashed thread's registers and the binary images. Panics, jetsam events, stackshots
/// and resource reports get a summary of what they hold.
///
/// Every string that came from the report passes through ``TerminalText/escaped(_:)``, so control
/// characters and escape sequences never reach a terminal raw. Reading the output back with
/// ``LegacyTextParser`` gives the same exception, threads, frames and images.
package enum LegacyTextRenderer {
  /// The report as legacy crash report text, ending with a newline.
  package static func render(_ report: CrashReport) -> String {
    var writer = LegacyTextWriter(report: report)
    writer.write()
    return writer.lines.joined(separator: "\n") + "\n"
  }
}

struct LegacyTextWriter {
  let report: CrashReport
  var lines: [String] = []
  /// Labels already written in the header, so resource fields do not repeat them.
  var writtenLabels: Set<String> = []

  init(report: CrashReport) {
    self.report = report
  }

  static func escaped(_ text: String) -> String { TerminalText.escaped(text) }

  /// A multi-line value as escaped lines, without empty ones (a blank line ends a text block).
  static func escapedLines(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
      .map { escaped(String($0)) }
      .filter { !$0.trimmingWhitespace().isEmpty }
  }

  static func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func leftPadded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }

  mutating func field(_ label: String, _ value: String?, width: Int = 21) {
    guard let value, !value.isEmpty else { return }
    writtenLabels.insert(label)
    // A label may come from the report too (a resource report's keys, a text body's "Key: value").
    // As Apple pads them: to the column, and always at least one space after the colon.
    lines.append(Self.padded(Self.escaped(label) + ": ", width) + Self.escaped(value))
  }

  mutating func blank() {
    if let last = lines.last, !last.isEmpty { lines.append("") }
  }

  // MARK: Layout

  mutating func write() {
    if report.kind != .crash, let bugType = report.bugType {
      field("Report Type", "\(bugType.name) (bug_type \(bugType.rawValue))")
    }
    writeHeader()
    switch report.kind {
    case .panic: writePanic()
    case .jetsam: writeJetsam()
    case .stackshot: writeStackshot()
    case .resource, .watchdog: writeResource()
    case .crash, .unknown: break
    }
    writeCrashBody()
    while lines.last == "" { lines.removeLast() }
  }

  /// Whether the Version line is "short (build)" (macOS, and the embedded OSes since reports
  /// became `.ips`) rather than older iOS's "build (short)"; as the reader decides it.
  var writesShortVersionFirst: Bool {
    report.osVersion?.writesShortVersionFirst ?? (report.platform == 1)
  }

  mutating func writeHeader() {
    field("Incident Identifier", report.incidentID)
    field("Hardware Model", report.modelCode)
    if let name = report.processName {
      field("Process", report.pid.map { "\(name) [\($0)]" } ?? name)
    } else if let pid = report.pid {
      field("Process", "??? [\(pid)]")
    }
    field("Path", report.processPath)
    field("Identifier", report.bundleID)
    if report.appVersion != nil || report.buildVersion != nil {
      let short = report.appVersion ?? "???"
      let build = report.buildVersion ?? "???"
      field("Version", writesShortVersionFirst ? "\(short) (\(build))" : "\(build) (\(short))")
    }
    if let cpuType = report.cpuType {
      field("Code Type", cpuType.contains("(") ? cpuType : cpuType + " (Native)")
    }
    field("Parent Process", report.parentProcess)
    blank()
    field("Date/Time", report.captureTime)
    field("Launch Time", report.launchTime)
    if let osVersion = report.osVersion, !osVersion.description.isEmpty {
      field("OS Version", osVersion.description)
      field("Release Type", osVersion.releaseType)
    }
    blank()
  }

  // MARK: Other kinds

  mutating func writePanic() {
    guard let panic = report.panic else { return }
    field("Product", panic.product)
    field("Build", panic.build)
    field("Panicked task", panic.panickedTask)
    field("Panicked thread", panic.panickedThread)
    blank()
    if let text = panic.panicString ?? panic.headline {
      lines.append("Panic String:")
      lines += Self.escapedLines(text)
      blank()
    }
  }

  /// "12.3 MB" from a byte count, without Foundation.
  static func megabytes(_ bytes: UInt64) -> String {
    let tenths = (bytes / 1024 * 10 + 512) / 1024
    return "\(tenths / 10).\(tenths % 10) MB"
  }

  mutating func writeJetsam() {
    guard let jetsam = report.jetsam else { return }
    field("Product", jetsam.product)
    field("Build", jetsam.build)
    field("Largest Process", jetsam.largestProcess)
    field("Page Size", jetsam.pageSize.map { "\($0)" })
    blank()
    func describe(_ process: JetsamSummary.Process) -> String {
      var text = Self.escaped(process.name ?? "???")
      if let pid = process.pid { text += " [\(pid)]" }
      if let bytes = jetsam.residentBytes(process) {
        text += "  " + Self.megabytes(bytes)
      } else if let pages = process.residentPages {
        text += "  \(pages) pages"
      }
      if let reason = process.reason { text += "  reason: " + Self.escaped(reason) }
      return text
    }
    let killed = jetsam.killed
    lines.append("Killed Processes: \(killed.isEmpty ? "none" : "")".trimmingWhitespace())
    for process in killed { lines.append("    " + describe(process)) }
    blank()
    let largest = jetsam.processes.sorted { ($0.residentPages ?? 0) > ($1.residentPages ?? 0) }
    if !largest.isEmpty {
      lines.append("Largest Processes:")
      for process in largest.prefix(10) { lines.append("    " + describe(process)) }
      blank()
    }
  }

  mutating func writeStackshot() {
    guard let stackshot = report.stackshot else { return }
    field("Reason", stackshot.reason)
    field("Product", stackshot.product)
    field("Build", stackshot.build)
    field("Processes", stackshot.processCount.map { "\($0)" })
    if !stackshot.frontmostProcesses.isEmpty {
      field("Frontmost", stackshot.frontmostProcesses.joined(separator: ", "))
    }
    blank()
  }

  mutating func writeResource() {
    guard let resource = report.resource else { return }
    field("Event", resource.event)
    field("Action taken", resource.actionTaken)
    for item in resource.fields
    where !writtenLabels.contains(item.key) && !Self.bodyLabels.contains(item.key) {
      field(item.key, item.value)
    }
    blank()
  }

  /// Labels the crash body writes itself.
  static let bodyLabels: Set<String> = [
    "Exception Type", "Exception Codes", "Exception Subtype", "Exception Message", "Exception Note",
    "Termination Reason", "Termination Description", "Terminating Process", "Triggered by Thread",
    "Crashed Thread", "Termination Signal", "Incident Identifier", "CrashReporter Key", "Version",
    "Command", "PID", "Process", "Path", "Identifier",
  ]

  // MARK: Crash body

  mutating func writeCrashBody() {
    writeException()
    writeTermination()
    if let faulting = report.faultingThread, report.threads.indices.contains(faulting) {
      lines.append("Triggered by Thread:  \(report.threads[faulting].index)")
      blank()
    }
    if !report.applicationSpecificLines.isEmpty {
      let text = report.applicationSpecificLines.flatMap(Self.escapedLines)
      if !text.isEmpty {
        lines.append("Application Specific Information:")
        lines += text
        blank()
      }
    }
    writeBlock("Kernel Triage", report.kernelTriage)
    writeBlock("VM Region Info", report.vmRegionInfo)
    let width = frameNameWidth()
    if let backtrace = report.lastExceptionBacktrace, !backtrace.isEmpty {
      lines.append("Last Exception Backtrace:")
      writeFrames(backtrace, width: width)
      blank()
    }
    for (position, thread) in report.threads.enumerated() {
      writeThread(
        thread,
        // A resource report's sampled thread (a hang's main thread) did not crash.
        crashed: thread.triggered || (position == report.faultingThread && report.kind != .resource), width: width)
    }
    for thread in report.threads {
      if let state = thread.state { writeState(state, thread: thread.index) }
    }
    writeImages()
  }

  mutating func writeBlock(_ label: String, _ text: String?) {
    guard let text else { return }
    let body = Self.escapedLines(text)
    guard !body.isEmpty else { return }
    lines.append(label + ":")
    lines += body
    blank()
  }

  mutating func writeException() {
    let exception = report.exception
    var wrote = false
    if let exception {
      var type: String?
      switch (exception.type, exception.signal) {
      case (let kind?, let signal?): type = "\(kind) (\(signal))"
      case (let kind?, nil): type = kind
      case (nil, let signal?): type = signal
      case (nil, nil): type = nil
      }
      field("Exception Type", type, width: 17)
      if let codes = exception.codes {
        field("Exception Codes", codes, width: 17)
      } else if !exception.rawCodes.isEmpty {
        field(
          "Exception Codes",
          exception.rawCodes.map { String.hex($0, width: 16) }.joined(separator: ", "),
          width: 17)
      }
      field("Exception Subtype", exception.subtype, width: 17)
      field("Exception Message", exception.message, width: 17)
      wrote = true
    }
    var notes = exception?.notes ?? []
    func addNote(_ flag: Bool?, _ marker: String, _ text: String) {
      if flag == true && !notes.contains(where: { $0.contains(marker) }) { notes.append(text) }
    }
    addNote(report.isCorpse, "EXC_CORPSE_NOTIFY", "EXC_CORPSE_NOTIFY")
    addNote(report.isNonFatal, "NON-FATAL", "NON-FATAL CONDITION (this is NOT a crash)")
    addNote(report.isSimulated, "SIMULATED", "SIMULATED (this is NOT a crash)")
    for note in notes { field("Exception Note", note, width: 17) }
    if let reason = report.exceptionReason, let text = reason.composedMessage ?? reason.name {
      field("Exception Reason", text, width: 17)
    }
    if wrote || !notes.isEmpty { blank() }
  }

  mutating func writeTermination() {
    guard let termination = report.termination else { return }
    if termination.namespace != nil || termination.code != nil {
      var text = "Namespace " + (termination.namespace ?? "???")
      if let hex = termination.hexCode { text += ", Code " + hex }
      if let indicator = termination.indicator { text += " " + indicator }
      field("Termination Reason", text, width: 20)
      for line in termination.reasons.flatMap(Self.escapedLines) { lines.append(line) }
      for line in termination.details.flatMap(Self.escapedLines) { lines.append(line) }
    } else {
      for reason in termination.reasons { field("Termination Description", reason) }
      for detail in termination.details { field("Termination Details", detail) }
      field("Termination Signal", termination.indicator)
    }
    if let proc = termination.byProc {
      field("Terminating Process", termination.byPid.map { "\(proc) [\($0)]" } ?? proc)
    }
    blank()
  }

  // MARK: Threads

  func imageName(of frame: Frame) -> String {
    frame.imageName ?? report.image(at: frame.imageIndex)?.name ?? "???"
  }

  /// The widest the image column of a frame line gets, in characters, its separating space
  /// included. A JSON report names an image once and may cite it from every frame, so a frame line
  /// holds at most this much of the name: the output stays a small multiple of the input however
  /// long the names.
  static let maxImageColumn = 64

  /// The width of the image column: the longest image name cited by a frame and a space, at least
  /// 30 and at most ``maxImageColumn``.
  func frameNameWidth() -> Int {
    var longest = 0
    for thread in report.threads {
      for frame in thread.frames { longest = max(longest, Self.columnCount(imageName(of: frame))) }
    }
    for frame in report.lastExceptionBacktrace ?? [] {
      longest = max(longest, Self.columnCount(imageName(of: frame)))
    }
    return max(30, longest + 1)
  }

  /// The number of characters of `name`, or `maxImageColumn` when it has more than fit the column
  /// (counted no further, so a long name costs the same as a short one).
  static func columnCount(_ name: String) -> Int {
    var count = 0
    for _ in name {
      count += 1
      if count >= maxImageColumn { break }
    }
    return count >= maxImageColumn ? maxImageColumn - 1 : count
  }

  /// `name` as the image column shows it: whole when it fits before the column's last space,
  /// otherwise its first `maxImageColumn - 2` characters and "…".
  static func imageColumn(_ name: String) -> String {
    guard name.utf8.count >= maxImageColumn else { return name }
    var end = name.startIndex
    var count = 0
    while end < name.endIndex && count < maxImageColumn - 1 {
      end = name.index(after: end)
      count += 1
    }
    guard end < name.endIndex else { return name }
    return String(name[..<name.index(name.startIndex, offsetBy: maxImageColumn - 2)]) + "…"
  }

  mutating func writeThread(_ thread: CrashThread, crashed: Bool, width: Int) {
    if thread.name != nil || thread.queue != nil {
      var text = "Thread \(thread.index) name:  "
      if let name = thread.name { text += Self.escaped(name) }
      if thread.name != nil && thread.queue != nil { text += "  " }
      if let queue = thread.queue { text += "Dispatch queue: " + Self.escaped(queue) }
      lines.append(text)
    }
    lines.append("Thread \(thread.index)\(crashed ? " Crashed" : ""):")
    writeFrames(thread.frames, width: width)
    blank()
  }

  mutating func writeFrames(_ frames: [Frame], width: Int) {
    for (number, frame) in frames.enumerated() {
      lines.append(frameLine(frame, number: number, width: width))
    }
  }

  func frameLine(_ frame: Frame, number: Int, width: Int) -> String {
    let image = report.image(at: frame.imageIndex)
    var address = frame.address
    if address == nil, let base = image?.base, let offset = frame.imageOffset {
      address = base &+ offset
    }
    let name = imageName(of: frame)
    var line = Self.padded(String(number), 4) + Self.padded(Self.escaped(Self.imageColumn(name)), width)
    if let address {
      line += String.hex(address, width: 16)
    } else if let offset = frame.imageOffset {
      // Only the offset into the image is known (MetricKit, Crashlytics): "ShopApp + 0x4f2a8",
      // as the diagnosis outputs describe such a frame, in place of an address.
      line += Self.escaped(Self.imageColumn(name)) + " + " + String.hex(offset)
    } else {
      line += "???"
    }
    if let symbol = frame.symbol {
      line += " " + Self.escaped(symbol)
      if let location = frame.symbolLocation { line += " + \(location)" }
    } else if let base = image?.base, let offset = frame.imageOffset {
      line += " " + String.hex(base) + " + \(offset)"
    }
    if let file = frame.sourceFile {
      line += " (" + Self.escaped(file) + (frame.sourceLine.map { ":\($0)" } ?? ":0") + ")"
    }
    if frame.isInline { line += " [inlined]" }
    return line
  }

  // MARK: Registers

  mutating func writeState(_ state: ThreadState, thread: Int) {
    lines.append("Thread \(thread) crashed with \(Self.escaped(LegacyTextLine.threadStateLabel(state.flavor))):")
    let is32Bit = state.flavor == "ARM_THREAD_STATE" || state.flavor == "x86_THREAD_STATE32"
    let digits = is32Bit ? 8 : 16
    let trailing: Set<String> = ["esr", "cpu", "err", "trap"]
    var row: [String] = []
    for register in state.registers where !trailing.contains(register.name) {
      let name = register.name == "rflags" ? "rfl" : register.name
      row.append(
        Self.leftPadded(Self.escaped(name), 5) + ": " + String.hex(register.value, width: digits))
      if row.count == 4 {
        lines.append(row.joined(separator: "  "))
        row = []
      }
    }
    if !row.isEmpty { lines.append(row.joined(separator: "  ")) }
    if let esr = state.registers.first(where: { $0.name == "esr" }) {
      var text = "  esr: " + String.hex(esr.value, width: 8)
      if let description = state.esrDescription?.trimmingWhitespace(), !description.isEmpty {
        text += "  " + Self.escaped(description)
      }
      lines.append(text)
    }
    blank()
    var extras = false
    for (name, label) in [
      ("cpu", "Logical CPU:"), ("err", "Error Code:"), ("trap", "Trap Number:"),
    ] {
      guard let value = state[name] else { continue }
      let text = name == "err" ? String.hex(value, width: 8) : "\(value)"
      lines.append(Self.padded(label, 17) + text)
      extras = true
    }
    if extras { blank() }
  }

  // MARK: Images

  /// macOS writes an image's bundle identifier in the name column; the reader then takes the name
  /// from the path. Other images show their name.
  static func nameColumn(_ image: BinaryImage) -> String {
    if let bundleID = image.bundleID, let name = image.name, let path = image.path,
      bundleID != name, bundleID.contains("."), !bundleID.hasSuffix(".dylib"),
      !bundleID.contains(" "), CrashReport.lastPathComponent(path) == name
    {
      return bundleID
    }
    return image.name ?? "???"
  }

  mutating func writeImages() {
    guard !report.images.isEmpty else { return }
    lines.append("Binary Images:")
    for image in report.images {
      // "0x0 - ???" is an image whose base is not known; Apple's placeholder for frames outside
      // every image is at zero and spans everything ("0x0 - 0xffffffffffffffff").
      let base = image.base ?? 0
      var end = "???"
      if let size = image.size, size > 0 {
        end = String.hex(base &+ (size - 1))
      } else if image.base == 0 {
        end = String.hex(UInt64.max)
      }
      var line = Self.leftPadded(String.hex(base), 18) + " - " + Self.leftPadded(end, 18) + " "
      line += image.source == "P" ? "+" : " "
      line += Self.escaped(Self.nameColumn(image))
      if let arch = image.arch { line += " " + Self.escaped(arch) }
      switch (image.bundleShortVersion, image.bundleVersion) {
      case (let short?, let build?):
        line += " (" + Self.escaped(short) + " - " + Self.escaped(build) + ")"
      case (let short?, nil): line += " (" + Self.escaped(short) + " - ???)"
      case (nil, let build?): line += " (" + Self.escaped(build) + ")"
      case (nil, nil): break
      }
      if let uuid = image.uuid { line += " <" + Self.escaped(uuid) + ">" }
      line += " " + Self.escaped(image.path ?? "???")
      lines.append(line)
    }
    blank()
  }
}
