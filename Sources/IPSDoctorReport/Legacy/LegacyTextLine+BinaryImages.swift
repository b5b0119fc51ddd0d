import IPSDoctorSupport

/// Binary image lines: "0xBASE - 0xEND name arch (version) <UUID> /path".
extension LegacyTextLine {
  /// The architecture named by `bytes[range]`, as a `String` literal (no allocation), or `nil`.
  ///
  /// Compared as bytes: these lines are most of a report, and no other spelling of an ASCII name
  /// is canonically equivalent to it, so this agrees with comparing `String`s.
  static func architecture(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
    func equals(_ name: StaticString) -> Bool {
      range.count == name.utf8CodeUnitCount && bytes.hasPrefix(name, in: range)
    }
    switch range.count {
    case 3: return equals("arm") ? "arm" : equals("ppc") ? "ppc" : nil
    case 4: return equals("i386") ? "i386" : nil
    case 5:
      return equals("arm64")
        ? "arm64"
        : equals("armv7")
          ? "armv7"
          : equals("armv6")
            ? "armv6"
            : equals("ppc64") ? "ppc64" : nil
    case 6:
      return equals("arm64e")
        ? "arm64e"
        : equals("armv7s")
          ? "armv7s"
          : equals("armv7k") ? "armv7k" : equals("x86_64") ? "x86_64" : nil
    case 7: return equals("x86_64h") ? "x86_64h" : nil
    case 8: return equals("arm64_32") ? "arm64_32" : nil
    default: return nil
    }
  }

  /// "0x1045a0000 - 0x1046bffff ChatApp arm64  <6f1c…> /private/var/…/ChatApp", the macOS
  /// "0x10e30e000 - 0x10e311fff +com.example.App (1.0 - 1) <UUID> /path" form, names with spaces,
  /// and "???" names. A "+" marker (an image that is not part of the OS) gives source "P".
  ///
  /// Reads the line as ranges of its bytes and makes `String`s only of the fields it keeps.
  static func binaryImage(bytes: UnsafeBufferPointer<UInt8>) -> BinaryImage? {
    var slots = ImageKeySlots.unknown
    return binaryImage(bytes: bytes, slots: &slots)
  }

