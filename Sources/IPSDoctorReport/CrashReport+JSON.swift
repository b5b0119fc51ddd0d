import IPSDoctorJSON
import IPSDoctorSupport

extension IPSHeader {
  /// Reads line 1 of an `.ips` file.
  init(json object: JSONNode, decoder: inout FieldDecoder) {
    // One pass over the members, keeping the last of each name; decoded below in the order that
    // fixes the order of warnings.
    var appName, appVersion, buildVersion, bundleID, bugType, osVersion, platform: JSONNode?
    var incidentID, timestamp, sliceUUID, name: JSONNode?
    for (key, value) in object.members {
      switch MemberName(key) {
      case .appName: appName = value
      case .appVersion: appVersion = value
      case .buildVersion: buildVersion = value
      case .bundleID: bundleID = value
      case .bugType: bugType = value
      case .osVersionSnakeCase: osVersion = value
      case .platform: platform = value
      case .incidentID: incidentID = value
      case .timestamp: timestamp = value
      case .sliceUUID: sliceUUID = value
      case .name: name = value
      default: continue
      }
    }
    func path() -> JSONPath { JSONPath([.key("header")]) }
    // Made whole, by the memberwise initialiser. Arguments are evaluated left to right, which
    // keeps the order of warnings.
    self.init(
      appName: decoder.string(appName, named: "app_name", in: path()),
      appVersion: decoder.string(appVersion, named: "app_version", in: path()),
      buildVersion: decoder.string(buildVersion, named: "build_version", in: path()),
      // The app's bundle identifier and the OS version repeat from report to report: shared.
      bundleID: decoder.sharedString(bundleID, named: "bundleID", in: path()),
      bugType: decoder.string(bugType, named: "bug_type", in: path()),
      osVersion: decoder.sharedString(osVersion, named: "os_version", in: path()),
      platform: decoder.int(platform, named: "platform", in: path()),
      incidentIDStorage: decoder.uuid(incidentID, named: "incident_id", in: path()) ?? .none,
      timestampStorage: decoder.inlineText(timestamp, named: "timestamp", in: path()) ?? .none,
      sliceUUIDStorage: decoder.uuid(sliceUUID, named: "slice_uuid", in: path()) ?? .none,
      name: decoder.string(name, named: "name", in: path()))
  }
}

extension CrashReport {
  /// Fills the report's identity from the header; the body may refine it later.
  ///
  /// `parsingOSVersion: false` leaves ``osVersion`` to the caller: a crash body names its own,
  /// and the header's display string is then not parsed for nothing.
  mutating func apply(header: IPSHeader, parsingOSVersion: Bool = true) {
    self.header = header
    if let bugType = header.bugType { self.bugType = BugType(bugType) }
    if incidentIDStorage == .none { incidentIDStorage = header.incidentIDStorage }
    processName = processName ?? header.name ?? header.appName
    bundleID = bundleID ?? header.bundleID
    appVersion = appVersion ?? header.appVersion
    buildVersion = buildVersion ?? header.buildVersion
    platform = platform ?? header.platform
    if parsingOSVersion { apply(osVersionDisplay: header.osVersion) }
    if case .none = captureTimeStorage { captureTimeStorage = header.timestampStorage }
  }

  /// The header's `os_version`, `display`, as ``osVersion`` when the report has none.
  mutating func apply(osVersionDisplay display: String?) {
    if case .none = osVersion, let display {
      osVersion = OSVersion(displayString: display)
    }
  }

  /// The members of a crash body that ``apply(crashBody:decoder:)`` reads, found in one pass over
  /// the root object (a body has about fifty members; looking each key up walked them all). Each is
  /// the last member of its name, as ``JSONNode``'s subscript answers.
  private struct CrashBodyMembers {
    var bugType, incident, procName, procPath, pid, parentProc, parentPid, modelCode, cpuType: JSONNode?
    var captureTime, procLaunch, bundleInfo, storeInfo, osVersion, exception, exceptionReason: JSONNode?
    var termination, asi, ktriageinfo, vmSummary, vmregioninfo, vmRegionInfo: JSONNode?
    var isCorpse, isCorpseSnakeCase, isNonFatal, isSimulated, translated, sharedCache, usedImages: JSONNode?
    var lastExceptionBacktrace, threads, faultingThread: JSONNode?

