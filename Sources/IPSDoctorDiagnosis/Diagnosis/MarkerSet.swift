import IPSDoctorSupport

/// A fixed set of byte strings ("markers") to look for together: made once (a rule's
/// `static let`) with each marker's search anchor chosen, then asked per report whether a text
/// holds any of them, each search ending where an earlier marker already matched.
///
/// Matching is on UTF-8 bytes, as `utf8Contains` matches.
struct MarkerSet: Sendable {
  /// The markers in the order given, each non-empty and without a NUL.
  let markers: [[UInt8]]
  /// For each marker, the index of its rarest byte (`FrameSymbolText.anchor(of:)`), where
  /// `memchr` looks first.
  private let anchors: [Int]

  /// Empty markers are left out: they match no text, as `utf8Contains` answers. No marker may
  /// hold a NUL: texts searched together are NUL-separated (`FrameSymbolText`).
  init(_ markers: [String]) {
    self.markers = markers.map { Array($0.utf8) }.filter { !$0.isEmpty }
    precondition(!self.markers.contains { $0.contains(0) }, "a marker holds a NUL")
    anchors = self.markers.map { marker in
      marker.withUnsafeBytes { FrameSymbolText.anchor(of: $0) } ?? 0
    }
  }

  /// The markers as strings, in the order given (empty ones left out).
  var strings: [String] { markers.map { String(decoding: $0, as: UTF8.self) } }

  /// The offset of the first byte of `text` where some marker starts, or `nil` when none occurs.
  func firstOffset(in text: UnsafeRawBufferPointer) -> Int? {
    var first: Int?
    for index in markers.indices {
      // Only a match starting before the best so far can improve on it.
      let end = min(text.count, (first ?? text.count) + markers[index].count - 1)
      let found = markers[index].withUnsafeBytes { marker in
        ByteSearch.firstIndex(of: marker, in: UnsafeRawBufferPointer(rebasing: text[0..<end]), anchor: anchors[index])
      }
      if let found { first = found }
    }
    return first
  }
}
