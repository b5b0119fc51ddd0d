import IPSDoctorReport
import IPSDoctorSupport

/// A report plus the derived facts most rules ask for, computed once per report.
public struct DiagnosisContext: Sendable {
  package let report: CrashReport
  /// Index of the crashed thread in `report.threads`.
  package let crashedThreadIndex: Int?
  /// The language exception's reason: `exceptionReason.composed_message`, else `nil`.
  package let exceptionMessage: String?
  /// Every line of Application Specific Information.
  package let applicationSpecificLines: [String]
  /// Indexes of images that belong to the app (its executable, frameworks and extensions).
  package var appImageIndexes: Set<Int> { Set(isAppImage.indices.filter { isAppImage[$0] }) }
  /// Names of the app's images (for text reports whose frames name images directly).
  package var appImageNames: Set<String> { Set(appImageNameList ?? Self.makeAppImageNames(report, isAppImage)) }
  /// For each image, by index, whether it is one of the app's images.
  package let isAppImage: [Bool]
  /// `appImageNames` as a list, found with the context when a frame of the report names its
  /// image without an index; otherwise `nil`, and `appImageNames` finds the names when asked.
  let appImageNameList: [String]?
  /// `SwiftFailure.all(in:)`: the Swift runtime failure messages, found once for every rule.
  private(set) var swiftFailures: [SwiftFailure] = []
  /// `LanguageException.find(in:)`, found once for every rule.
  private(set) var languageException: LanguageException?
  /// `MainThreadAssertion.find(in:)`, found once for every rule (`nil` only while `init` runs).
  private(set) var mainThreadAssertion: MainThreadAssertion.Assertion?
  /// `MainThreadAssertion.bridgeFrame(in:)`, found once where a main-thread assertion is present
  /// (the only reports whose rules look for the bridge; `.none` elsewhere and while `init` runs).
  private(set) var assertionBridgeFrame: MainThreadAssertion.BridgeFrame?? = nil
  /// `MemoryFault(_:)`, found once for every rule (`nil` also while `init` runs).
  private(set) var memoryFault: MemoryFault?
  /// `StackOverflowEvidence.isPresent(in:)`, found once: five memory rules ask (`nil` only while
  /// `init` runs).
  private(set) var isStackOverflow: Bool?
  /// `DyldError(_:)`, found once for every rule (`nil` only while `init` runs).
  private(set) var dyldError: DyldError?
  /// Where the language exception was thrown, when recorded (`lastExceptionBacktrace`).
  package let lastExceptionBacktrace: Backtrace?
  /// The crashed thread's frames.
  package let crashedBacktrace: Backtrace?
  /// Where the language exception was thrown when recorded, then the crashed thread: exactly
  /// `lastExceptionBacktrace` and `crashedBacktrace`, those present.
  public let backtraces: [Backtrace]
  /// The demangled forms of the mangled symbols in `backtraces`, by raw symbol: every mangled
  /// symbol of `backtraces` has its entry.
  let demangledSymbols: [String: SymbolName]
  /// Every text `reasonText(containing:)` looks through, joined: a fragment absent from it is
  /// absent from all of them, which one byte search shows.
  let reasonTextBytes: FrameSymbolText?
  /// `terminationTexts`, built once.
  let terminationTextList: [(path: String, text: String)]
  /// `terminationTexts` joined, so that `terminationText(containing:)` finds the first text holding
  /// a fragment (or none) with one byte search instead of one per text.
  let terminationTextBytes: FrameSymbolText?
  /// The comma-separated parts of `exception.codes`, parsed once (`nil` where a part is no number).
  let exceptionCodeValues: [UInt64?]
  /// For each of `terminationTexts`, its `hexNumbers(in:)`.
  let terminationTextNumbers: [[UInt64]]
  /// Every code `terminationCode(in:)` can answer: `termination.code` (outside the SIGNAL
  /// namespace), `exceptionCodeValues` and `terminationTextNumbers`.
  let terminationCodeCandidates: [UInt64]
  /// Whether the process stopped on a trap instruction: `EXC_BREAKPOINT (SIGTRAP)` on ARM,
  /// `EXC_BAD_INSTRUCTION (SIGILL)` on Intel and in the simulator.
  let isTrap: Bool
  /// Whether the process was stopped by `abort()` (`EXC_CRASH (SIGABRT)`).
  let isAbort: Bool