    init(_ object: JSONNode) {
      for (key, value) in object.members {
        let name = MemberName(key)
        // By length first: most members of a body are not read at all.
        switch name.length {
        case 3:
          if name == .pid {
            pid = value
          } else if name == .asi {
            asi = value
          }
        case 7:
          if name == .threads {
            threads = value
          } else if name == .cpuType {
            cpuType = value
          }
        case 8:
          if name == .bugType {
            bugType = value
          } else if name == .incident {
            incident = value
          } else if name == .procName {
            procName = value
          } else if name == .procPath {
            procPath = value
          } else if name == .isCorpse {
            isCorpse = value
          }
        case 9:
          if name == .parentPid {
            parentPid = value
          } else if name == .modelCode {
            modelCode = value
          } else if name == .storeInfo {
            storeInfo = value
          } else if name == .osVersion {
            osVersion = value
          } else if name == .exception {
            exception = value
          } else if name == .vmSummary {
            vmSummary = value
          } else if name == .isCorpseSnakeCase {
            isCorpseSnakeCase = value
          }
        case 10:
          if name == .translated {
            translated = value
          } else if name == .usedImages {
            usedImages = value
          } else if name == .parentProc {
            parentProc = value
          } else if name == .procLaunch {
            procLaunch = value
          } else if name == .bundleInfo {
            bundleInfo = value
          } else if name == .isNonFatal {
            isNonFatal = value
          }
        case 11:
          if name == .captureTime {
            captureTime = value
          } else if name == .termination {
            termination = value
          } else if name == .ktriageinfo {
            ktriageinfo = value
          } else if name == .isSimulated {
            isSimulated = value
          } else if name == .sharedCache {
            sharedCache = value
          }
        case 12:
          if name == .vmregioninfo {
            vmregioninfo = value
          } else if name == .vmRegionInfo {
            vmRegionInfo = value
          }
        case 14: if name == .faultingThread { faultingThread = value }
        case 15: if name == .exceptionReason { exceptionReason = value }
        case 22:
          if name == .lastExceptionBacktrace && key.keyEquals("lastExceptionBacktrace") {
            lastExceptionBacktrace = value
          }
        default: continue
        }
      }
    }
  }

