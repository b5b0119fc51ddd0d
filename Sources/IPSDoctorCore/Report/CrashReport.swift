#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// One crash report, whatever its on-disk form (JSON `.ips`, legacy text `.crash`, or a JSON header
/// with a text body), in the typed shape that the diagnosis rules and every output format read.
///
/// Every field is optional because real reports omit, rename and retype fields across OS releases.
/// Nothing is lost: the parsed JSON documents stay reachable through ``headerDocument`` and
/// ``bodyDocument`` (as trees: ``headerJSON`` and ``bodyJSON``).
public struct CrashReport: Sendable, Equatable {
  /// How the report was laid out on disk.
  public enum Format: String, Sendable, Equatable, CaseIterable {
    /// A JSON header line followed by a JSON body (bug_type 309 and most modern kinds).
    case json
    /// A JSON header line followed by a legacy text body (bug_type 109 and older kinds).
    case jsonHeaderTextBody = "json-header-text-body"
    /// A plain legacy text report (Xcode/Organizer `.crash`).
    case legacyText = "legacy-text"
    /// Only a JSON header, no body.
    case headerOnly = "header-only"
  }

  public var format: Format
  public var bugType: BugType?
  public var kind: ReportKind

  // MARK: Header (line 1) and process identity

  public var header: IPSHeader
  /// e.g. "D9139CF1-6D62-4386-8076-B7A3F2B4F116"; made when asked from the 16 bytes it is kept as
  /// (see ``ImageUUID``).
  public var incidentID: String? {
    get { incidentIDStorage.text }
    set { incidentIDStorage = ImageUUID(newValue) }
  }
  var incidentIDStorage = ImageUUID.none
  public var processName: String?
  public var processPath: String?
  public var pid: Int?
  public var parentProcess: String?
  public var bundleID: String?
  /// `CFBundleShortVersionString`, e.g. "2.4".
  public var appVersion: String?
  /// `CFBundleVersion`, e.g. "118".
  public var buildVersion: String?
  public var osVersion: OSVersion?
  public var platform: Int?
  public var modelCode: String?
  public var cpuType: String?
  /// e.g. "2026-07-12 21:47:13.9376 -0700"; made when asked from the bytes it is kept as (see
  /// ``InlineText``).
  public var captureTime: String? {
    get { captureTimeStorage.text }
    set { captureTimeStorage = InlineText(newValue) }
  }
  var captureTimeStorage = InlineText.none
  /// Made when asked, like ``captureTime``.
  public var launchTime: String? {
    get { launchTimeStorage.text }
    set { launchTimeStorage = InlineText(newValue) }
  }
  var launchTimeStorage = InlineText.none
  /// The crash body's `bundleInfo` object, read from ``bodyDocument`` when asked.
  public var bundleInfo: JSONObject? {
    get { bodyTrees.bundleInfo(in: self) }
    set {
      var values = bodyTrees.values(in: self)
      values.bundleInfo = newValue
      bodyTrees = .values(values)
    }
  }
  /// The crash body's `storeInfo` object, read from ``bodyDocument`` when asked.
  public var storeInfo: JSONObject? {
    get { bodyTrees.storeInfo(in: self) }
    set {
      var values = bodyTrees.values(in: self)
      values.storeInfo = newValue
      bodyTrees = .values(values)
    }
  }

  // MARK: What happened

  public var exception: ExceptionInfo?
  public var exceptionReason: ExceptionReason?
  public var termination: Termination?
  /// Application Specific Information: lines grouped by the image that wrote them.
  public var applicationSpecificInfo: [ApplicationSpecificInfo]
  public var kernelTriage: String?
  public var lastExceptionBacktrace: [Frame]?
  /// Index into ``threads`` of the thread that crashed; `nil` when absent or out of range.
  public var faultingThread: Int?
  public var threads: [CrashThread]
  public var images: [BinaryImage]
  public var sharedCache: SharedCache?
  public var vmSummary: String?
  public var vmRegionInfo: String?
  /// A legacy text report's "Dyld Error Message" block (macOS launch failures), one trimmed line
  /// per line.
  public var dyldErrorMessage: String?
  /// The crash body's `legacyInfo` value, read from ``bodyDocument`` when asked.
  public var legacyInfo: JSONValue? {
    get { bodyTrees.legacyInfo(in: self) }
    set {
      var values = bodyTrees.values(in: self)
      values.legacyInfo = newValue
      bodyTrees = .values(values)
    }
  }
  public var isCorpse: Bool?
  public var isNonFatal: Bool?
  public var isSimulated: Bool?

  // MARK: Other report kinds

  public var panic: PanicSummary?
  public var jetsam: JetsamSummary?
  public var stackshot: StackshotSummary?
  public var resource: ResourceSummary?

