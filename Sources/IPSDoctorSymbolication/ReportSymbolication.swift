import IPSDoctorReport
import IPSDoctorSupport

/// What symbolicating one report did, for messages and tests.
package struct SymbolicationSummary: Sendable, Equatable {
  /// Frames that had no symbol and got one.
  package var symbolicatedFrames = 0
  /// Inlined frames added before them.
  package var inlinedFrames = 0
  /// Image names whose frames were symbolicated.
  package var matchedImages: [String] = []
  /// "AnotherTarget: the report's UUID 9a36… is not in …/AnotherTarget (arm64 9c4f…)".
  package var mismatches: [String] = []
  /// Whether a debug file at hand has the UUID of one of the report's images (whether or not a
  /// frame needed it).
  package var debugFileMatched = false
}

extension Symbolicator {
  /// The symbols of `frame` of `report`, when it is unsymbolicated and its image has a debug image.
  /// `images` finds a frame's image by name when the frame has no index (``ReportImageFinder``;
  /// without it, by a search of the report's images).
  func symbols(
    of frame: Frame, in report: CrashReport, images: ReportImageFinder? = nil, matches: inout [Int: ImageMatch]
  ) -> [FrameSymbol]? {
    guard !frame.hasSymbolText, let (index, image) = Self.image(of: frame, in: report, images: images) else {
      return nil
    }
    let match = matches[index] ?? self.match(image)
    matches[index] = match
    guard case .matched(let debug) = match else { return nil }
    let offset: UInt64
    if let imageOffset = frame.imageOffset {
      offset = imageOffset
    } else if let address = frame.address, let base = image.base, address >= base {
      offset = address - base
    } else {
      return nil
    }
    return symbols(imageOffset: offset, in: debug)
  }

  static func image(of frame: Frame, in report: CrashReport, images: ReportImageFinder? = nil) -> (Int, BinaryImage)? {
    if let index = frame.imageIndex, let image = report.image(at: index) { return (index, image) }
    guard let name = frame.imageName,
      let index = images.map({ $0.index(named: name) }) ?? report.images.firstIndex(where: { $0.name == name })
    else { return nil }
    return (index, report.images[index])
  }

  /// `report` with its unsymbolicated frames symbolicated as Xcode does: the frame gets its
  /// function's simplified name, offset, file and line; code inlined into it comes first as frames
  /// marked inline, at the same address. Frames that have a symbol are left alone.
  package func symbolicate(_ report: CrashReport) -> (report: CrashReport, summary: SymbolicationSummary) {
    var result = report
    var summary = SymbolicationSummary()
    var matches: [Int: ImageMatch] = [:]
    let images = ReportImageFinder(report.images)
    func apply(_ frames: [Frame]) -> [Frame] {
      var output: [Frame] = []
      output.reserveCapacity(frames.count)
      for frame in frames {
        guard let symbols = symbols(of: frame, in: report, images: images, matches: &matches) else {
          output.append(frame)
          continue
        }
        summary.symbolicatedFrames += 1
        summary.inlinedFrames += symbols.count - 1
        for (position, symbol) in symbols.enumerated() {
          var copy = frame
          copy.symbol = symbol.symbol
          copy.symbolLocation = symbol.symbolLocation
          copy.sourceFile = symbol.sourceFile
          copy.sourceLine = symbol.sourceLine
          copy.isInline = position < symbols.count - 1
          output.append(copy)
        }
      }
      return output
    }
    for index in result.threads.indices { result.threads[index].frames = apply(result.threads[index].frames) }
    if let backtrace = result.lastExceptionBacktrace { result.lastExceptionBacktrace = apply(backtrace) }
    summarize(matches, of: report, into: &summary)
    // A report that names no image paths (MetricKit, a pasted trace) cannot say which images are
    // the app's; one that a debug file given for the app's build matched is.
    for (index, match) in matches {
      guard case .matched = match, result.images[index].path == nil, result.images[index].source == nil else {
        continue
      }
      result.images[index].source = "P"
    }
    return (result, summary)
  }

  /// ``symbolicate(_:)``'s summary alone, without making the symbolicated copy of the report (for
  /// `symbolicate`, which rewrites the report's own bytes).
  package func summary(of report: CrashReport) -> SymbolicationSummary {
    var summary = SymbolicationSummary()
    var matches: [Int: ImageMatch] = [:]
    let images = ReportImageFinder(report.images)
    func count(_ frames: [Frame]) {
      for frame in frames {
        guard let symbols = symbols(of: frame, in: report, images: images, matches: &matches) else { continue }
        summary.symbolicatedFrames += 1
        summary.inlinedFrames += symbols.count - 1
      }
    }
    for thread in report.threads { count(thread.frames) }
    count(report.lastExceptionBacktrace ?? [])
    summarize(matches, of: report, into: &summary)
    return summary
  }

  /// The images matched and mismatched, in image order.
  private func summarize(_ matches: [Int: ImageMatch], of report: CrashReport, into summary: inout SymbolicationSummary)
  {
    for (index, match) in matches.sorted(by: { $0.key < $1.key }) {
      let image = report.images[index]
      let name = image.name ?? "image \(index)"
      switch match {
      case .matched: summary.matchedImages.append(name)
      case .mismatch(let found):
        let candidates = found.joined(separator: ", ")
        summary.mismatches.append(
          "\(name): the report's UUID \(image.uuid ?? "(none)") matches no debug file; \(candidates) has another UUID, not used"
        )
      case .none: break
      }
    }
  }
}
