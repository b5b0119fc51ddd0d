import IPSDoctorSupport

/// The header fields ("Key: value" lines) of a text report, into the report.
extension LegacyTextReader {
  /// Reads the header field `field` (`nil`: a key the reader does not model), whose key and value
  /// are `bytes[key]` and `bytes[value]`, the UTF-8 of the text being read. The value becomes a
  /// `String` only for the fields that keep it.
  mutating func readField(
    _ field: Field?, key: Range<Int>, value: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, number: Int
  ) {
    if inHeaderBlock && !value.isEmpty {
      headerFields.append((key, value))
    }
    var text: String? { value.isEmpty ? nil : LegacyTextLine.string(bytes, value) }
    /// `Int(_:)` of the value's text.
    var integer: Int? { Int(LegacyTextLine.string(bytes, value)) }
    guard let field else {
      if bytes.hasPrefix("VM Regions Near", in: key) {
        block = .vmRegionInfo
      } else if bytes.hasPrefix("Process ", in: key), value.isEmpty {
        readStackshotProcess(LegacyTextLine.string(bytes, key))
      }
      return
    }
    switch field {
    case .incidentIdentifier: report.incidentID = text ?? report.incidentID
    case .hardwareModel, .hardwareModelLowercase: report.modelCode = text ?? report.modelCode
    case .process:
      let (name, pid) = LegacyTextLine.nameAndPid(bytes, value)
      report.processName = name ?? report.processName
      report.pid = pid ?? report.pid
    case .command:
      isMicrostackshot = true
      report.processName = text ?? report.processName
    case .pid: report.pid = integer ?? report.pid
    case .powerstatsFor:
      let (name, pid) = LegacyTextLine.nameAndPid(bytes, value)
      report.processName = report.processName ?? name
      report.pid = report.pid ?? pid
    case .path: if let text, text != "???" { report.processPath = text }
    case .identifier: if let text, text != "???" { report.bundleID = text }
    case .version: versionText = value
    case .codeType:
      if let text {
        report.cpuType = text.hasSuffix(" (Native)") ? String(text.dropLast(9)) : text
        report.isTranslated = text.hasSuffix(" (Translated)")
      }
    case .parentProcess: report.parentProcess = text ?? report.parentProcess
    case .dateTime: report.captureTime = text ?? report.captureTime
    case .date: report.captureTime = report.captureTime ?? text
    case .launchTime: report.launchTime = text ?? report.launchTime
    case .osVersion:
      guard let text else { break }
      let releaseType = report.osVersion?.releaseType
      var version = OSVersion(displayString: text)
      if let build = version.build, build.hasPrefix("Build ") {
        version.build = String(build.dropFirst(6))
      }
      version.releaseType = releaseType
      report.osVersion = version
    case .releaseType:
      var version = report.osVersion ?? OSVersion()
      version.releaseType = text
      report.osVersion = version
    case .exceptionType:
      sawBody = true
      let (type, signal) = LegacyTextLine.exceptionType(bytes, value)
      guard type != nil || signal != nil else {
        warn(number, "the exception type is empty")
        break
      }
      // KSCrash writes "0 (0)" when there was no Mach exception (a deadlock or a user report).
      if type == "0" && (signal == nil || signal == "0") { break }
      var exception = report.exception ?? ExceptionInfo()
      exception.type = type
      exception.signal = signal
      report.exception = exception
    case .exceptionCodes:
      guard let text else { break }
      var exception = report.exception ?? ExceptionInfo()
      if let codes = LegacyTextLine.codes(bytes, value) {
        exception.codes = text
        exception.rawCodes = codes
      } else {
        // macOS and third-party reporters write the subtype here: "KERN_INVALID_ADDRESS at 0x18".
        if exception.codes == nil { exception.codes = text }
        if exception.subtype == nil { exception.subtype = text }
      }
      report.exception = exception
    case .exceptionSubtype:
      var exception = report.exception ?? ExceptionInfo()
      exception.subtype = text
      report.exception = exception
    case .exceptionMessage:
      var exception = report.exception ?? ExceptionInfo()
      exception.message = text
      report.exception = exception
    case .exceptionNote, .exceptionNotes:
      guard let text else { break }
      var exception = report.exception ?? ExceptionInfo()
      exception.notes.append(text)
      report.exception = exception
      if text.prefilteredContains("EXC_CORPSE_NOTIFY") { report.isCorpse = true }
      if text.prefilteredContains("NON-FATAL CONDITION") { report.isNonFatal = true }
      if text.prefilteredContains("SIMULATED") { report.isSimulated = true }
    case .exceptionReason:
      var reason = report.exceptionReason ?? ExceptionReason()
      reason.composedMessage = text
      report.exceptionReason = reason
    case .terminationReason:
      sawBody = true
      var termination = report.termination ?? Termination()
      if let parsed = LegacyTextLine.terminationReason(bytes, value) {
        termination.namespace = parsed.namespace
        termination.code = parsed.code
        termination.indicator = parsed.indicator ?? termination.indicator
      } else if let text {
        warn(number, "could not read the termination reason")
        termination.reasons.append(text)
      }
      report.termination = termination
      block = .terminationReasons
    case .terminationDescription:
      guard let text else { break }
      var termination = report.termination ?? Termination()
      termination.reasons.append(text)
      report.termination = termination
    case .terminationDetails:
      guard let text else { break }
      var termination = report.termination ?? Termination()
      termination.details.append(text)
      report.termination = termination
    case .terminationSignal: terminationSignal = text
    case .terminatingProcess:
      let (name, pid) = LegacyTextLine.nameAndPid(bytes, value)
      var termination = report.termination ?? Termination()
      termination.byProc = name
      termination.byPid = pid
      report.termination = termination
    case .triggeredByThread, .crashedThread:
      let found = LegacyTextLine.threadNumber(bytes, value)
      guard let (thread, queue) = found else {
        warn(number, "could not read the number of the crashed thread")
        break
      }
      triggered = (thread, queue, number)
    case .highlightedThread:
      let found = LegacyTextLine.threadNumber(bytes, value)
      if let (thread, _) = found { highlighted = (thread, number) }
    case .applicationSpecificInformation:
      sawBody = true
      inHeaderBlock = false
      if let text { applicationSpecificLines.append(text) }
      block = .applicationSpecific
    case .kernelTriage:
      if let text { kernelTriageLines.append(text) }
      block = .kernelTriage
    case .vmRegionInfo:
      if let text { vmRegionLines.append(text) }
      block = .vmRegionInfo
    case .vmRegionSummary:
      inHeaderBlock = false
      if let text { vmSummaryLines.append(text) }
      pendingBlankLines = 0
      block = .vmSummary
    case .dyldErrorMessage:
      if let text { dyldErrorLines.append(text) }
      block = .dyldErrorMessage
    case .filteredSyslog, .externalModificationSummary, .translatedCodeInformation, .systemProfile,
      .applicationSpecificSignatures:
      inHeaderBlock = false
      block = .skipped
    case .logicalCPU: addRegister("cpu", bytes, value)
    case .errorCode: addRegister("err", bytes, value)
    case .trapNumber: addRegister("trap", bytes, value)
    case .event: event = text
    case .actionTaken: actionTaken = text
    case .reason: stackshotReason = stackshotReason ?? text
    case .exceptionCode: stackshotCode = stackshotCode ?? text
    case .frontmostProcessPID: if let pid = integer { frontmostPids.append(pid) }
    }
  }

  /// "Process 12 info" and "Process 12 SpringBoard threads" lines of a text stackshot.
  mutating func readStackshotProcess(_ key: String) {
    let words = key.split(separator: " ")
    guard words.count >= 3, let pid = Int(words[1]) else { return }
    if words.count == 3 && words[2] == "info" {
      stackshotProcessCount += 1
    } else if words.last == "threads" && words.count >= 4 {
      processNamesByPid[pid] = words[2..<(words.count - 1)].joined(separator: " ")
    }
  }

  /// The x86 "Logical CPU", "Error Code" and "Trap Number" lines after the registers: the first
  /// word of `bytes[value]`.
  mutating func addRegister(_ name: String, _ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) {
    guard let position = statePosition else { return }
    let word = value.lowerBound..<LegacyTextLine.firstSpace(bytes, value)
    guard let number = LegacyTextLine.number(bytes, word) else { return }
    var state = report.threads[position].state ?? ThreadState()
    state.registers.append(ThreadState.Register(name: name, value: number))
    report.threads[position].state = state
  }
}