  /// Reads a bug_type 309 crash report body.
  mutating func apply(crashBody object: JSONNode, decoder: inout FieldDecoder) {
    // Paths name the root where a warning needs them (`.root`, a static), never from a local.
    let body = CrashBodyMembers(object)
    if let bugType = decoder.string(body.bugType, named: "bug_type", in: .root), self.bugType == nil {
      self.bugType = BugType(bugType)
    }
    if let incident = decoder.uuid(body.incident, named: "incident", in: .root) { incidentIDStorage = incident }
    // The header's strings are answered again where the body repeats them (see
    // `FieldDecoder.text(_:reusing:)`).
    processName = decoder.string(body.procName, named: "procName", in: .root, reusing: processName) ?? processName
    processPath = decoder.sharedString(body.procPath, named: "procPath", in: .root)
    pid = decoder.int(body.pid, named: "pid", in: .root)
    if let parent = decoder.string(body.parentProc, named: "parentProc", in: .root) {
      let parentPid = decoder.int(body.parentPid, named: "parentPid", in: .root)
      parentProcess = parentPid.map { "\(parent) [\($0)]" } ?? parent
    }
    modelCode = decoder.string(body.modelCode, named: "modelCode", in: .root)
    cpuType = decoder.string(body.cpuType, named: "cpuType", in: .root)
    captureTimeStorage = decoder.inlineText(body.captureTime, named: "captureTime", in: .root) ?? captureTimeStorage
    launchTimeStorage = decoder.inlineText(body.procLaunch, named: "procLaunch", in: .root) ?? .none
    // The trees of bundleInfo, storeInfo and legacyInfo are built when asked (for their warnings,
    // the first two are checked here).
    bodyTrees = .crashBody
    let bundleNode = decoder.object(body.bundleInfo, named: "bundleInfo", in: .root)
    _ = decoder.object(body.storeInfo, named: "storeInfo", in: .root)
    if let bundleInfo = bundleNode {
      var identifier, shortVersion, version: JSONNode?
      for (key, value) in bundleInfo.members {
        switch MemberName(key) {
        case .CFBundleIdentifier where key.keyEquals("CFBundleIdentifier"): identifier = value
        case .CFBundleShortVersionString where key.keyEquals("CFBundleShortVersionString"): shortVersion = value
        case .CFBundleVersion: version = value
        default: continue
        }
      }
      func path() -> JSONPath { JSONPath.root.appending("bundleInfo") }
      bundleID = decoder.string(identifier, named: "CFBundleIdentifier", in: path(), reusing: bundleID) ?? bundleID
      appVersion = decoder.string(shortVersion, named: "CFBundleShortVersionString", in: path()) ?? appVersion
      buildVersion = decoder.string(version, named: "CFBundleVersion", in: path()) ?? buildVersion
    }
    if let os = decoder.object(body.osVersion, named: "osVersion", in: .root) {
      var train, build, releaseType, isEmbedded: JSONNode?
      for (key, value) in os.members {
        switch MemberName(key) {
        case .train: train = value
        case .build: build = value
        case .releaseType: releaseType = value
        case .isEmbedded: isEmbedded = value
        default: continue
        }
      }
      func path() -> JSONPath { JSONPath.root.appending("osVersion") }
      var version = OSVersion(
        train: decoder.string(train, named: "train", in: path()),
        build: decoder.string(build, named: "build", in: path()),
        releaseType: decoder.string(releaseType, named: "releaseType", in: path()))
      version.isEmbedded = decoder.bool(isEmbedded, named: "isEmbedded", in: path())
      osVersion = version
    }

    if let exception = decoder.object(body.exception, named: "exception", in: .root) {
      self.exception = ExceptionInfo(json: exception, at: JSONPath.root.appending("exception"), decoder: &decoder)
    }
    if let reason = decoder.object(body.exceptionReason, named: "exceptionReason", in: .root) {
      exceptionReason = ExceptionReason(
        json: reason, at: JSONPath.root.appending("exceptionReason"), decoder: &decoder)
    }
    if let termination = decoder.object(body.termination, named: "termination", in: .root) {
      self.termination = Termination(
        json: termination, at: JSONPath.root.appending("termination"), decoder: &decoder)
    }
    if let asi = body.asi {
      applicationSpecificInfo = Self.applicationSpecificInfo(asi, decoder: &decoder)
    }
    kernelTriage = decoder.string(body.ktriageinfo, named: "ktriageinfo", in: .root)
    vmSummary = decoder.string(body.vmSummary, named: "vmSummary", in: .root)
    vmRegionInfo =
      decoder.string(body.vmregioninfo, named: "vmregioninfo", in: .root)
      ?? decoder.string(body.vmRegionInfo, named: "vmRegionInfo", in: .root)
    isCorpse =
      decoder.bool(body.isCorpse, named: "isCorpse", in: .root)
      ?? decoder.bool(body.isCorpseSnakeCase, named: "is_corpse", in: .root)
    isNonFatal = decoder.bool(body.isNonFatal, named: "isNonFatal", in: .root)
    isSimulated = decoder.bool(body.isSimulated, named: "isSimulated", in: .root)
    isTranslated = decoder.bool(body.translated, named: "translated", in: .root) ?? false

    if let cache = decoder.object(body.sharedCache, named: "sharedCache", in: .root) {
      func path() -> JSONPath { JSONPath.root.appending("sharedCache") }
      var base, size, uuid: JSONNode?
      for (key, value) in cache.members {
        switch MemberName(key) {
        case .base: base = value
        case .size: size = value
        case .uuid: uuid = value
        default: continue
        }
      }
      var shared = SharedCache()
      shared.base = decoder.uint64(base, named: "base", in: path())
      shared.size = decoder.uint64(size, named: "size", in: path())
      shared.uuid = decoder.string(uuid, named: "uuid", in: path())
      sharedCache = shared
    }

    // Images first: frames resolve their image names against them.
    if let used = decoder.array(body.usedImages, named: "usedImages", in: .root) {
      // Written straight into the array's storage, like frames.
      images = [BinaryImage](unsafeUninitializedCapacity: used.count) { storage, count in
        for (index, image) in used.elements.enumerated() {
          func path() -> JSONPath { JSONPath.root.appending("usedImages").appending(index) }
          if image.kind == .object {
            (storage.baseAddress! + count).initialize(to: BinaryImage.image(json: image, at: path(), decoder: &decoder))
          } else {
            decoder.wrongType(image, at: path(), expected: "an object")
            (storage.baseAddress! + count).initialize(to: BinaryImage())
          }
          count += 1
        }
      }
    }

    if let backtrace = decoder.array(body.lastExceptionBacktrace, named: "lastExceptionBacktrace", in: .root) {
      lastExceptionBacktrace = frames(
        backtrace, at: JSONPath.root.appending("lastExceptionBacktrace"), decoder: &decoder)
    }

    if let threadValues = decoder.array(body.threads, named: "threads", in: .root) {
      threads.reserveCapacity(threadValues.count)
      for (index, thread) in threadValues.elements.enumerated() {
        func path() -> JSONPath { JSONPath.root.appending("threads").appending(index) }
        guard thread.kind == .object else {
          decoder.wrongType(thread, at: path(), expected: "an object")
          threads.append(CrashThread(index: index))
          continue
        }
        threads.append(crashThread(thread, index: index, at: path(), decoder: &decoder))
      }
    }

    if let faulting = body.faultingThread {
      func path() -> JSONPath { JSONPath.root.appending("faultingThread") }
      if let index = decoder.int(faulting, at: path()) {
        if threads.indices.contains(index) {
          faultingThread = index
        } else if decoder.bodyWasCut, let kept = threads.lastIndex(where: \.triggered), threads[kept].index < index {
          // The crashed thread came past the thread list's limit and was kept at the end of it.
          threads[kept].index = index
          faultingThread = kept
        } else {
          decoder.warn(
            path(), "thread index \(index) is out of range (the report has \(threads.count) threads); ignored")
        }
      }
    }
    if faultingThread == nil {
      faultingThread = threads.firstIndex(where: \.triggered)
    }
    if decoder.cutBody?.isAbridged == true, let threadValues = body.threads {
      rereadCrashedThread(in: threadValues, decoder: &decoder)
    }
  }

