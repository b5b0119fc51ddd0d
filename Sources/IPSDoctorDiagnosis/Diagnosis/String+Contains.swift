import IPSDoctorSupport

extension String {
  /// Whether `other` occurs in this string, `Character` by `Character`: the standard library's
  /// `contains(_:)`, for the facts and rules of this module, which ask it of short texts a few
  /// hundred times a report. The UTF-8 bytes decide the answer when they can
  /// (`prefilteredContains`, in Support); `StringContainsTests` holds it to the standard
  /// library's answer on a table of texts. One difference: the empty string is in no text.
  func contains(_ other: String) -> Bool { prefilteredContains(other) }

  /// The standard library's `firstRange(of:)`, for the facts and rules of this module, with the
  /// same byte search as ``contains(_:)``.
  func firstRange(of other: String) -> Range<Index>? { prefilteredFirstRange(of: other) }

  /// The text before the first `other` (as ``firstRange(of:)`` finds it), or all of it.
  func text(before other: String) -> Substring {
    firstRange(of: other).map { self[..<$0.lowerBound] } ?? self[...]
  }
}
