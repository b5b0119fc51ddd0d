import IPSDoctorReport
import IPSDoctorSupport

/// Which file holds the debug image of each UUID, found once for a whole run and shared by the
/// threads that diagnose reports: each report then maps only the files its images need.
package struct DebugFileIndex: Sendable, Equatable {
  struct Entry: Sendable, Equatable {
    var path: PathName
    var uuid: String?
    var arch: String
    var display: String
  }

  /// By normalised UUID; the first file found wins.
  private var byUUID: [String: Entry] = [:]
  /// By file name (the image name it was built as), for reporting a UUID mismatch.
  private var byName: [String: [Entry]] = [:]
  /// The files' loaded images, shared by the reports of the run (and by copies of this index).
  private let pool = DebugImagePool()
  /// Asked for the images this index has no file for, when set (a run without `--dsym`).
  package var spotlight: SpotlightLookup?

  /// Equal when they index the same files; the pool only caches what they load.
  package static func == (lhs: DebugFileIndex, rhs: DebugFileIndex) -> Bool {
    lhs.byUUID == rhs.byUUID && lhs.byName == rhs.byName
  }

  package var isEmpty: Bool { byUUID.isEmpty && byName.isEmpty && spotlight == nil }
  package var count: Int { byUUID.count }

  package init() {}

  /// Scans `paths` (see ``DebugImageLocator``).
  package init(paths: [PathName]) {
    // One search of all the paths (its caps hold for them together), then one file at a time,
    // so the mappings are released as the scan goes.
    for file in DebugImageLocator.machOFiles(in: paths) {
      for image in DebugImage.load(path: file) {
        let entry = Entry(path: file, uuid: image.uuid, arch: image.arch, display: image.summary)
        if let uuid = image.uuid, byUUID[uuid] == nil { byUUID[uuid] = entry }
        byName[Symbolicator.lastComponent(image.path), default: []].append(entry)
      }
    }
  }

  /// The files holding the debug images of `report`'s images' UUIDs, and the debug files named
  /// like one of its images but of another UUID (for the mismatch message).
  private func plan(for report: CrashReport) -> (files: [PathName], otherNames: [String: [String]]) {
    var files: [PathName] = []
    var otherNames: [String: [String]] = [:]
    let fromSpotlight = spotlightFiles(for: report)
    for image in report.images {
      let uuid = image.uuid.map(Symbolicator.normalized)
      if let uuid, let entry = byUUID[uuid] {
        if !files.contains(entry.path) { files.append(entry.path) }
      } else if let uuid, let found = fromSpotlight[uuid], !found.isEmpty {
        for file in found where !files.contains(file) { files.append(file) }
      } else if let name = image.name, let entries = byName[name] {
        otherNames[name] = entries.map(\.display)
      }
    }
    return (files, otherNames)
  }

  /// What Spotlight knows of the images of `report` that this index has no file for and that a
  /// frame without a symbol is in: one query for all of them.
  private func spotlightFiles(for report: CrashReport) -> [String: [PathName]] {
    guard let spotlight else { return [:] }
    let missing = Self.imagesWithUnsymbolicatedFrames(report).sorted().compactMap { index -> String? in
      guard let uuid = report.images[index].uuid, byUUID[Symbolicator.normalized(uuid)] == nil else { return nil }
      return uuid
    }
    return missing.isEmpty ? [:] : spotlight.files(for: missing)
  }

  /// The indexes of the images of `report` that a frame without a symbol is in: those Spotlight
  /// is asked about.
  package static func imagesWithUnsymbolicatedFrames(_ report: CrashReport) -> Set<Int> {
    var indexes = Set<Int>()
    let images = ReportImageFinder(report.images)
    func add(_ frames: [Frame]) {
      for frame in frames where !frame.hasSymbolText {
        if let (index, _) = Symbolicator.image(of: frame, in: report, images: images) { indexes.insert(index) }
      }
    }
    for thread in report.threads { add(thread.frames) }
    if let backtrace = report.lastExceptionBacktrace { add(backtrace) }
    return indexes
  }

  /// A symbolicator for `report` of its own: the debug images of its images' UUIDs, mapped now.
  package func symbolicator(for report: CrashReport) -> Symbolicator {
    let (files, otherNames) = plan(for: report)
    return Symbolicator(images: files.flatMap { DebugImage.load(path: $0) }, otherNames: otherNames)
  }

  /// `report` symbolicated with the debug images of this index (unchanged when none matches),
  /// borrowed from the run's pool for the time it takes.
  package func symbolicate(_ report: CrashReport) -> (report: CrashReport, summary: SymbolicationSummary) {
    guard !isEmpty else { return (report, SymbolicationSummary()) }
    let (files, otherNames) = plan(for: report)
    let borrowed = files.map { pool.borrow($0) }
    defer { for (file, images) in zip(files, borrowed) { pool.giveBack(file, images) } }
    var result = Symbolicator(images: borrowed.flatMap { $0 }, otherNames: otherNames).symbolicate(report)
    result.summary.debugFileMatched = !files.isEmpty
    return result
  }
}