  /// Reads the crashed thread of an abridged body again, alone, from its bytes: the budget cut
  /// its lists with the rest of the body's past the outline, but it is the thread the diagnosis
  /// reads. Alone, it keeps the first `BodyBudget.maxArrayElements` entries of each list, which
  /// its warnings then name. Its other warnings were given by the first reading.
  mutating func rereadCrashedThread(in threadValues: JSONNode, decoder: inout FieldDecoder) {
    guard let body = decoder.cutBody, let position = faultingThread, threadValues.kind == .array,
      position < threadValues.count
    else { return }
    // The thread at `position` is the list's element at `position`: one thread is decoded per element.
    guard let node = Array(threadValues.elements.prefix(position + 1)).last, node.kind == .object else { return }
    // Room for a thread of 4,096 frames and its registers many times over; a thread object with
    // more members than that is cut again.
    let budget = JSONTapeBudget(
      maxArrayElements: BodyBudget.maxArrayElements, outlineEntries: .max, outlineDepth: .max, maxEntries: 1 << 18)
    guard let document = body.reread(at: node.index, budget: budget) else { return }
    var scratch = FieldDecoder()
    scratch.cutBody = document
    let index = threads[position].index
    let thread = document.withRoot { root in
      crashThread(root, index: index, at: JSONPath.root.appending("threads").appending(index), decoder: &scratch)
    }
    threads[position] = thread
    let path = JSONPath.root.appending("threads").appending(index)
    decoder.reread = (node.index..<node.entry.containerEnd, BodyBudget.warnings(for: document, under: path))
  }

  static func applicationSpecificInfo(_ value: JSONNode, decoder: inout FieldDecoder)
    -> [ApplicationSpecificInfo]
  {
    func path() -> JSONPath { JSONPath.root.appending("asi") }
    switch value.kind {
    case .object:
      // The image names and lines repeat from report to report: shared.
      return value.members.map { (keyNode, member) in
        let key = decoder.sharedText(keyNode)
        var lines: [String] = []
        switch member.kind {
        case .string: lines = [decoder.sharedText(member)]
        case .array:
          for (index, element) in member.elements.enumerated() {
            if let text = decoder.sharedText(ifString: element) {
              lines.append(text)
            } else if let number = element.number {
              lines.append(number.description)
            } else {
              decoder.wrongType(element, at: path().appending(key).appending(index), expected: "a string")
            }
          }
        default:
          decoder.wrongType(member, at: path().appending(key), expected: "an array of strings")
        }
        return ApplicationSpecificInfo(image: key, lines: lines)
      }
    case .string:
      return [ApplicationSpecificInfo(image: nil, lines: [value.string!])]
    case .array:
      return [ApplicationSpecificInfo(image: nil, lines: value.elements.compactMap(\.string))]
    case .null:
      return []
    default:
      decoder.wrongType(value, at: path(), expected: "an object")
      return []
    }
  }