  // Consumed: the context keeps the report, and a caller that is done with it (`Doctor.diagnose`,
  // the batch) hands it over.
  public init(report: consuming CrashReport) {
    // The facts the helpers ask for first, then what the helpers find from them: every helper of
    // `collectDerivedFacts` reads only facts `init(facts:)` stored.
    self.init(facts: report)
    Self.collectDerivedFacts(&self)
  }

  /// Stores what the helpers find from the facts `init(facts:)` stored.
  @inline(never)
  private static func collectDerivedFacts(_ context: inout DiagnosisContext) {
    // Each helper reads only the facts, the stack-overflow test also the memory fault found here.
    let swiftFailures = SwiftFailure.collect(in: context)
    let languageException = LanguageException.collect(in: context)
    let mainThreadAssertion = MainThreadAssertion.collect(in: context)
    let assertionBridgeFrame: MainThreadAssertion.BridgeFrame?? =
      mainThreadAssertion.isPresent ? .some(MainThreadAssertion.collectBridgeFrame(in: context)) : nil
    let memoryFault = MemoryFault(context)
    let isStackOverflow = StackOverflowEvidence.collect(in: context, memoryFault: memoryFault)
    let dyldError = DyldError(context)
    context.swiftFailures = swiftFailures
    context.languageException = languageException
    context.mainThreadAssertion = mainThreadAssertion
    context.assertionBridgeFrame = assertionBridgeFrame
    context.memoryFault = memoryFault
    context.isStackOverflow = isStackOverflow
    context.dyldError = dyldError
  }

  /// Every stored fact but those the helpers of `init(report:)` find.
  private init(facts report: consuming CrashReport) {
    // Stored first; every other fact is read from `self.report`.
    self.report = report
    if let faulting = self.report.faultingThread, self.report.threads.indices.contains(faulting) {
      crashedThreadIndex = faulting
    } else {
      crashedThreadIndex = self.report.threads.firstIndex(where: \.triggered)
    }
    exceptionMessage = self.report.exceptionReason?.composedMessage
    applicationSpecificLines = self.report.applicationSpecificLines
    // `isAppImage[i]` answers for `report.images[i]`.
    var isAppImage: [Bool] = []
    isAppImage.reserveCapacity(self.report.images.count)
    let bundle = BinaryImage.appBundle(ofProcessPath: self.report.processPath)
    self.report.images.withUnsafeBufferPointer { images in
      for index in images.indices {
        isAppImage.append(
          images[index].name != nil
            && BinaryImage.isAppImage(
              name: images[index].name, path: images[index].path, source: images[index].source,
              bundle: bundle)
        )
      }
    }
    self.isAppImage = isAppImage
    appImageNameList = Self.hasFrameNamingItsImage(self.report) ? Self.makeAppImageNames(self.report, isAppImage) : nil
    if let frames = self.report.lastExceptionBacktrace, !frames.isEmpty {
      lastExceptionBacktrace = Backtrace(
        path: "lastExceptionBacktrace", frames: frames, thread: nil, symbolText: FrameSymbolText(frames))
    } else {
      lastExceptionBacktrace = nil
    }
    if let index = crashedThreadIndex {
      let thread = self.report.threads[index]
      crashedBacktrace = Backtrace(
        path: "threads[" + String(index) + "].frames", frames: thread.frames, thread: thread,
        symbolText: FrameSymbolText(thread.frames))
    } else {
      crashedBacktrace = nil
    }
    var backtraces: [Backtrace] = []
    backtraces.reserveCapacity(2)
    if let lastExceptionBacktrace { backtraces.append(lastExceptionBacktrace) }
    if let crashedBacktrace { backtraces.append(crashedBacktrace) }
    self.backtraces = backtraces
    var demangled: [String: SymbolName] = [:]
    // The frames of `backtraces`, in order. Where there is a symbol text, only the frames it marks
    // as possibly mangled are read (every mangled symbol is among them).
    func demangle(_ frames: [Frame], at index: Int) {
      guard let raw = frames[index].symbol, SwiftDemangler.isMangled(raw), demangled[raw] == nil,
        let name = frames[index].symbolName
      else { return }
      demangled[raw] = name
    }
    func demangle(_ backtrace: Backtrace) {
      if let text = backtrace.symbolText {
        text.forEachPossiblyMangledSymbol { demangle(backtrace.frames, at: $0) }
      } else {
        for index in backtrace.frames.indices { demangle(backtrace.frames, at: index) }
      }
    }
    if let lastExceptionBacktrace { demangle(lastExceptionBacktrace) }
    if let crashedBacktrace { demangle(crashedBacktrace) }
    demangledSymbols = demangled
    // The texts straight into the joined bytes, without gathering them into an array first.
    var reasonTexts = FrameSymbolText.Builder()
    reasonTexts.append(exceptionMessage)
    for info in self.report.applicationSpecificInfo {
      for line in info.lines { reasonTexts.append(line) }
    }
    reasonTexts.append(self.report.exception?.message)
    if let termination = self.report.termination {
      for reason in termination.reasons { reasonTexts.append(reason) }
      for detail in termination.details { reasonTexts.append(detail) }
    }
    reasonTextBytes = FrameSymbolText(reasonTexts)
    let texts = Self.makeTerminationTexts(self.report)
    terminationTextList = texts
    var terminationTexts = FrameSymbolText.Builder(count: texts.count)
    for item in texts { terminationTexts.append(item.text) }
    terminationTextBytes = FrameSymbolText(terminationTexts)
    exceptionCodeValues = self.report.exception?.codes.map(Self.parseCodes) ?? []
    terminationTextNumbers = texts.map { Self.hexNumbers(in: $0.text) }
    var candidates: [UInt64] = []
    if let code = self.report.termination?.code, self.report.termination?.namespace != "SIGNAL" {
      candidates.append(code)
    }
    for case let value? in exceptionCodeValues { candidates.append(value) }
    for numbers in terminationTextNumbers { candidates += numbers }
    terminationCodeCandidates = candidates
    isTrap = Self.isTrap(self.report.exception)
    isAbort = Self.isAbort(self.report.exception)
  }

