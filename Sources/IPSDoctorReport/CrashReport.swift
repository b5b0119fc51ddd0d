import IPSDoctorJSON
import IPSDoctorSupport

/// One crash report, whatever its on-disk form (JSON `.ips`, legacy text `.crash`, or a JSON header
/// with a text body), in the typed shape that the diagnosis rules and every output format read.
///
/// Every field is optional because real reports omit, rename and retype fields across OS releases.
/// Nothing is lost: the parsed JSON documents stay reachable through ``headerDocument`` and
/// ``bodyDocument`` (as trees: ``headerJSON`` and ``bodyJSON``).
public struct CrashReport: Sendable, Equatable {
  /// How the report was laid out on disk.
  package enum Format: String, Sendable, Equatable, CaseIterable {
    /// A JSON header line followed by a JSON body (bug_type 309 and most modern kinds).
    case json
    /// A JSON header line followed by a legacy text body (bug_type 109 and older kinds).
    case jsonHeaderTextBody = "json-header-text-body"
    /// A plain legacy text report (Xcode/Organizer `.crash`).
    case legacyText = "legacy-text"
    /// Only a JSON header, no body.
    case headerOnly = "header-only"
  }

  package var format: Format
  /// Whose layout the report was read from (Apple's, or a crash reporter's).
  package var source: ReportSource
  /// What Apple's report would have and this one lacks, in ``MissingPart`` order; empty for Apple's
  /// own reports, which the readers do not judge.
  package var missing: [MissingPart] = []
  package var bugType: BugType?
  package var kind: ReportKind

  // MARK: Header (line 1) and process identity

  package var header: IPSHeader
  /// e.g. "D9139CF1-6D62-4386-8076-B7A3F2B4F116"; made when asked from the 16 bytes it is kept as
  /// (see ``ImageUUID``).
  package var incidentID: String? {
    get { incidentIDStorage.text }
    set { incidentIDStorage = ImageUUID(newValue) }
  }
  var incidentIDStorage = ImageUUID.none
  package var processName: String?
  package var processPath: String?
  package var pid: Int?
  package var parentProcess: String?
  package var bundleID: String?
  /// `CFBundleShortVersionString`, e.g. "2.4".
  package var appVersion: String?
  /// `CFBundleVersion`, e.g. "118".
  package var buildVersion: String?
  package var osVersion: OSVersion?
  package var platform: Int?
  package var modelCode: String?
  package var cpuType: String?
  /// e.g. "2026-07-12 21:47:13.9376 -0700"; made when asked from the bytes it is kept as (see
  /// ``InlineText``).
  package var captureTime: String? {
    get { captureTimeStorage.text }
    set { captureTimeStorage = InlineText(newValue) }
  }
  var captureTimeStorage = InlineText.none
  /// Made when asked, like ``captureTime``.
  package var launchTime: String? {
    get { launchTimeStorage.text }
    set { launchTimeStorage = InlineText(newValue) }
  }
  var launchTimeStorage = InlineText.none
  /// The crash body's `bundleInfo` object, read from ``bodyDocument`` when asked.
  package var bundleInfo: JSONObject? {
    get { bodyTrees.bundleInfo(in: self) }
    set {
      var values = bodyTrees.values(in: self)
      values.bundleInfo = newValue
      bodyTrees = .values(values)
    }
  }
  /// The crash body's `storeInfo` object, read from ``bodyDocument`` when asked.
  package var storeInfo: JSONObject? {
    get { bodyTrees.storeInfo(in: self) }
    set {
      var values = bodyTrees.values(in: self)
      values.storeInfo = newValue
      bodyTrees = .values(values)
    }
  }

  // MARK: What happened

  package var exception: ExceptionInfo?
  package var exceptionReason: ExceptionReason?
  package var termination: Termination?
  /// Application Specific Information: lines grouped by the image that wrote them.
  package var applicationSpecificInfo: [ApplicationSpecificInfo]
  package var kernelTriage: String?
  package var lastExceptionBacktrace: [Frame]?
  /// Index into ``threads`` of the thread that crashed; `nil` when absent or out of range.
  package var faultingThread: Int?
  public var threads: [CrashThread]
  public var images: [BinaryImage]
  package var sharedCache: SharedCache?
  package var vmSummary: String?
  package var vmRegionInfo: String?
  /// A legacy text report's "Dyld Error Message" block (macOS launch failures), one trimmed line
  /// per line.
  package var dyldErrorMessage: String?
  /// The crash body's `legacyInfo` value, read from ``bodyDocument`` when asked.
  package var legacyInfo: JSONValue? {
    get { bodyTrees.legacyInfo(in: self) }
    set {
      var values = bodyTrees.values(in: self)
      values.legacyInfo = newValue
      bodyTrees = .values(values)
    }
  }
  package var isCorpse: Bool?
  package var isNonFatal: Bool?
  package var isSimulated: Bool?
  /// Whether the process ran under Rosetta, its x86_64 code translated for an Apple silicon CPU
  /// (`"translated": true`; a text report's `Code Type: X86-64 (Translated)`).
  package var isTranslated = false

