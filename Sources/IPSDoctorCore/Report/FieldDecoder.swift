#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Reads typed fields out of a parsed JSON document leniently: a missing field is simply absent, a
/// field of the wrong type becomes a ``ReportWarning`` naming its JSON path, and integers written as
/// numeric strings ("812", "0x1f") are accepted.
///
/// Paths are autoclosures: they are built only when a warning names them, not for every field read
/// (building them eagerly was a fifth of the read time).
struct FieldDecoder {
  var warnings: [ReportWarning] = []

  mutating func warn(_ path: JSONPath, _ message: String) {
    warnings.append(ReportWarning(location: path.description, message: message))
  }

  mutating func wrongType(_ value: JSONNode, at path: JSONPath, expected: String) {
    warn(path, "expected \(expected), found \(value.typeName); ignored")
  }

  mutating func string(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> String? {
    guard let value = object[key] else { return nil }
    return string(value, at: path().appending(key.description))
  }

  /// Strings, most fields of a report, are read inline; the rest below.
  @inline(__always)
  mutating func string(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> String? {
    if value.kind == .string { return Self.text(value) }
    return nonString(value, at: path())
  }

  private mutating func nonString(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> String? {
    switch value.kind {
    case .string: return Self.text(value)
    case .number: return value.number?.description
    case .null: return nil
    default:
      wrongType(value, at: path(), expected: "a string")
      return nil
    }
  }

  mutating func uint64(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> UInt64? {
    guard let value = object[key] else { return nil }
    return uint64(value, at: path().appending(key.description))
  }

  /// Non-negative integers, most numbers in a report, are read in place; the rest below.
  @inline(__always)
  mutating func uint64(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> UInt64? {
    let entry = value.entry
    if entry.kind == .number && entry.flags == JSONTapeEntry.numberUnsigned { return entry.payload }
    return anyUInt64(value, at: path())
  }

  private mutating func anyUInt64(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> UInt64? {
    switch value.kind {
    case .number:
      let number = value.number!
      if let exact = number.uint64 { return exact }
      if let negative = number.int64 {
        // Apple writes some 64-bit values (e.g. esr, flags) as signed; keep the bit pattern.
        return UInt64(bitPattern: negative)
      }
      warn(path(), "number \(number) is not a 64-bit integer; ignored")
      return nil
    case .string:
      let text = Self.text(value)
      if let parsed = String.parseUInt64(text) { return parsed }
      warn(path(), "expected an integer, found string \"\(TerminalText.escaped(String(text.prefix(40))))\"; ignored")
      return nil
    case .null:
      return nil
    default:
      wrongType(value, at: path(), expected: "an integer")
      return nil
    }
  }

  mutating func int(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> Int? {
    guard let value = object[key] else { return nil }
    return int(value, at: path().appending(key.description))
  }

  /// Non-negative integers in range are read in place; the rest below.
  @inline(__always)
  mutating func int(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> Int? {
    let entry = value.entry
    if entry.kind == .number && entry.flags == JSONTapeEntry.numberUnsigned && entry.payload <= UInt64(Int.max) {
      return Int(entry.payload)
    }
    return anyInt(value, at: path())
  }

  private mutating func anyInt(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> Int? {
    switch value.kind {
    case .number:
      let number = value.number!
      if let exact = number.int { return exact }
      warn(path(), "number \(number) is not an integer in range; ignored")
      return nil
    case .string:
      let text = Self.text(value)
      let trimmed = text.trimmingWhitespace()
      if let parsed = Int(trimmed) { return parsed }
      if let parsed = String.parseUInt64(trimmed), let exact = Int(exactly: parsed) { return exact }
      warn(path(), "expected an integer, found string \"\(TerminalText.escaped(String(text.prefix(40))))\"; ignored")
      return nil
    case .null:
      return nil
    default:
      wrongType(value, at: path(), expected: "an integer")
      return nil
    }
  }

  mutating func bool(_ value: JSONNode, at path: @autoclosure () -> JSONPath) -> Bool? {
    switch value.kind {
    case .true: return true
    case .false: return false
    case .number:
      let number = value.number!
      if number.uint64 == 0 { return false }
      if number.uint64 == 1 { return true }
      warn(path(), "expected a boolean, found number \(number); ignored")
      return nil
    case .string:
      switch value.string!.lowercased() {
      case "true", "1", "yes": return true
      case "false", "0", "no": return false
      default:
        wrongType(value, at: path(), expected: "a boolean")
        return nil
      }
    case .null: return nil
    default:
      wrongType(value, at: path(), expected: "a boolean")
      return nil
    }
  }

  // The variants below take a member already found by a one-pass walk over an object's members
  // (see `CrashReport.apply(crashBody:decoder:)`): `key` only names it in a warning's path.

  mutating func string(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> String?
  {
    guard let value else { return nil }
    return string(value, at: path().appending(key.description))
  }

  mutating func uint64(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> UInt64?
  {
    guard let value else { return nil }
    return uint64(value, at: path().appending(key.description))
  }

  mutating func int(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath) -> Int? {
    guard let value else { return nil }
    return int(value, at: path().appending(key.description))
  }

  mutating func bool(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath) -> Bool? {
    guard let value else { return nil }
    return bool(value, at: path().appending(key.description))
  }

  mutating func object(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> JSONNode?
  {
    container(value, key, .object, at: path(), expected: "an object")
  }

  mutating func array(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> JSONNode?
  {
    container(value, key, .array, at: path(), expected: "an array")
  }

  /// The text of a string node. JSON writers escape every "/" in a path as "\/", and Apple's do:
  /// unescaping into the string's own storage in one pass costs a fraction of
  /// ``JSONTapeEntry/decodedString(_:in:)``'s byte-by-byte array, which is kept for `\u` escapes.
  static func text(_ node: JSONNode) -> String {
    let entry = node.entry
    let raw = UnsafeBufferPointer(rebasing: node.view.bytes[entry.start..<entry.end])
    // Text every report repeats is a literal (shorter text is a small string anyway).
    if raw.count >= 16, let known = WellKnownText.literal(raw: UnsafeRawBufferPointer(raw)) { return known }
    guard entry.flags & JSONTapeEntry.stringHasEscapes != 0 else { return String(decoding: raw, as: UTF8.self) }
    var sawUnicodeEscape = false
    let text = String(unsafeUninitializedCapacity: raw.count) { output in
      var written = 0
      var index = 0
      let input = UnsafeRawPointer(raw.baseAddress!)
      let destination = UnsafeMutableRawPointer(output.baseAddress!)
      while index < raw.count {
        // Eight bytes at a time while none is a backslash (`written` never passes `index`, so the
        // store stays inside the capacity).
        while index + 8 <= raw.count {
          let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
          let backslashes = UInt64(littleEndian: word) ^ 0x5C5C_5C5C_5C5C_5C5C
          let found = (backslashes &- 0x0101_0101_0101_0101) & ~backslashes & 0x8080_8080_8080_8080
          destination.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
          guard found == 0 else {
            // The lowest flagged byte is the first backslash (only bytes above a match can be
            // flagged falsely): keep the bytes before it, already stored, and unescape it below.
            let before = found.trailingZeroBitCount &>> 3
            index += before
            written += before
            // "\/", every slash of a path: the slash, then on with the words.
            if index + 1 < raw.count && raw[index + 1] == UInt8(ascii: "/") {
              output[written] = UInt8(ascii: "/")
              index += 2
              written += 1
              continue
            }
            break
          }
          index += 8
          written += 8
        }
        guard index < raw.count else { break }
        var byte = raw[index]
        index += 1
        if byte == ASCII.backslash && index < raw.count {
          switch raw[index] {
          case UInt8(ascii: "b"): byte = 0x08
          case UInt8(ascii: "f"): byte = 0x0C
          case UInt8(ascii: "n"): byte = 0x0A
          case UInt8(ascii: "r"): byte = 0x0D
          case UInt8(ascii: "t"): byte = 0x09
          case UInt8(ascii: "u"):
            sawUnicodeEscape = true
            return 0
          default: byte = raw[index]  // \" \\ \/
          }
          index += 1
        }
        output[written] = byte
        written += 1
      }
      return written
    }
    return sawUnicodeEscape ? JSONTapeEntry.decodedString(entry, in: node.view.bytes) : text
  }

  /// The member `key` when it is an object.
  mutating func object(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> JSONNode? {
    container(object, key, .object, at: path(), expected: "an object")
  }

  /// The member `key` when it is an array.
  mutating func array(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> JSONNode? {
    container(object, key, .array, at: path(), expected: "an array")
  }

  private mutating func container(
    _ object: JSONNode, _ key: StaticString, _ kind: JSONTapeEntry.Kind, at path: @autoclosure () -> JSONPath,
    expected: String
  ) -> JSONNode? {
    container(object[key], key, kind, at: path(), expected: expected)
  }

  private mutating func container(
    _ value: JSONNode?, _ key: StaticString, _ kind: JSONTapeEntry.Kind, at path: @autoclosure () -> JSONPath,
    expected: String
  ) -> JSONNode? {
    guard let value else { return nil }
    if value.kind == kind { return value }
    if value.kind != .null { wrongType(value, at: path().appending(key.description), expected: expected) }
    return nil
  }

  /// An array of strings; a lone string is accepted as a one-element array.
  mutating func strings(_ object: JSONNode, _ key: StaticString, at path: @autoclosure () -> JSONPath) -> [String] {
    strings(object[key], named: key, in: path())
  }

  /// The member value form of ``strings(_:_:at:)``.
  mutating func strings(_ value: JSONNode?, named key: StaticString, in path: @autoclosure () -> JSONPath)
    -> [String]
  {
    guard let value else { return [] }
    switch value.kind {
    case .string: return [Self.text(value)]
    case .array:
      var result: [String] = []
      result.reserveCapacity(value.count)
      for (index, element) in value.elements.enumerated() {
        switch element.kind {
        case .string: result.append(Self.text(element))
        case .number: result.append(element.number!.description)
        case .null: continue
        default:
          wrongType(element, at: path().appending(key.description).appending(index), expected: "a string")
        }
      }
      return result
    case .null: return []
    default:
      wrongType(value, at: path().appending(key.description), expected: "an array of strings")
      return []
    }
  }
}

/// An object member's key as its length and its first and last 8 bytes, so that the decoders can
/// switch over the keys they know: comparing two words beats comparing each candidate key byte by
/// byte. Keys longer than 16 bytes also need ``JSONNode/keyEquals(_:)``, as their middle is not
/// covered.
struct MemberName: Equatable {
  /// In UTF-8 bytes, after decoding escapes.
  var length: Int
  /// The first 8 bytes, little-endian, zero-padded.
  var head: UInt64
  /// The last 8 bytes when the key is longer than 8 bytes, else 0.
  var tail: UInt64

  init(length: Int, head: UInt64, tail: UInt64) {
    self.length = length
    self.head = head
    self.tail = tail
  }

  @inline(__always)
  init(_ key: JSONNode) {
    let entry = key.entry
    let buffer = key.view.bytes
    let count = entry.end - entry.start
    guard entry.flags & JSONTapeEntry.stringHasEscapes == 0, let base = buffer.baseAddress else {
      var text = JSONTapeEntry.decodedString(entry, in: buffer)
      self = text.withUTF8 { MemberName(bytes: UnsafeRawBufferPointer($0)) }
      return
    }
    guard entry.start + 8 <= buffer.count else {
      self.init(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[entry.start..<entry.end]))
      return
    }
    // One load, masked to the key (the bytes after it, at least the closing quote, exist).
    let word = UInt64(littleEndian: UnsafeRawPointer(base + entry.start).loadUnaligned(as: UInt64.self))
    var tail: UInt64 = 0
    if count > 8 {
      tail = UInt64(littleEndian: UnsafeRawPointer(base + entry.end - 8).loadUnaligned(as: UInt64.self))
    }
    self.init(length: count, head: count >= 8 ? word : word & ((1 << (UInt64(count) * 8)) - 1), tail: tail)
  }

  init(bytes: UnsafeRawBufferPointer) {
    var head: UInt64 = 0
    var tail: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { head |= UInt64(byte) << (UInt64(index) * 8) }
    if bytes.count > 8 {
      for (index, byte) in bytes.suffix(8).enumerated() { tail |= UInt64(byte) << (UInt64(index) * 8) }
    }
    self.init(length: bytes.count, head: head, tail: tail)
  }

  // The keys the report decoders read (checked against their text in MemberNameTests).

  /// "app_name"
  static let appName = MemberName(length: 8, head: 0x656d616e5f707061, tail: 0)
  /// "app_version"
  static let appVersion = MemberName(length: 11, head: 0x737265765f707061, tail: 0x6e6f69737265765f)
  /// "arch"
  static let arch = MemberName(length: 4, head: 0x0000000068637261, tail: 0)
  /// "arguments"
  static let arguments = MemberName(length: 9, head: 0x746e656d75677261, tail: 0x73746e656d756772)
  /// "asi"
  static let asi = MemberName(length: 3, head: 0x0000000000697361, tail: 0)
  /// "base"
  static let base = MemberName(length: 4, head: 0x0000000065736162, tail: 0)
  /// "bug_type"
  static let bugType = MemberName(length: 8, head: 0x657079745f677562, tail: 0)
  /// "build"
  static let build = MemberName(length: 5, head: 0x000000646c697562, tail: 0)
  /// "build_version"
  static let buildVersion = MemberName(length: 13, head: 0x65765f646c697562, tail: 0x6e6f69737265765f)
  /// "bundleID"
  static let bundleID = MemberName(length: 8, head: 0x4449656c646e7562, tail: 0)
  /// "bundleInfo"
  static let bundleInfo = MemberName(length: 10, head: 0x6e49656c646e7562, tail: 0x6f666e49656c646e)
  /// "byPid"
  static let byPid = MemberName(length: 5, head: 0x0000006469507962, tail: 0)
  /// "byProc"
  static let byProc = MemberName(length: 6, head: 0x0000636f72507962, tail: 0)
  /// "captureTime"
  static let captureTime = MemberName(length: 11, head: 0x5465727574706163, tail: 0x656d695465727574)
  /// "CFBundleIdentifier"
  static let CFBundleIdentifier = MemberName(length: 18, head: 0x656c646e75424643, tail: 0x7265696669746e65)
  /// "CFBundleShortVersionString"
  static let CFBundleShortVersionString = MemberName(length: 26, head: 0x656c646e75424643, tail: 0x676e697274536e6f)
  /// "CFBundleVersion"
  static let CFBundleVersion = MemberName(length: 15, head: 0x656c646e75424643, tail: 0x6e6f697372655665)
  /// "class"
  static let `class` = MemberName(length: 5, head: 0x0000007373616c63, tail: 0)
  /// "code"
  static let code = MemberName(length: 4, head: 0x0000000065646f63, tail: 0)
  /// "codes"
  static let codes = MemberName(length: 5, head: 0x0000007365646f63, tail: 0)
  /// "composed_message"
  static let composedMessage = MemberName(length: 16, head: 0x6465736f706d6f63, tail: 0x6567617373656d5f)
  /// "cpsr"
  static let cpsr = MemberName(length: 4, head: 0x0000000072737063, tail: 0)
  /// "cpuType"
  static let cpuType = MemberName(length: 7, head: 0x0065707954757063, tail: 0)
  /// "description"
  static let description = MemberName(length: 11, head: 0x7470697263736564, tail: 0x6e6f697470697263)
  /// "details"
  static let details = MemberName(length: 7, head: 0x00736c6961746564, tail: 0)
  /// "esr"
  static let esr = MemberName(length: 3, head: 0x0000000000727365, tail: 0)
  /// "exception"
  static let exception = MemberName(length: 9, head: 0x6f69747065637865, tail: 0x6e6f697470656378)
  /// "exceptionReason"
  static let exceptionReason = MemberName(length: 15, head: 0x6f69747065637865, tail: 0x6e6f736165526e6f)
  /// "far"
  static let far = MemberName(length: 3, head: 0x0000000000726166, tail: 0)
  /// "faultingThread"
  static let faultingThread = MemberName(length: 14, head: 0x676e69746c756166, tail: 0x646165726854676e)
  /// "flags"
  static let flags = MemberName(length: 5, head: 0x0000007367616c66, tail: 0)
  /// "flavor"
  static let flavor = MemberName(length: 6, head: 0x0000726f76616c66, tail: 0)
  /// "format_string"
  static let formatString = MemberName(length: 13, head: 0x735f74616d726f66, tail: 0x676e697274735f74)
  /// "fp"
  static let fp = MemberName(length: 2, head: 0x0000000000007066, tail: 0)
  /// "frames"
  static let frames = MemberName(length: 6, head: 0x000073656d617266, tail: 0)
  /// "id"
  static let id = MemberName(length: 2, head: 0x0000000000006469, tail: 0)
  /// "imageIndex"
  static let imageIndex = MemberName(length: 10, head: 0x646e496567616d69, tail: 0x7865646e49656761)
  /// "imageOffset"
  static let imageOffset = MemberName(length: 11, head: 0x66664f6567616d69, tail: 0x74657366664f6567)
  /// "incident"
  static let incident = MemberName(length: 8, head: 0x746e656469636e69, tail: 0)
  /// "incident_id"
  static let incidentID = MemberName(length: 11, head: 0x746e656469636e69, tail: 0x64695f746e656469)
  /// "indicator"
  static let indicator = MemberName(length: 9, head: 0x6f74616369646e69, tail: 0x726f74616369646e)
  /// "inline"
  static let inline = MemberName(length: 6, head: 0x0000656e696c6e69, tail: 0)
  /// "is_corpse"
  static let isCorpseSnakeCase = MemberName(length: 9, head: 0x7370726f635f7369, tail: 0x657370726f635f73)
  /// "isCorpse"
  static let isCorpse = MemberName(length: 8, head: 0x657370726f437369, tail: 0)
  /// "isEmbedded"
  static let isEmbedded = MemberName(length: 10, head: 0x646465626d457369, tail: 0x6465646465626d45)
  /// "isNonFatal"
  static let isNonFatal = MemberName(length: 10, head: 0x7461466e6f4e7369, tail: 0x6c617461466e6f4e)
  /// "isSimulated"
  static let isSimulated = MemberName(length: 11, head: 0x616c756d69537369, tail: 0x646574616c756d69)
  /// "ktriageinfo"
  static let ktriageinfo = MemberName(length: 11, head: 0x696567616972746b, tail: 0x6f666e6965676169)
  /// "largestProcess"
  static let largestProcess = MemberName(length: 14, head: 0x507473656772616c, tail: 0x737365636f725074)
  /// "lastExceptionBacktrace"
  static let lastExceptionBacktrace = MemberName(length: 22, head: 0x656378457473616c, tail: 0x65636172746b6361)
  /// "legacyInfo"
  static let legacyInfo = MemberName(length: 10, head: 0x6e4979636167656c, tail: 0x6f666e4979636167)
  /// "lr"
  static let lr = MemberName(length: 2, head: 0x000000000000726c, tail: 0)
  /// "memoryStatus"
  static let memoryStatus = MemberName(length: 12, head: 0x745379726f6d656d, tail: 0x7375746174537972)
  /// "message"
  static let message = MemberName(length: 7, head: 0x006567617373656d, tail: 0)
  /// "modelCode"
  static let modelCode = MemberName(length: 9, head: 0x646f436c65646f6d, tail: 0x65646f436c65646f)
  /// "name"
  static let name = MemberName(length: 4, head: 0x00000000656d616e, tail: 0)
  /// "namespace"
  static let namespace = MemberName(length: 9, head: 0x63617073656d616e, tail: 0x6563617073656d61)
  /// "os_version"
  static let osVersionSnakeCase = MemberName(length: 10, head: 0x69737265765f736f, tail: 0x6e6f69737265765f)
  /// "osVersion"
  static let osVersion = MemberName(length: 9, head: 0x6f6973726556736f, tail: 0x6e6f697372655673)
  /// "panicString"
  static let panicString = MemberName(length: 11, head: 0x72745363696e6170, tail: 0x676e697274536369)
  /// "parentPid"
  static let parentPid = MemberName(length: 9, head: 0x6950746e65726170, tail: 0x646950746e657261)
  /// "parentProc"
  static let parentProc = MemberName(length: 10, head: 0x7250746e65726170, tail: 0x636f7250746e6572)
  /// "path"
  static let path = MemberName(length: 4, head: 0x0000000068746170, tail: 0)
  /// "pc"
  static let pc = MemberName(length: 2, head: 0x0000000000006370, tail: 0)
  /// "pid"
  static let pid = MemberName(length: 3, head: 0x0000000000646970, tail: 0)
  /// "platform"
  static let platform = MemberName(length: 8, head: 0x6d726f6674616c70, tail: 0)
  /// "processByPid"
  static let processByPid = MemberName(length: 12, head: 0x42737365636f7270, tail: 0x6469507942737365)
  /// "procLaunch"
  static let procLaunch = MemberName(length: 10, head: 0x6e75614c636f7270, tail: 0x68636e75614c636f)
  /// "procName"
  static let procName = MemberName(length: 8, head: 0x656d614e636f7270, tail: 0)
  /// "procPath"
  static let procPath = MemberName(length: 8, head: 0x68746150636f7270, tail: 0)
  /// "queue"
  static let queue = MemberName(length: 5, head: 0x0000006575657571, tail: 0)
  /// "rawCodes"
  static let rawCodes = MemberName(length: 8, head: 0x7365646f43776172, tail: 0)
  /// "reasons"
  static let reasons = MemberName(length: 7, head: 0x00736e6f73616572, tail: 0)
  /// "releaseType"
  static let releaseType = MemberName(length: 11, head: 0x54657361656c6572, tail: 0x6570795465736165)
  /// "sharedCache"
  static let sharedCache = MemberName(length: 11, head: 0x6143646572616873, tail: 0x6568636143646572)
  /// "signal"
  static let signal = MemberName(length: 6, head: 0x00006c616e676973, tail: 0)
  /// "size"
  static let size = MemberName(length: 4, head: 0x00000000657a6973, tail: 0)
  /// "slice_uuid"
  static let sliceUUID = MemberName(length: 10, head: 0x75755f6563696c73, tail: 0x646975755f656369)
  /// "source"
  static let source = MemberName(length: 6, head: 0x0000656372756f73, tail: 0)
  /// "sourceFile"
  static let sourceFile = MemberName(length: 10, head: 0x6946656372756f73, tail: 0x656c694665637275)
  /// "sourceLine"
  static let sourceLine = MemberName(length: 10, head: 0x694c656372756f73, tail: 0x656e694c65637275)
  /// "sp"
  static let sp = MemberName(length: 2, head: 0x0000000000007073, tail: 0)
  /// "storeInfo"
  static let storeInfo = MemberName(length: 9, head: 0x666e4965726f7473, tail: 0x6f666e4965726f74)
  /// "subtype"
  static let subtype = MemberName(length: 7, head: 0x0065707974627573, tail: 0)
  /// "symbol"
  static let symbol = MemberName(length: 6, head: 0x00006c6f626d7973, tail: 0)
  /// "symbolLocation"
  static let symbolLocation = MemberName(length: 14, head: 0x6f4c6c6f626d7973, tail: 0x6e6f697461636f4c)
  /// "termination"
  static let termination = MemberName(length: 11, head: 0x74616e696d726574, tail: 0x6e6f6974616e696d)
  /// "threads"
  static let threads = MemberName(length: 7, head: 0x0073646165726874, tail: 0)
  /// "threadState"
  static let threadState = MemberName(length: 11, head: 0x7453646165726874, tail: 0x6574617453646165)
  /// "timestamp"
  static let timestamp = MemberName(length: 9, head: 0x6d617473656d6974, tail: 0x706d617473656d69)
  /// "train"
  static let train = MemberName(length: 5, head: 0x0000006e69617274, tail: 0)
  /// "triggered"
  static let triggered = MemberName(length: 9, head: 0x6572656767697274, tail: 0x6465726567676972)
  /// "type"
  static let type = MemberName(length: 4, head: 0x0000000065707974, tail: 0)
  /// "usedImages"
  static let usedImages = MemberName(length: 10, head: 0x67616d4964657375, tail: 0x736567616d496465)
  /// "uuid"
  static let uuid = MemberName(length: 4, head: 0x0000000064697575, tail: 0)
  /// "value"
  static let value = MemberName(length: 5, head: 0x00000065756c6176, tail: 0)
  /// "vmregioninfo"
  static let vmregioninfo = MemberName(length: 12, head: 0x6e6f696765726d76, tail: 0x6f666e696e6f6967)
  /// "vmRegionInfo"
  static let vmRegionInfo = MemberName(length: 12, head: 0x6e6f696765526d76, tail: 0x6f666e496e6f6967)
  /// "vmSummary"
  static let vmSummary = MemberName(length: 9, head: 0x72616d6d75536d76, tail: 0x7972616d6d75536d)
  /// "x"
  static let x = MemberName(length: 1, head: 0x0000000000000078, tail: 0)

  // String values that images repeat (``BinaryImage/init(json:at:decoder:)``).

  /// "arm64"
  static let arm64 = MemberName(length: 5, head: 0x00000034366d7261, tail: 0)
  /// "arm64e"
  static let arm64e = MemberName(length: 6, head: 0x00006534366d7261, tail: 0)
  /// "arm64_32"
  static let arm64_32 = MemberName(length: 8, head: 0x32335f34366d7261, tail: 0)
  /// "x86_64"
  static let x86_64 = MemberName(length: 6, head: 0x000034365f363878, tail: 0)
  /// "A"
  static let sourceA = MemberName(length: 1, head: 0x0000000000000041, tail: 0)
  /// "C"
  static let sourceC = MemberName(length: 1, head: 0x0000000000000043, tail: 0)
  /// "K"
  static let sourceK = MemberName(length: 1, head: 0x000000000000004b, tail: 0)
  /// "P"
  static let sourceP = MemberName(length: 1, head: 0x0000000000000050, tail: 0)
  /// "S"
  static let sourceS = MemberName(length: 1, head: 0x0000000000000053, tail: 0)
}

/// Text that Apple's reports repeat in almost every report (thread-state flavors, dispatch queue
/// labels, system image names and paths, the run loop's and dispatch's frame symbols), as string
/// literals: a literal is neither allocated nor reference counted, while each copy read from a report
/// was a heap `String` to make and to free. Looked up by the raw bytes of a JSON string (escaped
/// slashes included, as Apple writes paths); only text longer than a small string is looked up.
/// To add an entry, add it to ``entries`` and run `WellKnownTextTests`: it names the `case` to add.
enum WellKnownText {
  /// Every entry: the raw JSON text and the string it decodes to.
  static let entries: [(raw: String, text: String)] = [
    (#"/System/Library/Frameworks/CoreImage.framework/CoreImage"#, #"/System/Library/Frameworks/CoreImage.framework/CoreImage"#),
    (#"_dispatch_main_queue_drain"#, #"_dispatch_main_queue_drain"#),
    (#"_dispatch_root_queue_drain"#, #"_dispatch_root_queue_drain"#),
    (#"libdispatch.dylib"#, #"libdispatch.dylib"#),
    (#"/usr/lib/swift/libswiftUIKit.dylib"#, #"/usr/lib/swift/libswiftUIKit.dylib"#),
    (#"/usr/lib/libc++abi.dylib"#, #"/usr/lib/libc++abi.dylib"#),
    (#"/System/Library/PrivateFrameworks/CoreAnalytics.framework/CoreAnalytics"#, #"/System/Library/PrivateFrameworks/CoreAnalytics.framework/CoreAnalytics"#),
    (#"/usr/lib/swift/libswiftCoreImage.dylib"#, #"/usr/lib/swift/libswiftCoreImage.dylib"#),
    (#"/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore"#, #"/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore"#),
    (#"/System/Library/Frameworks/Accelerate.framework/Accelerate"#, #"/System/Library/Frameworks/Accelerate.framework/Accelerate"#),
    (#"\/usr\/lib\/system\/libsystem_malloc.dylib"#, #"/usr/lib/system/libsystem_malloc.dylib"#),
    (#"libcorecrypto.dylib"#, #"libcorecrypto.dylib"#),
    (#"com.apple.root.background-qos"#, #"com.apple.root.background-qos"#),
    (#"/usr/lib/system/libsystem_sim_platform.dylib"#, #"/usr/lib/system/libsystem_sim_platform.dylib"#),
    (#"/usr/lib/system/libsystem_platform.dylib"#, #"/usr/lib/system/libsystem_platform.dylib"#),
    (#"/usr/lib/system/libsystem_trace.dylib"#, #"/usr/lib/system/libsystem_trace.dylib"#),
    (#"\/System\/Library\/Frameworks\/WebKit.framework\/WebKit"#, #"/System/Library/Frameworks/WebKit.framework/WebKit"#),
    (#"\/usr\/lib\/libbsm.0.dylib"#, #"/usr/lib/libbsm.0.dylib"#),
    (#"/System/Library/PrivateFrameworks/SkyLight.framework/Versions/A/SkyLight"#, #"/System/Library/PrivateFrameworks/SkyLight.framework/Versions/A/SkyLight"#),
    (#"/System/Library/PrivateFrameworks/CoreUI.framework/CoreUI"#, #"/System/Library/PrivateFrameworks/CoreUI.framework/CoreUI"#),
    (#"/usr/lib/swift/libswiftDispatch.dylib"#, #"/usr/lib/swift/libswiftDispatch.dylib"#),
    (#"/usr/lib/system/libdispatch.dylib"#, #"/usr/lib/system/libdispatch.dylib"#),
    (#"/usr/lib/system/introspection/libdispatch.dylib"#, #"/usr/lib/system/introspection/libdispatch.dylib"#),
    (#"\/System\/Library\/Frameworks\/CloudKit.framework\/CloudKit"#, #"/System/Library/Frameworks/CloudKit.framework/CloudKit"#),
    (#"\/usr\/lib\/system\/libunwind.dylib"#, #"/usr/lib/system/libunwind.dylib"#),
    (#"/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"#, #"/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"#),
    (#"\/System\/Library\/PrivateFrameworks\/AttributeGraph.framework\/AttributeGraph"#, #"/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph"#),
    (#"_dispatch_source_latch_and_call"#, #"_dispatch_source_latch_and_call"#),
    (#"/usr/lib/system/libsystem_asl.dylib"#, #"/usr/lib/system/libsystem_asl.dylib"#),
    (#"\/usr\/lib\/libsqlite3.dylib"#, #"/usr/lib/libsqlite3.dylib"#),
    (#"_dispatch_worker_thread2"#, #"_dispatch_worker_thread2"#),
    (#"\/System\/Library\/Frameworks\/SystemConfiguration.framework\/SystemConfiguration"#, #"/System/Library/Frameworks/SystemConfiguration.framework/SystemConfiguration"#),
    (#"/System/Library/Frameworks/UIKit.framework/UIKit"#, #"/System/Library/Frameworks/UIKit.framework/UIKit"#),
    (#"libsystem_coreservices.dylib"#, #"libsystem_coreservices.dylib"#),
    (#"/usr/lib/libAccessibility.dylib"#, #"/usr/lib/libAccessibility.dylib"#),
    (#"\/System\/Library\/Frameworks\/QuartzCore.framework\/Versions\/A\/QuartzCore"#, #"/System/Library/Frameworks/QuartzCore.framework/Versions/A/QuartzCore"#),
    (#"\/System\/Library\/Frameworks\/QuartzCore.framework\/QuartzCore"#, #"/System/Library/Frameworks/QuartzCore.framework/QuartzCore"#),
    (#"/System/Library/Frameworks/SwiftUICore.framework/SwiftUICore"#, #"/System/Library/Frameworks/SwiftUICore.framework/SwiftUICore"#),
    (#"libremovefile.dylib"#, #"libremovefile.dylib"#),
    (#"/usr/lib/swift/libswiftos.dylib"#, #"/usr/lib/swift/libswiftos.dylib"#),
    (#"\/usr\/lib\/system\/libcopyfile.dylib"#, #"/usr/lib/system/libcopyfile.dylib"#),
    (#"\/usr\/lib\/system\/libremovefile.dylib"#, #"/usr/lib/system/libremovefile.dylib"#),
    (#"/usr/lib/system/libcommonCrypto.dylib"#, #"/usr/lib/system/libcommonCrypto.dylib"#),
    (#"/usr/lib/system/libcorecrypto.dylib"#, #"/usr/lib/system/libcorecrypto.dylib"#),
    (#"ARM_THREAD_STATE32"#, #"ARM_THREAD_STATE32"#),
    (#"/usr/lib/swift/libswiftsimd.dylib"#, #"/usr/lib/swift/libswiftsimd.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_darwin.dylib"#, #"/usr/lib/system/libsystem_darwin.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftDarwin.dylib"#, #"/usr/lib/swift/libswiftDarwin.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_blocks.dylib"#, #"/usr/lib/system/libsystem_blocks.dylib"#),
    (#"libswiftDarwin.dylib"#, #"libswiftDarwin.dylib"#),
    (#"\/System\/Library\/PrivateFrameworks\/BaseBoard.framework\/BaseBoard"#, #"/System/Library/PrivateFrameworks/BaseBoard.framework/BaseBoard"#),
    (#"_pthread_wqthread"#, #"_pthread_wqthread"#),
    (#"libsystem_info.dylib"#, #"libsystem_info.dylib"#),
    (#"\/usr\/lib\/system\/libcache.dylib"#, #"/usr/lib/system/libcache.dylib"#),
    (#"/usr/lib/system/libcompiler_rt.dylib"#, #"/usr/lib/system/libcompiler_rt.dylib"#),
    (#"/usr/lib/swift/libswiftSwiftOnoneSupport.dylib"#, #"/usr/lib/swift/libswiftSwiftOnoneSupport.dylib"#),
    (#"libswiftXPC.dylib"#, #"libswiftXPC.dylib"#),
    (#"\/System\/Library\/Frameworks\/CoreLocation.framework\/CoreLocation"#, #"/System/Library/Frameworks/CoreLocation.framework/CoreLocation"#),
    (#"libsystem_notify.dylib"#, #"libsystem_notify.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_featureflags.dylib"#, #"/usr/lib/system/libsystem_featureflags.dylib"#),
    (#"com.apple.root.user-interactive-qos.cooperative"#, #"com.apple.root.user-interactive-qos.cooperative"#),
    (#"com.apple.root.user-initiated-qos.cooperative"#, #"com.apple.root.user-initiated-qos.cooperative"#),
    (#"com.apple.root.background-qos.cooperative"#, #"com.apple.root.background-qos.cooperative"#),
    (#"com.apple.root.default-qos.cooperative"#, #"com.apple.root.default-qos.cooperative"#),
    (#"com.apple.root.utility-qos.cooperative"#, #"com.apple.root.utility-qos.cooperative"#),
    (#"\/usr\/lib\/swift\/libswiftXPC.dylib"#, #"/usr/lib/swift/libswiftXPC.dylib"#),
    (#"com.apple.root.user-interactive-qos"#, #"com.apple.root.user-interactive-qos"#),
    (#"/System/Library/Frameworks/Carbon.framework/Versions/A/Frameworks/HIToolbox.framework/Versions/A/HIToolbox"#, #"/System/Library/Frameworks/Carbon.framework/Versions/A/Frameworks/HIToolbox.framework/Versions/A/HIToolbox"#),
    (#"libswiftCoreGraphics.dylib"#, #"libswiftCoreGraphics.dylib"#),
    (#"/System/Library/Frameworks/IOSurface.framework/IOSurface"#, #"/System/Library/Frameworks/IOSurface.framework/IOSurface"#),
    (#"\/usr\/lib\/swift\/libswiftCoreGraphics.dylib"#, #"/usr/lib/swift/libswiftCoreGraphics.dylib"#),
    (#"/usr/lib/swift/libswift_Concurrency.dylib"#, #"/usr/lib/swift/libswift_Concurrency.dylib"#),
    (#"__CFRUNLOOP_IS_SERVICING_THE_MAIN_DISPATCH_QUEUE__"#, #"__CFRUNLOOP_IS_SERVICING_THE_MAIN_DISPATCH_QUEUE__"#),
    (#"\/usr\/lib\/system\/libmacho.dylib"#, #"/usr/lib/system/libmacho.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_pthread.dylib"#, #"/usr/lib/system/libsystem_pthread.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_sim_pthread.dylib"#, #"/usr/lib/system/libsystem_sim_pthread.dylib"#),
    (#"libswiftObjectiveC.dylib"#, #"libswiftObjectiveC.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftObjectiveC.dylib"#, #"/usr/lib/swift/libswiftObjectiveC.dylib"#),
    (#"/System/Library/Frameworks/ImageIO.framework/ImageIO"#, #"/System/Library/Frameworks/ImageIO.framework/ImageIO"#),
    (#"/System/Library/PrivateFrameworks/TextInput.framework/TextInput"#, #"/System/Library/PrivateFrameworks/TextInput.framework/TextInput"#),
    (#"_dispatch_continuation_pop"#, #"_dispatch_continuation_pop"#),
    (#"com.apple.NSEventThread"#, #"com.apple.NSEventThread"#),
    (#"libswift_StringProcessing.dylib"#, #"libswift_StringProcessing.dylib"#),
    (#"_objc_terminate()"#, #"_objc_terminate()"#),
    (#"\/usr\/lib\/swift\/libswift_StringProcessing.dylib"#, #"/usr/lib/swift/libswift_StringProcessing.dylib"#),
    (#"libswift_Concurrency.dylib"#, #"libswift_Concurrency.dylib"#),
    (#"_dispatch_continuation_pop_inline"#, #"_dispatch_continuation_pop_inline"#),
    (#"\/usr\/lib\/swift\/libswift_Concurrency.dylib"#, #"/usr/lib/swift/libswift_Concurrency.dylib"#),
    (#"libsystem_configuration.dylib"#, #"libsystem_configuration.dylib"#),
    (#"libsystem_networkextension.dylib"#, #"libsystem_networkextension.dylib"#),
    (#"-[UIEventFetcher threadMain]"#, #"-[UIEventFetcher threadMain]"#),
    (#"_pthread_mutex_firstfit_lock_wait"#, #"_pthread_mutex_firstfit_lock_wait"#),
    (#"libsystem_kernel.dylib"#, #"libsystem_kernel.dylib"#),
    (#"libsystem_sim_kernel.dylib"#, #"libsystem_sim_kernel.dylib"#),
    (#"abort_with_payload_wrapper_internal"#, #"abort_with_payload_wrapper_internal"#),
    (#"/usr/lib/swift/libswiftCoreGraphics.dylib"#, #"/usr/lib/swift/libswiftCoreGraphics.dylib"#),
    (#"/usr/lib/system/libmacho.dylib"#, #"/usr/lib/system/libmacho.dylib"#),
    (#"/usr/lib/system/libsystem_pthread.dylib"#, #"/usr/lib/system/libsystem_pthread.dylib"#),
    (#"/usr/lib/system/libsystem_sim_pthread.dylib"#, #"/usr/lib/system/libsystem_sim_pthread.dylib"#),
    (#"\/System\/Library\/Frameworks\/StoreKit.framework\/StoreKit"#, #"/System/Library/Frameworks/StoreKit.framework/StoreKit"#),
    (#"_dispatch_call_block_and_release"#, #"_dispatch_call_block_and_release"#),
    (#"/System/Library/Frameworks/MapKit.framework/MapKit"#, #"/System/Library/Frameworks/MapKit.framework/MapKit"#),
    (#"_dispatch_client_callout"#, #"_dispatch_client_callout"#),
    (#"_dispatch_once_callout"#, #"_dispatch_once_callout"#),
    (#"/usr/lib/swift/libswiftObjectiveC.dylib"#, #"/usr/lib/swift/libswiftObjectiveC.dylib"#),
    (#"libsystem_sandbox.dylib"#, #"libsystem_sandbox.dylib"#),
    (#"\/System\/Library\/PrivateFrameworks\/CoreUI.framework\/CoreUI"#, #"/System/Library/PrivateFrameworks/CoreUI.framework/CoreUI"#),
    (#"libsystem_symptoms.dylib"#, #"libsystem_symptoms.dylib"#),
    (#"\/System\/Library\/Frameworks\/Network.framework\/Network"#, #"/System/Library/Frameworks/Network.framework/Network"#),
    (#"_pthread_mutex_firstfit_lock_slow"#, #"_pthread_mutex_firstfit_lock_slow"#),
    (#"/usr/lib/swift/libswift_StringProcessing.dylib"#, #"/usr/lib/swift/libswift_StringProcessing.dylib"#),
    (#"abort_with_payload"#, #"abort_with_payload"#),
    (#"/System/Library/Frameworks/CoreData.framework/CoreData"#, #"/System/Library/Frameworks/CoreData.framework/CoreData"#),
    (#"\/usr\/lib\/libAccessibility.dylib"#, #"/usr/lib/libAccessibility.dylib"#),
    (#"libswiftos.dylib"#, #"libswiftos.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftos.dylib"#, #"/usr/lib/swift/libswiftos.dylib"#),
    (#"\/System\/Library\/Frameworks\/CoreText.framework\/CoreText"#, #"/System/Library/Frameworks/CoreText.framework/CoreText"#),
    (#"libsystem_dnssd.dylib"#, #"libsystem_dnssd.dylib"#),
    (#"com.apple.uikit.eventfetch-thread"#, #"com.apple.uikit.eventfetch-thread"#),
    (#"swift::runJobInEstablishedExecutorContext(swift::Job*)"#, #"swift::runJobInEstablishedExecutorContext(swift::Job*)"#),
    (#"\/usr\/lib\/swift\/libswiftsimd.dylib"#, #"/usr/lib/swift/libswiftsimd.dylib"#),
    (#"/usr/lib/system/libsystem_darwin.dylib"#, #"/usr/lib/system/libsystem_darwin.dylib"#),
    (#"/usr/lib/swift/libswiftDarwin.dylib"#, #"/usr/lib/swift/libswiftDarwin.dylib"#),
    (#"\/System\/Library\/Frameworks\/CoreGraphics.framework\/CoreGraphics"#, #"/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"#),
    (#"\/System\/Library\/Frameworks\/CoreGraphics.framework\/Versions\/A\/CoreGraphics"#, #"/System/Library/Frameworks/CoreGraphics.framework/Versions/A/CoreGraphics"#),
    (#"\/usr\/lib\/system\/libcorecrypto.dylib"#, #"/usr/lib/system/libcorecrypto.dylib"#),
    (#"\/usr\/lib\/system\/libcommonCrypto.dylib"#, #"/usr/lib/system/libcommonCrypto.dylib"#),
    (#"/usr/lib/system/libremovefile.dylib"#, #"/usr/lib/system/libremovefile.dylib"#),
    (#"/usr/lib/system/libcopyfile.dylib"#, #"/usr/lib/system/libcopyfile.dylib"#),
    (#"/System/Library/Frameworks/Combine.framework/Combine"#, #"/System/Library/Frameworks/Combine.framework/Combine"#),
    (#"libswiftsimd.dylib"#, #"libswiftsimd.dylib"#),
    (#"/usr/lib/system/libsystem_blocks.dylib"#, #"/usr/lib/system/libsystem_blocks.dylib"#),
    (#"__CFRunLoopDoObservers"#, #"__CFRunLoopDoObservers"#),
    (#"/System/Library/Frameworks/UserNotifications.framework/UserNotifications"#, #"/System/Library/Frameworks/UserNotifications.framework/UserNotifications"#),
    (#"com.apple.UIKit.statusBarUpdates"#, #"com.apple.UIKit.statusBarUpdates"#),
    (#"/usr/lib/system/libcache.dylib"#, #"/usr/lib/system/libcache.dylib"#),
    (#"\/System\/Library\/Frameworks\/Foundation.framework\/Foundation"#, #"/System/Library/Frameworks/Foundation.framework/Foundation"#),
    (#"\/System\/Library\/Frameworks\/CoreFoundation.framework\/Versions\/A\/CoreFoundation"#, #"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"#),
    (#"\/System\/Library\/Frameworks\/CoreFoundation.framework\/CoreFoundation"#, #"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"#),
    (#"\/System\/Library\/Frameworks\/AVFoundation.framework\/AVFoundation"#, #"/System/Library/Frameworks/AVFoundation.framework/AVFoundation"#),
    (#"\/System\/Library\/Frameworks\/Foundation.framework\/Versions\/C\/Foundation"#, #"/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation"#),
    (#"\/System\/Library\/PrivateFrameworks\/UIFoundation.framework\/UIFoundation"#, #"/System/Library/PrivateFrameworks/UIFoundation.framework/UIFoundation"#),
    (#"/usr/lib/system/libsystem_featureflags.dylib"#, #"/usr/lib/system/libsystem_featureflags.dylib"#),
    (#"completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*)"#, #"completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*)"#),
    (#"__CFRunLoopDoSources0"#, #"__CFRunLoopDoSources0"#),
    (#"/System/Library/Frameworks/Security.framework/Versions/A/Security"#, #"/System/Library/Frameworks/Security.framework/Versions/A/Security"#),
    (#"/System/Library/Frameworks/Security.framework/Security"#, #"/System/Library/Frameworks/Security.framework/Security"#),
    (#"\/usr\/lib\/system\/libcompiler_rt.dylib"#, #"/usr/lib/system/libcompiler_rt.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftSwiftOnoneSupport.dylib"#, #"/usr/lib/swift/libswiftSwiftOnoneSupport.dylib"#),
    (#"libswiftSwiftOnoneSupport.dylib"#, #"libswiftSwiftOnoneSupport.dylib"#),
    (#"/usr/lib/swift/libswiftXPC.dylib"#, #"/usr/lib/swift/libswiftXPC.dylib"#),
    (#"/System/Library/Frameworks/CFNetwork.framework/CFNetwork"#, #"/System/Library/Frameworks/CFNetwork.framework/CFNetwork"#),
    (#"libsystem_m.dylib"#, #"libsystem_m.dylib"#),
    (#"_CFRunLoopRunSpecificWithOptions"#, #"_CFRunLoopRunSpecificWithOptions"#),
    (#"-[UIApplication _run]"#, #"-[UIApplication _run]"#),
    (#"\/usr\/lib\/system\/libdispatch.dylib"#, #"/usr/lib/system/libdispatch.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftDispatch.dylib"#, #"/usr/lib/swift/libswiftDispatch.dylib"#),
    (#"\/usr\/lib\/system\/introspection\/libdispatch.dylib"#, #"/usr/lib/system/introspection/libdispatch.dylib"#),
    (#"__NSOPERATIONQUEUE_IS_STARTING_AN_OPERATION__"#, #"__NSOPERATIONQUEUE_IS_STARTING_AN_OPERATION__"#),
    (#"/System/Library/Frameworks/SwiftUI.framework/SwiftUI"#, #"/System/Library/Frameworks/SwiftUI.framework/SwiftUI"#),
    (#"\/System\/Library\/PrivateFrameworks\/GraphicsServices.framework\/GraphicsServices"#, #"/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices"#),
    (#"\/System\/Library\/PrivateFrameworks\/AssertionServices.framework\/AssertionServices"#, #"/System/Library/PrivateFrameworks/AssertionServices.framework/AssertionServices"#),
    (#"\/System\/Library\/PrivateFrameworks\/FrontBoardServices.framework\/FrontBoardServices"#, #"/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices"#),
    (#"\/System\/Library\/PrivateFrameworks\/SpringBoardServices.framework\/SpringBoardServices"#, #"/System/Library/PrivateFrameworks/SpringBoardServices.framework/SpringBoardServices"#),
    (#"\/System\/Library\/PrivateFrameworks\/RunningBoardServices.framework\/RunningBoardServices"#, #"/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices"#),
    (#"\/System\/Library\/Frameworks\/CoreServices.framework\/CoreServices"#, #"/System/Library/Frameworks/CoreServices.framework/CoreServices"#),
    (#"\/System\/Library\/PrivateFrameworks\/BoardServices.framework\/BoardServices"#, #"/System/Library/PrivateFrameworks/BoardServices.framework/BoardServices"#),
    (#"\/System\/Library\/PrivateFrameworks\/UIKitServices.framework\/UIKitServices"#, #"/System/Library/PrivateFrameworks/UIKitServices.framework/UIKitServices"#),
    (#"\/System\/Library\/Frameworks\/CoreAudio.framework\/CoreAudio"#, #"/System/Library/Frameworks/CoreAudio.framework/CoreAudio"#),
    (#"/usr/lib/system/libunwind.dylib"#, #"/usr/lib/system/libunwind.dylib"#),
    (#"libswiftDispatch.dylib"#, #"libswiftDispatch.dylib"#),
    (#"__NSThread__start__"#, #"__NSThread__start__"#),
    (#"libobjc-trampolines.dylib"#, #"libobjc-trampolines.dylib"#),
    (#"com.apple.root.default-qos.overcommit"#, #"com.apple.root.default-qos.overcommit"#),
    (#"com.apple.root.utility-qos.overcommit"#, #"com.apple.root.utility-qos.overcommit"#),
    (#"com.apple.root.user-initiated-qos.overcommit"#, #"com.apple.root.user-initiated-qos.overcommit"#),
    (#"com.apple.root.user-interactive-qos.overcommit"#, #"com.apple.root.user-interactive-qos.overcommit"#),
    (#"com.apple.root.background-qos.overcommit"#, #"com.apple.root.background-qos.overcommit"#),
    (#"\/usr\/lib\/system\/libsystem_asl.dylib"#, #"/usr/lib/system/libsystem_asl.dylib"#),
    (#"/usr/lib/libsqlite3.dylib"#, #"/usr/lib/libsqlite3.dylib"#),
    (#"FrontBoardServices"#, #"FrontBoardServices"#),
    (#"libnetwork.dylib"#, #"libnetwork.dylib"#),
    (#"libsystem_containermanager.dylib"#, #"libsystem_containermanager.dylib"#),
    (#"\/usr\/lib\/libc++abi.dylib"#, #"/usr/lib/libc++abi.dylib"#),
    (#"libswiftCoreImage.dylib"#, #"libswiftCoreImage.dylib"#),
    (#"_dispatch_workloop_worker_thread"#, #"_dispatch_workloop_worker_thread"#),
    (#"\/usr\/lib\/swift\/libswiftUIKit.dylib"#, #"/usr/lib/swift/libswiftUIKit.dylib"#),
    (#"std::__terminate(void (*)())"#, #"std::__terminate(void (*)())"#),
    (#"libsqlite3.dylib"#, #"libsqlite3.dylib"#),
    (#"/usr/lib/system/libsystem_malloc.dylib"#, #"/usr/lib/system/libsystem_malloc.dylib"#),
    (#"\/System\/Library\/Frameworks\/CoreMedia.framework\/CoreMedia"#, #"/System/Library/Frameworks/CoreMedia.framework/CoreMedia"#),
    (#"_dispatch_lane_serial_drain"#, #"_dispatch_lane_serial_drain"#),
    (#"libswiftUIKit.dylib"#, #"libswiftUIKit.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftCoreImage.dylib"#, #"/usr/lib/swift/libswiftCoreImage.dylib"#),
    (#"/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit"#, #"/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit"#),
    (#"/System/Library/Frameworks/CoreVideo.framework/CoreVideo"#, #"/System/Library/Frameworks/CoreVideo.framework/CoreVideo"#),
    (#"__CFRunLoopDoTimer"#, #"__CFRunLoopDoTimer"#),
    (#"\/usr\/lib\/system\/libsystem_platform.dylib"#, #"/usr/lib/system/libsystem_platform.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_sim_platform.dylib"#, #"/usr/lib/system/libsystem_sim_platform.dylib"#),
    (#"\/System\/Library\/Frameworks\/CoreMotion.framework\/CoreMotion"#, #"/System/Library/Frameworks/CoreMotion.framework/CoreMotion"#),
    (#"\/System\/Library\/PrivateFrameworks\/MobileKeyBag.framework\/MobileKeyBag"#, #"/System/Library/PrivateFrameworks/MobileKeyBag.framework/MobileKeyBag"#),
    (#"com.apple.root.default-qos"#, #"com.apple.root.default-qos"#),
    (#"libsystem_c.dylib"#, #"libsystem_c.dylib"#),
    (#"\/System\/Library\/Frameworks\/MapKit.framework\/MapKit"#, #"/System/Library/Frameworks/MapKit.framework/MapKit"#),
    (#"\/usr\/lib\/system\/libsystem_trace.dylib"#, #"/usr/lib/system/libsystem_trace.dylib"#),
    (#"_UIApplicationMainPreparations"#, #"_UIApplicationMainPreparations"#),
    (#"/usr/lib/libbsm.0.dylib"#, #"/usr/lib/libbsm.0.dylib"#),
    (#"\/System\/Library\/Frameworks\/AudioToolbox.framework\/AudioToolbox"#, #"/System/Library/Frameworks/AudioToolbox.framework/AudioToolbox"#),
    (#"libicucore.A.dylib"#, #"libicucore.A.dylib"#),
    (#"_dispatch_main_queue_callback_4CF"#, #"_dispatch_main_queue_callback_4CF"#),
    (#"com.apple.root.user-initiated-qos"#, #"com.apple.root.user-initiated-qos"#),
    (#"/System/Library/PrivateFrameworks/BaseBoard.framework/BaseBoard"#, #"/System/Library/PrivateFrameworks/BaseBoard.framework/BaseBoard"#),
    (#"\/System\/Library\/Frameworks\/SwiftUICore.framework\/SwiftUICore"#, #"/System/Library/Frameworks/SwiftUICore.framework/SwiftUICore"#),
    (#"/System/Library/Frameworks/QuartzCore.framework/QuartzCore"#, #"/System/Library/Frameworks/QuartzCore.framework/QuartzCore"#),
    (#"/System/Library/Frameworks/QuartzCore.framework/Versions/A/QuartzCore"#, #"/System/Library/Frameworks/QuartzCore.framework/Versions/A/QuartzCore"#),
    (#"/usr/lib/system/libsystem_m.dylib"#, #"/usr/lib/system/libsystem_m.dylib"#),
    (#"ARM_THREAD_STATE64"#, #"ARM_THREAD_STATE64"#),
    (#"/System/Library/Frameworks/CoreLocation.framework/CoreLocation"#, #"/System/Library/Frameworks/CoreLocation.framework/CoreLocation"#),
    (#"/usr/lib/system/libxpc.dylib"#, #"/usr/lib/system/libxpc.dylib"#),
    (#"/usr/lib/liblockdown.dylib"#, #"/usr/lib/liblockdown.dylib"#),
    (#"__NSOQSchedule_f"#, #"__NSOQSchedule_f"#),
    (#"libsystem_malloc.dylib"#, #"libsystem_malloc.dylib"#),
    (#"__CFRunLoopDoTimers"#, #"__CFRunLoopDoTimers"#),
    (#"\/System\/Library\/PrivateFrameworks\/TextInput.framework\/TextInput"#, #"/System/Library/PrivateFrameworks/TextInput.framework/TextInput"#),
    (#"\/usr\/lib\/system\/libdyld.dylib"#, #"/usr/lib/system/libdyld.dylib"#),
    (#"\/System\/Library\/Frameworks\/ImageIO.framework\/ImageIO"#, #"/System/Library/Frameworks/ImageIO.framework/ImageIO"#),
    (#"com.apple.root.utility-qos"#, #"com.apple.root.utility-qos"#),
    (#"/usr/lib/libnetwork.dylib"#, #"/usr/lib/libnetwork.dylib"#),
    (#"\/System\/Library\/Frameworks\/IOSurface.framework\/IOSurface"#, #"/System/Library/Frameworks/IOSurface.framework/IOSurface"#),
    (#"/usr/lib/system/libsystem_containermanager.dylib"#, #"/usr/lib/system/libsystem_containermanager.dylib"#),
    (#"/usr/lib/swift/libswift_RegexParser.dylib"#, #"/usr/lib/swift/libswift_RegexParser.dylib"#),
    (#"\/System\/Library\/Frameworks\/Carbon.framework\/Versions\/A\/Frameworks\/HIToolbox.framework\/Versions\/A\/HIToolbox"#, #"/System/Library/Frameworks/Carbon.framework/Versions/A/Frameworks/HIToolbox.framework/Versions/A/HIToolbox"#),
    (#"-[NSRunLoop(NSRunLoop) runMode:beforeDate:]"#, #"-[NSRunLoop(NSRunLoop) runMode:beforeDate:]"#),
    (#"mach_msg2_internal"#, #"mach_msg2_internal"#),
    (#"swift_job_runImpl(swift::Job*, swift::SerialExecutorRef)"#, #"swift_job_runImpl(swift::Job*, swift::SerialExecutorRef)"#),
    (#"\/usr\/lib\/system\/libkeymgr.dylib"#, #"/usr/lib/system/libkeymgr.dylib"#),
    (#"/usr/lib/libobjc.A.dylib"#, #"/usr/lib/libobjc.A.dylib"#),
    (#"/usr/lib/libicucore.A.dylib"#, #"/usr/lib/libicucore.A.dylib"#),
    (#"_dispatch_async_redirect_invoke"#, #"_dispatch_async_redirect_invoke"#),
    (#"libcopyfile.dylib"#, #"libcopyfile.dylib"#),
    (#"/usr/lib/system/libsystem_c.dylib"#, #"/usr/lib/system/libsystem_c.dylib"#),
    (#"\/System\/Library\/PrivateFrameworks\/CoreAnalytics.framework\/CoreAnalytics"#, #"/System/Library/PrivateFrameworks/CoreAnalytics.framework/CoreAnalytics"#),
    (#"/usr/lib/system/libsystem_sandbox.dylib"#, #"/usr/lib/system/libsystem_sandbox.dylib"#),
    (#"\/System\/Library\/Frameworks\/Accelerate.framework\/Accelerate"#, #"/System/Library/Frameworks/Accelerate.framework/Accelerate"#),
    (#"/usr/lib/libz.1.dylib"#, #"/usr/lib/libz.1.dylib"#),
    (#"/usr/lib/libc++.1.dylib"#, #"/usr/lib/libc++.1.dylib"#),
    (#"\/System\/Library\/Frameworks\/JavaScriptCore.framework\/JavaScriptCore"#, #"/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore"#),
    (#"libsystem_pthread.dylib"#, #"libsystem_pthread.dylib"#),
    (#"libsystem_sim_pthread.dylib"#, #"libsystem_sim_pthread.dylib"#),
    (#"/usr/lib/system/libsystem_networkextension.dylib"#, #"/usr/lib/system/libsystem_networkextension.dylib"#),
    (#"/usr/lib/swift/libswiftCoreFoundation.dylib"#, #"/usr/lib/swift/libswiftCoreFoundation.dylib"#),
    (#"/usr/lib/system/libsystem_configuration.dylib"#, #"/usr/lib/system/libsystem_configuration.dylib"#),
    (#"/usr/lib/swift/libswiftFoundation.dylib"#, #"/usr/lib/swift/libswiftFoundation.dylib"#),
    (#"/usr/lib/swift/libswiftQuartzCore.dylib"#, #"/usr/lib/swift/libswiftQuartzCore.dylib"#),
    (#"/usr/lib/swift/libswiftCore.dylib"#, #"/usr/lib/swift/libswiftCore.dylib"#),
    (#"\/System\/Library\/Frameworks\/CoreImage.framework\/CoreImage"#, #"/System/Library/Frameworks/CoreImage.framework/CoreImage"#),
    (#"/usr/lib/system/libsystem_kernel.dylib"#, #"/usr/lib/system/libsystem_kernel.dylib"#),
    (#"/usr/lib/system/libsystem_sim_kernel.dylib"#, #"/usr/lib/system/libsystem_sim_kernel.dylib"#),
    (#"_dispatch_sync_invoke_and_complete"#, #"_dispatch_sync_invoke_and_complete"#),
    (#"_dispatch_lane_barrier_sync_invoke_and_complete"#, #"_dispatch_lane_barrier_sync_invoke_and_complete"#),
    (#"/usr/lib/swift/libswiftMetal.dylib"#, #"/usr/lib/swift/libswiftMetal.dylib"#),
    (#"\/System\/Library\/Frameworks\/Metal.framework\/Metal"#, #"/System/Library/Frameworks/Metal.framework/Metal"#),
    (#"/usr/lib/system/libsystem_symptoms.dylib"#, #"/usr/lib/system/libsystem_symptoms.dylib"#),
    (#"__CFRunLoopDoSource0"#, #"__CFRunLoopDoSource0"#),
    (#"\/usr\/lib\/libMobileGestalt.dylib"#, #"/usr/lib/libMobileGestalt.dylib"#),
    (#"libsystem_blocks.dylib"#, #"libsystem_blocks.dylib"#),
    (#"__abort_with_payload"#, #"__abort_with_payload"#),
    (#"objc_exception_throw"#, #"objc_exception_throw"#),
    (#"libsystem_darwin.dylib"#, #"libsystem_darwin.dylib"#),
    (#"/System/Library/Frameworks/CloudKit.framework/CloudKit"#, #"/System/Library/Frameworks/CloudKit.framework/CloudKit"#),
    (#"/usr/lib/system/libsystem_dnssd.dylib"#, #"/usr/lib/system/libsystem_dnssd.dylib"#),
    (#"\/System\/Library\/PrivateFrameworks\/SkyLight.framework\/Versions\/A\/SkyLight"#, #"/System/Library/PrivateFrameworks/SkyLight.framework/Versions/A/SkyLight"#),
    (#"\/usr\/lib\/libobjc-trampolines.dylib"#, #"/usr/lib/libobjc-trampolines.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_coreservices.dylib"#, #"/usr/lib/system/libsystem_coreservices.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_notify.dylib"#, #"/usr/lib/system/libsystem_notify.dylib"#),
    (#"libsystem_featureflags.dylib"#, #"libsystem_featureflags.dylib"#),
    (#"/System/Library/Frameworks/SystemConfiguration.framework/SystemConfiguration"#, #"/System/Library/Frameworks/SystemConfiguration.framework/SystemConfiguration"#),
    (#"_pthread_cond_wait"#, #"_pthread_cond_wait"#),
    (#"/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph"#, #"/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph"#),
    (#"\/System\/Library\/PrivateFrameworks\/UIKitCore.framework\/UIKitCore"#, #"/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"#),
    (#"\/usr\/lib\/libSystem.B.dylib"#, #"/usr/lib/libSystem.B.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_info.dylib"#, #"/usr/lib/system/libsystem_info.dylib"#),
    (#"/System/Library/Frameworks/CoreAudio.framework/CoreAudio"#, #"/System/Library/Frameworks/CoreAudio.framework/CoreAudio"#),
    (#"/System/Library/PrivateFrameworks/BoardServices.framework/BoardServices"#, #"/System/Library/PrivateFrameworks/BoardServices.framework/BoardServices"#),
    (#"/System/Library/PrivateFrameworks/UIKitServices.framework/UIKitServices"#, #"/System/Library/PrivateFrameworks/UIKitServices.framework/UIKitServices"#),
    (#"/System/Library/PrivateFrameworks/AssertionServices.framework/AssertionServices"#, #"/System/Library/PrivateFrameworks/AssertionServices.framework/AssertionServices"#),
    (#"/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices"#, #"/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices"#),
    (#"/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices"#, #"/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices"#),
    (#"/System/Library/PrivateFrameworks/SpringBoardServices.framework/SpringBoardServices"#, #"/System/Library/PrivateFrameworks/SpringBoardServices.framework/SpringBoardServices"#),
    (#"/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices"#, #"/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices"#),
    (#"/System/Library/Frameworks/CoreServices.framework/CoreServices"#, #"/System/Library/Frameworks/CoreServices.framework/CoreServices"#),
    (#"\/System\/Library\/Frameworks\/SwiftUI.framework\/SwiftUI"#, #"/System/Library/Frameworks/SwiftUI.framework/SwiftUI"#),
    (#"com.apple.main-thread"#, #"com.apple.main-thread"#),
    (#"\/System\/Library\/Frameworks\/CFNetwork.framework\/CFNetwork"#, #"/System/Library/Frameworks/CFNetwork.framework/CFNetwork"#),
    (#"_dispatch_block_async_invoke2"#, #"_dispatch_block_async_invoke2"#),
    (#"\/usr\/lib\/system\/libsystem_dnssd.dylib"#, #"/usr/lib/system/libsystem_dnssd.dylib"#),
    (#"/usr/lib/libobjc-trampolines.dylib"#, #"/usr/lib/libobjc-trampolines.dylib"#),
    (#"/usr/lib/system/libsystem_coreservices.dylib"#, #"/usr/lib/system/libsystem_coreservices.dylib"#),
    (#"_dispatch_semaphore_wait_slow"#, #"_dispatch_semaphore_wait_slow"#),
    (#"-[NSThread main]"#, #"-[NSThread main]"#),
    (#"/usr/lib/system/libsystem_notify.dylib"#, #"/usr/lib/system/libsystem_notify.dylib"#),
    (#"/usr/lib/libSystem.B.dylib"#, #"/usr/lib/libSystem.B.dylib"#),
    (#"/usr/lib/system/libsystem_info.dylib"#, #"/usr/lib/system/libsystem_info.dylib"#),
    (#"/System/Library/Frameworks/WebKit.framework/WebKit"#, #"/System/Library/Frameworks/WebKit.framework/WebKit"#),
    (#"\/usr\/lib\/system\/libsystem_sandbox.dylib"#, #"/usr/lib/system/libsystem_sandbox.dylib"#),
    (#"\/usr\/lib\/libc++.1.dylib"#, #"/usr/lib/libc++.1.dylib"#),
    (#"\/usr\/lib\/libz.1.dylib"#, #"/usr/lib/libz.1.dylib"#),
    (#"/System/Library/Frameworks/CoreMedia.framework/CoreMedia"#, #"/System/Library/Frameworks/CoreMedia.framework/CoreMedia"#),
    (#"\/usr\/lib\/system\/libsystem_sim_kernel.dylib"#, #"/usr/lib/system/libsystem_sim_kernel.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_kernel.dylib"#, #"/usr/lib/system/libsystem_kernel.dylib"#),
    (#"/System/Library/Frameworks/Metal.framework/Metal"#, #"/System/Library/Frameworks/Metal.framework/Metal"#),
    (#"_dispatch_sema4_wait"#, #"_dispatch_sema4_wait"#),
    (#"_dispatch_sync_f_slow"#, #"_dispatch_sync_f_slow"#),
    (#"\/usr\/lib\/swift\/libswiftCoreFoundation.dylib"#, #"/usr/lib/swift/libswiftCoreFoundation.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftFoundation.dylib"#, #"/usr/lib/swift/libswiftFoundation.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_networkextension.dylib"#, #"/usr/lib/system/libsystem_networkextension.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_configuration.dylib"#, #"/usr/lib/system/libsystem_configuration.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftCore.dylib"#, #"/usr/lib/swift/libswiftCore.dylib"#),
    (#"\/usr\/lib\/swift\/libswiftQuartzCore.dylib"#, #"/usr/lib/swift/libswiftQuartzCore.dylib"#),
    (#"libswiftCore.dylib"#, #"libswiftCore.dylib"#),
    (#"libswiftQuartzCore.dylib"#, #"libswiftQuartzCore.dylib"#),
    (#"libswiftCoreFoundation.dylib"#, #"libswiftCoreFoundation.dylib"#),
    (#"libswiftFoundation.dylib"#, #"libswiftFoundation.dylib"#),
    (#"libswiftMetal.dylib"#, #"libswiftMetal.dylib"#),
    (#"-[NSOperation start]"#, #"-[NSOperation start]"#),
    (#"com.apple.CFStream.LegacyThread"#, #"com.apple.CFStream.LegacyThread"#),
    (#"/System/Library/Frameworks/AudioToolbox.framework/AudioToolbox"#, #"/System/Library/Frameworks/AudioToolbox.framework/AudioToolbox"#),
    (#"\/usr\/lib\/swift\/libswiftMetal.dylib"#, #"/usr/lib/swift/libswiftMetal.dylib"#),
    (#"_dispatch_root_queue_drain_deferred_item"#, #"_dispatch_root_queue_drain_deferred_item"#),
    (#"__CFRunLoopDoSource1"#, #"__CFRunLoopDoSource1"#),
    (#"/usr/lib/libMobileGestalt.dylib"#, #"/usr/lib/libMobileGestalt.dylib"#),
    (#"\/System\/Library\/Frameworks\/CoreVideo.framework\/CoreVideo"#, #"/System/Library/Frameworks/CoreVideo.framework/CoreVideo"#),
    (#"\/usr\/lib\/system\/libsystem_symptoms.dylib"#, #"/usr/lib/system/libsystem_symptoms.dylib"#),
    (#"/System/Library/PrivateFrameworks/MobileKeyBag.framework/MobileKeyBag"#, #"/System/Library/PrivateFrameworks/MobileKeyBag.framework/MobileKeyBag"#),
    (#"/System/Library/Frameworks/CoreMotion.framework/CoreMotion"#, #"/System/Library/Frameworks/CoreMotion.framework/CoreMotion"#),
    (#"_dispatch_root_queue_drain_deferred_wlh"#, #"_dispatch_root_queue_drain_deferred_wlh"#),
    (#"/System/Library/Frameworks/StoreKit.framework/StoreKit"#, #"/System/Library/Frameworks/StoreKit.framework/StoreKit"#),
    (#"libcommonCrypto.dylib"#, #"libcommonCrypto.dylib"#),
    (#"\/System\/Library\/Frameworks\/AppKit.framework\/Versions\/C\/AppKit"#, #"/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit"#),
    (#"-[NSRunLoop(NSRunLoop) runUntilDate:]"#, #"-[NSRunLoop(NSRunLoop) runUntilDate:]"#),
    (#"CFRunLoopRunSpecific"#, #"CFRunLoopRunSpecific"#),
    (#"/usr/lib/system/libdyld.dylib"#, #"/usr/lib/system/libdyld.dylib"#),
    (#"\/usr\/lib\/swift\/libswift_RegexParser.dylib"#, #"/usr/lib/swift/libswift_RegexParser.dylib"#),
    (#"\/usr\/lib\/system\/libsystem_containermanager.dylib"#, #"/usr/lib/system/libsystem_containermanager.dylib"#),
    (#"com.apple.NSURLConnectionLoader"#, #"com.apple.NSURLConnectionLoader"#),
    (#"\/usr\/lib\/libnetwork.dylib"#, #"/usr/lib/libnetwork.dylib"#),
    (#"libcompiler_rt.dylib"#, #"libcompiler_rt.dylib"#),
    (#"libswift_RegexParser.dylib"#, #"libswift_RegexParser.dylib"#),
    (#"mach_msg_overwrite"#, #"mach_msg_overwrite"#),
    (#"__CFRunLoopServiceMachPort"#, #"__CFRunLoopServiceMachPort"#),
    (#"x86_THREAD_STATE64"#, #"x86_THREAD_STATE64"#),
    (#"/usr/lib/system/libkeymgr.dylib"#, #"/usr/lib/system/libkeymgr.dylib"#),
    (#"libsystem_trace.dylib"#, #"libsystem_trace.dylib"#),
    (#"x86_THREAD_STATE"#, #"x86_THREAD_STATE"#),
    (#"GraphicsServices"#, #"GraphicsServices"#),
    (#"\/usr\/lib\/system\/libsystem_c.dylib"#, #"/usr/lib/system/libsystem_c.dylib"#),
    (#"__CFRUNLOOP_IS_CALLING_OUT_TO_A_TIMER_CALLBACK_FUNCTION__"#, #"__CFRUNLOOP_IS_CALLING_OUT_TO_A_TIMER_CALLBACK_FUNCTION__"#),
    (#"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__"#, #"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__"#),
    (#"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE1_PERFORM_FUNCTION__"#, #"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE1_PERFORM_FUNCTION__"#),
    (#"__CFRUNLOOP_IS_CALLING_OUT_TO_AN_OBSERVER_CALLBACK_FUNCTION__"#, #"__CFRUNLOOP_IS_CALLING_OUT_TO_AN_OBSERVER_CALLBACK_FUNCTION__"#),
    (#"\/System\/Library\/Frameworks\/UIKit.framework\/UIKit"#, #"/System/Library/Frameworks/UIKit.framework/UIKit"#),
    (#"libsystem_platform.dylib"#, #"libsystem_platform.dylib"#),
    (#"libsystem_sim_platform.dylib"#, #"libsystem_sim_platform.dylib"#),
    (#"\/usr\/lib\/libicucore.A.dylib"#, #"/usr/lib/libicucore.A.dylib"#),
    (#"\/usr\/lib\/libobjc.A.dylib"#, #"/usr/lib/libobjc.A.dylib"#),
    (#"/System/Library/Frameworks/Network.framework/Network"#, #"/System/Library/Frameworks/Network.framework/Network"#),
    (#"libMobileGestalt.dylib"#, #"libMobileGestalt.dylib"#),
    (#"\/System\/Library\/Frameworks\/Combine.framework\/Combine"#, #"/System/Library/Frameworks/Combine.framework/Combine"#),
    (#"/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"#, #"/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"#),
    (#"/System/Library/Frameworks/CoreGraphics.framework/Versions/A/CoreGraphics"#, #"/System/Library/Frameworks/CoreGraphics.framework/Versions/A/CoreGraphics"#),
    (#"\/System\/Library\/Frameworks\/UserNotifications.framework\/UserNotifications"#, #"/System/Library/Frameworks/UserNotifications.framework/UserNotifications"#),
    (#"_dispatch_lane_invoke"#, #"_dispatch_lane_invoke"#),
    (#"_dispatch_source_invoke"#, #"_dispatch_source_invoke"#),
    (#"_dispatch_queue_override_invoke"#, #"_dispatch_queue_override_invoke"#),
    (#"\/System\/Library\/Frameworks\/CoreData.framework\/CoreData"#, #"/System/Library/Frameworks/CoreData.framework/CoreData"#),
    (#"com.apple.CFSocket.private"#, #"com.apple.CFSocket.private"#),
    (#"\/usr\/lib\/system\/libsystem_m.dylib"#, #"/usr/lib/system/libsystem_m.dylib"#),
    (#"/System/Library/Frameworks/CoreText.framework/CoreText"#, #"/System/Library/Frameworks/CoreText.framework/CoreText"#),
    (#"\/System\/Library\/Frameworks\/Security.framework\/Security"#, #"/System/Library/Frameworks/Security.framework/Security"#),
    (#"\/System\/Library\/Frameworks\/Security.framework\/Versions\/A\/Security"#, #"/System/Library/Frameworks/Security.framework/Versions/A/Security"#),
    (#"__workq_kernreturn"#, #"__workq_kernreturn"#),
    (#"UIApplicationMain"#, #"UIApplicationMain"#),
    (#"\/usr\/lib\/liblockdown.dylib"#, #"/usr/lib/liblockdown.dylib"#),
    (#"\/usr\/lib\/system\/libxpc.dylib"#, #"/usr/lib/system/libxpc.dylib"#),
    (#"abort_with_reason"#, #"abort_with_reason"#),
    (#"libsystem_asl.dylib"#, #"libsystem_asl.dylib"#),
    (#"RunningBoardServices"#, #"RunningBoardServices"#),
    (#"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"#, #"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"#),
    (#"/System/Library/PrivateFrameworks/UIFoundation.framework/UIFoundation"#, #"/System/Library/PrivateFrameworks/UIFoundation.framework/UIFoundation"#),
    (#"/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation"#, #"/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation"#),
    (#"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"#, #"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"#),
    (#"/System/Library/Frameworks/Foundation.framework/Foundation"#, #"/System/Library/Frameworks/Foundation.framework/Foundation"#),
    (#"/System/Library/Frameworks/AVFoundation.framework/AVFoundation"#, #"/System/Library/Frameworks/AVFoundation.framework/AVFoundation"#),
  ]

  static let minimumLength = 16
  static let maximumLength = 117

  /// The literal whose raw JSON text is `raw`, when there is one.
  @inline(__always)
  static func literal(raw: UnsafeRawBufferPointer) -> String? {
    let count = raw.count
    guard count >= 16 && count <= 117, let base = raw.baseAddress else { return nil }
    let head = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
    let tail = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    return literal(key: key(count: count, head: head, tail: tail), raw: raw)
  }

  @inline(__always)
  static func key(count: Int, head: UInt64, tail: UInt64) -> UInt64 {
    (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(truncatingIfNeeded: count)
  }

  private static func literal(key: UInt64, raw: UnsafeRawBufferPointer) -> String? {
    func equals(_ literal: StaticString) -> Bool {
      literal.utf8CodeUnitCount == raw.count && memcmp(raw.baseAddress!, literal.utf8Start, raw.count) == 0
    }
    switch key {
    case 0x0000ca37ea92a3a2: return equals(#"/System/Library/Frameworks/CoreImage.framework/CoreImage"#) ? #"/System/Library/Frameworks/CoreImage.framework/CoreImage"# : nil
    case 0x038de5cfcbcf89ca:
      if equals(#"_dispatch_main_queue_drain"#) { return #"_dispatch_main_queue_drain"# }
      if equals(#"_dispatch_root_queue_drain"#) { return #"_dispatch_root_queue_drain"# }
      return nil
    case 0x04348c56ff7be240: return equals(#"libdispatch.dylib"#) ? #"libdispatch.dylib"# : nil
    case 0x046e106875f72f9e: return equals(#"/usr/lib/swift/libswiftUIKit.dylib"#) ? #"/usr/lib/swift/libswiftUIKit.dylib"# : nil
    case 0x05ceb48e38e61bfd: return equals(#"/usr/lib/libc++abi.dylib"#) ? #"/usr/lib/libc++abi.dylib"# : nil
    case 0x05d01dffff2e9c6e: return equals(#"/System/Library/PrivateFrameworks/CoreAnalytics.framework/CoreAnalytics"#) ? #"/System/Library/PrivateFrameworks/CoreAnalytics.framework/CoreAnalytics"# : nil
    case 0x0609061bab63b734: return equals(#"/usr/lib/swift/libswiftCoreImage.dylib"#) ? #"/usr/lib/swift/libswiftCoreImage.dylib"# : nil
    case 0x06e2f4cc5630a6b7: return equals(#"/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore"#) ? #"/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore"# : nil
    case 0x070696fd4155bc6c: return equals(#"/System/Library/Frameworks/Accelerate.framework/Accelerate"#) ? #"/System/Library/Frameworks/Accelerate.framework/Accelerate"# : nil
    case 0x076b2e4550a6e6e7: return equals(#"\/usr\/lib\/system\/libsystem_malloc.dylib"#) ? #"/usr/lib/system/libsystem_malloc.dylib"# : nil
    case 0x0838476e5de91503: return equals(#"libcorecrypto.dylib"#) ? #"libcorecrypto.dylib"# : nil
    case 0x0bb64ce6ac433543: return equals(#"com.apple.root.background-qos"#) ? #"com.apple.root.background-qos"# : nil
    case 0x0bea9c7809e20cd9: return equals(#"/usr/lib/system/libsystem_sim_platform.dylib"#) ? #"/usr/lib/system/libsystem_sim_platform.dylib"# : nil
    case 0x0bea9c7809e20cdd: return equals(#"/usr/lib/system/libsystem_platform.dylib"#) ? #"/usr/lib/system/libsystem_platform.dylib"# : nil
    case 0x0dc47f2c0c8e4a73: return equals(#"/usr/lib/system/libsystem_trace.dylib"#) ? #"/usr/lib/system/libsystem_trace.dylib"# : nil
    case 0x0e0313f919ca63df: return equals(#"\/System\/Library\/Frameworks\/WebKit.framework\/WebKit"#) ? #"/System/Library/Frameworks/WebKit.framework/WebKit"# : nil
    case 0x0f7e9bd3a8b66aa4: return equals(#"\/usr\/lib\/libbsm.0.dylib"#) ? #"/usr/lib/libbsm.0.dylib"# : nil
    case 0x10b1fc960d6dd90e: return equals(#"/System/Library/PrivateFrameworks/SkyLight.framework/Versions/A/SkyLight"#) ? #"/System/Library/PrivateFrameworks/SkyLight.framework/Versions/A/SkyLight"# : nil
    case 0x14f35f070a0a4de7: return equals(#"/System/Library/PrivateFrameworks/CoreUI.framework/CoreUI"#) ? #"/System/Library/PrivateFrameworks/CoreUI.framework/CoreUI"# : nil
    case 0x15c907948bf07773: return equals(#"/usr/lib/swift/libswiftDispatch.dylib"#) ? #"/usr/lib/swift/libswiftDispatch.dylib"# : nil
    case 0x15c907948bf07777: return equals(#"/usr/lib/system/libdispatch.dylib"#) ? #"/usr/lib/system/libdispatch.dylib"# : nil
    case 0x15c907948bf07779: return equals(#"/usr/lib/system/introspection/libdispatch.dylib"#) ? #"/usr/lib/system/introspection/libdispatch.dylib"# : nil
    case 0x160e83cbf1649b1a: return equals(#"\/System\/Library\/Frameworks\/CloudKit.framework\/CloudKit"#) ? #"/System/Library/Frameworks/CloudKit.framework/CloudKit"# : nil
    case 0x176e9f70fdbc855d: return equals(#"\/usr\/lib\/system\/libunwind.dylib"#) ? #"/usr/lib/system/libunwind.dylib"# : nil
    case 0x1837de7495daa863: return equals(#"/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"#) ? #"/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"# : nil
    case 0x18dc5c32fd4125d9: return equals(#"\/System\/Library\/PrivateFrameworks\/AttributeGraph.framework\/AttributeGraph"#) ? #"/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph"# : nil
    case 0x1995465d781c253b: return equals(#"_dispatch_source_latch_and_call"#) ? #"_dispatch_source_latch_and_call"# : nil
    case 0x1bd6ef075ccc6885: return equals(#"/usr/lib/system/libsystem_asl.dylib"#) ? #"/usr/lib/system/libsystem_asl.dylib"# : nil
    case 0x1cccf0bed636e1bb: return equals(#"\/usr\/lib\/libsqlite3.dylib"#) ? #"/usr/lib/libsqlite3.dylib"# : nil
    case 0x1d59a83ba0022182: return equals(#"_dispatch_worker_thread2"#) ? #"_dispatch_worker_thread2"# : nil
    case 0x1e97f6d69d38b514: return equals(#"\/System\/Library\/Frameworks\/SystemConfiguration.framework\/SystemConfiguration"#) ? #"/System/Library/Frameworks/SystemConfiguration.framework/SystemConfiguration"# : nil
    case 0x1fc0f868b07f58c5: return equals(#"/System/Library/Frameworks/UIKit.framework/UIKit"#) ? #"/System/Library/Frameworks/UIKit.framework/UIKit"# : nil
    case 0x205ba32cafbda6eb: return equals(#"libsystem_coreservices.dylib"#) ? #"libsystem_coreservices.dylib"# : nil
    case 0x215aa1c053359608: return equals(#"/usr/lib/libAccessibility.dylib"#) ? #"/usr/lib/libAccessibility.dylib"# : nil
    case 0x21641477bd19242f: return equals(#"\/System\/Library\/Frameworks\/QuartzCore.framework\/Versions\/A\/QuartzCore"#) ? #"/System/Library/Frameworks/QuartzCore.framework/Versions/A/QuartzCore"# : nil
    case 0x21641477bd19245c: return equals(#"\/System\/Library\/Frameworks\/QuartzCore.framework\/QuartzCore"#) ? #"/System/Library/Frameworks/QuartzCore.framework/QuartzCore"# : nil
    case 0x219a762a98641b9d: return equals(#"/System/Library/Frameworks/SwiftUICore.framework/SwiftUICore"#) ? #"/System/Library/Frameworks/SwiftUICore.framework/SwiftUICore"# : nil
    case 0x22a2b982e881859b: return equals(#"libremovefile.dylib"#) ? #"libremovefile.dylib"# : nil
    case 0x23edf8208fe9e485: return equals(#"/usr/lib/swift/libswiftos.dylib"#) ? #"/usr/lib/swift/libswiftos.dylib"# : nil
    case 0x2427be2d62fe02fd: return equals(#"\/usr\/lib\/system\/libcopyfile.dylib"#) ? #"/usr/lib/system/libcopyfile.dylib"# : nil
    case 0x2427be2d62fe02ff: return equals(#"\/usr\/lib\/system\/libremovefile.dylib"#) ? #"/usr/lib/system/libremovefile.dylib"# : nil
    case 0x242845b202628032: return equals(#"/usr/lib/system/libcommonCrypto.dylib"#) ? #"/usr/lib/system/libcommonCrypto.dylib"# : nil
    case 0x242845b202628034: return equals(#"/usr/lib/system/libcorecrypto.dylib"#) ? #"/usr/lib/system/libcorecrypto.dylib"# : nil
    case 0x252ac0125fc0d416: return equals(#"ARM_THREAD_STATE32"#) ? #"ARM_THREAD_STATE32"# : nil
    case 0x2588e9d0c5146c59: return equals(#"/usr/lib/swift/libswiftsimd.dylib"#) ? #"/usr/lib/swift/libswiftsimd.dylib"# : nil
    case 0x25dfa39c678707c1: return equals(#"\/usr\/lib\/system\/libsystem_darwin.dylib"#) ? #"/usr/lib/system/libsystem_darwin.dylib"# : nil
    case 0x25dfa39c678707cc: return equals(#"\/usr\/lib\/swift\/libswiftDarwin.dylib"#) ? #"/usr/lib/swift/libswiftDarwin.dylib"# : nil
    case 0x270c11d2ffc1a5a3: return equals(#"\/usr\/lib\/system\/libsystem_blocks.dylib"#) ? #"/usr/lib/system/libsystem_blocks.dylib"# : nil
    case 0x276474cdd8f880af: return equals(#"libswiftDarwin.dylib"#) ? #"libswiftDarwin.dylib"# : nil
    case 0x278787bf62d7d727: return equals(#"\/System\/Library\/PrivateFrameworks\/BaseBoard.framework\/BaseBoard"#) ? #"/System/Library/PrivateFrameworks/BaseBoard.framework/BaseBoard"# : nil
    case 0x27ddb34aa3d27b63: return equals(#"_pthread_wqthread"#) ? #"_pthread_wqthread"# : nil
    case 0x286265827a55f7b2: return equals(#"libsystem_info.dylib"#) ? #"libsystem_info.dylib"# : nil
    case 0x2aecf739c3a2b1b6: return equals(#"\/usr\/lib\/system\/libcache.dylib"#) ? #"/usr/lib/system/libcache.dylib"# : nil
    case 0x2c163001db73f5d1: return equals(#"/usr/lib/system/libcompiler_rt.dylib"#) ? #"/usr/lib/system/libcompiler_rt.dylib"# : nil
    case 0x2c163001db73f5db: return equals(#"/usr/lib/swift/libswiftSwiftOnoneSupport.dylib"#) ? #"/usr/lib/swift/libswiftSwiftOnoneSupport.dylib"# : nil
    case 0x2c2bbf767f0bc07d: return equals(#"libswiftXPC.dylib"#) ? #"libswiftXPC.dylib"# : nil
    case 0x2d1ad1fa80916ebb: return equals(#"\/System\/Library\/Frameworks\/CoreLocation.framework\/CoreLocation"#) ? #"/System/Library/Frameworks/CoreLocation.framework/CoreLocation"# : nil
    case 0x2d938010891aedb0: return equals(#"libsystem_notify.dylib"#) ? #"libsystem_notify.dylib"# : nil
    case 0x2dd9492940b45b75: return equals(#"\/usr\/lib\/system\/libsystem_featureflags.dylib"#) ? #"/usr/lib/system/libsystem_featureflags.dylib"# : nil
    case 0x2e6d85db06a70aa0: return equals(#"com.apple.root.user-interactive-qos.cooperative"#) ? #"com.apple.root.user-interactive-qos.cooperative"# : nil
    case 0x2e6d85db06a70aa2: return equals(#"com.apple.root.user-initiated-qos.cooperative"#) ? #"com.apple.root.user-initiated-qos.cooperative"# : nil
    case 0x2e6d85db06a70aa6: return equals(#"com.apple.root.background-qos.cooperative"#) ? #"com.apple.root.background-qos.cooperative"# : nil
    case 0x2e6d85db06a70aa9:
      if equals(#"com.apple.root.default-qos.cooperative"#) { return #"com.apple.root.default-qos.cooperative"# }
      if equals(#"com.apple.root.utility-qos.cooperative"#) { return #"com.apple.root.utility-qos.cooperative"# }
      return nil
    case 0x2e906827c0744718: return equals(#"\/usr\/lib\/swift\/libswiftXPC.dylib"#) ? #"/usr/lib/swift/libswiftXPC.dylib"# : nil
    case 0x2f29e80f22e411f0: return equals(#"com.apple.root.user-interactive-qos"#) ? #"com.apple.root.user-interactive-qos"# : nil
    case 0x303644e618fa9336: return equals(#"/System/Library/Frameworks/Carbon.framework/Versions/A/Frameworks/HIToolbox.framework/Versions/A/HIToolbox"#) ? #"/System/Library/Frameworks/Carbon.framework/Versions/A/Frameworks/HIToolbox.framework/Versions/A/HIToolbox"# : nil
    case 0x305d51741e67894b: return equals(#"libswiftCoreGraphics.dylib"#) ? #"libswiftCoreGraphics.dylib"# : nil
    case 0x31fad19595ceac82: return equals(#"/System/Library/Frameworks/IOSurface.framework/IOSurface"#) ? #"/System/Library/Frameworks/IOSurface.framework/IOSurface"# : nil
    case 0x32e68625a1180e2c: return equals(#"\/usr\/lib\/swift\/libswiftCoreGraphics.dylib"#) ? #"/usr/lib/swift/libswiftCoreGraphics.dylib"# : nil
    case 0x33273433ae10367f: return equals(#"/usr/lib/swift/libswift_Concurrency.dylib"#) ? #"/usr/lib/swift/libswift_Concurrency.dylib"# : nil
    case 0x337b639c8a9c87a8: return equals(#"__CFRUNLOOP_IS_SERVICING_THE_MAIN_DISPATCH_QUEUE__"#) ? #"__CFRUNLOOP_IS_SERVICING_THE_MAIN_DISPATCH_QUEUE__"# : nil
    case 0x3423108b349dabb6: return equals(#"\/usr\/lib\/system\/libmacho.dylib"#) ? #"/usr/lib/system/libmacho.dylib"# : nil
    case 0x3443f415f7ef7648: return equals(#"\/usr\/lib\/system\/libsystem_pthread.dylib"#) ? #"/usr/lib/system/libsystem_pthread.dylib"# : nil
    case 0x3443f415f7ef764c: return equals(#"\/usr\/lib\/system\/libsystem_sim_pthread.dylib"#) ? #"/usr/lib/system/libsystem_sim_pthread.dylib"# : nil
    case 0x34934a6abb9276ef: return equals(#"libswiftObjectiveC.dylib"#) ? #"libswiftObjectiveC.dylib"# : nil
    case 0x36289d3b04edf18c: return equals(#"\/usr\/lib\/swift\/libswiftObjectiveC.dylib"#) ? #"/usr/lib/swift/libswiftObjectiveC.dylib"# : nil
    case 0x368177f9bf072c6e: return equals(#"/System/Library/Frameworks/ImageIO.framework/ImageIO"#) ? #"/System/Library/Frameworks/ImageIO.framework/ImageIO"# : nil
    case 0x37e0479b35cd48cf: return equals(#"/System/Library/PrivateFrameworks/TextInput.framework/TextInput"#) ? #"/System/Library/PrivateFrameworks/TextInput.framework/TextInput"# : nil
    case 0x39c226c2f286391d: return equals(#"_dispatch_continuation_pop"#) ? #"_dispatch_continuation_pop"# : nil
    case 0x3a585013c684f0fa: return equals(#"com.apple.NSEventThread"#) ? #"com.apple.NSEventThread"# : nil
    case 0x3ddab3aac3011131: return equals(#"libswift_StringProcessing.dylib"#) ? #"libswift_StringProcessing.dylib"# : nil
    case 0x3ee029d8ef66b179: return equals(#"_objc_terminate()"#) ? #"_objc_terminate()"# : nil
    case 0x3f6164fb7c7e964c: return equals(#"\/usr\/lib\/swift\/libswift_StringProcessing.dylib"#) ? #"/usr/lib/swift/libswift_StringProcessing.dylib"# : nil
    case 0x4037c385019ba34b: return equals(#"libswift_Concurrency.dylib"#) ? #"libswift_Concurrency.dylib"# : nil
    case 0x41d4e7444d597c7a: return equals(#"_dispatch_continuation_pop_inline"#) ? #"_dispatch_continuation_pop_inline"# : nil
    case 0x428c14d4bee4242c: return equals(#"\/usr\/lib\/swift\/libswift_Concurrency.dylib"#) ? #"/usr/lib/swift/libswift_Concurrency.dylib"# : nil
    case 0x42c80080c9c50c80: return equals(#"libsystem_configuration.dylib"#) ? #"libsystem_configuration.dylib"# : nil
    case 0x42c80080c9c50cbd: return equals(#"libsystem_networkextension.dylib"#) ? #"libsystem_networkextension.dylib"# : nil
    case 0x42f3e2bb18298386: return equals(#"-[UIEventFetcher threadMain]"#) ? #"-[UIEventFetcher threadMain]"# : nil
    case 0x4313e2fcd327afab: return equals(#"_pthread_mutex_firstfit_lock_wait"#) ? #"_pthread_mutex_firstfit_lock_wait"# : nil
    case 0x4327dfd78122dfe1: return equals(#"libsystem_kernel.dylib"#) ? #"libsystem_kernel.dylib"# : nil
    case 0x4327dfd78122dfed: return equals(#"libsystem_sim_kernel.dylib"#) ? #"libsystem_sim_kernel.dylib"# : nil
    case 0x433a05a57be878b1: return equals(#"abort_with_payload_wrapper_internal"#) ? #"abort_with_payload_wrapper_internal"# : nil
    case 0x434da6c2b1ec1c7f: return equals(#"/usr/lib/swift/libswiftCoreGraphics.dylib"#) ? #"/usr/lib/swift/libswiftCoreGraphics.dylib"# : nil
    case 0x4588306c2469b9dd: return equals(#"/usr/lib/system/libmacho.dylib"#) ? #"/usr/lib/system/libmacho.dylib"# : nil
    case 0x45e8d4f2e71b6413: return equals(#"/usr/lib/system/libsystem_pthread.dylib"#) ? #"/usr/lib/system/libsystem_pthread.dylib"# : nil
    case 0x45e8d4f2e71b641f: return equals(#"/usr/lib/system/libsystem_sim_pthread.dylib"#) ? #"/usr/lib/system/libsystem_sim_pthread.dylib"# : nil
    case 0x45f4cd650ab2642a: return equals(#"\/System\/Library\/Frameworks\/StoreKit.framework\/StoreKit"#) ? #"/System/Library/Frameworks/StoreKit.framework/StoreKit"# : nil
    case 0x45ffb8d66a4ebfba: return equals(#"_dispatch_call_block_and_release"#) ? #"_dispatch_call_block_and_release"# : nil
    case 0x4681526aeb204dec: return equals(#"/System/Library/Frameworks/MapKit.framework/MapKit"#) ? #"/System/Library/Frameworks/MapKit.framework/MapKit"# : nil
    case 0x471b4b563348e082: return equals(#"_dispatch_client_callout"#) ? #"_dispatch_client_callout"# : nil
    case 0x471b4b563348e08c: return equals(#"_dispatch_once_callout"#) ? #"_dispatch_once_callout"# : nil
    case 0x4783bddc1419e3d7: return equals(#"/usr/lib/swift/libswiftObjectiveC.dylib"#) ? #"/usr/lib/swift/libswiftObjectiveC.dylib"# : nil
    case 0x47f9a311188bfa8a: return equals(#"libsystem_sandbox.dylib"#) ? #"libsystem_sandbox.dylib"# : nil
    case 0x49d3037aad3e63d6: return equals(#"\/System\/Library\/PrivateFrameworks\/CoreUI.framework\/CoreUI"#) ? #"/System/Library/PrivateFrameworks/CoreUI.framework/CoreUI"# : nil
    case 0x4ace3dd790d45867: return equals(#"libsystem_symptoms.dylib"#) ? #"libsystem_symptoms.dylib"# : nil
    case 0x4bcffbf542af3734: return equals(#"\/System\/Library\/Frameworks\/Network.framework\/Network"#) ? #"/System/Library/Frameworks/Network.framework/Network"# : nil
    case 0x4bf12ab0d327afab: return equals(#"_pthread_mutex_firstfit_lock_slow"#) ? #"_pthread_mutex_firstfit_lock_slow"# : nil
    case 0x4eca441c6c8a8407: return equals(#"/usr/lib/swift/libswift_StringProcessing.dylib"#) ? #"/usr/lib/swift/libswift_StringProcessing.dylib"# : nil
    case 0x5018284c8b30efb6: return equals(#"abort_with_payload"#) ? #"abort_with_payload"# : nil
    case 0x50e1d4202b3a4040: return equals(#"/System/Library/Frameworks/CoreData.framework/CoreData"#) ? #"/System/Library/Frameworks/CoreData.framework/CoreData"# : nil
    case 0x50f1812743c18462: return equals(#"\/usr\/lib\/libAccessibility.dylib"#) ? #"/usr/lib/libAccessibility.dylib"# : nil
    case 0x50fd0f962062718d: return equals(#"libswiftos.dylib"#) ? #"libswiftos.dylib"# : nil
    case 0x5246d8c79f1df6ee: return equals(#"\/usr\/lib\/swift\/libswiftos.dylib"#) ? #"/usr/lib/swift/libswiftos.dylib"# : nil
    case 0x5271b49a21b5a41a: return equals(#"\/System\/Library\/Frameworks\/CoreText.framework\/CoreText"#) ? #"/System/Library/Frameworks/CoreText.framework/CoreText"# : nil
    case 0x52cbbd291b9865b4: return equals(#"libsystem_dnssd.dylib"#) ? #"libsystem_dnssd.dylib"# : nil
    case 0x537a40fc73246c26: return equals(#"com.apple.uikit.eventfetch-thread"#) ? #"com.apple.uikit.eventfetch-thread"# : nil
    case 0x53c7613e7f700595: return equals(#"swift::runJobInEstablishedExecutorContext(swift::Job*)"#) ? #"swift::runJobInEstablishedExecutorContext(swift::Job*)"# : nil
    case 0x5423c937d5e07e0a: return equals(#"\/usr\/lib\/swift\/libswiftsimd.dylib"#) ? #"/usr/lib/swift/libswiftsimd.dylib"# : nil
    case 0x5474837b7773159a: return equals(#"/usr/lib/system/libsystem_darwin.dylib"#) ? #"/usr/lib/system/libsystem_darwin.dylib"# : nil
    case 0x5474837b7773159f: return equals(#"/usr/lib/swift/libswiftDarwin.dylib"#) ? #"/usr/lib/swift/libswiftDarwin.dylib"# : nil
    case 0x54c14429069e0226: return equals(#"\/System\/Library\/Frameworks\/CoreGraphics.framework\/CoreGraphics"#) ? #"/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"# : nil
    case 0x54c14429069e0235: return equals(#"\/System\/Library\/Frameworks\/CoreGraphics.framework\/Versions\/A\/CoreGraphics"#) ? #"/System/Library/Frameworks/CoreGraphics.framework/Versions/A/CoreGraphics"# : nil
    case 0x5583655512969267: return equals(#"\/usr\/lib\/system\/libcorecrypto.dylib"#) ? #"/usr/lib/system/libcorecrypto.dylib"# : nil
    case 0x5583655512969269: return equals(#"\/usr\/lib\/system\/libcommonCrypto.dylib"#) ? #"/usr/lib/system/libcommonCrypto.dylib"# : nil
    case 0x558c9eca720a10ac: return equals(#"/usr/lib/system/libremovefile.dylib"#) ? #"/usr/lib/system/libremovefile.dylib"# : nil
    case 0x558c9eca720a10ae: return equals(#"/usr/lib/system/libcopyfile.dylib"#) ? #"/usr/lib/system/libcopyfile.dylib"# : nil
    case 0x55fef8ae2a39766e: return equals(#"/System/Library/Frameworks/Combine.framework/Combine"#) ? #"/System/Library/Frameworks/Combine.framework/Combine"# : nil
    case 0x56981e666a9ff96d: return equals(#"libswiftsimd.dylib"#) ? #"libswiftsimd.dylib"# : nil
    case 0x56a73135ef35b7f8: return equals(#"/usr/lib/system/libsystem_blocks.dylib"#) ? #"/usr/lib/system/libsystem_blocks.dylib"# : nil
    case 0x57065db8f14f47e3: return equals(#"__CFRunLoopDoObservers"#) ? #"__CFRunLoopDoObservers"# : nil
    case 0x5716ebf93b9786f4: return equals(#"/System/Library/Frameworks/UserNotifications.framework/UserNotifications"#) ? #"/System/Library/Frameworks/UserNotifications.framework/UserNotifications"# : nil
    case 0x57fc3a931d0e1311: return equals(#"com.apple.UIKit.statusBarUpdates"#) ? #"com.apple.UIKit.statusBarUpdates"# : nil
    case 0x5b47d7ded356a3dd: return equals(#"/usr/lib/system/libcache.dylib"#) ? #"/usr/lib/system/libcache.dylib"# : nil
    case 0x5b4da472181c0fa8: return equals(#"\/System\/Library\/Frameworks\/Foundation.framework\/Foundation"#) ? #"/System/Library/Frameworks/Foundation.framework/Foundation"# : nil
    case 0x5b4da472181c0fc3: return equals(#"\/System\/Library\/Frameworks\/CoreFoundation.framework\/Versions\/A\/CoreFoundation"#) ? #"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"# : nil
    case 0x5b4da472181c0fd0: return equals(#"\/System\/Library\/Frameworks\/CoreFoundation.framework\/CoreFoundation"#) ? #"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"# : nil
    case 0x5b4da472181c0fd4: return equals(#"\/System\/Library\/Frameworks\/AVFoundation.framework\/AVFoundation"#) ? #"/System/Library/Frameworks/AVFoundation.framework/AVFoundation"# : nil
    case 0x5b4da472181c0fdb: return equals(#"\/System\/Library\/Frameworks\/Foundation.framework\/Versions\/C\/Foundation"#) ? #"/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation"# : nil
    case 0x5b4da472181c0fdd: return equals(#"\/System\/Library\/PrivateFrameworks\/UIFoundation.framework\/UIFoundation"#) ? #"/System/Library/PrivateFrameworks/UIFoundation.framework/UIFoundation"# : nil
    case 0x5c7269ce5040493e: return equals(#"/usr/lib/system/libsystem_featureflags.dylib"#) ? #"/usr/lib/system/libsystem_featureflags.dylib"# : nil
    case 0x5d3cd984ed98fd92: return equals(#"completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*)"#) ? #"completeTaskWithClosure(swift::AsyncContext*, swift::SwiftError*)"# : nil
    case 0x5d613987ed045d43: return equals(#"__CFRunLoopDoSources0"#) ? #"__CFRunLoopDoSources0"# : nil
    case 0x5d801a529cbfe307: return equals(#"/System/Library/Frameworks/Security.framework/Versions/A/Security"#) ? #"/System/Library/Frameworks/Security.framework/Versions/A/Security"# : nil
    case 0x5d801a529cbfe370: return equals(#"/System/Library/Frameworks/Security.framework/Security"#) ? #"/System/Library/Frameworks/Security.framework/Security"# : nil
    case 0x5dbd10e6cb87e78a: return equals(#"\/usr\/lib\/system\/libcompiler_rt.dylib"#) ? #"/usr/lib/system/libcompiler_rt.dylib"# : nil
    case 0x5dbd10e6cb87e790: return equals(#"\/usr\/lib\/swift\/libswiftSwiftOnoneSupport.dylib"#) ? #"/usr/lib/swift/libswiftSwiftOnoneSupport.dylib"# : nil
    case 0x5f06c7b774f860ed: return equals(#"libswiftSwiftOnoneSupport.dylib"#) ? #"libswiftSwiftOnoneSupport.dylib"# : nil
    case 0x5f3b48c0d080554b: return equals(#"/usr/lib/swift/libswiftXPC.dylib"#) ? #"/usr/lib/swift/libswiftXPC.dylib"# : nil
    case 0x606984fcffc1ff79: return equals(#"/System/Library/Frameworks/CFNetwork.framework/CFNetwork"#) ? #"/System/Library/Frameworks/CFNetwork.framework/CFNetwork"# : nil
    case 0x60a1278ebb3f009c: return equals(#"libsystem_m.dylib"#) ? #"libsystem_m.dylib"# : nil
    case 0x60ff498cc37773f3: return equals(#"_CFRunLoopRunSpecificWithOptions"#) ? #"_CFRunLoopRunSpecificWithOptions"# : nil
    case 0x62593df27761bfe5: return equals(#"-[UIApplication _run]"#) ? #"-[UIApplication _run]"# : nil
    case 0x646227739b046524: return equals(#"\/usr\/lib\/system\/libdispatch.dylib"#) ? #"/usr/lib/system/libdispatch.dylib"# : nil
    case 0x646227739b046528: return equals(#"\/usr\/lib\/swift\/libswiftDispatch.dylib"#) ? #"/usr/lib/swift/libswiftDispatch.dylib"# : nil
    case 0x646227739b046535: return equals(#"\/usr\/lib\/system\/introspection\/libdispatch.dylib"#) ? #"/usr/lib/system/introspection/libdispatch.dylib"# : nil
    case 0x646a0471f0cbb8a8: return equals(#"__NSOPERATIONQUEUE_IS_STARTING_AN_OPERATION__"#) ? #"__NSOPERATIONQUEUE_IS_STARTING_AN_OPERATION__"# : nil
    case 0x64e7a8d2b8ce466e: return equals(#"/System/Library/Frameworks/SwiftUI.framework/SwiftUI"#) ? #"/System/Library/Frameworks/SwiftUI.framework/SwiftUI"# : nil
    case 0x654c187a8d570743: return equals(#"\/System\/Library\/PrivateFrameworks\/GraphicsServices.framework\/GraphicsServices"#) ? #"/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices"# : nil
    case 0x654c187a8d570745: return equals(#"\/System\/Library\/PrivateFrameworks\/AssertionServices.framework\/AssertionServices"#) ? #"/System/Library/PrivateFrameworks/AssertionServices.framework/AssertionServices"# : nil
    case 0x654c187a8d570747: return equals(#"\/System\/Library\/PrivateFrameworks\/FrontBoardServices.framework\/FrontBoardServices"#) ? #"/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices"# : nil
    case 0x654c187a8d570749: return equals(#"\/System\/Library\/PrivateFrameworks\/SpringBoardServices.framework\/SpringBoardServices"#) ? #"/System/Library/PrivateFrameworks/SpringBoardServices.framework/SpringBoardServices"# : nil
    case 0x654c187a8d57074b: return equals(#"\/System\/Library\/PrivateFrameworks\/RunningBoardServices.framework\/RunningBoardServices"#) ? #"/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices"# : nil
    case 0x654c187a8d570752: return equals(#"\/System\/Library\/Frameworks\/CoreServices.framework\/CoreServices"#) ? #"/System/Library/Frameworks/CoreServices.framework/CoreServices"# : nil
    case 0x654c187a8d57075d:
      if equals(#"\/System\/Library\/PrivateFrameworks\/BoardServices.framework\/BoardServices"#) { return #"/System/Library/PrivateFrameworks/BoardServices.framework/BoardServices"# }
      if equals(#"\/System\/Library\/PrivateFrameworks\/UIKitServices.framework\/UIKitServices"#) { return #"/System/Library/PrivateFrameworks/UIKitServices.framework/UIKitServices"# }
      return nil
    case 0x65607e58681d47f0: return equals(#"\/System\/Library\/Frameworks\/CoreAudio.framework\/CoreAudio"#) ? #"/System/Library/Frameworks/CoreAudio.framework/CoreAudio"# : nil
    case 0x66c5bf97ed489736: return equals(#"/usr/lib/system/libunwind.dylib"#) ? #"/usr/lib/system/libunwind.dylib"# : nil
    case 0x66d9f022247be247: return equals(#"libswiftDispatch.dylib"#) ? #"libswiftDispatch.dylib"# : nil
    case 0x679c5f8482961989: return equals(#"__NSThread__start__"#) ? #"__NSThread__start__"# : nil
    case 0x692bb0585bbda6ee: return equals(#"libobjc-trampolines.dylib"#) ? #"libobjc-trampolines.dylib"# : nil
    case 0x6989cf3be8db1311:
      if equals(#"com.apple.root.default-qos.overcommit"#) { return #"com.apple.root.default-qos.overcommit"# }
      if equals(#"com.apple.root.utility-qos.overcommit"#) { return #"com.apple.root.utility-qos.overcommit"# }
      return nil
    case 0x6989cf3be8db1318: return equals(#"com.apple.root.user-initiated-qos.overcommit"#) ? #"com.apple.root.user-initiated-qos.overcommit"# : nil
    case 0x6989cf3be8db131a: return equals(#"com.apple.root.user-interactive-qos.overcommit"#) ? #"com.apple.root.user-interactive-qos.overcommit"# : nil
    case 0x6989cf3be8db131c: return equals(#"com.apple.root.background-qos.overcommit"#) ? #"com.apple.root.background-qos.overcommit"# : nil
    case 0x6a7dcfe04c387ad6: return equals(#"\/usr\/lib\/system\/libsystem_asl.dylib"#) ? #"/usr/lib/system/libsystem_asl.dylib"# : nil
    case 0x6d67d059c6c2f3e9: return equals(#"/usr/lib/libsqlite3.dylib"#) ? #"/usr/lib/libsqlite3.dylib"# : nil
    case 0x719b29b1d2b63231: return equals(#"FrontBoardServices"#) ? #"FrontBoardServices"# : nil
    case 0x7229a4f119063be2: return equals(#"libnetwork.dylib"#) ? #"libnetwork.dylib"# : nil
    case 0x730a6ec484a6f1d7: return equals(#"libsystem_containermanager.dylib"#) ? #"libsystem_containermanager.dylib"# : nil
    case 0x74659469281209a9: return equals(#"\/usr\/lib\/libc++abi.dylib"#) ? #"/usr/lib/libc++abi.dylib"# : nil
    case 0x7519f1ad04e82202: return equals(#"libswiftCoreImage.dylib"#) ? #"libswiftCoreImage.dylib"# : nil
    case 0x7530424ddf5625c5: return equals(#"_dispatch_workloop_worker_thread"#) ? #"_dispatch_workloop_worker_thread"# : nil
    case 0x75c5308f65033dcd: return equals(#"\/usr\/lib\/swift\/libswiftUIKit.dylib"#) ? #"/usr/lib/swift/libswiftUIKit.dylib"# : nil
    case 0x7638d89dce0e8baf: return equals(#"std::__terminate(void (*)())"#) ? #"std::__terminate(void (*)())"# : nil
    case 0x764c8d69694966e7: return equals(#"libsqlite3.dylib"#) ? #"libsqlite3.dylib"# : nil
    case 0x76c00ea24052f4bc: return equals(#"/usr/lib/system/libsystem_malloc.dylib"#) ? #"/usr/lib/system/libsystem_malloc.dylib"# : nil
    case 0x76f0b4703c1d47f0: return equals(#"\/System\/Library\/Frameworks\/CoreMedia.framework\/CoreMedia"#) ? #"/System/Library/Frameworks/CoreMedia.framework/CoreMedia"# : nil
    case 0x7753f51fb1fa433f: return equals(#"_dispatch_lane_serial_drain"#) ? #"_dispatch_lane_serial_drain"# : nil
    case 0x777ee7deda7cbaa8: return equals(#"libswiftUIKit.dylib"#) ? #"libswiftUIKit.dylib"# : nil
    case 0x77a226fcbb97a56f: return equals(#"\/usr\/lib\/swift\/libswiftCoreImage.dylib"#) ? #"/usr/lib/swift/libswiftCoreImage.dylib"# : nil
    case 0x7914b02a4b28804b: return equals(#"/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit"#) ? #"/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit"# : nil
    case 0x79dafa7cef92a3a2: return equals(#"/System/Library/Frameworks/CoreVideo.framework/CoreVideo"#) ? #"/System/Library/Frameworks/CoreVideo.framework/CoreVideo"# : nil
    case 0x7a0eca7df6c63849: return equals(#"__CFRunLoopDoTimer"#) ? #"__CFRunLoopDoTimer"# : nil
    case 0x7a41bc9f19161e8e: return equals(#"\/usr\/lib\/system\/libsystem_platform.dylib"#) ? #"/usr/lib/system/libsystem_platform.dylib"# : nil
    case 0x7a41bc9f19161e92: return equals(#"\/usr\/lib\/system\/libsystem_sim_platform.dylib"#) ? #"/usr/lib/system/libsystem_sim_platform.dylib"# : nil
    case 0x7ab683935632869d: return equals(#"\/System\/Library\/Frameworks\/CoreMotion.framework\/CoreMotion"#) ? #"/System/Library/Frameworks/CoreMotion.framework/CoreMotion"# : nil
    case 0x7b726d527a950292: return equals(#"\/System\/Library\/PrivateFrameworks\/MobileKeyBag.framework\/MobileKeyBag"#) ? #"/System/Library/PrivateFrameworks/MobileKeyBag.framework/MobileKeyBag"# : nil
    case 0x7b733553580054ea: return equals(#"com.apple.root.default-qos"#) ? #"com.apple.root.default-qos"# : nil
    case 0x7b779b386c6e2a9c: return equals(#"libsystem_c.dylib"#) ? #"libsystem_c.dylib"# : nil
    case 0x7ba1104d8e2063df: return equals(#"\/System\/Library\/Frameworks\/MapKit.framework\/MapKit"#) ? #"/System/Library/Frameworks/MapKit.framework/MapKit"# : nil
    case 0x7c6f5fcb1c7a5828: return equals(#"\/usr\/lib\/system\/libsystem_trace.dylib"#) ? #"/usr/lib/system/libsystem_trace.dylib"# : nil
    case 0x7e22e59473b1523a: return equals(#"_UIApplicationMainPreparations"#) ? #"_UIApplicationMainPreparations"# : nil
    case 0x7ed5bb34b84278fe: return equals(#"/usr/lib/libbsm.0.dylib"#) ? #"/usr/lib/libbsm.0.dylib"# : nil
    case 0x7f183000f993818e: return equals(#"\/System\/Library\/Frameworks\/AudioToolbox.framework\/AudioToolbox"#) ? #"/System/Library/Frameworks/AudioToolbox.framework/AudioToolbox"# : nil
    case 0x7f1bfd600169a2fc: return equals(#"libicucore.A.dylib"#) ? #"libicucore.A.dylib"# : nil
    case 0x80b0288b59813cd4: return equals(#"_dispatch_main_queue_callback_4CF"#) ? #"_dispatch_main_queue_callback_4CF"# : nil
    case 0x822b93e264fbe3d1: return equals(#"com.apple.root.user-initiated-qos"#) ? #"com.apple.root.user-initiated-qos"# : nil
    case 0x822f90356858330b: return equals(#"/System/Library/PrivateFrameworks/BaseBoard.framework/BaseBoard"#) ? #"/System/Library/PrivateFrameworks/BaseBoard.framework/BaseBoard"# : nil
    case 0x843261a092ebffb7: return equals(#"\/System\/Library\/Frameworks\/SwiftUICore.framework\/SwiftUICore"#) ? #"/System/Library/Frameworks/SwiftUICore.framework/SwiftUICore"# : nil
    case 0x84cc03fdb796c00e: return equals(#"/System/Library/Frameworks/QuartzCore.framework/QuartzCore"#) ? #"/System/Library/Frameworks/QuartzCore.framework/QuartzCore"# : nil
    case 0x84cc03fdb796c071: return equals(#"/System/Library/Frameworks/QuartzCore.framework/Versions/A/QuartzCore"#) ? #"/System/Library/Frameworks/QuartzCore.framework/Versions/A/QuartzCore"# : nil
    case 0x862d8ee614b495ab: return equals(#"/usr/lib/system/libsystem_m.dylib"#) ? #"/usr/lib/system/libsystem_m.dylib"# : nil
    case 0x86c5c0125fc0d416: return equals(#"ARM_THREAD_STATE64"#) ? #"ARM_THREAD_STATE64"# : nil
    case 0x88b2c6708a1e8a91: return equals(#"/System/Library/Frameworks/CoreLocation.framework/CoreLocation"#) ? #"/System/Library/Frameworks/CoreLocation.framework/CoreLocation"# : nil
    case 0x8b1edc6168891f57: return equals(#"/usr/lib/system/libxpc.dylib"#) ? #"/usr/lib/system/libxpc.dylib"# : nil
    case 0x8bbe3bc2a5963378: return equals(#"/usr/lib/liblockdown.dylib"#) ? #"/usr/lib/liblockdown.dylib"# : nil
    case 0x8ffed8e04b2415c3: return equals(#"__NSOQSchedule_f"#) ? #"__NSOQSchedule_f"# : nil
    case 0x904ca7caefd9618b: return equals(#"libsystem_malloc.dylib"#) ? #"libsystem_malloc.dylib"# : nil
    case 0x91a286be9baf1724: return equals(#"__CFRunLoopDoTimers"#) ? #"__CFRunLoopDoTimers"# : nil
    case 0x924850113f42ace3: return equals(#"\/System\/Library\/PrivateFrameworks\/TextInput.framework\/TextInput"#) ? #"/System/Library/PrivateFrameworks/TextInput.framework/TextInput"# : nil
    case 0x929178ca8dd553f9: return equals(#"\/usr\/lib\/system\/libdyld.dylib"#) ? #"/usr/lib/system/libdyld.dylib"# : nil
    case 0x93296073b588c834: return equals(#"\/System\/Library\/Frameworks\/ImageIO.framework\/ImageIO"#) ? #"/System/Library/Frameworks/ImageIO.framework/ImageIO"# : nil
    case 0x9426cb5c39aebb51: return equals(#"com.apple.root.utility-qos"#) ? #"com.apple.root.utility-qos"# : nil
    case 0x94361aa85f8daeec: return equals(#"/usr/lib/libnetwork.dylib"#) ? #"/usr/lib/libnetwork.dylib"# : nil
    case 0x9452c61f9f4148d0: return equals(#"\/System\/Library\/Frameworks\/IOSurface.framework\/IOSurface"#) ? #"/System/Library/Frameworks/IOSurface.framework/IOSurface"# : nil
    case 0x9586c7ac2b2d64c0: return equals(#"/usr/lib/system/libsystem_containermanager.dylib"#) ? #"/usr/lib/system/libsystem_containermanager.dylib"# : nil
    case 0x9586c7ac2b2d64d9: return equals(#"/usr/lib/swift/libswift_RegexParser.dylib"#) ? #"/usr/lib/swift/libswift_RegexParser.dylib"# : nil
    case 0x959e536c1275777e: return equals(#"\/System\/Library\/Frameworks\/Carbon.framework\/Versions\/A\/Frameworks\/HIToolbox.framework\/Versions\/A\/HIToolbox"#) ? #"/System/Library/Frameworks/Carbon.framework/Versions/A/Frameworks/HIToolbox.framework/Versions/A/HIToolbox"# : nil
    case 0x96ba58f75a3bb2b4: return equals(#"-[NSRunLoop(NSRunLoop) runMode:beforeDate:]"#) ? #"-[NSRunLoop(NSRunLoop) runMode:beforeDate:]"# : nil
    case 0x9868108671e5bc84: return equals(#"mach_msg2_internal"#) ? #"mach_msg2_internal"# : nil
    case 0x99aa2869f4f0d74c: return equals(#"swift_job_runImpl(swift::Job*, swift::SerialExecutorRef)"#) ? #"swift_job_runImpl(swift::Job*, swift::SerialExecutorRef)"# : nil
    case 0x9a8b0bf16b80a866: return equals(#"\/usr\/lib\/system\/libkeymgr.dylib"#) ? #"/usr/lib/system/libkeymgr.dylib"# : nil
    case 0x9c43ab53dce237f1: return equals(#"/usr/lib/libobjc.A.dylib"#) ? #"/usr/lib/libobjc.A.dylib"# : nil
    case 0x9c43ab53dce237f2: return equals(#"/usr/lib/libicucore.A.dylib"#) ? #"/usr/lib/libicucore.A.dylib"# : nil
    case 0x9c87bb512d8acf18: return equals(#"_dispatch_async_redirect_invoke"#) ? #"_dispatch_async_redirect_invoke"# : nil
    case 0x9de976162d818599: return equals(#"libcopyfile.dylib"#) ? #"libcopyfile.dylib"# : nil
    case 0x9dfb3250c3e5bfab: return equals(#"/usr/lib/system/libsystem_c.dylib"#) ? #"/usr/lib/system/libsystem_c.dylib"# : nil
    case 0xa0780a75f5a17832: return equals(#"\/System\/Library\/PrivateFrameworks\/CoreAnalytics.framework\/CoreAnalytics"#) ? #"/System/Library/PrivateFrameworks/CoreAnalytics.framework/CoreAnalytics"# : nil
    case 0xa1750a79b7006fbd: return equals(#"/usr/lib/system/libsystem_sandbox.dylib"#) ? #"/usr/lib/system/libsystem_sandbox.dylib"# : nil
    case 0xa2ae81774bda583e: return equals(#"\/System\/Library\/Frameworks\/Accelerate.framework\/Accelerate"#) ? #"/System/Library/Frameworks/Accelerate.framework/Accelerate"# : nil
    case 0xa327f9ec8daf07fc: return equals(#"/usr/lib/libz.1.dylib"#) ? #"/usr/lib/libz.1.dylib"# : nil
    case 0xa327f9ec8daf07fe: return equals(#"/usr/lib/libc++.1.dylib"#) ? #"/usr/lib/libc++.1.dylib"# : nil
    case 0xa34ae3465cbf42e5: return equals(#"\/System\/Library\/Frameworks\/JavaScriptCore.framework\/JavaScriptCore"#) ? #"/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore"# : nil
    case 0xa3647d9a4890f124: return equals(#"libsystem_pthread.dylib"#) ? #"libsystem_pthread.dylib"# : nil
    case 0xa3647d9a4890f128: return equals(#"libsystem_sim_pthread.dylib"#) ? #"libsystem_sim_pthread.dylib"# : nil
    case 0xa444a9e8664e99aa: return equals(#"/usr/lib/system/libsystem_networkextension.dylib"#) ? #"/usr/lib/system/libsystem_networkextension.dylib"# : nil
    case 0xa444a9e8664e99b1: return equals(#"/usr/lib/swift/libswiftCoreFoundation.dylib"#) ? #"/usr/lib/swift/libswiftCoreFoundation.dylib"# : nil
    case 0xa444a9e8664e99b7: return equals(#"/usr/lib/system/libsystem_configuration.dylib"#) ? #"/usr/lib/system/libsystem_configuration.dylib"# : nil
    case 0xa444a9e8664e99bd: return equals(#"/usr/lib/swift/libswiftFoundation.dylib"#) ? #"/usr/lib/swift/libswiftFoundation.dylib"# : nil
    case 0xa45c85bb610994d2: return equals(#"/usr/lib/swift/libswiftQuartzCore.dylib"#) ? #"/usr/lib/swift/libswiftQuartzCore.dylib"# : nil
    case 0xa45c85bb610994d4: return equals(#"/usr/lib/swift/libswiftCore.dylib"#) ? #"/usr/lib/swift/libswiftCore.dylib"# : nil
    case 0xa5a8ddbde01d47f0: return equals(#"\/System\/Library\/Frameworks\/CoreImage.framework\/CoreImage"#) ? #"/System/Library/Frameworks/CoreImage.framework/CoreImage"# : nil
    case 0xa5ab76bf2ea94ad6: return equals(#"/usr/lib/system/libsystem_kernel.dylib"#) ? #"/usr/lib/system/libsystem_kernel.dylib"# : nil
    case 0xa5ab76bf2ea94ada: return equals(#"/usr/lib/system/libsystem_sim_kernel.dylib"#) ? #"/usr/lib/system/libsystem_sim_kernel.dylib"# : nil
    case 0xaa16f9d3d2b87f64: return equals(#"_dispatch_sync_invoke_and_complete"#) ? #"_dispatch_sync_invoke_and_complete"# : nil
    case 0xaa16f9d3d2b87f69: return equals(#"_dispatch_lane_barrier_sync_invoke_and_complete"#) ? #"_dispatch_lane_barrier_sync_invoke_and_complete"# : nil
    case 0xab66afb38ff51c16: return equals(#"/usr/lib/swift/libswiftMetal.dylib"#) ? #"/usr/lib/swift/libswiftMetal.dylib"# : nil
    case 0xab9e42aab254ccbc: return equals(#"\/System\/Library\/Frameworks\/Metal.framework\/Metal"#) ? #"/System/Library/Frameworks/Metal.framework/Metal"# : nil
    case 0xac4294bf3f5fcd50: return equals(#"/usr/lib/system/libsystem_symptoms.dylib"#) ? #"/usr/lib/system/libsystem_symptoms.dylib"# : nil
    case 0xad1f434077f3729e: return equals(#"__CFRunLoopDoSource0"#) ? #"__CFRunLoopDoSource0"# : nil
    case 0xaded2577fc8063fa: return equals(#"\/usr\/lib\/libMobileGestalt.dylib"#) ? #"/usr/lib/libMobileGestalt.dylib"# : nil
    case 0xb02b985d40be22cf: return equals(#"libsystem_blocks.dylib"#) ? #"libsystem_blocks.dylib"# : nil
    case 0xb1844cbe8040348e: return equals(#"__abort_with_payload"#) ? #"__abort_with_payload"# : nil
    case 0xb2807d9bd4c32e4e: return equals(#"objc_exception_throw"#) ? #"objc_exception_throw"# : nil
    case 0xb2f82a13d8f880ad: return equals(#"libsystem_darwin.dylib"#) ? #"libsystem_darwin.dylib"# : nil
    case 0xb3a69441fbeb7f40: return equals(#"/System/Library/Frameworks/CloudKit.framework/CloudKit"#) ? #"/System/Library/Frameworks/CloudKit.framework/CloudKit"# : nil
    case 0xb4471441b413f083: return equals(#"/usr/lib/system/libsystem_dnssd.dylib"#) ? #"/usr/lib/system/libsystem_dnssd.dylib"# : nil
    case 0xb519eb1c07e23d5e: return equals(#"\/System\/Library\/PrivateFrameworks\/SkyLight.framework\/Versions\/A\/SkyLight"#) ? #"/System/Library/PrivateFrameworks/SkyLight.framework/Versions/A/SkyLight"# : nil
    case 0xb77c2aa310c22182: return equals(#"\/usr\/lib\/libobjc-trampolines.dylib"#) ? #"/usr/lib/libobjc-trampolines.dylib"# : nil
    case 0xb77c2aa310c22197: return equals(#"\/usr\/lib\/system\/libsystem_coreservices.dylib"#) ? #"/usr/lib/system/libsystem_coreservices.dylib"# : nil
    case 0xbab4099f36656adc: return equals(#"\/usr\/lib\/system\/libsystem_notify.dylib"#) ? #"/usr/lib/system/libsystem_notify.dylib"# : nil
    case 0xbafec0a6ffcbdc09: return equals(#"libsystem_featureflags.dylib"#) ? #"libsystem_featureflags.dylib"# : nil
    case 0xbb3fe15c97b7515e: return equals(#"/System/Library/Frameworks/SystemConfiguration.framework/SystemConfiguration"#) ? #"/System/Library/Frameworks/SystemConfiguration.framework/SystemConfiguration"# : nil
    case 0xbd2378d16a38c298: return equals(#"_pthread_cond_wait"#) ? #"_pthread_cond_wait"# : nil
    case 0xbd744bb8f7cec189: return equals(#"/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph"#) ? #"/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph"# : nil
    case 0xbd9fc9fe9f554c4f: return equals(#"\/System\/Library\/PrivateFrameworks\/UIKitCore.framework\/UIKitCore"#) ? #"/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"# : nil
    case 0xbf3eceeca13bd4a3: return equals(#"\/usr\/lib\/libSystem.B.dylib"#) ? #"/usr/lib/libSystem.B.dylib"# : nil
    case 0xbf45ec0dc52a70de: return equals(#"\/usr\/lib\/system\/libsystem_info.dylib"#) ? #"/usr/lib/system/libsystem_info.dylib"# : nil
    case 0xc0c869d26292a3a2: return equals(#"/System/Library/Frameworks/CoreAudio.framework/CoreAudio"#) ? #"/System/Library/Frameworks/CoreAudio.framework/CoreAudio"# : nil
    case 0xc0e40ff087d8e301:
      if equals(#"/System/Library/PrivateFrameworks/BoardServices.framework/BoardServices"#) { return #"/System/Library/PrivateFrameworks/BoardServices.framework/BoardServices"# }
      if equals(#"/System/Library/PrivateFrameworks/UIKitServices.framework/UIKitServices"#) { return #"/System/Library/PrivateFrameworks/UIKitServices.framework/UIKitServices"# }
      return nil
    case 0xc0e40ff087d8e309: return equals(#"/System/Library/PrivateFrameworks/AssertionServices.framework/AssertionServices"#) ? #"/System/Library/PrivateFrameworks/AssertionServices.framework/AssertionServices"# : nil
    case 0xc0e40ff087d8e30b: return equals(#"/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices"#) ? #"/System/Library/PrivateFrameworks/GraphicsServices.framework/GraphicsServices"# : nil
    case 0xc0e40ff087d8e313: return equals(#"/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices"#) ? #"/System/Library/PrivateFrameworks/RunningBoardServices.framework/RunningBoardServices"# : nil
    case 0xc0e40ff087d8e315: return equals(#"/System/Library/PrivateFrameworks/SpringBoardServices.framework/SpringBoardServices"#) ? #"/System/Library/PrivateFrameworks/SpringBoardServices.framework/SpringBoardServices"# : nil
    case 0xc0e40ff087d8e317: return equals(#"/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices"#) ? #"/System/Library/PrivateFrameworks/FrontBoardServices.framework/FrontBoardServices"# : nil
    case 0xc0e40ff087d8e378: return equals(#"/System/Library/Frameworks/CoreServices.framework/CoreServices"#) ? #"/System/Library/Frameworks/CoreServices.framework/CoreServices"# : nil
    case 0xc14fbf58b241a234: return equals(#"\/System\/Library\/Frameworks\/SwiftUI.framework\/SwiftUI"#) ? #"/System/Library/Frameworks/SwiftUI.framework/SwiftUI"# : nil
    case 0xc32a576d6229e9f8: return equals(#"com.apple.main-thread"#) ? #"com.apple.main-thread"# : nil
    case 0xc5c19376f54e1b2b: return equals(#"\/System\/Library\/Frameworks\/CFNetwork.framework\/CFNetwork"#) ? #"/System/Library/Frameworks/CFNetwork.framework/CFNetwork"# : nil
    case 0xc5c487350ac18687: return equals(#"_dispatch_block_async_invoke2"#) ? #"_dispatch_block_async_invoke2"# : nil
    case 0xc5ec34a6a4e7e2d8: return equals(#"\/usr\/lib\/system\/libsystem_dnssd.dylib"#) ? #"/usr/lib/system/libsystem_dnssd.dylib"# : nil
    case 0xc6d70a44003633d2: return equals(#"/usr/lib/libobjc-trampolines.dylib"#) ? #"/usr/lib/libobjc-trampolines.dylib"# : nil
    case 0xc6d70a44003633dc: return equals(#"/usr/lib/system/libsystem_coreservices.dylib"#) ? #"/usr/lib/system/libsystem_coreservices.dylib"# : nil
    case 0xc951b9c5f445b039: return equals(#"_dispatch_semaphore_wait_slow"#) ? #"_dispatch_semaphore_wait_slow"# : nil
    case 0xca8398d327e1424e: return equals(#"-[NSThread main]"#) ? #"-[NSThread main]"# : nil
    case 0xcb1f297826917887: return equals(#"/usr/lib/system/libsystem_notify.dylib"#) ? #"/usr/lib/system/libsystem_notify.dylib"# : nil
    case 0xce95ee0bb1cfc6f3: return equals(#"/usr/lib/libSystem.B.dylib"#) ? #"/usr/lib/libSystem.B.dylib"# : nil
    case 0xceeeccead5de6285: return equals(#"/usr/lib/system/libsystem_info.dylib"#) ? #"/usr/lib/system/libsystem_info.dylib"# : nil
    case 0xd0234e8679de4dec: return equals(#"/System/Library/Frameworks/WebKit.framework/WebKit"#) ? #"/System/Library/Frameworks/WebKit.framework/WebKit"# : nil
    case 0xd0de2a9ea7f47de6: return equals(#"\/usr\/lib\/system\/libsystem_sandbox.dylib"#) ? #"/usr/lib/system/libsystem_sandbox.dylib"# : nil
    case 0xd28cd90b9d5b15a4: return equals(#"\/usr\/lib\/libc++.1.dylib"#) ? #"/usr/lib/libc++.1.dylib"# : nil
    case 0xd28cd90b9d5b15a6: return equals(#"\/usr\/lib\/libz.1.dylib"#) ? #"/usr/lib/libz.1.dylib"# : nil
    case 0xd358a3fa3692a3a2: return equals(#"/System/Library/Frameworks/CoreMedia.framework/CoreMedia"#) ? #"/System/Library/Frameworks/CoreMedia.framework/CoreMedia"# : nil
    case 0xd40056583e5d5889: return equals(#"\/usr\/lib\/system\/libsystem_sim_kernel.dylib"#) ? #"/usr/lib/system/libsystem_sim_kernel.dylib"# : nil
    case 0xd40056583e5d588d: return equals(#"\/usr\/lib\/system\/libsystem_kernel.dylib"#) ? #"/usr/lib/system/libsystem_kernel.dylib"# : nil
    case 0xd50dbc23287f58c5: return equals(#"/System/Library/Frameworks/Metal.framework/Metal"#) ? #"/System/Library/Frameworks/Metal.framework/Metal"# : nil
    case 0xd5524c651764207c: return equals(#"_dispatch_sema4_wait"#) ? #"_dispatch_sema4_wait"# : nil
    case 0xd597751ad59a6f53: return equals(#"_dispatch_sync_f_slow"#) ? #"_dispatch_sync_f_slow"# : nil
    case 0xd5ef890f76ba8be2: return equals(#"\/usr\/lib\/swift\/libswiftCoreFoundation.dylib"#) ? #"/usr/lib/swift/libswiftCoreFoundation.dylib"# : nil
    case 0xd5ef890f76ba8be6: return equals(#"\/usr\/lib\/swift\/libswiftFoundation.dylib"#) ? #"/usr/lib/swift/libswiftFoundation.dylib"# : nil
    case 0xd5ef890f76ba8bf9: return equals(#"\/usr\/lib\/system\/libsystem_networkextension.dylib"#) ? #"/usr/lib/system/libsystem_networkextension.dylib"# : nil
    case 0xd5ef890f76ba8bfc: return equals(#"\/usr\/lib\/system\/libsystem_configuration.dylib"#) ? #"/usr/lib/system/libsystem_configuration.dylib"# : nil
    case 0xd5f7a55c71fd8687: return equals(#"\/usr\/lib\/swift\/libswiftCore.dylib"#) ? #"/usr/lib/swift/libswiftCore.dylib"# : nil
    case 0xd5f7a55c71fd8689: return equals(#"\/usr\/lib\/swift\/libswiftQuartzCore.dylib"#) ? #"/usr/lib/swift/libswiftQuartzCore.dylib"# : nil
    case 0xd74c720dce8201e0: return equals(#"libswiftCore.dylib"#) ? #"libswiftCore.dylib"# : nil
    case 0xd74c720dce8201ea: return equals(#"libswiftQuartzCore.dylib"#) ? #"libswiftQuartzCore.dylib"# : nil
    case 0xd7545e5ec9c50c81: return equals(#"libswiftCoreFoundation.dylib"#) ? #"libswiftCoreFoundation.dylib"# : nil
    case 0xd7545e5ec9c50c85: return equals(#"libswiftFoundation.dylib"#) ? #"libswiftFoundation.dylib"# : nil
    case 0xd8765805207e8920: return equals(#"libswiftMetal.dylib"#) ? #"libswiftMetal.dylib"# : nil
    case 0xda0b86344cfabd57: return equals(#"-[NSOperation start]"#) ? #"-[NSOperation start]"# : nil
    case 0xda8186f878f7418d: return equals(#"com.apple.CFStream.LegacyThread"#) ? #"com.apple.CFStream.LegacyThread"# : nil
    case 0xdab0278af31c65a4: return equals(#"/System/Library/Frameworks/AudioToolbox.framework/AudioToolbox"#) ? #"/System/Library/Frameworks/AudioToolbox.framework/AudioToolbox"# : nil
    case 0xdacd8f549f010e45: return equals(#"\/usr\/lib\/swift\/libswiftMetal.dylib"#) ? #"/usr/lib/swift/libswiftMetal.dylib"# : nil
    case 0xdb9e12de513bcbcd: return equals(#"_dispatch_root_queue_drain_deferred_item"#) ? #"_dispatch_root_queue_drain_deferred_item"# : nil
    case 0xdc1f434077f3729e: return equals(#"__CFRunLoopDoSource1"#) ? #"__CFRunLoopDoSource1"# : nil
    case 0xdc460590ec747190: return equals(#"/usr/lib/libMobileGestalt.dylib"#) ? #"/usr/lib/libMobileGestalt.dylib"# : nil
    case 0xdc72edf6e51d47f0: return equals(#"\/System\/Library\/Frameworks\/CoreVideo.framework\/CoreVideo"#) ? #"/System/Library/Frameworks/CoreVideo.framework/CoreVideo"# : nil
    case 0xdde9b4582fabdf03: return equals(#"\/usr\/lib\/system\/libsystem_symptoms.dylib"#) ? #"/usr/lib/system/libsystem_symptoms.dylib"# : nil
    case 0xdeda7ad8701ae6ca: return equals(#"/System/Library/PrivateFrameworks/MobileKeyBag.framework/MobileKeyBag"#) ? #"/System/Library/PrivateFrameworks/MobileKeyBag.framework/MobileKeyBag"# : nil
    case 0xdf1e94195cbd62cf: return equals(#"/System/Library/Frameworks/CoreMotion.framework/CoreMotion"#) ? #"/System/Library/Frameworks/CoreMotion.framework/CoreMotion"# : nil
    case 0xe0154a3c977dc8c2: return equals(#"_dispatch_root_queue_drain_deferred_wlh"#) ? #"_dispatch_root_queue_drain_deferred_wlh"# : nil
    case 0xe05cdaef003d8070: return equals(#"/System/Library/Frameworks/StoreKit.framework/StoreKit"#) ? #"/System/Library/Frameworks/StoreKit.framework/StoreKit"# : nil
    case 0xe0fdee6e5de91505: return equals(#"libcommonCrypto.dylib"#) ? #"libcommonCrypto.dylib"# : nil
    case 0xe129bb9f259c63ac: return equals(#"\/System\/Library\/Frameworks\/AppKit.framework\/Versions\/C\/AppKit"#) ? #"/System/Library/Frameworks/AppKit.framework/Versions/C/AppKit"# : nil
    case 0xe13ecce7ee0c91f3: return equals(#"-[NSRunLoop(NSRunLoop) runUntilDate:]"#) ? #"-[NSRunLoop(NSRunLoop) runUntilDate:]"# : nil
    case 0xe279bb5a7203edf6: return equals(#"CFRunLoopRunSpecific"#) ? #"CFRunLoopRunSpecific"# : nil
    case 0xe33a582d9d214192: return equals(#"/usr/lib/system/libdyld.dylib"#) ? #"/usr/lib/system/libdyld.dylib"# : nil
    case 0xe42de74b3bd9768a: return equals(#"\/usr\/lib\/swift\/libswift_RegexParser.dylib"#) ? #"/usr/lib/swift/libswift_RegexParser.dylib"# : nil
    case 0xe42de74b3bd97693: return equals(#"\/usr\/lib\/system\/libsystem_containermanager.dylib"#) ? #"/usr/lib/system/libsystem_containermanager.dylib"# : nil
    case 0xe44fb428fe6dee41: return equals(#"com.apple.NSURLConnectionLoader"#) ? #"com.apple.NSURLConnectionLoader"# : nil
    case 0xe59d3a4f4f79bcbe: return equals(#"\/usr\/lib\/libnetwork.dylib"#) ? #"/usr/lib/libnetwork.dylib"# : nil
    case 0xe6809bdd84f860e6: return equals(#"libcompiler_rt.dylib"#) ? #"libcompiler_rt.dylib"# : nil
    case 0xe696301a84a6f1ed: return equals(#"libswift_RegexParser.dylib"#) ? #"libswift_RegexParser.dylib"# : nil
    case 0xe8e2c17030f16889: return equals(#"mach_msg_overwrite"#) ? #"mach_msg_overwrite"# : nil
    case 0xe9e34d22a7ee6312: return equals(#"__CFRunLoopServiceMachPort"#) ? #"__CFRunLoopServiceMachPort"# : nil
    case 0xeae1a055f8452e9b: return equals(#"x86_THREAD_STATE64"#) ? #"x86_THREAD_STATE64"# : nil
    case 0xeb202b167b74ba0d: return equals(#"/usr/lib/system/libkeymgr.dylib"#) ? #"/usr/lib/system/libkeymgr.dylib"# : nil
    case 0xeb48d644a305df44: return equals(#"libsystem_trace.dylib"#) ? #"libsystem_trace.dylib"# : nil
    case 0xebc52e24779d7ac7: return equals(#"x86_THREAD_STATE"#) ? #"x86_THREAD_STATE"# : nil
    case 0xec14a412b2d2b65e: return equals(#"GraphicsServices"#) ? #"GraphicsServices"# : nil
    case 0xec5012b7d311adf8: return equals(#"\/usr\/lib\/system\/libsystem_c.dylib"#) ? #"/usr/lib/system/libsystem_c.dylib"# : nil
    case 0xecbef85f814f89e0: return equals(#"__CFRUNLOOP_IS_CALLING_OUT_TO_A_TIMER_CALLBACK_FUNCTION__"#) ? #"__CFRUNLOOP_IS_CALLING_OUT_TO_A_TIMER_CALLBACK_FUNCTION__"# : nil
    case 0xecbef85f814f89e3:
      if equals(#"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__"#) { return #"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE0_PERFORM_FUNCTION__"# }
      if equals(#"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE1_PERFORM_FUNCTION__"#) { return #"__CFRUNLOOP_IS_CALLING_OUT_TO_A_SOURCE1_PERFORM_FUNCTION__"# }
      return nil
    case 0xecbef85f814f89e4: return equals(#"__CFRUNLOOP_IS_CALLING_OUT_TO_AN_OBSERVER_CALLBACK_FUNCTION__"#) ? #"__CFRUNLOOP_IS_CALLING_OUT_TO_AN_OBSERVER_CALLBACK_FUNCTION__"# : nil
    case 0xed4086dc0a54ccbc: return equals(#"\/System\/Library\/Frameworks\/UIKit.framework\/UIKit"#) ? #"/System/Library/Frameworks/UIKit.framework/UIKit"# : nil
    case 0xed663510a66999ea: return equals(#"libsystem_platform.dylib"#) ? #"libsystem_platform.dylib"# : nil
    case 0xed663510a66999ee: return equals(#"libsystem_sim_platform.dylib"#) ? #"libsystem_sim_platform.dylib"# : nil
    case 0xede88bb4cc1625a0: return equals(#"\/usr\/lib\/libicucore.A.dylib"#) ? #"/usr/lib/libicucore.A.dylib"# : nil
    case 0xede88bb4cc1625a5: return equals(#"\/usr\/lib\/libobjc.A.dylib"#) ? #"/usr/lib/libobjc.A.dylib"# : nil
    case 0xee67ec7f4820d36e: return equals(#"/System/Library/Frameworks/Network.framework/Network"#) ? #"/System/Library/Frameworks/Network.framework/Network"# : nil
    case 0xef3870357dffe49e: return equals(#"libMobileGestalt.dylib"#) ? #"libMobileGestalt.dylib"# : nil
    case 0xf056ef2420b69234: return equals(#"\/System\/Library\/Frameworks\/Combine.framework\/Combine"#) ? #"/System/Library/Frameworks/Combine.framework/Combine"# : nil
    case 0xf16953a30c11e60c: return equals(#"/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"#) ? #"/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"# : nil
    case 0xf16953a30c11e67b: return equals(#"/System/Library/Frameworks/CoreGraphics.framework/Versions/A/CoreGraphics"#) ? #"/System/Library/Frameworks/CoreGraphics.framework/Versions/A/CoreGraphics"# : nil
    case 0xf2befc73311862a6: return equals(#"\/System\/Library\/Frameworks\/UserNotifications.framework\/UserNotifications"#) ? #"/System/Library/Frameworks/UserNotifications.framework/UserNotifications"# : nil
    case 0xf50e71ca870318f5: return equals(#"_dispatch_lane_invoke"#) ? #"_dispatch_lane_invoke"# : nil
    case 0xf50e71ca870318f7: return equals(#"_dispatch_source_invoke"#) ? #"_dispatch_source_invoke"# : nil
    case 0xf50e71ca870318ff: return equals(#"_dispatch_queue_override_invoke"#) ? #"_dispatch_queue_override_invoke"# : nil
    case 0xf549c3aa21b5a41a: return equals(#"\/System\/Library\/Frameworks\/CoreData.framework\/CoreData"#) ? #"/System/Library/Frameworks/CoreData.framework/CoreData"# : nil
    case 0xf5c9cecd5feecf37: return equals(#"com.apple.CFSocket.private"#) ? #"com.apple.CFSocket.private"# : nil
    case 0xf786ae01044087f8: return equals(#"\/usr\/lib\/system\/libsystem_m.dylib"#) ? #"/usr/lib/system/libsystem_m.dylib"# : nil
    case 0xf7d9a3102b3a4040: return equals(#"/System/Library/Frameworks/CoreText.framework/CoreText"#) ? #"/System/Library/Frameworks/CoreText.framework/CoreText"# : nil
    case 0xf8280dd89630072a: return equals(#"\/System\/Library\/Frameworks\/Security.framework\/Security"#) ? #"/System/Library/Frameworks/Security.framework/Security"# : nil
    case 0xf8280dd896300759: return equals(#"\/System\/Library\/Frameworks\/Security.framework\/Versions\/A\/Security"#) ? #"/System/Library/Frameworks/Security.framework/Versions/A/Security"# : nil
    case 0xf8ecd71587686df7: return equals(#"__workq_kernreturn"#) ? #"__workq_kernreturn"# : nil
    case 0xf9dddc7b684d2924: return equals(#"UIApplicationMain"#) ? #"UIApplicationMain"# : nil
    case 0xfa151b25b5622128: return equals(#"\/usr\/lib\/liblockdown.dylib"#) ? #"/usr/lib/liblockdown.dylib"# : nil
    case 0xfab5fc86787d0d3c: return equals(#"\/usr\/lib\/system\/libxpc.dylib"#) ? #"/usr/lib/system/libxpc.dylib"# : nil
    case 0xfb9e5d22c02be4fc: return equals(#"abort_with_reason"#) ? #"abort_with_reason"# : nil
    case 0xfd5a466ff347fdb2: return equals(#"libsystem_asl.dylib"#) ? #"libsystem_asl.dylib"# : nil
    case 0xfeddf2be399b2233: return equals(#"RunningBoardServices"#) ? #"RunningBoardServices"# : nil
    case 0xfee5b3f81293eb82: return equals(#"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"#) ? #"/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"# : nil
    case 0xfee5b3f81293eb85:
      if equals(#"/System/Library/PrivateFrameworks/UIFoundation.framework/UIFoundation"#) { return #"/System/Library/PrivateFrameworks/UIFoundation.framework/UIFoundation"# }
      if equals(#"/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation"#) { return #"/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation"# }
      return nil
    case 0xfee5b3f81293eb8d: return equals(#"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"#) ? #"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation"# : nil
    case 0xfee5b3f81293ebfa: return equals(#"/System/Library/Frameworks/Foundation.framework/Foundation"#) ? #"/System/Library/Frameworks/Foundation.framework/Foundation"# : nil
    case 0xfee5b3f81293ebfe: return equals(#"/System/Library/Frameworks/AVFoundation.framework/AVFoundation"#) ? #"/System/Library/Frameworks/AVFoundation.framework/AVFoundation"# : nil
    default: return nil
    }
  }
}