  /// ``binaryImage(bytes:)``, also giving the ``ImageResolver/NameFilter`` slots of the image's
  /// name, bundle identifier and path's file name, from the bytes the strings were made of.
  ///
  /// The fields are gathered in locals and the image made once, by its memberwise initialiser:
  /// filling a `var` image moved and copied the whole value on its way out.
  ///
  /// - Parameter isASCII: Whether the caller knows every byte of the line is ASCII, where a byte is
  ///   a `Character` and byte comparisons are `String` comparisons; otherwise each text that needs
  ///   it is tested.
  static func binaryImage(
    bytes: UnsafeBufferPointer<UInt8>, slots: inout ImageKeySlots, texts: SharedTexts.Handle? = nil,
    isASCII: Bool = false
  ) -> BinaryImage? {
    var scanner = ByteScanner(bytes: bytes)
    scanner.skipSpace()
    guard scanner.peek(0x30), scanner.peek(0x78, at: 1) else { return nil }
    guard let base = scanner.number() else { return nil }
    scanner.skipSpace()
    guard scanner.take(0x2D) else { return nil }
    scanner.skipSpace()
    var end: UInt64?
    if scanner.takeQuestionMarks() {
      end = nil
    } else {
      guard let value = scanner.number() else { return nil }
      end = value
    }
    scanner.skipSpace()

    var size: UInt64?
    if let end, end >= base {
      let (sum, overflow) = (end - base).addingReportingOverflow(1)
      if !overflow { size = sum }
    }
    var source: String?
    if scanner.take(0x2B) {
      source = "P"
      scanner.skipSpace()
    }

    // The UUID in angle brackets separates "name [arch] [(version)]" from the path.
    let restStart = scanner.index
    var descriptorEnd = bytes.count
    var pathStart = bytes.count
    var uuid = ImageUUID.none
    // The usual UUID, 32 digits, has its ">" looked at where it must be: among hex digits no ">"
    // comes before it.
    var open = scanner.find(0x3C, from: restStart)
    var close: Int?
    var isHex = false
    if let open {
      let usual = open + 33
      if usual < bytes.count && bytes[usual] == 0x3E, let digits = digitsUUID(bytes, open + 1) {
        close = usual
        uuid = digits
      } else if usual < bytes.count && bytes[usual] == 0x3E && isHexOrDash(bytes, (open + 1)..<usual) {
        close = usual
        isHex = true
      } else {
        close = scanner.find(0x3E, from: open)
        if let close { isHex = close > open + 1 && isHexOrDash(bytes, (open + 1)..<close) }
      }
    }
    if close == nil { open = nil }
    if let open, let close {
      if isHex { uuid = imageUUID(bytes, (open + 1)..<close) }
      descriptorEnd = open
      pathStart = close + 1
    } else if let slash = scanner.find(0x20, 0x2F, from: restStart) {
      descriptorEnd = slash
      pathStart = slash + 1
    }
    // Jailbreak tools append package metadata as JSON: " {"install_date":…}".
    let pathEnd = scanner.find(0x20, 0x7B, 0x22, from: pathStart) ?? bytes.count
    let path = ByteScanner.trimmed(bytes, pathStart..<max(pathStart, pathEnd))
    let hasPath = path.lowerBound < path.upperBound && !isQuestionMarks(bytes, path)
    let pathText = hasPath ? string(bytes, path, texts) : nil

    var descriptor = ByteScanner.trimmed(bytes, restStart..<descriptorEnd)
    var isNoUUID = false
    if case .none = uuid { isNoUUID = true }
    if !hasPath && isNoUUID && bytes.hasSuffix(" ???", in: descriptor) {
      descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<(descriptor.upperBound - 3))
    }
    var shortVersion: String?
    var version: String?
    if bytes.hasSuffix(")", in: descriptor), let open = lastIndex(of: 0x28, in: bytes, descriptor) {
      let inside = ByteScanner.trimmed(bytes, (open + 1)..<(descriptor.upperBound - 1))
      descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<open)
      (shortVersion, version) = readVersion(bytes, inside)
      if shortVersion == nil, version != nil, let space = lastSpace(bytes, descriptor) {
        // Microstackshots: "com.apple.CoreFoundation 6.9 (1452.23)".
        let last = (space + 1)..<descriptor.upperBound
        if last.lowerBound < last.upperBound, bytes[last.lowerBound] >= 0x30 && bytes[last.lowerBound] <= 0x39,
          contains(0x2E, in: bytes, last)
        {
          shortVersion = string(bytes, last)
          descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<space)
        }
      }
    }
    var arch: String?
    if let space = lastSpace(bytes, descriptor) {
      if let found = architecture(bytes, (space + 1)..<descriptor.upperBound) {
        arch = found
        descriptor = ByteScanner.trimmed(bytes, descriptor.lowerBound..<space)
      }
    } else if hasPath, let found = architecture(bytes, descriptor) {
      arch = found
      descriptor = descriptor.lowerBound..<descriptor.lowerBound
    }
    // `String.hasSuffix` compares characters; as bytes only when that is the same thing.
    @inline(__always) func hasDylibSuffix(_ column: Range<Int>) -> Bool {
      isASCII || ByteSearch.isASCII(UnsafeBufferPointer(rebasing: bytes[column]))
        ? bytes.hasSuffix(".dylib", in: column) : string(bytes, column).hasSuffix(".dylib")
    }
    @inline(__always) func slot(_ range: Range<Int>) -> Int16 {
      isASCII
        ? Int16(ImageResolver.NameFilter.slot(UnsafeBufferPointer(rebasing: bytes[range])))
        : ImageKeySlots.slot(bytes, range)
    }
    let column = descriptor
    let fileName = ((lastIndex(of: 0x2F, in: bytes, path)).map { $0 + 1 } ?? path.lowerBound)..<path.upperBound
    var name: String?
    var bundleID: String?
    slots = ImageKeySlots.absent
    if let size, size > 0 {
      slots.hasRange = true
      slots.base = base
      slots.last = base &+ (size - 1)
    }
    // The file name the resolver takes from the path: these bytes when they are ASCII (a repair
    // of invalid UTF-8 elsewhere in the path leaves them and every "/" as they are).
    if hasPath { slots.fileName = slot(fileName) }
    if column.lowerBound < column.upperBound && !isQuestionMarks(bytes, column) {
      // macOS writes the bundle identifier in the name column; the name is then the file name.
      if hasPath, fileName.lowerBound < fileName.upperBound, contains(0x2E, in: bytes, column),
        !hasDylibSuffix(column),
        !sameText(bytes, column, fileName)
      {
        bundleID = string(bytes, column, texts)
        name = string(bytes, fileName, texts)
        slots.bundleID = slot(column)
        slots.name = slots.fileName
      } else {
        name = string(bytes, column, texts)
        slots.name = slot(column)
      }
    }
    // "0x0 - ???" is how `show` writes an image whose base its report did not know.
    let knownBase = base == 0 && end == nil ? nil : base
    return BinaryImage(
      uuidStorage: uuid, base: knownBase, size: size, arch: arch, name: name, path: pathText, source: source,
      bundleID: bundleID, bundleShortVersion: shortVersion, bundleVersion: version)
  }

  /// "(1.0 - 1)", "(817)", "(*)": the text inside the parentheses, `bytes[inside]`, as the short
  /// version and the version.
  static func readVersion(_ bytes: UnsafeBufferPointer<UInt8>, _ inside: Range<Int>) -> (String?, String?) {
    func clean(_ range: Range<Int>) -> String? {
      let text = ByteScanner.trimmed(bytes, range)
      let isStar = text.count == 1 && bytes[text.lowerBound] == 0x2A
      return text.isEmpty || isStar || isQuestionMarks(bytes, text) ? nil : string(bytes, text)
    }
    // The first " - ".
    var index = inside.lowerBound
    while index + 3 <= inside.upperBound {
      if bytes[index] == 0x20 && bytes[index + 1] == 0x2D && bytes[index + 2] == 0x20 {
        return (clean(inside.lowerBound..<index), clean((index + 3)..<inside.upperBound))
      }
      index += 1
    }
    return (nil, clean(inside))
  }
}
