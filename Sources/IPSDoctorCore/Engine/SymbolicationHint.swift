/// How to symbolicate the app's frames when the report has none: the dSYM to find and the `atos`
/// command with this report's real load address and frame addresses.
public struct SymbolicationHint: Sendable, Equatable {
  public struct ImageCommands: Sendable, Equatable {
    public var imageName: String
    public var uuid: String?
    public var arch: String
    public var loadAddress: UInt64
    public var addresses: [UInt64]
    /// `mdfind "com_apple_xcode_dsym_uuids == <UUID>"`
    public var findDSYM: String?
    /// `atos -arch arm64 -o ChatApp.app.dSYM/Contents/Resources/DWARF/ChatApp -l 0x… 0x… 0x…`
    public var atos: String
  }

  public var images: [ImageCommands]

  init?(context: borrowing DiagnosisContext) {
    var byImage: [Int: [UInt64]] = [:]
    var order: [Int] = []
    for backtrace in context.backtraces {
      for frame in backtrace.frames where context.isAppFrame(frame) && context.symbol(frame) == nil {
        guard let index = frame.imageIndex, let address = frame.address else { continue }
        if byImage[index] == nil { order.append(index) }
        if !(byImage[index]?.contains(address) ?? false) { byImage[index, default: []].append(address) }
      }
    }
    var images: [ImageCommands] = []
    for index in order {
      let image = context.report.images[index]
      guard let name = image.name, let base = image.base, let addresses = byImage[index] else { continue }
      let arch = image.arch ?? Self.arch(cpuType: context.report.cpuType)
      let uuid = image.uuid?.uppercased()
      let binary = Self.dSYMBinary(image: image, name: name, isMain: image == context.report.mainImage)
      let atos =
        "atos -arch \(arch) -o \(Self.shellQuoted(binary)) -l \(String.hex(base)) "
        + addresses.map { String.hex($0) }.joined(separator: " ")
      images.append(
        ImageCommands(
          imageName: name, uuid: uuid, arch: arch, loadAddress: base, addresses: addresses,
          findDSYM: uuid.map { "mdfind \"com_apple_xcode_dsym_uuids == \($0)\"" }, atos: atos))
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

  static func arch(cpuType: String?) -> String {
    switch cpuType?.uppercased() {
    case "X86-64", "X86_64": "x86_64"
    case "ARM": "armv7"
    default: "arm64"
    }
  }

  static func shellQuoted(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "._-/+@".contains($0) }
    if safe { return text }
    return "'" + text.replacing("'", with: "'\\''") + "'"
  }
}