  // MARK: Other report kinds

  package var panic: PanicSummary?
  package var jetsam: JetsamSummary?
  package var stackshot: StackshotSummary?
  package var resource: ResourceSummary?

  // MARK: Provenance

  /// The JSON header line, parsed.
  package var headerDocument: JSONDocument?
  /// The JSON body, parsed (for a broken body: what was read before the break).
  package var bodyDocument: JSONDocument?
  /// The header line as a tree, built on each access.
  package var headerJSON: JSONValue? { headerDocument?.value }
  /// The body as a tree, built on each access.
  package var bodyJSON: JSONValue? { bodyDocument?.value }
  /// Problems that did not stop the report from being read (wrong types, out-of-range indexes, …).
  public var warnings: [ReportWarning]
  /// Set when the body could not be parsed; the header and whatever came before are still usable.
  package var bodyError: ReportError?
  /// How many lists (a thread's frames, the threads, the images, …) of a body too large to keep
  /// whole lost entries (see `BodyBudget`); the warnings name them.
  package var cutLists = 0
  /// Set when the body was too large to keep whole and values beyond the long lists' tails were
  /// not kept: a field the report has may be missing from it.
  package var isAbridged = false
  /// Where ``bundleInfo``, ``storeInfo`` and ``legacyInfo`` come from. No rule reads them, so
  /// their trees are built when asked for, not for every report.
  var bodyTrees = BodyTrees.none

  package init(format: Format, kind: ReportKind = .unknown) {
    self.format = format
    self.source = format == .json || format == .headerOnly ? .appleIPS : .appleText
    self.kind = kind
    self.header = IPSHeader()
    self.applicationSpecificInfo = []
    self.threads = []
    self.images = []
    self.warnings = []
  }

  /// The crashed thread, when the report names one.
  package var crashedThread: CrashThread? {
    if let faultingThread, threads.indices.contains(faultingThread) { return threads[faultingThread] }
    return threads.first(where: \.triggered)
  }

  /// Every line of Application Specific Information, in order.
  package var applicationSpecificLines: [String] {
    applicationSpecificInfo.flatMap(\.lines)
  }

  /// The language exception's reason (`exceptionReason.composed_message`), when recorded.
  package var exceptionMessage: String? {
    exceptionReason?.composedMessage
  }

  /// The image at `index`, or `nil` when the index is out of range.
  package func image(at index: Int?) -> BinaryImage? {
    guard let index, images.indices.contains(index) else { return nil }
    return images[index]
  }

  /// The app's own main executable image: the one whose path is the process path, else the first
  /// image loaded from the process's bundle.
  package var mainImage: BinaryImage? {
    if let processPath, let image = images.first(where: { $0.path == processPath }) { return image }
    if let processName, let image = images.first(where: { $0.name == processName && $0.isAppImage }) {
      return image
    }
    return images.first(where: { $0.source == "P" && $0.name != nil })
  }
}

/// The source of a crash report's ``CrashReport/bundleInfo``, ``CrashReport/storeInfo`` and
/// ``CrashReport/legacyInfo``: none, the body document they were read from, or values set since.
enum BodyTrees: Sendable, Equatable {
  case none
  /// ``CrashReport/apply(crashBody:decoder:)`` read ``CrashReport/bodyDocument``: each is its root's
  /// last member of that name (the two objects only when they are objects).
  case crashBody
  case values(Values)

  struct Values: Sendable, Equatable {
    var bundleInfo: JSONObject?
    var storeInfo: JSONObject?
    var legacyInfo: JSONValue?
  }

  func bundleInfo(in report: CrashReport) -> JSONObject? {
    switch self {
    case .none: nil
    case .crashBody: report.bodyDocument?.withRoot { $0["bundleInfo"]?.objectValue }
    case .values(let values): values.bundleInfo
    }
  }

  func storeInfo(in report: CrashReport) -> JSONObject? {
    switch self {
    case .none: nil
    case .crashBody: report.bodyDocument?.withRoot { $0["storeInfo"]?.objectValue }
    case .values(let values): values.storeInfo
    }
  }