  // MARK: Provenance

  /// The JSON header line, parsed.
  public var headerDocument: JSONDocument?
  /// The JSON body, parsed (for a broken body: what was read before the break).
  public var bodyDocument: JSONDocument?
  /// The header line as a tree, built on each access.
  public var headerJSON: JSONValue? { headerDocument?.value }
  /// The body as a tree, built on each access.
  public var bodyJSON: JSONValue? { bodyDocument?.value }
  /// Problems that did not stop the report from being read (wrong types, out-of-range indexes, …).
  public var warnings: [ReportWarning]
  /// Set when the body could not be parsed; the header and whatever came before are still usable.
  public var bodyError: ReportError?
  /// Where ``bundleInfo``, ``storeInfo`` and ``legacyInfo`` come from. No rule reads them, so
  /// their trees are built when asked for, not for every report.
  var bodyTrees = BodyTrees.none

  public init(format: Format, kind: ReportKind = .unknown) {
    self.format = format
    self.kind = kind
    self.header = IPSHeader()
    self.applicationSpecificInfo = []
    self.threads = []
    self.images = []
    self.warnings = []
  }

  /// The crashed thread, when the report names one.
  public var crashedThread: CrashThread? {
    if let faultingThread, threads.indices.contains(faultingThread) { return threads[faultingThread] }
    return threads.first(where: \.triggered)
  }

  /// Every line of Application Specific Information, in order.
  public var applicationSpecificLines: [String] {
    applicationSpecificInfo.flatMap(\.lines)
  }

  /// The language exception's reason (`exceptionReason.composed_message`), when recorded.
  public var exceptionMessage: String? {
    exceptionReason?.composedMessage
  }

  /// The image at `index`, or `nil` when the index is out of range.
  public func image(at index: Int?) -> BinaryImage? {
    guard let index, images.indices.contains(index) else { return nil }
    return images[index]
  }

  /// The app's own main executable image: the one whose path is the process path, else the first
  /// image loaded from the process's bundle.
  public var mainImage: BinaryImage? {
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
public struct IPSHeader: Sendable, Equatable {
  public var appName: String?
  public var appVersion: String?
  public var buildVersion: String?
  public var bundleID: String?
  public var bugType: String?
  public var osVersion: String?
  public var platform: Int?
  /// Made when asked, like ``CrashReport/incidentID``: few readers ask, and a 36-byte `String` is an
  /// allocation to make and to free.
  public var incidentID: String? {
    get { incidentIDStorage.text }
    set { incidentIDStorage = ImageUUID(newValue) }
  }
  var incidentIDStorage: ImageUUID
  /// Made when asked, like ``CrashReport/captureTime``.
  public var timestamp: String? {
    get { timestampStorage.text }
    set { timestampStorage = InlineText(newValue) }
  }
  var timestampStorage: InlineText
  /// Made when asked (see ``incidentID``).
  public var sliceUUID: String? {
    get { sliceUUIDStorage.text }
    set { sliceUUIDStorage = ImageUUID(newValue) }
  }
  var sliceUUIDStorage: ImageUUID
  public var name: String?

  // No initialiser here, so that the compiler makes the memberwise one: the JSON reader builds a
  // header with it in one step (see `IPSHeader(json:decoder:)`). The UUIDs have no default value,
  // so that it makes no `init()` to clash with the public one below.
}

extension IPSHeader {
  public init() {
    self.init(incidentIDStorage: .none, timestampStorage: .none, sliceUUIDStorage: .none)
  }
}

public struct OSVersion: Sendable, Equatable, CustomStringConvertible {
  /// e.g. "iPhone OS 26.6"
  public var train: String?
  /// e.g. "23G80"
  public var build: String?
  public var releaseType: String?
  public var isEmbedded: Bool?

  public init(train: String? = nil, build: String? = nil, releaseType: String? = nil) {
    self.train = train
    self.build = build
    self.releaseType = releaseType
  }

  /// Parses the header's one-string form, "iPhone OS 26.6 (23G80)".
  public init(displayString: String) {
    if let version = Self.parsedASCII(displayString) {
      self = version
      return
    }
    let trimmed = displayString.trimmingWhitespace()
    if trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") {
      train = String(trimmed[..<open]).trimmingWhitespace()
      build = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
    } else {
      train = trimmed
    }
  }

  /// ``init(displayString:)`` on the bytes, for the usual ASCII text without carriage returns:
  /// there every `Character` is one byte, so the answer is the same without `Character` walks.
  /// (Read in place, not by walking `Substring.UTF8View` indices.)
  static func parsedASCII(_ text: String) -> OSVersion? {
    let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> OSVersion? in
      var bits: UInt8 = 0
      for byte in bytes {
        guard byte != 0x0D else { return nil }
        bits |= byte
      }
      guard bits < 0x80 else { return nil }
      func string(_ lower: Int, _ upper: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
      }
      // The trimmed text is lower..<upper.
      var lower = 0
      var upper = bytes.count
      while lower < upper && bytes[lower].isSpaceTabOrLineFeed { lower += 1 }
      while upper > lower && bytes[upper - 1].isSpaceTabOrLineFeed { upper -= 1 }
      var version = OSVersion()
      if upper > lower && bytes[upper - 1] == UInt8(ascii: ")") {
        var open = upper - 1
        while open > lower && bytes[open - 1] != UInt8(ascii: "(") { open -= 1 }
        if open > lower {
          open -= 1  // the "("
          var trainUpper = open
          while trainUpper > lower && bytes[trainUpper - 1].isSpaceTabOrLineFeed { trainUpper -= 1 }
          version.train = string(lower, trainUpper)
          version.build = string(open + 1, upper - 1)
          return version
        }
      }
      version.train = string(lower, upper)
      return version
    }
    return parsed ?? parsedASCIIByIndices(text)
  }

