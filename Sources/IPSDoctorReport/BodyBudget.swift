import IPSDoctorJSON

/// How much of a large JSON body a report keeps in memory.
///
/// A body's tape takes 16 bytes a value and its model about as much again, against 9 to 25 bytes
/// of text a value: read whole, a report costs four to five times its size. A body of up to
/// ``wholeBodyLimit`` bytes is read whole. A larger one keeps at most one tape entry per 128 of its
/// bytes, so that its text, tape and model, with the program's own 10 MB, stay within twice its
/// size:
///
/// - every array keeps its first ``maxArrayElements`` elements, so a thread that recursed a
///   million times keeps the top of its stack and the count of the rest;
/// - once the tape holds one entry per 256 bytes, lists nested inside the elements of top-level
///   arrays (a thread's frames, its registers) keep nothing more, and the threads and images
///   themselves go on being read;
/// - at one entry per 128 bytes, nothing more is kept.
///
/// The crashed thread is kept wherever it is in the list, and when the body was cut past its
/// outline it is read again alone (`CrashReport.rereadCrashedThread`). Every value is still read
/// and checked. What was not kept is said in the report's warnings.
package enum BodyBudget {
  package static let wholeBodyLimit = 16 << 20
  package static let maxArrayElements = 4096

  /// The budget for a body of `bytes` bytes, or `nil` to read it whole.
  static func forBody(bytes: Int) -> JSONTapeBudget? {
    guard bytes > wholeBodyLimit else { return nil }
    // `threads[i].frames`: the root is depth 1, `threads` 2, a thread 3, its frames 4.
    // A crashed thread past the first 4,096 is kept too (`"triggered": true`).
    return JSONTapeBudget(
      maxArrayElements: maxArrayElements, outlineEntries: bytes / 256, outlineDepth: 4, maxEntries: bytes / 128,
      marker: "triggered", maxMarked: 4)
  }

  /// A list that lost entries: where it is, how many it kept, how many it had, what they are.
  struct Cut {
    var location: String
    var kept: Int
    var total: Int
    var noun: String
  }

  /// The warnings that say what a report did not keep: `abridged` first when it is set, the
  /// first few cut lists by location, then a count of the rest (`unit`: what their entries are).
  static func warnings(cuts: [Cut], abridged: String?, unit: String) -> [ReportWarning] {
    var warnings: [ReportWarning] = []
    if let abridged { warnings.append(ReportWarning(location: "body", message: abridged)) }
    let named = 8
    for cut in cuts.prefix(named) {
      warnings.append(
        ReportWarning(
          location: cut.location,
          message: "kept \(cut.kept) of its \(cut.total) \(cut.noun): the report is too large to keep whole"))
    }
    if cuts.count > named {
      let rest = cuts.dropFirst(named)
      let lost = rest.reduce(0) { $0 + $1.total - $1.kept }
      warnings.append(
        ReportWarning(
          location: "body", message: "\(rest.count) more lists were cut the same way (\(lost) \(unit) not kept)"))
    }
    return warnings
  }

  /// The warnings that say what `body` did not keep. Omissions inside the tape indices
  /// `restored` (a value read again alone) are left out. `prefix` is where `body` is in the
  /// report, when it is a value read again alone.
  static func warnings(
    for body: JSONDocument, except restored: Range<Int>? = nil, under prefix: JSONPath = .root
  ) -> [ReportWarning] {
    let cuts = body.omissions.filter { restored?.contains($0.index) != true }.map { omission in
      let (isArray, kept) = body.withView {
        ($0.entries[omission.index].kind == .array, $0.entries[omission.index].end)
      }
      return Cut(
        location: JSONPath(prefix.components + body.path(to: omission.index).components).description, kept: kept,
        total: kept + omission.count, noun: isArray ? "elements" : "members")
    }
    let abridged =
      "the report is too large to keep whole: past its first part, nested lists were not kept, so a field it has may be missing"
    return warnings(cuts: cuts, abridged: body.isAbridged ? abridged : nil, unit: "values")
  }
}
