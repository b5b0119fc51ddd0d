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
    context.forEachBacktrace { backtrace in
      // The symbol test first: it is a few byte compares, while `isAppFrame` hashes the image index
      // and `context.symbol(frame)` builds the frame's `SymbolName`.
      for frame in backtrace.frames where Self.lacksSymbol(frame) && context.isAppFrame(frame) {
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

  /// Whether `context.symbol(frame)` is `nil`: exactly when `frame.symbolName` is (the context
  /// demangles only symbols that have one), i.e. when the symbol is missing, empty or `???`.
  static func lacksSymbol(_ frame: Frame) -> Bool {
    guard let symbol = frame.symbol else { return true }
    // The length first: comparing every symbol with "???" cost more than the rest of the test.
    let length = symbol.utf8.count
    return length == 0 || (length == 3 && symbol == "???")
  }

  static func shellQuoted(_ text: String) -> String {
    let safe = isASCIIShellSafe(text) ?? text.allSatisfy { $0.isLetter || $0.isNumber || "._-/+@".contains($0) }
    if safe { return text }
    return "'" + text.replacing("'", with: "'\\''") + "'"
  }

  /// What `shellQuoted`'s `Character` test answers, over the bytes, for ASCII text without carriage
  /// returns (every byte one `Character`; `isLetter` and `isNumber` are the ASCII letters and
  /// digits there); `nil` for other text. The `Character` walk cost ~40,000 instructions a path.
  static func isASCIIShellSafe(_ text: String) -> Bool? {
    var safe = true
    for byte in text.utf8 {
      if byte >= 0x80 || byte == UInt8(ascii: "\r") { return nil }
      let isSafe =
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || Self.safePunctuation.contains(byte)
      if !isSafe { safe = false }
    }
    return safe
  }

  private static let safePunctuation: [UInt8] = Array("._-/+@".utf8)
}