  package var crashedThread: CrashThread? {
    crashedThreadIndex.map { report.threads[$0] }
  }

  package var exceptionType: String? { report.exception?.type }
  package var signal: String? { report.exception?.signal }

  /// The reason text wherever the report put it: the composed message, then Application Specific
  /// Information lines, then the exception message.
  package var reasonTexts: [String] {
    var texts: [String] = []
    if let exceptionMessage { texts.append(exceptionMessage) }
    texts += applicationSpecificLines
    if let message = report.exception?.message { texts.append(message) }
    return texts
  }

  /// The first reason text containing `fragment`, with where it was found.
  package func reasonText(containing fragment: String) -> Evidence? {
    switch reasonTextBytes?.firstFrame(containing: fragment) ?? .undecided {
    case .found(let index): return reasonEvidence(at: index)
    case .absent: return nil
    case .undecided: break
    }
    if let exceptionMessage, exceptionMessage.utf8Contains(fragment) {
      return Evidence("exceptionReason.composed_message", exceptionMessage)
    }
    for info in report.applicationSpecificInfo {
      for (index, line) in info.lines.enumerated() where line.utf8Contains(fragment) {
        let key = info.image.map { "asi[\"\($0)\"][\(index)]" } ?? "asi[\(index)]"
        return Evidence(key, line)
      }
    }
    if let message = report.exception?.message, message.utf8Contains(fragment) {
      return Evidence("exception.message", message)
    }
    if let termination = report.termination {
      for (index, reason) in termination.reasons.enumerated() where reason.utf8Contains(fragment) {
        return Evidence("termination.reasons[\(index)]", reason)
      }
      for (index, detail) in termination.details.enumerated() where detail.utf8Contains(fragment) {
        return Evidence("termination.details[\(index)]", detail)
      }
    }
    return nil
  }

  /// The text at `index` in `reasonTextBytes` (the order `reasonText(containing:)` searches in,
  /// absent texts counted), with its path: the byte search already found which text holds the
  /// fragment, so searching the texts one by one again would only repeat it.
  private func reasonEvidence(at index: Int) -> Evidence? {
    var index = index
    if index == 0 { return exceptionMessage.map { Evidence("exceptionReason.composed_message", $0) } }
    index -= 1
    for info in report.applicationSpecificInfo {
      if index < info.lines.count {
        let key = info.image.map { "asi[\"\($0)\"][\(index)]" } ?? "asi[\(index)]"
        return Evidence(key, info.lines[index])
      }
      index -= info.lines.count
    }
    if index == 0 { return report.exception?.message.map { Evidence("exception.message", $0) } }
    index -= 1
    if let termination = report.termination {
      if index < termination.reasons.count {
        return Evidence("termination.reasons[\(index)]", termination.reasons[index])
      }
      index -= termination.reasons.count
      if index < termination.details.count {
        return Evidence("termination.details[\(index)]", termination.details[index])
      }
    }
    return nil
  }