  /// ``parsedASCII(_:)`` by `String` indices, for text without contiguous UTF-8 (and as the plain
  /// form the tests compare the byte form with).
  static func parsedASCIIByIndices(_ text: String) -> OSVersion? {
    let bytes = text.utf8
    guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
    func trimmed(_ slice: Substring.UTF8View) -> String {
      guard let first = slice.firstIndex(where: { !$0.isSpaceTabOrLineFeed }) else { return "" }
      let last = slice.lastIndex(where: { !$0.isSpaceTabOrLineFeed })!
      return String(Substring(slice[first...last]))
    }
    let text = trimmed(Substring(text).utf8)
    var version = OSVersion()
    let utf8 = text.utf8
    if utf8.last == UInt8(ascii: ")"), let open = utf8.lastIndex(of: UInt8(ascii: "(")) {
      version.train = trimmed(Substring(utf8[..<open]).utf8)
      version.build = String(Substring(utf8[utf8.index(after: open)..<utf8.index(before: utf8.endIndex)]))
    } else {
      version.train = text
    }
    return version
  }

  public var description: String {
    switch (train, build) {
    case (let train?, let build?): .concatenating(train, " (", build, ")")
    case (let train?, nil): train
    case (nil, let build?): build
    case (nil, nil): ""
    }
  }
}

/// The Mach exception (`exception` in JSON, "Exception Type/Codes/Subtype" in text).
public struct ExceptionInfo: Sendable, Equatable {
  /// e.g. "EXC_BAD_ACCESS"
  public var type: String?
  /// e.g. "SIGSEGV"
  public var signal: String?
  /// e.g. "0x0000000000000001, 0x0000000000000000"
  public var codes: String?
  public var rawCodes: [UInt64]
  /// e.g. "KERN_INVALID_ADDRESS at 0x0000000000000010"
  public var subtype: String?
  public var message: String?
  /// The Exception Note lines of a legacy report (EXC_CORPSE_NOTIFY, NON-FATAL CONDITION, …).
  public var notes: [String]

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension ExceptionInfo {
  public init(type: String? = nil, signal: String? = nil) {
    self.init(type: type, signal: signal, codes: nil, rawCodes: [], subtype: nil, message: nil, notes: [])
  }

  /// The address after "at" in the subtype ("KERN_INVALID_ADDRESS at 0x10" → 0x10).
  public var faultAddress: UInt64? {
    guard let subtype, let range = subtype.prefilteredFirstRange(of: " at 0x") else { return nil }
    let digits = subtype[range.upperBound...].prefix(while: \.isHexDigit)
    return UInt64(digits, radix: 16)
  }
}

/// The language exception (`exceptionReason`), e.g. an uncaught `NSException`.
public struct ExceptionReason: Sendable, Equatable {
  /// e.g. "NSInternalInconsistencyException"
  public var name: String?
  /// e.g. "objc-exception"
  public var type: String?
  /// e.g. "NSException"
  public var className: String?
  public var composedMessage: String?
  public var formatString: String?
  public var arguments: [String]

