import IPSDoctorReport
import IPSDoctorSupport

/// How to symbolicate the app's frames when the report has none: the dSYM to find and the `atos`
/// command with this report's real load address and frame addresses.
///
/// The commands are meant to be pasted into a POSIX shell, and every value in them comes from the
/// report, so none reaches a command unchecked: the architecture is one of ``knownArchitectures``
/// (otherwise the one the report's CPU type implies), the UUID is hexadecimal (otherwise there is
/// no `mdfind` command), addresses are printed from integers, and the dSYM path is one shell word
/// (``shellQuoted(_:)``). Each command therefore splits into exactly the argv it intends.
package struct SymbolicationHint: Sendable, Equatable {
  package struct ImageCommands: Sendable, Equatable {
    package var imageName: String
    package var uuid: String?
    package var arch: String
    package var loadAddress: UInt64
    package var addresses: [UInt64]
    /// `mdfind "com_apple_xcode_dsym_uuids == <UUID>"`
    package var findDSYM: String?
    /// `atos -arch arm64 -o ChatApp.app.dSYM/Contents/Resources/DWARF/ChatApp -l 0x… 0x… 0x…`
    package var atos: String

    package init(
      imageName: String, uuid: String? = nil, arch: String, loadAddress: UInt64, addresses: [UInt64],
      findDSYM: String? = nil, atos: String
    ) {
      self.imageName = imageName
      self.uuid = uuid
      self.arch = arch
      self.loadAddress = loadAddress
      self.addresses = addresses
      self.findDSYM = findDSYM
      self.atos = atos
    }
  }

  package var images: [ImageCommands]

  /// `ips-doctor crash.ips --dsym ChatApp.app.dSYM`: ips-doctor's own way, on any system, for the
  /// report at `path` (as the output shows it; `crash.ips` for standard input).
  package func ipsDoctorCommand(reportPath path: String) -> String {
    let report = path == "<stdin>" || path.isEmpty ? "crash.ips" : path
    let dsym = (images.first?.imageName ?? "MyApp") + ".app.dSYM"
    return "ips-doctor " + Self.shellQuoted(report) + " --dsym " + Self.shellQuoted(dsym)
  }

  /// Commands already made (``ReportRecord`` reads them back from a record).
  package init(images: [ImageCommands]) {
    self.images = images
  }

  /// An address of one image, once per command.
  private struct Address: Hashable {
    var image: Int
    var address: UInt64
  }

  init?(context: borrowing DiagnosisContext) {
    var byImage: [Int: [UInt64]] = [:]
    var seen = Set<Address>()
    var order: [Int] = []
    context.forEachBacktrace { backtrace in
      // The symbol test first: it is a few byte compares, while `isAppFrame` hashes the image index
      // and `context.symbol(frame)` builds the frame's `SymbolName`.
      for frame in backtrace.frames where Self.lacksSymbol(frame) && context.isAppFrame(frame) {
        guard let index = frame.imageIndex, let address = frame.address else { continue }
        if byImage[index] == nil { order.append(index) }
        if seen.insert(Address(image: index, address: address)).inserted {
          byImage[index, default: []].append(address)
        }
      }
    }
    var images: [ImageCommands] = []
    for index in order {
      let image = context.report.images[index]
      guard let name = image.name, let base = image.base, let addresses = byImage[index] else { continue }
      let arch = image.arch.flatMap(Self.knownArchitecture) ?? Self.arch(cpuType: context.report.cpuType)
      let uuid = image.uppercaseUUID
      let binary = Self.dSYMBinary(image: image, name: name, isMain: image == context.report.mainImage)
      let atos =
        "atos -arch \(arch) -o \(Self.shellQuoted(binary)) -l \(String.hex(base)) "
        + addresses.map { String.hex($0) }.joined(separator: " ")
      images.append(
        ImageCommands(
          imageName: name, uuid: uuid, arch: arch, loadAddress: base, addresses: addresses,
          findDSYM: uuid.flatMap(Self.findDSYMCommand), atos: atos))
    }
    guard !images.isEmpty else { return nil }
    self.images = images
  }

  /// The DWARF file inside the image's dSYM bundle: `App.app.dSYM` for the executable,
  /// `Kit.framework.dSYM` for a framework, `name.dSYM` otherwise.
  static func dSYMBinary(image: BinaryImage, name: String, isMain: Bool) -> String {
    let bundle: String
    if let path = image.path, let range = path.prefilteredFirstRange(of: ".framework/") {
      let framework = path[..<range.lowerBound].split(separator: "/").last.map(String.init) ?? name
      bundle = framework + ".framework.dSYM"
    } else if let path = image.path, let range = path.prefilteredFirstRange(of: ".appex/") {
      let appex = path[..<range.lowerBound].split(separator: "/").last.map(String.init) ?? name
      bundle = appex + ".appex.dSYM"
    } else if isMain || image.path?.prefilteredContains(".app/") == true {
      bundle = name + ".app.dSYM"
    } else {
      bundle = name + ".dSYM"
    }
    return bundle + "/Contents/Resources/DWARF/" + name
  }

  /// The architectures `atos -arch` takes that crash reports name.
  static let knownArchitectures: Set<String> = [
    "arm64", "arm64e", "arm64_32", "armv7", "armv7k", "armv7s", "armv6", "x86_64", "x86_64h", "i386",
  ]

  /// `arch`, lowercased, when it is one of ``knownArchitectures``; `nil` for anything else.
  static func knownArchitecture(_ arch: String) -> String? {
    let lowered = arch.lowercased()
    return knownArchitectures.contains(lowered) ? lowered : nil
  }

  /// `mdfind "com_apple_xcode_dsym_uuids == <UUID>"` when `uuid` is 32 hexadecimal digits with
  /// dashes only between them (so nothing in the double quotes is special to a shell); `nil` otherwise.
  package static func findDSYMCommand(uuid: String) -> String? {
    guard uuid.isUUIDText else { return nil }
    return "mdfind \"com_apple_xcode_dsym_uuids == \(uuid)\""
  }

  /// The `atos -arch` of the report's process when no image names its own: the code type's first
  /// word (`X86-64 (Translated)`, a Rosetta process, is `x86_64`, as its images are).
  static func arch(cpuType: String?) -> String {
    let word = cpuType?.split(whereSeparator: { $0 == " " || $0 == "(" }).first.map { $0.uppercased() }
    return switch word {
    case "X86-64", "X86_64": "x86_64"
    case "X86", "I386": "i386"
    case "ARM": "armv7"
    default: "arm64"
    }
  }

  /// Whether `context.symbol(frame)` is `nil`: exactly when `frame.symbolName` is (the context
  /// demangles only symbols that have one), i.e. when the symbol is missing, empty or `???`.
  static func lacksSymbol(_ frame: Frame) -> Bool {
    guard let symbol = frame.symbol else { return true }
    // The length first, so that only a three-byte symbol is compared with "???".
    let length = symbol.utf8.count
    return length == 0 || (length == 3 && symbol == "???")
  }

  /// `text` as one word of a POSIX shell: as it is when every byte is an ASCII letter, digit or
  /// one of `._-/+@` (and it is not empty), otherwise in single quotes, each `'` written `'\''`.
  package static func shellQuoted(_ text: String) -> String {
    if isASCIIShellSafe(text) { return text }
    return "'" + text.replacing("'", with: "'\\''") + "'"
  }

  /// Whether `text` is not empty and every byte is an ASCII letter, digit or one of `._-/+@`.
  static func isASCIIShellSafe(_ text: String) -> Bool {
    guard !text.utf8.isEmpty else { return false }
    for byte in text.utf8 {
      let isSafe =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || Self.safePunctuation.contains(byte)
      if !isSafe { return false }
    }
    return true
  }

  private static let safePunctuation: [UInt8] = Array("._-/+@".utf8)
}
