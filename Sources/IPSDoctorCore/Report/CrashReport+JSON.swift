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
    // Made by the memberwise initialiser: an initialiser that sets the fields one by one copies
    // the header when it returns (a retain of each text) and destroys the original. Arguments are
    // evaluated left to right, which keeps the order of warnings.
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
    // Tested by its case: `osVersion == nil` copies the version (a retain of each of its texts).
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
    var isCorpse, isCorpseSnakeCase, isNonFatal, isSimulated, sharedCache, usedImages: JSONNode?
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
          if name == .usedImages {
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
    // Paths name the root where a warning needs them (`.root`, a static): a local copy of it,
    // captured by the paths of every image, thread and frame, was retained and released again
    // around each of them.
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
        } else {
          decoder.warn(
            path(), "thread index \(index) is out of range (the report has \(threads.count) threads); ignored")
        }
      }
    }
    if faultingThread == nil {
      faultingThread = threads.firstIndex(where: \.triggered)
    }
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
    // Every report's main thread names the main queue: a literal costs no allocation.
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
      // Frames are written straight into the array's storage: appending a Frame copies it there and
      // destroys the original, retaining and releasing each of its strings.
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
        // Read the image in place: copying a BinaryImage retains each of its strings.
        resolvedIndex = imageIndex
        imageName = images[imageIndex].name ?? images[imageIndex].path.map(Self.lastPathComponent)
        if let base = images[imageIndex].base, let offset {
          let (sum, overflow) = base.addingReportingOverflow(offset)
          if !overflow { address = sum }
        }
      } else {
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

extension ExceptionInfo {
  init(json object: JSONNode, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder) {
    var type, signal, codes, subtype, message, rawCodes: JSONNode?
    for (key, value) in object.members {
      switch MemberName(key) {
      case .type: type = value
      case .signal: signal = value
      case .codes: codes = value
      case .subtype: subtype = value
      case .message: message = value
      case .rawCodes: rawCodes = value
      default: continue
      }
    }
    // Read in the old order (warnings keep theirs), then moved into the memberwise initialiser.
    let typeText = decoder.string(type, named: "type", in: path())
    let signalText = decoder.string(signal, named: "signal", in: path())
    // Codes repeat from report to report ("0x0000000000000001, 0x0000000000000000"): shared.
    let codesText = decoder.sharedString(codes, named: "codes", in: path())
    let subtypeText = decoder.string(subtype, named: "subtype", in: path())
    let messageText = decoder.string(message, named: "message", in: path())
    var codeValues: [UInt64] = []
    if let raw = decoder.array(rawCodes, named: "rawCodes", in: path()) {
      for (index, value) in raw.elements.enumerated() {
        if let code = decoder.uint64(value, at: path().appending("rawCodes").appending(index)) {
          codeValues.append(code)
        }
      }
    }
    self.init(
      type: typeText, signal: signalText, codes: codesText, rawCodes: codeValues, subtype: subtypeText,
      message: messageText, notes: [])
  }
}

extension ExceptionReason {
  init(json object: JSONNode, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder) {
    var name, composedMessage, type, className, formatString, arguments: JSONNode?
    for (key, value) in object.members {
      switch MemberName(key) {
      case .name: name = value
      case .composedMessage: composedMessage = value
      case .type: type = value
      case .`class`: className = value
      case .formatString: formatString = value
      case .arguments: arguments = value
      default: continue
      }
    }
    self.init(
      name: decoder.sharedString(name, named: "name", in: path()),
      composedMessage: decoder.string(composedMessage, named: "composed_message", in: path()))
    // The type, class and format repeat from report to report: shared.
    self.type = decoder.sharedString(type, named: "type", in: path())
    self.className = decoder.sharedString(className, named: "class", in: path())
    self.formatString = decoder.sharedString(formatString, named: "format_string", in: path())
    self.arguments = decoder.strings(arguments, named: "arguments", in: path())
  }
}

extension Termination {
  init(json object: JSONNode, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder) {
    var namespace, code, indicator, reasons, details, byProc, byPid, flags: JSONNode?
    for (key, value) in object.members {
      switch MemberName(key) {
      case .namespace: namespace = value
      case .code: code = value
      case .indicator: indicator = value
      case .reasons: reasons = value
      case .details: details = value
      case .byProc: byProc = value
      case .byPid: byPid = value
      case .flags: flags = value
      default: continue
      }
    }
    // Arguments are evaluated in order, so warnings keep theirs.
    self.init(
      namespace: decoder.string(namespace, named: "namespace", in: path()),
      code: decoder.uint64(code, named: "code", in: path()),
      // The indicator, reasons and details repeat from report to report: shared.
      indicator: decoder.sharedString(indicator, named: "indicator", in: path()),
      reasons: decoder.strings(reasons, named: "reasons", in: path(), shared: true),
      details: decoder.strings(details, named: "details", in: path(), shared: true),
      byProc: decoder.string(byProc, named: "byProc", in: path()),
      byPid: decoder.int(byPid, named: "byPid", in: path()),
      flags: decoder.uint64(flags, named: "flags", in: path()))
  }
}

extension BinaryImage {
  @inline(never)
  init(json object: JSONNode, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder) {
    // One pass over the members (a report has dozens to hundreds of images), into locals that are
    // moved into the image once: assigning to a default-initialised image copies and destroys it.
    var name, imagePath, arch, source, bundleVersion, bundleID, bundleShortVersion: String?
    var uuid = ImageUUID.none
    var base, size: UInt64?
    for (key, value) in object.members {
      func memberPath(_ name: String) -> JSONPath { path().appending(name) }
      switch MemberName(key) {
      case .name:
        name = value.kind == .string ? decoder.sharedText(value) : decoder.sharedString(value, at: memberPath("name"))
      case .path:
        imagePath =
          value.kind == .string ? decoder.sharedText(value) : decoder.sharedString(value, at: memberPath("path"))
      case .uuid:
        if let bytes = value.unescapedStringBytes, let canonical = ImageUUID(canonical: bytes) {
          uuid = canonical
        } else {
          uuid = ImageUUID(decoder.string(value, at: memberPath("uuid")))
        }
      case .base: base = decoder.uint64(value, at: memberPath("base"))
      case .size: size = decoder.uint64(value, at: memberPath("size"))
      case .arch: arch = Self.knownArch(value) ?? decoder.string(value, at: memberPath("arch"))
      case .source: source = Self.knownSource(value) ?? decoder.string(value, at: memberPath("source"))
      case .CFBundleVersion: bundleVersion = decoder.string(value, at: memberPath("CFBundleVersion"))
      case .CFBundleIdentifier where key.keyEquals("CFBundleIdentifier"):
        bundleID =
          value.kind == .string
          ? decoder.sharedText(value) : decoder.sharedString(value, at: memberPath("CFBundleIdentifier"))
      case .CFBundleShortVersionString where key.keyEquals("CFBundleShortVersionString"):
        bundleShortVersion = decoder.string(value, at: memberPath("CFBundleShortVersionString"))
      default: continue
      }
    }
    self.init(
      uuidStorage: uuid, base: base, size: size, arch: arch, name: name, path: imagePath, source: source,
      bundleID: bundleID, bundleShortVersion: bundleShortVersion, bundleVersion: bundleVersion)
  }

  /// The image `object` describes. The usual image, every member of its usual type (texts strings,
  /// addresses non-negative integers), is built straight from the tape: nothing can warn. Any other
  /// is read member by member (``init(json:at:decoder:)``). The members are found in one pass as
  /// tape indices, each the last of its name, as that reading keeps the last.
  static func image(json object: JSONNode, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder)
    -> BinaryImage
  {
    let texts = decoder.texts
    let view = object.view
    let entries = view.entries
    var nameAt = -1
    var pathAt = -1
    var uuidAt = -1
    var baseAt = -1
    var sizeAt = -1
    var archAt = -1
    var sourceAt = -1
    var bundleVersionAt = -1
    var bundleIDAt = -1
    var bundleShortVersionAt = -1
    var index = object.index + 1
    let end = entries[object.index].containerEnd
    while index + 1 < end {
      let valueIndex = index + 1
      let value = entries[valueIndex]
      let key = JSONNode(view: view, index: index)
      index = value.indexAfter(valueIndex)
      // Every member of a name the image reads, not only the last, must be of its usual type: the
      // member-by-member reading decodes (and may warn about) each of them.
      var usual = value.kind == .string
      switch MemberName(key) {
      case .name: nameAt = valueIndex
      case .path: pathAt = valueIndex
      case .uuid: uuidAt = valueIndex
      case .arch: archAt = valueIndex
      case .source: sourceAt = valueIndex
      case .CFBundleVersion: bundleVersionAt = valueIndex
      case .CFBundleIdentifier where key.keyEquals("CFBundleIdentifier"): bundleIDAt = valueIndex
      case .CFBundleShortVersionString where key.keyEquals("CFBundleShortVersionString"):
        bundleShortVersionAt = valueIndex
      case .base:
        baseAt = valueIndex
        usual = CrashReport.isUnsigned(value)
      case .size:
        sizeAt = valueIndex
        usual = CrashReport.isUnsigned(value)
      default: usual = true
      }
      guard usual else { return BinaryImage(json: object, at: path(), decoder: &decoder) }
    }
    func node(_ at: Int) -> JSONNode { JSONNode(view: view, index: at) }
    func text(_ at: Int) -> String? { at < 0 ? nil : FieldDecoder.text(node(at)) }
    // Through the table's handle, plain pointers: a function capturing the decoder retained it.
    func shared(_ at: Int) -> String? {
      guard at >= 0 else { return nil }
      guard let texts else { return FieldDecoder.text(node(at)) }
      return texts.text(node(at), decode: FieldDecoder.text)
    }
    var uuid = ImageUUID.none
    if uuidAt >= 0 {
      if let bytes = node(uuidAt).unescapedStringBytes, let canonical = ImageUUID(canonical: bytes) {
        uuid = canonical
      } else {
        uuid = ImageUUID(FieldDecoder.text(node(uuidAt)))
      }
    }
    return BinaryImage(
      uuidStorage: uuid, base: baseAt < 0 ? nil : entries[baseAt].word, size: sizeAt < 0 ? nil : entries[sizeAt].word,
      arch: archAt < 0 ? nil : knownArch(node(archAt)) ?? text(archAt), name: shared(nameAt), path: shared(pathAt),
      source: sourceAt < 0 ? nil : knownSource(node(sourceAt)) ?? text(sourceAt), bundleID: shared(bundleIDAt),
      bundleShortVersion: text(bundleShortVersionAt), bundleVersion: text(bundleVersionAt))
  }

  // Every image repeats one of a few architectures and sources: a literal costs no copy, check or
  // release.

  @inline(__always)
  private static func knownArch(_ value: JSONNode) -> String? {
    guard value.kind == .string else { return nil }
    switch MemberName(value) {
    case .arm64e: return "arm64e"
    case .arm64: return "arm64"
    case .x86_64: return "x86_64"
    case .arm64_32: return "arm64_32"
    default: return nil
    }
  }

  @inline(__always)
  private static func knownSource(_ value: JSONNode) -> String? {
    guard value.kind == .string else { return nil }
    switch MemberName(value) {
    case .sourceP: return "P"
    case .sourceA: return "A"
    case .sourceS: return "S"
    case .sourceC: return "C"
    case .sourceK: return "K"
    default: return nil
    }
  }
}

extension ThreadState {
  /// Registers in report order: x0…x28 from the `x` array, then every other member with a
  /// `value` (fp, lr, sp, pc, cpsr, far, esr on ARM; rax…r15, rip, rflags on Intel).
  init(json object: JSONNode, at path: @autoclosure () -> JSONPath, decoder: inout FieldDecoder) {
    // One pass over the members. The flavor (the last member of that name) is decoded after it,
    // but its warning goes first, as if the flavor were looked up before the registers are read.
    var flavor: JSONNode?
    var registerDecoder = FieldDecoder()
    var registers: [Register] = []
    // Room for x0…x28 too: growing the array once the `x` member came was a second allocation.
    registers.reserveCapacity(object.count + 32)
    var esrDescription: String?
    for (keyNode, member) in object.members {
      let name = MemberName(keyNode)
      func key() -> String { Self.armRegisterName(name) ?? keyNode.string ?? "" }
      func memberPath() -> JSONPath { path().appending(key()) }
      if name == .flavor { flavor = member }
      switch member.kind {
      case .array where name == .x:
        registers.reserveCapacity(registers.count + member.count + object.count)
        // The elements walked on the tape, not through the sequence of nodes.
        let entries = member.view.entries
        var elementIndex = member.index + 1
        let elementsEnd = entries[member.index].containerEnd
        var index = -1
        while elementIndex < elementsEnd {
          let element = entries[elementIndex]
          let registerIndex = elementIndex
          elementIndex = element.indexAfter(elementIndex)
          index += 1
          guard element.kind == .object else { continue }
          // Most registers are `{"value":N}`, N a non-negative integer: nothing to look for or warn about.
          if element.end == 1 {
            let only = entries[registerIndex + 2]
            if only.kind == .number && only.flags == JSONTapeEntry.numberUnsigned
              && Self.isValueKey(entries[registerIndex + 1], in: member.view.bytes)
            {
              registers.append(Register(name: Self.registerName(index), value: only.word))
              continue
            }
          }
          let register = JSONNode(view: member.view, index: registerIndex)
          let found = Self.registerMembers(register)
          guard found.value >= 0 else { continue }
          func elementPath() -> JSONPath { memberPath().appending(index) }
          let valueJSON = JSONNode(view: register.view, index: found.value)
          if let value = registerDecoder.uint64(valueJSON, at: elementPath().appending("value")) {
            let symbol =
              found.symbol >= 0 ? decoder.sharedText(ifString: JSONNode(view: register.view, index: found.symbol)) : nil
            registers.append(Register(name: Self.registerName(index), value: value, symbol: symbol))
          }
        }
      case .object:
        let found = Self.registerMembers(member)
        guard found.value >= 0 else { continue }
        let valueJSON = JSONNode(view: member.view, index: found.value)
        if let value = registerDecoder.uint64(valueJSON, at: memberPath().appending("value")) {
          let symbol =
            found.symbol >= 0 ? decoder.sharedText(ifString: JSONNode(view: member.view, index: found.symbol)) : nil
          registers.append(Register(name: key(), value: value, symbol: symbol))
        }
        if name == .esr {
          let description = JSONNode(view: member.view, index: found.description)
          esrDescription = found.description >= 0 ? decoder.sharedText(ifString: description) : nil
        }
      case .number:
        let number = member.number!
        if let value = number.uint64 ?? number.int64.map({ UInt64(bitPattern: $0) }) {
          registers.append(Register(name: key(), value: value))
        }
      default:
        continue
      }
    }
    self.init(
      flavor: flavor.flatMap(Self.knownFlavor) ?? decoder.string(flavor, named: "flavor", in: path()),
      registers: registers)
    self.esrDescription = esrDescription
    if !registerDecoder.warnings.isEmpty { decoder.warnings += registerDecoder.warnings }
  }

  /// Whether the key `entry` is "value" written without escapes, compared on its own five bytes.
  @inline(__always)
  private static func isValueKey(_ entry: JSONTapeEntry, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard entry.flags == 0, entry.stringEnd &- entry.start == 5, let base = bytes.baseAddress else { return false }
    let key = UnsafeRawPointer(base + entry.start)
    return key.loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x756C_6176)
      && key.load(fromByteOffset: 4, as: UInt8.self) == 0x65
  }

  /// Every thread state names one of two flavors, too long to be stored inline in a `String`: a
  /// literal costs no allocation.
  @inline(__always)
  private static func knownFlavor(_ value: JSONNode) -> String? {
    guard value.kind == .string else { return nil }
    if value.keyEquals("ARM_THREAD_STATE64") { return "ARM_THREAD_STATE64" }
    if value.keyEquals("x86_THREAD_STATE") { return "x86_THREAD_STATE" }
    return nil
  }

  /// The tape indices of the last `value`, `symbol` and `description` members of a register
  /// object (-1 when absent), in one pass: indices, not three optional nodes to return.
  @inline(__always)
  private static func registerMembers(_ register: JSONNode) -> (value: Int, symbol: Int, description: Int) {
    var value = -1
    var symbol = -1
    var description = -1
    let entries = register.view.entries
    var index = register.index + 1
    let end = entries[register.index].containerEnd
    while index + 1 < end {
      let valueIndex = index + 1
      let valueEntry = entries[valueIndex]
      let next = valueEntry.indexAfter(valueIndex)
      switch MemberName(JSONNode(view: register.view, index: index)) {
      case .value: value = valueIndex
      case .symbol: symbol = valueIndex
      case .description: description = valueIndex
      default: break
      }
      index = next
    }
    return (value, symbol, description)
  }

  /// The name of an ARM register other than x0…x28, from its key without decoding it.
  private static func armRegisterName(_ key: MemberName) -> String? {
    switch key {
    case .fp: "fp"
    case .lr: "lr"
    case .sp: "sp"
    case .pc: "pc"
    case .cpsr: "cpsr"
    case .far: "far"
    case .esr: "esr"
    default: nil
    }
  }

  /// "x0" … "x28" as literals: neither the lookup in an array of names nor a copy of one is free.
  static func registerName(_ index: Int) -> String {
    switch index {
    case 0: "x0"
    case 1: "x1"
    case 2: "x2"
    case 3: "x3"
    case 4: "x4"
    case 5: "x5"
    case 6: "x6"
    case 7: "x7"
    case 8: "x8"
    case 9: "x9"
    case 10: "x10"
    case 11: "x11"
    case 12: "x12"
    case 13: "x13"
    case 14: "x14"
    case 15: "x15"
    case 16: "x16"
    case 17: "x17"
    case 18: "x18"
    case 19: "x19"
    case 20: "x20"
    case 21: "x21"
    case 22: "x22"
    case 23: "x23"
    case 24: "x24"
    case 25: "x25"
    case 26: "x26"
    case 27: "x27"
    case 28: "x28"
    default: "x\(index)"
    }
  }
}