  public init(name: String? = nil, composedMessage: String? = nil) {
    self.name = name
    self.composedMessage = composedMessage
    self.arguments = []
  }
}

/// Why the OS ended the process (`termination` in JSON, "Termination Reason" in text).
public struct Termination: Sendable, Equatable {
  /// e.g. "SIGNAL", "FRONTBOARD", "RUNNINGBOARD", "DYLD", "CODESIGNING", "TCC"
  public var namespace: String?
  /// e.g. 0x8badf00d
  public var code: UInt64?
  /// e.g. "Abort trap: 6", "Library missing"
  public var indicator: String?
  public var reasons: [String]
  public var details: [String]
  public var byProc: String?
  public var byPid: Int?
  public var flags: UInt64?

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension Termination {
  public init(namespace: String? = nil, code: UInt64? = nil) {
    self.init(
      namespace: namespace, code: code, indicator: nil, reasons: [], details: [], byProc: nil, byPid: nil,
      flags: nil)
  }

  /// The code as Apple writes it in text reports: `0x8badf00d`.
  public var hexCode: String? {
    code.map { "0x" + String($0, radix: 16) }
  }

  /// Reasons, details and indicator together, for text matching.
  public var allText: [String] {
    reasons + details + (indicator.map { [$0] } ?? [])
  }
}

public struct ApplicationSpecificInfo: Sendable, Equatable {
  /// The image that wrote the lines (the JSON key), when known.
  public var image: String?
  public var lines: [String]

  public init(image: String?, lines: [String]) {
    self.image = image
    self.lines = lines
  }
}

public struct CrashThread: Sendable, Equatable {
  /// Position in the report's thread list ("Thread N").
  public var index: Int
  /// The kernel thread id.
  public var id: UInt64?
  public var name: String?
  /// The dispatch queue label, e.g. "com.apple.main-thread".
  public var queue: String?
  public var triggered: Bool
  public var frames: [Frame]
  public var state: ThreadState?

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension CrashThread {
  public init(index: Int, frames: [Frame] = []) {
    self.init(index: index, id: nil, name: nil, queue: nil, triggered: false, frames: frames, state: nil)
  }

  public var isMainThread: Bool {
    queue == "com.apple.main-thread" || name == "com.apple.main-thread"
      || (index == 0 && queue == nil && name == nil)
  }

  /// Whether the thread was running a job of the Swift concurrency cooperative pool.
  public var isOnCooperativeQueue: Bool {
    queue?.hasSuffix(".cooperative") ?? false
  }
}

/// Registers of the crashed thread. Values are exact 64-bit numbers.
public struct ThreadState: Sendable, Equatable {
  public struct Register: Sendable, Equatable {
    public var name: String
    public var value: UInt64
    public var symbol: String?

    public init(name: String, value: UInt64, symbol: String? = nil) {
      self.name = name
      self.value = value
      self.symbol = symbol
    }
  }

  /// e.g. "ARM_THREAD_STATE64", "x86_THREAD_STATE"
  public var flavor: String?
  public var registers: [Register]
  /// The exception syndrome's description on ARM, e.g. "(Data Abort) byte read Translation fault".
  public var esrDescription: String?

  public init(flavor: String? = nil, registers: [Register] = []) {
    self.flavor = flavor
    self.registers = registers
  }

  public subscript(name: String) -> UInt64? {
    registers.first(where: { $0.name == name })?.value
  }
}

/// One stack frame (`threads[].frames[]` or `lastExceptionBacktrace[]`).
public struct Frame: Sendable, Equatable {
  public var imageIndex: Int?
  /// pc − image base
  public var imageOffset: UInt64?
  /// The symbol exactly as the report wrote it (simplified demangled, full, or mangled).
  public var symbol: String?
  /// Offset from the symbol's start ("+ N").
  public var symbolLocation: UInt64?
  public var sourceFile: String?
  public var sourceLine: Int?
  public var isInline: Bool
  /// The image's name, resolved from ``imageIndex`` (JSON) or read from the line (text).
  public var imageName: String?
  /// The absolute address: image base + offset, or as written in a text report.
  public var address: UInt64?

  // The readers use the memberwise initialiser, every field at once: an initialiser that assigns
  // the fields one by one makes a copy of the frame and destroys the original (retaining and
  // releasing each string), which is why the public one is in an extension (see
  // docs/performance-history.md, 'Structs built whole, not field by field').
}

extension Frame {
  public init(
    imageIndex: Int? = nil, imageOffset: UInt64? = nil, symbol: String? = nil,
    symbolLocation: UInt64? = nil, imageName: String? = nil, address: UInt64? = nil
  ) {
    self.init(
      imageIndex: imageIndex, imageOffset: imageOffset, symbol: symbol, symbolLocation: symbolLocation,
      sourceFile: nil, sourceLine: nil, isInline: false, imageName: imageName, address: address)
  }

  /// The symbol with its demangled forms (full and simplified, through the Swift runtime's
  /// `swift_demangle`), or `nil` when the frame is unsymbolicated. Computed on demand: most rules
  /// never need a demangled name.
  public var symbolName: SymbolName? {
    guard hasSymbolText, let symbol else { return nil }
    return SymbolName(symbol)
  }

