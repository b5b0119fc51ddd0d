import IPSDoctorReport
import IPSDoctorSupport

/// The facts of a report that a person reads first, whether or not a rule matched.
package struct CrashSummary: Sendable, Equatable {
  /// e.g. "EXC_CRASH (SIGABRT)"
  package var exception: String?
  /// e.g. "NSInternalInconsistencyException: Call must be made on main thread"
  package var reason: String?
  /// e.g. "SIGNAL 6 Abort trap: 6" or "FRONTBOARD 0x8badf00d"
  package var termination: String?
  package var crashedThread: Int?
  package var crashedThreadName: String?
  package var crashedQueue: String?
  /// The first frame of the app's own code, in the exception backtrace or the crashed thread.
  package var firstAppFrame: String?
  /// Where that frame is, e.g. `lastExceptionBacktrace[7]`.
  package var firstAppFramePath: String?
  /// One line for non-crash kinds (panic headline, jetsam largest process, …).
  package var headline: String?
  /// The first ``topFrameLimit`` frames of ``topFramesSource``, described, the app's own marked.
  package var topFrames: [TopFrame] = []
  /// Where ``topFrames`` come from.
  package var topFramesSource: TopFramesSource = .crashedThread

  /// The backtrace a person should read first.
  package enum TopFramesSource: String, Sendable, Equatable {
    /// The thread that crashed.
    case crashedThread
    /// The uncaught exception's backtrace: where it was thrown. The crashed thread then only
    /// shows the runtime aborting (`pthread_kill`, `abort`, the terminate handler).
    case lastExceptionBacktrace
    /// The thread sampled by a report of a process that did not crash (a CPU or wakeups report).
    case sampledThread
  }

  /// A frame as the report wrote it (its texts shared with the report, nothing built), described
  /// when it is shown.
  package struct TopFrame: Sendable, Equatable {
    package var index: Int
    package var image: String?
    package var symbol: String?
    package var symbolLocation: UInt64?
    package var imageOffset: UInt64?
    package var isApp: Bool
    /// The description as an ips-doctor record wrote it (`ips-doctor merge` reads frames back
    /// only as text); `nil` for a frame read from a report, described from its parts.
    package var recordedText: String? = nil

    package init(
      index: Int, image: String? = nil, symbol: String? = nil, symbolLocation: UInt64? = nil,
      imageOffset: UInt64? = nil, isApp: Bool, recordedText: String? = nil
    ) {
      self.index = index
      self.image = image
      self.symbol = symbol
      self.symbolLocation = symbolLocation
      self.imageOffset = imageOffset
      self.isApp = isApp
      self.recordedText = recordedText
    }

    /// "ChatApp PushNotificationDelegate.handle() + 56", as the evidence describes frames.
    package var text: String {
      if let recordedText { return recordedText }
      return DiagnosisContext.describeFrame(
        image: image, name: DiagnosisContext.displayName(ofSymbol: symbol), symbolLocation: symbolLocation,
        imageOffset: imageOffset, address: nil)
    }
  }

  static let topFrameLimit = 5

  /// A summary with nothing known, filled in field by field (``ReportRecord`` reads one back).
  package init() {}

  package init(context: borrowing DiagnosisContext) {
    let report = context.report
    if let exception = report.exception {
      switch (exception.type, exception.signal) {
      case (let type?, let signal?):
        var text = UTF8TextBuilder(capacity: type.utf8.count + signal.utf8.count + 3)
        text.append(type)
        text.append(" (")
        text.append(signal)
        text.append(ascii: UInt8(ascii: ")"))
        self.exception = text.string
      case (let type?, nil): self.exception = type
      case (nil, let signal?): self.exception = signal
      default: self.exception = nil
      }
    }
    if let name = report.exceptionReason?.name, let message = report.exceptionReason?.composedMessage {
      var text = UTF8TextBuilder(capacity: name.utf8.count + message.utf8.count + 2)
      text.append(name)
      text.append(": ")
      text.append(message)
      reason = text.string
    } else if let message = report.exceptionReason?.composedMessage ?? report.exceptionReason?.name {
      reason = message
    } else if let line = context.applicationSpecificLines.first(where: Self.isMeaningfulReason) {
      reason = line
    }
    // Without either, there is no reason: exception codes and subtypes stay in `exception`.
    if let termination = report.termination {
      // The parts joined by spaces as bytes and made a `String` once, with no array of parts to
      // join and no `String` appends.
      var text = UTF8TextBuilder(capacity: 64)
      var parts = 0
      func separate() {
        if parts > 0 { text.append(ascii: UInt8(ascii: " ")) }
        parts += 1
      }
      if let namespace = termination.namespace {
        separate()
        text.append(namespace)
      }
      if let code = termination.code {
        separate()
        if termination.namespace == "SIGNAL" { text.appendDecimal(code) } else { text.appendHex(code) }
      }
      if let indicator = termination.indicator {
        separate()
        text.append(indicator)
      }
      self.termination = parts == 0 ? nil : text.string
    }
    if let thread = context.crashedThread {
      crashedThread = thread.index
      crashedThreadName = thread.name
      crashedQueue = thread.queue
      var frames = thread.frames
      if let thrown = report.lastExceptionBacktrace, !thrown.isEmpty, context.isAbort {
        frames = thrown
        topFramesSource = .lastExceptionBacktrace
      } else if report.kind == .resource {
        topFramesSource = .sampledThread
      }
      topFrames.reserveCapacity(min(frames.count, Self.topFrameLimit))
      for (index, frame) in frames.prefix(Self.topFrameLimit).enumerated() {
        topFrames.append(
          TopFrame(
            index: index, image: frame.imageName, symbol: frame.symbol, symbolLocation: frame.symbolLocation,
            imageOffset: frame.imageOffset, isApp: context.isAppFrame(frame)))
      }
    }
    if let (frame, path) = context.firstResult(inBacktraces: { backtrace in
      // `firstAppFrame(in:)`, without copying the frame out.
      context.firstAppFrameIndex(in: backtrace.frames, from: 0).map { index in
        (context.describe(backtrace.frames[index]), backtrace.framePath(index))
      }
    }) {
      firstAppFrame = frame
      firstAppFramePath = path
    }
    switch report.kind {
    case .panic:
      headline = report.panic?.headline
    case .jetsam:
      if let jetsam = report.jetsam {
        let killed = jetsam.killed.compactMap { process in
          process.name.map { "\($0) (\(process.reason ?? "killed"))" }
        }
        var text = "largest process: \(jetsam.largestProcess ?? "unknown")"
        if !killed.isEmpty { text += "; killed: " + killed.prefix(5).joined(separator: ", ") }
        headline = text
      }
    case .stackshot:
      headline = report.stackshot?.reason
    case .resource, .watchdog:
      headline = report.resource?.event
    case .crash, .unknown:
      break
    }
  }

  /// Application Specific Information lines that describe the environment, not the crash.
  static func isMeaningfulReason(_ line: String) -> Bool {
    let trimmed = line.trimmingWhitespace()
    return !trimmed.isEmpty && !trimmed.hasPrefix("CoreSimulator ") && !trimmed.hasPrefix("dyld4 config")
      && !trimmed.hasPrefix("dyld2 mode") && !trimmed.hasPrefix("dyld3 mode")
  }
}
