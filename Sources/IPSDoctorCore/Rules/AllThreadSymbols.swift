/// Every thread's frame symbols as one byte string, for rules that ask which of several
/// fragments some frame of any thread holds: one byte search per fragment, where
/// `DiagnosisContext.firstFrameInAnyThread(containing:)` walks every frame of every thread for each
/// (a legacy report lists hundreds of frames; the privacy rule asks for twenty fragments).
struct AllThreadSymbols {
  private let text: FrameSymbolText?
  /// The thread and frame index of each symbol in `text`, by its index there.
  private let places: [(thread: Int, frame: Int)]

  init(_ context: DiagnosisContext) {
    var symbols: [String?] = []
    var places: [(thread: Int, frame: Int)] = []
    for (threadIndex, thread) in context.report.threads.enumerated() {
      for (frameIndex, frame) in thread.frames.enumerated() {
        symbols.append(frame.symbol)
        places.append((threadIndex, frameIndex))
      }
    }
    text = FrameSymbolText(texts: symbols)
    self.places = places
  }

  /// The first of `fragments` (in their order) that a frame holds, with what
  /// `context.firstFrameInAnyThread(containing: [fragment])` answers for it.
  func firstFrame(containingFirstOf fragments: [String], in context: DiagnosisContext) -> (
    fragment: Int, evidence: Evidence
  )? {
    for (offset, fragment) in fragments.enumerated() {
      switch text?.firstFrame(containing: fragment) ?? .undecided {
      case .found(let index):
        // The byte search answers what `utf8Contains` answers frame by frame, in the same order.
        let (threadIndex, frameIndex) = places[index]
        let thread = context.report.threads[threadIndex]
        return (
          offset,
          Evidence("threads[\(thread.index)].frames[\(frameIndex)]", context.describe(thread.frames[frameIndex]))
        )
      case .absent:
        continue
      case .undecided:
        if let evidence = context.firstFrameInAnyThread(containing: [fragment]) { return (offset, evidence) }
      }
    }
    return nil
  }
}
