import IPSDoctorSupport

/// A loaded image (`usedImages[]` or a "Binary Images" line).
public struct BinaryImage: Sendable, Equatable {
  /// e.g. "7776e1e7-d921-35c9-8bae-089c0ffad3b2"; made when asked from the 16 bytes it is kept as.
  package var uuid: String? {
    get { uuidStorage.text }
    set { uuidStorage = ImageUUID(newValue) }
  }
  /// ``uuid`` in upper case, as dSYMs and symbolication tools write it.
  package var uppercaseUUID: String? { uuidStorage.uppercaseText }
  var uuidStorage: ImageUUID
  package var base: UInt64?
  package var size: UInt64?
  package var arch: String?
  package var name: String?
  package var path: String?
  /// "P" process, "S" shared cache, "C" shared-cache library, "K" kernel, "A" absolute, …
  package var source: String?
  package var bundleID: String?
  package var bundleShortVersion: String?
  package var bundleVersion: String?

  // The JSON reader uses the memberwise initialiser (see ``Frame``); the public one is below.
}

extension BinaryImage {
  package init(name: String? = nil, path: String? = nil, uuid: String? = nil, base: UInt64? = nil) {
    self.init(
      uuidStorage: ImageUUID(uuid), base: base, size: nil, arch: nil, name: name, path: path, source: nil,
      bundleID: nil, bundleShortVersion: nil, bundleVersion: nil)
  }

  /// Whether the image ships inside an app bundle or container (the developer's own code or one of
  /// its frameworks), rather than with the OS.
  package var isAppImage: Bool { Self.isAppImage(name: name, path: path, source: source) }

  /// The app bundle the process runs from, "/Example.app/", read from the process path: its first
  /// path component that ends in ".app" (an extension's `.appex` lies inside it). `nil` outside
  /// any app bundle. Compared as a component rather than as a prefix, as reports write one
  /// location with and without "/private" or redacted ("*/Example.app/…").
  static func bundleComponent(ofProcessPath path: String?) -> String? {
    appBundle(ofProcessPath: path)?.component
  }

  /// The process's app bundle: the last component of the process path through its first ".app/".
  package struct AppBundle: Sendable {
    /// The component between slashes, "/Example.app/", as ``bundleComponent(ofProcessPath:)``
    /// spells it.
    var component: String
  }

  package static func appBundle(ofProcessPath path: String?) -> AppBundle? {
    guard let path, let range = path.prefilteredFirstRange(of: ".app/") else { return nil }
    // Over the UTF-8 view: "/" is ASCII.
    let start =
      path.utf8[..<range.lowerBound].lastIndex(of: UInt8(ascii: "/")).map { path.utf8.index(after: $0) }
      ?? path.startIndex
    guard start < range.lowerBound else { return nil }
    return AppBundle(component: "/" + path[start..<range.upperBound])
  }

  /// ``isAppImage(name:path:source:)`` decided from the report: with the process's bundle known
  /// (``appBundle(ofProcessPath:)``), an image inside an app bundle is the app's only when it is
  /// inside that one (another app's bundle, such as a developer tool's, is not).
  /// `<App>.debug.dylib`, Xcode's debug-build home of the app's code, is inside it.
  package static func isAppImage(name: String?, path: String?, source: String?, bundle: AppBundle?) -> Bool {
    guard isAppImage(name: name, path: path, source: source) else { return false }
    guard let bundle, let path else { return true }
    // Outside every bundle, or inside this one ("Example.app/…" with nothing before it too).
    guard path.prefilteredContains(".app/") else { return true }
    return path.prefilteredContains(bundle.component) || path.hasPrefix(bundle.component.dropFirst())
  }

  /// ``isAppImage`` from the three fields it reads.
  package static func isAppImage(name: String?, path: String?, source: String?) -> Bool {
    // Swift runtime libraries that old apps embedded are Apple's code, not the app's.
    if let name, name.hasPrefix("libswift") && name.hasSuffix(".dylib") { return false }
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

  /// ``PathKind`` of `path`.
  static func pathKind(_ path: String) -> PathKind {
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
    // Inside a bundle, except Xcode's developer directory (any Xcode-*.app) and what it holds,
    // simulator runtimes included.
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

/// An image's UUID (also a report's incident id and slice UUID), made a `String` only when asked.
/// The usual dashed 8-4-4-4-12 form in one letter case is kept as its 16 bytes, anything
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

  var uppercaseText: String? {
    switch self {
    case .none: return nil
    case .text(let text): return text.uppercased()
    case .lowercase(let high, let low), .uppercase(let high, let low):
      return Self.format(high: high, low: low, letters: 0x07)
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

/// A short text kept in place, made a `String` only when asked: a report's timestamps (its capture
/// and launch times, the header's timestamp).
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