  func legacyInfo(in report: CrashReport) -> JSONValue? {
    switch self {
    case .none: nil
    case .crashBody: report.bodyDocument?.withRoot { $0["legacyInfo"]?.value }
    case .values(let values): values.legacyInfo
    }
  }

  /// The current values, for a setter to replace one of them.
  func values(in report: CrashReport) -> Values {
    Values(bundleInfo: bundleInfo(in: report), storeInfo: storeInfo(in: report), legacyInfo: legacyInfo(in: report))
  }
}

/// Line 1 of an `.ips` file. Unknown keys stay in ``CrashReport/headerJSON``.
package struct IPSHeader: Sendable, Equatable {
  package var appName: String?
  package var appVersion: String?
  package var buildVersion: String?
  package var bundleID: String?
  package var bugType: String?
  package var osVersion: String?
  package var platform: Int?
  /// Made when asked, like ``CrashReport/incidentID``.
  package var incidentID: String? {
    get { incidentIDStorage.text }
    set { incidentIDStorage = ImageUUID(newValue) }
  }
  var incidentIDStorage: ImageUUID
  /// Made when asked, like ``CrashReport/captureTime``.
  package var timestamp: String? {
    get { timestampStorage.text }
    set { timestampStorage = InlineText(newValue) }
  }
  var timestampStorage: InlineText
  /// Made when asked (see ``incidentID``).
  package var sliceUUID: String? {
    get { sliceUUIDStorage.text }
    set { sliceUUIDStorage = ImageUUID(newValue) }
  }
  var sliceUUIDStorage: ImageUUID
  package var name: String?

  // No initialiser here, so that the compiler makes the memberwise one: the JSON reader builds a
  // header with it in one step (see `IPSHeader(json:decoder:)`). The UUIDs have no default value,
  // so that it makes no `init()` to clash with the public one below.
}

extension IPSHeader {
  package init() {
    self.init(incidentIDStorage: .none, timestampStorage: .none, sliceUUIDStorage: .none)
  }
}

package struct OSVersion: Sendable, Equatable, CustomStringConvertible {
  /// e.g. "iPhone OS 26.6"
  package var train: String?
  /// e.g. "23G80"
  package var build: String?
  package var releaseType: String?
  package var isEmbedded: Bool?

  package init(train: String? = nil, build: String? = nil, releaseType: String? = nil) {
    self.train = train
    self.build = build
    self.releaseType = releaseType
  }

  /// Whether a text report of this OS writes its Version line "short (build)", `1.0 (1)`, rather
  /// than "build (short)", `1 (1.0)`: macOS always did; iOS, iPadOS and tvOS from 15 and watchOS
  /// from 8 do (from when reports became `.ips`, whose text form is "app_version (build_version)"),
  /// and visionOS always has. `nil` without a train.
  package var writesShortVersionFirst: Bool? {
    guard let train else { return nil }
    if train.hasPrefix("Mac OS") || train.hasPrefix("macOS") || train.hasPrefix("OS X") { return true }
    if train.hasPrefix("visionOS") || train.hasPrefix("xrOS") { return true }
    let words = train.split(separator: " ")
    guard let last = words.last, let major = Int(last.prefix { $0.isASCII && $0.isNumber }) else { return false }
    return train.hasPrefix("watchOS") || train.hasPrefix("Watch OS") ? major >= 8 : major >= 15
  }

  /// Parses the header's one-string form, "iPhone OS 26.6 (23G80)": the trimmed text, or, when it
  /// ends with ")", the text before its last "(" (trimmed) as the train and what is between them as
  /// the build (a combining mark after that "(" is the build's).
  package init(displayString: String) {
    let trimmed = displayString.trimmingWhitespace()
    if trimmed.hasSuffix(")"), let open = trimmed.utf8.lastIndex(of: UInt8(ascii: "(")) {
      train = trimmed[..<open].trimmingWhitespace()
      build = String(trimmed[trimmed.utf8.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
    } else {
      train = trimmed
    }
  }

  package var description: String {
    switch (train, build) {
    case (let train?, let build?): .concatenating(train, " (", build, ")")
    case (let train?, nil): train
    case (nil, let build?): build
    case (nil, nil): ""
    }
  }
}

package struct SharedCache: Sendable, Equatable {
  package var base: UInt64?
  package var size: UInt64?
  package var uuid: String?

  package init() {}
}

/// A problem in a report that did not stop it from being read.
public struct ReportWarning: Sendable, Equatable, CustomStringConvertible {
  /// The JSON path or text position the warning is about, e.g. `threads[3].frames[12].imageIndex`
  /// or `line 41`.
  package var location: String
  package var message: String

  package init(location: String, message: String) {
    self.location = location
    self.message = message
  }

  public var description: String { "\(location): \(message)" }
}
