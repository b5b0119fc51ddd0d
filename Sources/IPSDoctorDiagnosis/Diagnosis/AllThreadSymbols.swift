import IPSDoctorSupport

extension DiagnosisContext {
  /// The first of `fragments`, in their order, that the symbol of a frame of any thread holds,
  /// with the first such frame.
  package func firstFrameInAnyThread(containingFirstOf fragments: [String]) -> (fragment: Int, evidence: Evidence)? {
    AllThreadSymbols(self).firstFrame(containingFirstOf: fragments, in: self)
  }
}

/// Every thread's frame symbols as one byte string, searched once per fragment.
struct AllThreadSymbols {
  private let text: FrameSymbolText?
  /// The thread and frame index of each symbol in `text`, by its index there.
  private let places: [(thread: Int, frame: Int)]

  /// `text` holds every frame's symbol of every thread, in thread order; `places[i]` is where
  /// the `i`th symbol of `text` came from.
  init(_ context: borrowing DiagnosisContext) {
    let threads = context.report.threads
    var capacity = 0
    var count = 0
    for threadIndex in threads.indices {
      let frames = threads[threadIndex].frames
      count += frames.count
      for frameIndex in frames.indices { capacity += (frames[frameIndex].symbol?.utf8.count ?? 0) + 1 }
    }
    var builder = FrameSymbolText.Builder(capacity: capacity, count: count)
    var places: [(thread: Int, frame: Int)] = []
    places.reserveCapacity(count)
    for threadIndex in threads.indices {
      let frames = threads[threadIndex].frames
      for frameIndex in frames.indices {
        builder.append(frames[frameIndex].symbol)
        places.append((threadIndex, frameIndex))
      }
    }
    text = FrameSymbolText(builder)
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
