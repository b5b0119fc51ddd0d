import IPSDoctorSupport

/// What the reader decides once every line is read: the version's order, the faulting thread, each
/// frame's image, and the kind of report.
extension LegacyTextReader {
  /// Whether the report's Version line is "short (build)" (macOS, microstackshots, and the
  /// embedded OSes since reports became `.ips`: ``OSVersion/writesShortVersionFirst``) rather
  /// than older iOS's "build (short)".
  var versionIsShortFirst: Bool {
    if isMicrostackshot { return true }
    return report.osVersion?.writesShortVersionFirst ?? false
  }

  mutating func finish() -> CrashReport {
    if let versionText {
      let (first, second) = LegacyTextLine.version(source, versionText)
      if versionIsShortFirst {
        report.appVersion = first ?? report.appVersion
        report.buildVersion = second ?? report.buildVersion
      } else if second == nil && LegacyTextLine.firstIndex(of: 0x28, in: source, versionText) == nil {
        report.buildVersion = first ?? report.buildVersion
      } else {
        report.buildVersion = first ?? report.buildVersion
        report.appVersion = second ?? report.appVersion
      }
    }
    if let terminationSignal, report.termination?.indicator == nil {
      var termination = report.termination ?? Termination()
      termination.indicator = terminationSignal
      report.termination = termination
    }
    if !applicationSpecificLines.isEmpty {
      report.applicationSpecificInfo = [
        ApplicationSpecificInfo(image: nil, lines: applicationSpecificLines)
      ]
    }
    if !kernelTriageLines.isEmpty {
      report.kernelTriage = kernelTriageLines.joined(separator: "\n")
    }
    if !vmRegionLines.isEmpty { report.vmRegionInfo = vmRegionLines.joined(separator: "\n") }
    if !vmSummaryLines.isEmpty { report.vmSummary = vmSummaryLines.joined(separator: "\n") }
    if !dyldErrorLines.isEmpty { report.dyldErrorMessage = dyldErrorLines.joined(separator: "\n") }
    if let frames = lastExceptionFrames ?? applicationBacktraceFrames, !frames.isEmpty {
      report.lastExceptionBacktrace = frames
    }

    resolveFaultingThread()
    resolveFrames()
    decideKind()
    if let budget {
      report.warnings += budget.warnings
      report.cutLists = budget.omissions.count
      report.isAbridged = budget.isAbridged
    }

    if report.kind == .crash && !sawBody && report.exception == nil && report.threads.isEmpty
      && report.images.isEmpty
    {
      warn(
        lastContentLine,
        "the report ends after its header: no exception, threads or binary images")
    }
    return report
  }

  mutating func resolveFaultingThread() {
    if let triggered {
      if let position = threadPositions[triggered.number] {
        report.faultingThread = position
        report.threads[position].triggered = true
        if report.threads[position].queue == nil, let queue = triggered.queue {
          report.threads[position].queue = queue
        }
      } else if !report.threads.isEmpty {
        let count = report.threads.count
        warn(
          triggered.line,
          "thread \(triggered.number) is not in the report (it has \(count) threads); ignored")
      }
    }
    if report.faultingThread == nil {
      report.faultingThread = report.threads.firstIndex(where: \.triggered)
    }
    if report.faultingThread == nil, let highlighted,
      let position = threadPositions[highlighted.number]
    {
      report.faultingThread = position
    }
  }

  /// Gives each frame its image index, name and offset: by the image name written on the frame
  /// line, else by the address range that holds the frame's address.
  mutating func resolveFrames() {
    guard !report.images.isEmpty else { return }
    if let resolver = ImageResolver(
      images: report.images, threads: report.threads, lastExceptionBacktrace: report.lastExceptionBacktrace,
      keySlots: imageKeySlots)
    {
      for position in report.threads.indices {
        resolver.resolve(&report.threads[position].frames)
      }
      if report.lastExceptionBacktrace != nil {
        resolver.resolve(&report.lastExceptionBacktrace!)
      }
      return
    }
    var names = Set<String>()
    // Threads and frames are read in place, by index.
    for thread in report.threads.indices {
      // Neighbouring frames are mostly in one image: a name equal to the last one is not hashed.
      var last: String?
      for frame in report.threads[thread].frames.indices {
        if let name = report.threads[thread].frames[frame].imageName, name != last {
          names.insert(name)
          last = name
        }
      }
    }
    if let frames = report.lastExceptionBacktrace {
      for frame in frames.indices { if let name = frames[frame].imageName { names.insert(name) } }
    }
    let resolver = ImageResolver(images: report.images, frameImageNames: names, keySlots: imageKeySlots)
    for position in report.threads.indices {
      resolver.resolve(&report.threads[position].frames)
    }
    if report.lastExceptionBacktrace != nil {
      resolver.resolve(&report.lastExceptionBacktrace!)
    }
  }

  mutating func decideKind() {
    let bugKind = report.bugType?.kind
    let looksLikeStackshot =
      stackshotReason != nil && (stackshotCode != nil || !frontmostPids.isEmpty)
    let kind: ReportKind
    switch bugKind {
    case .some(.unknown):
      kind = (report.exception != nil || !report.threads.isEmpty) ? .crash : .unknown
    case .some(let known):
      kind = known
    case nil:
      if panicStart != nil {
        kind = .panic
      } else if looksLikeStackshot && report.exception == nil {
        kind = .stackshot
      } else if event != nil || isMicrostackshot {
        kind = .resource
      } else {
        kind = .crash
      }
    }
    report.kind = kind
    switch kind {
    case .stackshot:
      var summary = report.stackshot ?? StackshotSummary()
      summary.reason = stackshotReason ?? summary.reason
      summary.exceptionCode = stackshotCode ?? summary.exceptionCode
      if stackshotProcessCount > 0 { summary.processCount = stackshotProcessCount }
      summary.frontmostProcesses = frontmostPids.compactMap { processNamesByPid[$0] }
      report.stackshot = summary
    case .panic:
      var summary = report.panic ?? PanicSummary()
      if let panicStart {
        let text = LegacyTextLine.string(source, panicStart..<source.count)
        summary.panicString = text
        PanicSummary.fill(&summary, fromPanicString: text)
      }
      summary.product = summary.product ?? report.modelCode
      summary.build = summary.build ?? report.osVersion?.build
      report.panic = summary
    case .resource, .watchdog:
      var summary = report.resource ?? ResourceSummary()
      summary.event = event ?? summary.event
      summary.measure = summary.measure ?? summary.event.flatMap(ResourceSummary.Measure.init(event:))
      summary.actionTaken = actionTaken ?? summary.actionTaken
      summary.fields = headerFields.map {
        ResourceSummary.Field(
          key: LegacyTextLine.string(source, $0.key), value: LegacyTextLine.string(source, $0.value))
      }
      report.resource = summary
    default:
      break
    }
  }
}