  /// Whether the frame has a symbol other than empty or `???`, i.e. whether `symbolName` is not
  /// `nil`, without making it (and demangling it) to find out.
  var hasSymbolText: Bool {
    guard let symbol else { return false }
    return !symbol.isEmpty && symbol != "???"
  }
}

/// A loaded image (`usedImages[]` or a "Binary Images" line).
public struct BinaryImage: Sendable, Equatable {
  /// e.g. "7776e1e7-d921-35c9-8bae-089c0ffad3b2"; made when asked from the 16 bytes it is kept as.
  public var uuid: String? {
    get { uuidStorage.text }
    set { uuidStorage = ImageUUID(newValue) }
  }
  var uuidStorage: ImageUUID
  public var base: UInt64?
  public var size: UInt64?
  public var arch: String?
  public var name: String?
  public var path: String?
  /// "P" process, "S" shared cache, "C" shared-cache library, "K" kernel, "A" absolute, …
  public var source: String?
  public var bundleID: String?
  public var bundleShortVersion: String?
  public var bundleVersion: String?

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension BinaryImage {
  public init(name: String? = nil, path: String? = nil, uuid: String? = nil, base: UInt64? = nil) {
    self.init(
      uuidStorage: ImageUUID(uuid), base: base, size: nil, arch: nil, name: name, path: path, source: nil,
      bundleID: nil, bundleShortVersion: nil, bundleVersion: nil)
  }

  /// Whether the image ships inside an app bundle or container (the developer's own code or one of
  /// its frameworks), rather than with the OS.
  public var isAppImage: Bool { Self.isAppImage(name: name, path: path, source: source) }

  /// ``isAppImage`` from the three fields it reads. A loop over a report's images passes them in
  /// place: asking each image for the property copies the whole image (retaining each of its
  /// texts) and destroys the copy.
  /// The app bundle the process runs from, "/Example.app/", read from the process path: its first
  /// path component that ends in ".app" (an extension's `.appex` lies inside it). `nil` outside
  /// any app bundle. Compared as a component rather than as a prefix, as reports write one
  /// location with and without "/private" or redacted ("*/Example.app/…").
  static func bundleComponent(ofProcessPath path: String?) -> String? {
    appBundle(ofProcessPath: path)?.component
  }

  /// The process's app bundle: the process path through its first ".app/" (`prefix`), and that
  /// last component as ``bundleComponent(ofProcessPath:)`` spells it.
  struct AppBundle: Sendable {
    var prefix: String
    var component: String
  }

  static func appBundle(ofProcessPath path: String?) -> AppBundle? {
    guard let path, let range = path.prefilteredFirstRange(of: ".app/") else { return nil }
    // Over the UTF-8 view: "/" is ASCII, and stepping back `Character` by `Character` is slow.
    let start =
      path.utf8[..<range.lowerBound].lastIndex(of: UInt8(ascii: "/")).map { path.utf8.index(after: $0) }
      ?? path.startIndex
    guard start < range.lowerBound else { return nil }
    return AppBundle(prefix: String(path[..<range.upperBound]), component: "/" + path[start..<range.upperBound])
  }

  /// ``isAppImage(name:path:source:)`` decided from the report: with the process's bundle known
  /// (``appBundle(ofProcessPath:)``), an image inside an app bundle is the app's only when it is
  /// inside that one (another app's bundle, such as a developer tool's, is not).
  /// `<App>.debug.dylib`, Xcode's debug-build home of the app's code, is inside it.
  static func isAppImage(name: String?, path: String?, source: String?, bundle: AppBundle?) -> Bool {
    guard isAppImage(name: name, path: path, source: source) else { return false }
    guard let bundle, let path else { return true }
    // Compared as bytes: a game's report lists hundreds of images inside its bundle, and most
    // start with the process's own spelling of it.
    let found = path.utf8.withContiguousStorageIfAvailable { path -> Bool in
      let raw = UnsafeRawBufferPointer(path)
      func find(_ text: String, from start: Int = 0) -> Int? {
        var text = text
        return text.withUTF8 { ByteSearch.firstIndex(of: UnsafeRawBufferPointer($0), in: raw, from: start) }
      }
      var prefix = bundle.prefix
      let samePrefix = prefix.withUTF8 { prefix in
        prefix.count <= raw.count && memcmp(raw.baseAddress!, prefix.baseAddress!, prefix.count) == 0
      }
      if samePrefix { return true }
      let marker: StaticString = ".app/"
      guard ByteSearch.firstIndex(of: marker, in: path) != nil else { return true }
      if find(bundle.component) != nil { return true }
      // "Example.app/…" with nothing before it.
      return find(String(bundle.component.dropFirst())) == 0
    }
    if let found { return found }
    guard path.prefilteredContains(".app/") else { return true }
    return path.prefilteredContains(bundle.component) || path.hasPrefix(bundle.component.dropFirst())
  }

  static func isAppImage(name: String?, path: String?, source: String?) -> Bool {
    // Swift runtime libraries that old apps embedded are Apple's code, not the app's. (No
    // character but "l" itself is canonically equivalent to "l", so a name starting with another
    // ASCII byte cannot start with "libswift": most names skip the `Character`-wise test.)
    if let name, name.utf8.first.map({ $0 == UInt8(ascii: "l") || $0 >= 0x80 }) ?? false,
      name.hasPrefix("libswift") && name.hasSuffix(".dylib")
    {
      return false
    }
    guard let path else { return source == "P" && name != nil }
    switch pathKind(path) {
    case .system: return false
    case .app: return true
    case .other: return source != "S" && source != "C" && source != "K"
    }
  }

  /// What an image's path says about ``isAppImage``.
  enum PathKind: Equatable {
    /// An OS location.
    case system
    /// Inside an app bundle or container.
    case app
    /// Neither: the image's source decides.
    case other
  }

  /// ``PathKind`` of `path`. Legacy reports name hundreds of images, and the `String` tests
  /// (`hasSuffix` walks `Character`s backwards) would cost more than reading the image's line. In
  /// ASCII text every byte is a `Character` except a "\r\n" pair, which no marker here has or
  /// can split, so there the byte tests give the `String` answers; other text takes the `String`
  /// tests.
  static func pathKind(_ path: String) -> PathKind {
    let kind = path.utf8.withContiguousStorageIfAvailable { path -> PathKind? in
      guard ByteSearch.isASCII(path) else { return nil }
      func hasPrefix(_ prefix: StaticString) -> Bool {
        path.count >= prefix.utf8CodeUnitCount
          && memcmp(path.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
      }
      func contains(_ needle: StaticString) -> Bool {
        ByteSearch.firstIndex(of: needle, in: path) != nil
      }
      // Apple's code wherever it is installed: the OS, simulator runtimes (under
      // /Library/Developer, or redacted to /Volumes/VOLUME), cryptexes.
      if hasPrefix("/System/") || hasPrefix("/usr/lib/") || hasPrefix("/usr/libexec/")
        || hasPrefix("/Library/Apple/") || hasPrefix("/sbin/") || hasPrefix("/bin/")
        || hasPrefix("/Library/Developer/") || hasPrefix("/Volumes/VOLUME/")
        || hasPrefix("/private/preboot/Cryptexes/") || hasPrefix("/preboot/Cryptexes/")
      {
        return .system
      }
      if hasPrefix("/private/var/containers/Bundle/Application/")
        || hasPrefix("/var/containers/Bundle/Application/")
      {
        return .app
      }
      // Inside a bundle, except Xcode's developer directory (any Xcode-*.app) and what it holds,
      // simulator runtimes included. The extra searches run only for paths that hold the first
      // marker, so other images pay nothing for them.
      if contains(".app/") { return contains(".app/Contents/Developer/") ? .system : .app }
      if path.count >= 4 && memcmp(path.baseAddress! + (path.count - 4), ".app", 4) == 0 { return .app }
      if contains("/Developer/CoreSimulator/") { return contains("/RuntimeRoot/") ? .system : .app }
      return hasPrefix("/System") ? .system : .other
    }
    return (kind ?? nil) ?? pathKindByCharacters(path)
  }

  /// ``pathKind(_:)`` by the `String` tests, for any text.
  static func pathKindByCharacters(_ path: String) -> PathKind {
    if path.hasPrefix("/System/") || path.hasPrefix("/usr/lib/") || path.hasPrefix("/usr/libexec/")
      || path.hasPrefix("/Library/Apple/") || path.hasPrefix("/sbin/") || path.hasPrefix("/bin/")
      || path.hasPrefix("/Library/Developer/") || path.hasPrefix("/Volumes/VOLUME/")
      || path.hasPrefix("/private/preboot/Cryptexes/") || path.hasPrefix("/preboot/Cryptexes/")
    {
      return .system
    }
    if path.hasPrefix("/private/var/containers/Bundle/Application/")
      || path.hasPrefix("/var/containers/Bundle/Application/")
    {
      return .app
    }
    if path.prefilteredContains(".app/") {
      return path.prefilteredContains(".app/Contents/Developer/") ? .system : .app
    }
    if path.hasSuffix(".app") { return .app }
    if path.prefilteredContains("/Developer/CoreSimulator/") {
      return path.prefilteredContains("/RuntimeRoot/") ? .system : .app
    }
    return path.hasPrefix("/System") ? .system : .other
  }
}

/// An image's UUID (also a report's incident id and slice UUID). A report names dozens of images,
/// and a 36-byte `String` for each would be an allocation to make and to free; few readers ask for
/// one. The usual dashed 8-4-4-4-12 form in one letter case is kept as its 16 bytes, anything
/// else as its text, so that two values are equal exactly when their texts are.
enum ImageUUID: Sendable, Equatable {
  case none
  /// Lower-case hex (JSON reports): digits 0–7 in the low half of `high`, 8–15 in its high half,
  /// 16–23 and 24–31 likewise in `low`, the first digit of each eight in the lowest nibble.
  case lowercase(high: UInt64, low: UInt64)
  /// Upper-case hex (text reports), packed as ``lowercase(high:low:)``.
  case uppercase(high: UInt64, low: UInt64)
  case text(String)

  init(_ text: String?) {
    guard var text else {
      self = .none
      return
    }
    self = text.withUTF8 { Self(canonical: UnsafeRawBufferPointer($0)) } ?? .text(text)
  }

  /// The UUID written in `bytes` when they are the dashed form in one letter case; `nil` otherwise.
  /// Read eight digits at a time.
  init?(canonical bytes: UnsafeRawBufferPointer) {
    guard bytes.count == 36, let base = bytes.baseAddress else { return nil }
    guard bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D else { return nil }
    func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    func half(_ offset: Int) -> UInt64 {
      UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
    let groups = (word(0), half(9) | half(14) << 32, half(19) | half(24) << 32, word(28))
    let nibbles = (Self.nibbles(groups.0), Self.nibbles(groups.1), Self.nibbles(groups.2), Self.nibbles(groups.3))
    let high = Self.packed(nibbles.0) | Self.packed(nibbles.1) << 32
    let low = Self.packed(nibbles.2) | Self.packed(nibbles.3) << 32
    // Valid digits of one case are exactly the bytes that spell their own nibbles again.
    let lowercase =
      (Self.ascii(nibbles.0, letters: 0x27) ^ groups.0) | (Self.ascii(nibbles.1, letters: 0x27) ^ groups.1)
      | (Self.ascii(nibbles.2, letters: 0x27) ^ groups.2) | (Self.ascii(nibbles.3, letters: 0x27) ^ groups.3)
    let uppercase =
      (Self.ascii(nibbles.0, letters: 0x07) ^ groups.0) | (Self.ascii(nibbles.1, letters: 0x07) ^ groups.1)
      | (Self.ascii(nibbles.2, letters: 0x07) ^ groups.2) | (Self.ascii(nibbles.3, letters: 0x07) ^ groups.3)
    let inRange = (nibbles.0 | nibbles.1 | nibbles.2 | nibbles.3) & 0xF0F0_F0F0_F0F0_F0F0 == 0
    guard inRange else { return nil }
    if lowercase == 0 {
      self = .lowercase(high: high, low: low)
    } else if uppercase == 0 {
      self = .uppercase(high: high, low: low)
    } else {
      return nil
    }
  }

  var text: String? {
    switch self {
    case .none: return nil
    case .text(let text): return text
    case .lowercase(let high, let low): return Self.format(high: high, low: low, letters: 0x27)
    case .uppercase(let high, let low): return Self.format(high: high, low: low, letters: 0x07)
    }
  }

  private static func format(high: UInt64, low: UInt64, letters: UInt64) -> String {
    let groups = (
      ascii(unpacked(high & 0xFFFF_FFFF), letters: letters), ascii(unpacked(high >> 32), letters: letters),
      ascii(unpacked(low & 0xFFFF_FFFF), letters: letters), ascii(unpacked(low >> 32), letters: letters)
    )
    return String(unsafeUninitializedCapacity: 36) { buffer in
      let output = UnsafeMutableRawPointer(buffer.baseAddress!)
      output.storeBytes(of: groups.0.littleEndian, as: UInt64.self)
      output.storeBytes(of: UInt32(truncatingIfNeeded: groups.1).littleEndian, toByteOffset: 9, as: UInt32.self)
      output.storeBytes(of: UInt32(truncatingIfNeeded: groups.1 >> 32).littleEndian, toByteOffset: 14, as: UInt32.self)
      output.storeBytes(of: UInt32(truncatingIfNeeded: groups.2).littleEndian, toByteOffset: 19, as: UInt32.self)
      output.storeBytes(of: UInt32(truncatingIfNeeded: groups.2 >> 32).littleEndian, toByteOffset: 24, as: UInt32.self)
      output.storeBytes(of: groups.3.littleEndian, toByteOffset: 28, as: UInt64.self)
      output.storeBytes(of: 0x2D, toByteOffset: 8, as: UInt8.self)
      output.storeBytes(of: 0x2D, toByteOffset: 13, as: UInt8.self)
      output.storeBytes(of: 0x2D, toByteOffset: 18, as: UInt8.self)
      output.storeBytes(of: 0x2D, toByteOffset: 23, as: UInt8.self)
      return 36
    }
  }

  /// Each byte's hex value when it is a digit or a letter a–f/A–F (the low four bits, plus 9 for a
  /// letter); other bytes give values that ``ascii(_:letters:)`` does not turn back into them.
  @inline(__always)
  private static func nibbles(_ word: UInt64) -> UInt64 {
    (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((word &>> 6) & 0x0303_0303_0303_0303) &* 9
  }

  /// Nibble bytes (each at most 0x2A) as hex digits: "0"–"9", then letters from 0x30 + 10 +
  /// `letters` (0x27 for "a", 0x07 for "A").
  @inline(__always)
  private static func ascii(_ nibbles: UInt64, letters: UInt64) -> UInt64 {
    let isLetter = ((nibbles &+ 0x7676_7676_7676_7676) & 0x8080_8080_8080_8080) &>> 7
    return nibbles &+ 0x3030_3030_3030_3030 &+ isLetter &* letters
  }

  /// Eight nibble bytes into 32 bits, the first in the lowest nibble.
  @inline(__always)
  private static func packed(_ nibbles: UInt64) -> UInt64 {
    var packed = (nibbles | nibbles &>> 4) & 0x00FF_00FF_00FF_00FF
    packed = (packed | packed &>> 8) & 0x0000_FFFF_0000_FFFF
    return (packed | packed &>> 16) & 0xFFFF_FFFF
  }

  @inline(__always)
  private static func unpacked(_ packed: UInt64) -> UInt64 {
    var nibbles = (packed | packed &<< 16) & 0x0000_FFFF_0000_FFFF
    nibbles = (nibbles | nibbles &<< 8) & 0x00FF_00FF_00FF_00FF
    return (nibbles | nibbles &<< 4) & 0x0F0F_0F0F_0F0F_0F0F
  }
}

/// A short text kept in place: a report's timestamps (its capture and launch times, the header's
/// timestamp) are about 30 bytes each, too long to be stored inline in a `String`, never repeat, and
/// few readers ask for them, so each was an allocation to make and a free when the report went.
/// ASCII texts of at most ``capacity`` bytes are kept as their bytes, any other text as a `String`,
/// so that two values are equal exactly when their texts are (ASCII strings compare byte by byte).
enum InlineText: Sendable, Equatable {
  case none
  /// The bytes, zero-padded, the first in the lowest byte of the first word; the count in the
  /// highest byte of the last word.
  case bytes(UInt64, UInt64, UInt64, UInt64)
  case text(String)

  /// The most bytes kept in place.
  static let capacity = 31

  init(_ text: String?) {
    guard var text else {
      self = .none
      return
    }
    self = text.withUTF8 { Self(ascii: UnsafeRawBufferPointer($0)) } ?? .text(text)
  }

  /// `bytes` kept in place when they are at most ``capacity`` ASCII bytes; `nil` otherwise.
  init?(ascii bytes: UnsafeRawBufferPointer) {
    guard bytes.count <= Self.capacity else { return nil }
    var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    withUnsafeMutableBytes(of: &words) { room in
      if let from = bytes.baseAddress { room.baseAddress!.copyMemory(from: from, byteCount: bytes.count) }
    }
    // ASCII when no byte has its high bit set (the count's byte is still zero here).
    guard (words.0 | words.1 | words.2 | words.3) & 0x8080_8080_8080_8080 == 0 else { return nil }
    withUnsafeMutableBytes(of: &words) { $0[Self.capacity] = UInt8(truncatingIfNeeded: bytes.count) }
    self = .bytes(
      UInt64(littleEndian: words.0), UInt64(littleEndian: words.1), UInt64(littleEndian: words.2),
      UInt64(littleEndian: words.3))
  }

  var text: String? {
    switch self {
    case .none: return nil
    case .text(let text): return text
    case .bytes(let first, let second, let third, let fourth):
      let words = (first.littleEndian, second.littleEndian, third.littleEndian, fourth.littleEndian)
      return withUnsafeBytes(of: words) { bytes in
        String(decoding: bytes.prefix(Int(bytes[Self.capacity])), as: UTF8.self)
      }
    }
  }
}

public struct SharedCache: Sendable, Equatable {
  public var base: UInt64?
  public var size: UInt64?
  public var uuid: String?

  public init() {}
}

/// A problem in a report that did not stop it from being read.
public struct ReportWarning: Sendable, Equatable, CustomStringConvertible {
  /// The JSON path or text position the warning is about, e.g. `threads[3].frames[12].imageIndex`
  /// or `line 41`.
  public var location: String
  public var message: String

  public init(location: String, message: String) {
    self.location = location
    self.message = message
  }

  public var description: String { "\(location): \(message)" }
}
