/// The raw symbols of a backtrace's frames as one NUL-separated UTF-8 byte string, so that finding
/// the first frame whose symbol contains a marker is one byte search over the backtrace instead of
/// one per frame (rules ask for dozens of markers per report).
struct FrameSymbolText: Sendable {
  /// Every symbolicated frame's symbol, each followed by a NUL.
  private let bytes: [UInt8]
  /// Where each symbol starts in `bytes`, ascending.
  private let starts: [Int]
  /// The frame index of each symbol in `starts`.
  private let frameIndexes: [Int]

  /// `nil` when a symbol itself contains a NUL (then a match could not be told from a separator).
  init?(_ frames: [Frame]) {
    self.init(texts: frames.map(\.symbol))
  }

  /// Any texts (`nil` ones are skipped); "frame" indexes are then indexes into `texts`.
  init?(texts: [String?]) {
    var bytes: [UInt8] = []
    var starts: [Int] = []
    var frameIndexes: [Int] = []
    for (index, text) in texts.enumerated() {
      guard let symbol = text else { continue }
      starts.append(bytes.count)
      frameIndexes.append(index)
      bytes.append(contentsOf: symbol.utf8)
      bytes.append(0)
    }
    // Only the separators may be NULs.
    let nulCount = bytes.withUnsafeBufferPointer { buffer in
      var count = 0
      for byte in buffer where byte == 0 { count += 1 }
      return count
    }
    guard nulCount == starts.count else { return nil }
    self.bytes = bytes
    self.starts = starts
    self.frameIndexes = frameIndexes
  }

  /// The first frame whose symbol's UTF-8 contains the UTF-8 of `needle` (what `utf8Contains`
  /// answers frame by frame): `.found` with the frame index, `.absent`, or `.undecided` for a
  /// needle that is not ASCII (those need `String.contains`) or that contains a NUL.
  func firstFrame(containing needle: String) -> ByteSearch.Outcome {
    var needle = needle
    return needle.withUTF8 { pattern -> ByteSearch.Outcome in
      // An empty needle matches no symbol, as `utf8Contains` answers.
      guard !pattern.isEmpty else { return .absent }
      guard pattern.allSatisfy({ $0 < 0x80 && $0 != 0 }) else { return .undecided }
      let offset = bytes.withUnsafeBytes { haystack in
        ByteSearch.firstIndex(of: UnsafeRawBufferPointer(pattern), in: haystack)
      }
      guard let offset else { return .absent }
      // The last symbol starting at or before `offset`.
      var low = 0
      var high = starts.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if starts[middle] <= offset { low = middle } else { high = middle - 1 }
      }
      return .found(frameIndexes[low])
    }
  }

  /// Whether any symbol contains `needle` (`nil` when undecided, as in `firstFrame(containing:)`).
  func contains(_ needle: String) -> Bool? {
    switch firstFrame(containing: needle) {
    case .found: true
    case .absent: false
    case .undecided: nil
    }
  }
}