  // MARK: Frames

  /// A sequence of frames and where it lives in the report.
  public struct Backtrace: Sendable {
    /// `lastExceptionBacktrace` or `threads[N].frames`.
    package var path: String
    package var frames: [Frame]
    package var thread: CrashThread?
    /// The frames' symbols as one byte string, for the crashed thread and the exception backtrace.
    var symbolText: FrameSymbolText? = nil

    package func framePath(_ index: Int) -> String {
      // In storage of its final size: `path + "[" + String(index) + "]"` grows it three times.
      var text = UTF8TextBuilder(capacity: path.utf8.count + 8)
      text.append(path)
      text.append(ascii: UInt8(ascii: "["))
      text.appendDecimal(UInt64(index))
      text.append(ascii: UInt8(ascii: "]"))
      return text.string
    }
  }

  /// The first non-`nil` answer of `body` for `backtraces`, in order (exception backtrace first).
  @inline(__always)
  func firstResult<Result>(inBacktraces body: (Backtrace) throws -> Result?) rethrows -> Result? {
    if let lastExceptionBacktrace, let result = try body(lastExceptionBacktrace) { return result }
    if let crashedBacktrace, let result = try body(crashedBacktrace) { return result }
    return nil
  }

  /// `body` for each of `backtraces`, in order.
  @inline(__always)
  func forEachBacktrace(_ body: (Backtrace) throws -> Void) rethrows {
    if let lastExceptionBacktrace { try body(lastExceptionBacktrace) }
    if let crashedBacktrace { try body(crashedBacktrace) }
  }

  package func isAppFrame(_ frame: Frame) -> Bool {
    if let index = frame.imageIndex { return isAppImage.indices.contains(index) && isAppImage[index] }
    if let name = frame.imageName {
      return (appImageNameList ?? Self.makeAppImageNames(report, isAppImage)).contains(name)
    }
    return false
  }

  /// The names of the images `isAppImage` marks, the main image's and, without either, the
  /// process name.
  private static func makeAppImageNames(_ report: borrowing CrashReport, _ isAppImage: [Bool]) -> [String] {
    var names: [String] = []
    func insert(_ name: String) { if !names.contains(name) { names.append(name) } }
    for index in isAppImage.indices where isAppImage[index] {
      if let name = report.images[index].name { insert(name) }
    }
    if let main = report.mainImage, let name = main.name { insert(name) }
    if let processName = report.processName, names.isEmpty { insert(processName) }
    return names
  }

  /// Whether a frame of the report names its image but has no image index (`isAppFrame` then
  /// looks the name up).
  private static func hasFrameNamingItsImage(_ report: borrowing CrashReport) -> Bool {
    func test(_ frames: [Frame]) -> Bool {
      frames.withUnsafeBufferPointer { frames in
        frames.indices.contains { frames[$0].imageIndex == nil && frames[$0].imageName != nil }
      }
    }
    if let frames = report.lastExceptionBacktrace, test(frames) { return true }
    return report.threads.withUnsafeBufferPointer { threads in
      threads.indices.contains { test(threads[$0].frames) }
    }
  }

  /// The symbol of `frame` with its demangled forms, or `nil` when the frame is unsymbolicated.
  package func symbol(_ frame: Frame) -> SymbolName? {
    if !demangledSymbols.isEmpty, let raw = frame.symbol, let name = demangledSymbols[raw] { return name }
    return frame.symbolName
  }

  /// `symbol(frame)?.display`: the name the frame's symbol is shown by.
  func displayName(_ frame: Frame) -> String? {
    if !demangledSymbols.isEmpty, let raw = frame.symbol, let name = demangledSymbols[raw] { return name.display }
    return Self.displayName(ofSymbol: frame.symbol)
  }

  /// A symbol as descriptions show it: demangled when it is a mangled Swift name, itself
  /// otherwise, and `nil` when it is missing, empty or `???`.
  static func displayName(ofSymbol raw: String?) -> String? {
    guard let raw, !raw.isEmpty, raw != "???" else { return nil }
    return SwiftDemangler.isMangled(raw) ? SymbolName(raw).display : raw
  }