  func crashThread(
    _ object: JSONNode, index: Int, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder
  ) -> CrashThread {
    // One pass over the members, keeping the last of each name; decoded below in the order that
    // fixes the order of warnings.
    var id, name, queue, triggered, frameValues, state: JSONNode?
    for (key, value) in object.members {
      switch MemberName(key) {
      case .id: id = value
      case .name: name = value
      case .queue: queue = value
      case .frames: frameValues = value
      case .triggered: triggered = value
      case .threadState: state = value
      default: continue
      }
    }
    let threadID = decoder.uint64(id, named: "id", in: path())
    var threadName: String?
    if let name {
      threadName =
        name.kind == .string ? decoder.sharedText(name) : decoder.sharedString(name, named: "name", in: path())
    }
    // Every report's main thread names the main queue, answered with a literal.
    var threadQueue: String?
    if let queue {
      threadQueue =
        Self.isMainQueueLabel(queue)
        ? "com.apple.main-thread"
        : queue.kind == .string ? decoder.sharedText(queue) : decoder.sharedString(queue, named: "queue", in: path())
    }
    let isTriggered = decoder.bool(triggered, named: "triggered", in: path()) ?? false
    var threadFrames: [Frame] = []
    if let frameValues = decoder.array(frameValues, named: "frames", in: path()) {
      threadFrames = frames(frameValues, at: path().appending("frames"), decoder: &decoder)
    }
    var threadState: ThreadState?
    if let state = decoder.object(state, named: "threadState", in: path()) {
      threadState = ThreadState(json: state, at: path().appending("threadState"), decoder: &decoder)
    }
    return CrashThread(
      index: index, id: threadID, name: threadName, queue: threadQueue, triggered: isTriggered, frames: threadFrames,
      state: threadState)
  }

  func frames(
    _ values: JSONNode, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder
  ) -> [Frame] {
    images.withUnsafeBufferPointer { images in
      // Frames are made once, straight in the array's storage.
      [Frame](unsafeUninitializedCapacity: values.count) { storage, count in
        for (index, object) in values.elements.enumerated() {
          guard object.kind == .object else {
            decoder.wrongType(object, at: path().appending(index), expected: "an object")
            continue
          }
          (storage.baseAddress! + count).initialize(
            to: Self.frame(object, images: images, at: path().appending(index), decoder: &decoder))
          count += 1
        }
      }
    }
  }

  /// One frame object. Frames are most of a report: their members are found in one pass, as tape
  /// indices (not optional nodes, which are larger to move around), then decoded in the order
  /// that fixes the order of warnings.
  @inline(never)
  static func frame(
    _ object: JSONNode, images: UnsafeBufferPointer<BinaryImage>, at path: @autoclosure () -> JSONPath,
    decoder: inout FieldDecoder
  ) -> Frame {
    let view = object.view
    let entries = view.entries
    var imageIndexAt = -1
    var imageOffsetAt = -1
    var symbolAt = -1
    var symbolLocationAt = -1
    var sourceFileAt = -1
    var sourceLineAt = -1
    var inlineAt = -1
    var index = object.index + 1
    let end = entries[object.index].containerEnd
    while index + 1 < end {
      let valueIndex = index + 1
      let valueEntry = entries[valueIndex]
      let next = valueEntry.indexAfter(valueIndex)
      switch MemberName(JSONNode(view: view, index: index)) {
      case .imageOffset: imageOffsetAt = valueIndex
      case .symbol: symbolAt = valueIndex
      case .symbolLocation: symbolLocationAt = valueIndex
      case .imageIndex: imageIndexAt = valueIndex
      case .sourceFile: sourceFileAt = valueIndex
      case .sourceLine: sourceLineAt = valueIndex
      case .inline: inlineAt = valueIndex
      default: break
      }
      index = next
    }
    // The usual frame: an offset, a symbol and its location, and an image index in range, each of
    // its usual type. Nothing can warn, so it is built straight from the tape: the general code
    // below stores the nodes on the stack for the paths the warnings would name.
    if sourceFileAt < 0 && sourceLineAt < 0 && inlineAt < 0 && imageIndexAt >= 0,
      Self.isUnsigned(entries[imageIndexAt]), entries[imageIndexAt].word < UInt64(images.count),
      imageOffsetAt < 0 || Self.isUnsigned(entries[imageOffsetAt]),
      symbolLocationAt < 0 || Self.isUnsigned(entries[symbolLocationAt]),
      symbolAt < 0 || entries[symbolAt].kind == .string
    {
      let imageIndex = Int(entries[imageIndexAt].word)
      let offset = imageOffsetAt < 0 ? nil : entries[imageOffsetAt].word
      let symbol = symbolAt < 0 ? nil : decoder.sharedText(JSONNode(view: view, index: symbolAt))
      let location = symbolLocationAt < 0 ? nil : entries[symbolLocationAt].word
      var address: UInt64?
      if let base = images[imageIndex].base, let offset {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        if !overflow { address = sum }
      }
      return Frame(
        imageIndex: imageIndex, imageOffset: offset, symbol: symbol, symbolLocation: location, sourceFile: nil,
        sourceLine: nil, isInline: false,
        imageName: images[imageIndex].name ?? images[imageIndex].path.map(Self.lastPathComponent), address: address)
    }
    return decodedFrame(
      view, members: (imageIndexAt, imageOffsetAt, symbolAt, symbolLocationAt, sourceFileAt, sourceLineAt, inlineAt),
      images: images, at: path(), decoder: &decoder)
  }

