import IPSDoctorJSON
import IPSDoctorSupport

/// The JSON readers of a report's parts: the exception, its reason, the termination, binary images and
/// thread state, each from its object in the body.
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
    // Through the table's handle (plain pointers), not the decoder.
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

  // Every image repeats one of a few architectures and sources, answered with a literal.

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
    // Room for x0…x28 too, which the `x` member adds.
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

  /// Every thread state names one of two flavors, answered with a literal.
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