  /// The first frame in `backtrace` whose symbol (any form) contains `fragment`.
  package func firstFrame(in backtrace: Backtrace, containing fragment: String) -> (
    index: Int, evidence: Evidence
  )? {
    guard let index = firstFrameIndex(in: backtrace, containing: fragment) else { return nil }
    return (index, Evidence(backtrace.framePath(index), describe(backtrace.frames[index])))
  }

  /// The index `firstFrame(in:containing:)` finds, without describing the frame.
  func firstFrameIndex(in backtrace: Backtrace, containing fragment: String) -> Int? {
    firstFrameIndex(in: backtrace, before: .max, containing: fragment)
  }

  /// The first of the first `limit` frames of `backtrace` whose symbol contains `fragment`.
  func firstFrameIndex(in backtrace: Backtrace, before limit: Int, containing fragment: String) -> Int? {
    switch backtrace.symbolText?.firstFrame(containing: fragment, before: limit) ?? .undecided {
    case .found(let index): return index
    case .absent: return nil
    case .undecided: break
    }
    return backtrace.frames.prefix(limit).firstIndex { $0.symbol?.utf8Contains(fragment) == true }
  }

  /// The first frame of the app's own code in `backtrace`, skipping compiler thunks.
  package func firstAppFrame(in backtrace: Backtrace) -> (index: Int, frame: Frame)? {
    firstAppFrameIndex(in: backtrace.frames, from: 0).map { ($0, backtrace.frames[$0]) }
  }

  /// The index `firstAppFrame(in:)` finds among `frames[start...]`.
  func firstAppFrameIndex(in frames: [Frame], from start: Int) -> Int? {
    var fallback: Int?
    for index in start..<max(start, frames.count) where isAppFrame(frames[index]) {
      if fallback == nil { fallback = index }
      if let name = displayName(frames[index]), Self.isThunk(name) || LinkedLibraryFrame.contains(name) { continue }
      return index
    }
    return fallback
  }

  /// Whether `name` is compiler glue rather than code someone wrote: a thunk, a merged or outlined
  /// function, a runtime helper.
  static func isThunk(_ name: String) -> Bool {
    thunkPrefixes.contains { name.hasPrefix($0) }
  }

  private static let thunkPrefixes = ["thunk for ", "reabstraction thunk", "merged ", "outlined ", "__swift_"]

  /// A frame as one line: `ChatApp 0x1045b3c40 PushNotificationDelegate.refresh() + 120`, or
  /// `ChatApp + 0x13c40` when unsymbolicated.
  package func describe(_ frame: Frame) -> String {
    Self.describeFrame(
      image: frame.imageName, name: displayName(frame), symbolLocation: frame.symbolLocation,
      imageOffset: frame.imageOffset, address: frame.address, sourceFile: frame.sourceFile,
      sourceLine: frame.sourceLine)
  }

  /// A frame as one line from its parts, space-separated: the image; the symbol's display `name`
  /// with its offset, else the offset in the image, else the address; the source location.
  /// `???` when there is none of these.
  ///
  /// `image: "ChatApp", name: "Feed.load()", symbolLocation: 120` → `ChatApp Feed.load() + 120`;
  /// `image: "ChatApp", imageOffset: 0x13c40` → `ChatApp + 0x13c40`; no image, `imageOffset: 0`
  /// → `??? 0x0`.
  package static func describeFrame(
    image: String?, name: String?, symbolLocation: UInt64?, imageOffset: UInt64?, address: UInt64?,
    sourceFile: String? = nil, sourceLine: Int? = nil
  ) -> String {
    var parts: [String] = []
    if let image { parts.append(image) }
    if let name {
      parts.append(name + (symbolLocation.map { " + \($0)" } ?? ""))
    } else if image == nil, let offset = imageOffset {
      // An offset in no image (Apple's placeholder image for unmapped addresses) is the address.
      parts.append("??? " + String.hex(address ?? offset))
    } else if let offset = imageOffset {
      parts.append("+ " + String.hex(offset))
    } else if let address {
      parts.append(String.hex(address))
    }
    if let sourceFile {
      parts.append("(" + sourceFile + (sourceLine.map { ":\($0)" } ?? "") + ")")
    }
    return parts.isEmpty ? "???" : parts.joined(separator: " ")
  }

  /// Whether any app frame in the crashed thread or the exception backtrace lacks a symbol.
  package var hasUnsymbolicatedAppFrames: Bool {
    firstResult(inBacktraces: { backtrace in
      backtrace.frames.contains { isAppFrame($0) && symbol($0) == nil } ? true : nil
    }) ?? false
  }
}