  /// A frame that ``frame(_:images:at:decoder:)`` does not build straight from the tape, from the
  /// tape indices of its members' values (-1 for a member that is absent): decoded in the order
  /// that fixes the order of warnings. Out of line, so that the usual frame's code keeps few
  /// registers and little stack.
  @inline(never)
  static func decodedFrame(
    _ view: JSONView,
    members: (
      imageIndex: Int, imageOffset: Int, symbol: Int, symbolLocation: Int, sourceFile: Int, sourceLine: Int,
      inline: Int
    ),
    images: UnsafeBufferPointer<BinaryImage>, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder
  ) -> Frame {
    let (imageIndexAt, imageOffsetAt, symbolAt, symbolLocationAt, sourceFileAt, sourceLineAt, inlineAt) = members
    let entries = view.entries
    func node(_ index: Int) -> JSONNode { JSONNode(view: view, index: index) }
    let offset = imageOffsetAt < 0 ? nil : decoder.uint64(node(imageOffsetAt), at: path().appending("imageOffset"))
    var symbol: String?
    if symbolAt >= 0 {
      symbol =
        entries[symbolAt].kind == .string
        ? decoder.sharedText(node(symbolAt)) : decoder.sharedString(node(symbolAt), at: path().appending("symbol"))
    }
    let location =
      symbolLocationAt < 0 ? nil : decoder.uint64(node(symbolLocationAt), at: path().appending("symbolLocation"))
    let file = sourceFileAt < 0 ? nil : decoder.sharedString(node(sourceFileAt), at: path().appending("sourceFile"))
    let line = sourceLineAt < 0 ? nil : decoder.int(node(sourceLineAt), at: path().appending("sourceLine"))
    let isInline = inlineAt < 0 ? false : decoder.bool(node(inlineAt), at: path().appending("inline")) ?? false
    var resolvedIndex: Int?
    var imageName: String?
    var address: UInt64?
    if imageIndexAt >= 0, let imageIndex = decoder.int(node(imageIndexAt), at: path().appending("imageIndex")) {
      if images.indices.contains(imageIndex) {
        // The image is read in place, by index.
        resolvedIndex = imageIndex
        imageName = images[imageIndex].name ?? images[imageIndex].path.map(Self.lastPathComponent)
        if let base = images[imageIndex].base, let offset {
          let (sum, overflow) = base.addingReportingOverflow(offset)
          if !overflow { address = sum }
        }
      } else if !decoder.bodyWasCut {
        decoder.warn(
          path().appending("imageIndex"),
          "image index \(imageIndex) is out of range (the report has \(images.count) images); ignored")
      }
    }
    return Frame(
      imageIndex: resolvedIndex, imageOffset: offset, symbol: symbol, symbolLocation: location,
      sourceFile: file, sourceLine: line, isInline: isInline, imageName: imageName, address: address)
  }

  /// Whether `entry` is a non-negative integer that the tape holds exactly.
  @inline(__always)
  static func isUnsigned(_ entry: JSONTapeEntry) -> Bool {
    entry.kind == .number && entry.flags == JSONTapeEntry.numberUnsigned
  }

  /// Whether `value` is the string "com.apple.main-thread", written without escapes.
  @inline(__always)
  static func isMainQueueLabel(_ value: JSONNode) -> Bool {
    let entry = value.entry
    guard entry.kind == .string, entry.flags & JSONTapeEntry.stringHasEscapes == 0 else { return false }
    return value.keyEquals("com.apple.main-thread")
  }

  static func lastPathComponent(_ path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: 0x2F) else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }
}

// The small objects below are read like the body: one pass over the members keeping the last of
// each name, then decoded in the order that fixes the order of warnings.
