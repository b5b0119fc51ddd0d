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

  /// The warnings that say what `body` did not keep: the first few containers by path, then a
  /// count of the rest. Omissions inside the tape indices `restored` (a value read again alone)
  /// are left out. `prefix` is where `body` is in the report, when it is a value read again alone.
  static func warnings(
    for body: JSONDocument, except restored: Range<Int>? = nil, under prefix: JSONPath = .root
  ) -> [ReportWarning] {
    let omissions = body.omissions.filter { restored?.contains($0.index) != true }
    guard !omissions.isEmpty || body.isAbridged else { return [] }
    var warnings: [ReportWarning] = []
    if body.isAbridged {
      warnings.append(
        ReportWarning(
          location: "body",
          message:
            "the report is too large to keep whole: past its first part, nested lists were not kept, so a field it has may be missing"
        ))
    }
    let named = 8
    for omission in omissions.prefix(named) {
      let (isArray, kept) = body.withView {
        ($0.entries[omission.index].kind == .array, $0.entries[omission.index].end)
      }
      let total = kept + omission.count
      warnings.append(
        ReportWarning(
          location: JSONPath(prefix.components + body.path(to: omission.index).components).description,
          message:
            "kept \(kept) of its \(total) \(isArray ? "elements" : "members"): the report is too large to keep whole"))
    }
    if omissions.count > named {
      let rest = omissions.dropFirst(named)
      let values = rest.reduce(0) { $0 + $1.count }
      warnings.append(
        ReportWarning(
          location: "body",
          message: "\(rest.count) more lists were cut the same way (\(values) values not kept)"))
    }
    return warnings
  }
}
