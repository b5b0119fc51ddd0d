import Testing

@testable import IPSDoctorDiagnosis

/// `CrashSignature.id` hashes each component's contiguous UTF-8; it must equal FNV-1a over the
/// `utf8` view byte by byte, as it was first written.
struct CrashSignatureHashTests {
  static func referenceID(_ components: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for component in components {
      for byte in component.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      hash ^= 0x1F
      hash = hash &* 0x100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  @Test func idAgreesWithUTF8ViewHash() {
    let lists: [[String]] = [
      [], [""], ["", ""], ["rule:watchdog-timeout"],
      ["rule:swift-runtime-trap", "reason:Fatal error: Index out of range at 0x…", "frame:ChatApp+0x13c40"],
      ["kind:crash", "exception:EXC_BAD_ACCESS", "reason:ünïcode café\u{301} \r\n\u{0} 🚀"],
      [String(repeating: "long component ", count: 40), "frame:" + String(repeating: "é", count: 50)],
      [String("frame:Substring-backed text".dropFirst(6))],
    ]
    for components in lists {
      #expect(CrashSignature(components: components).id == Self.referenceID(components), "\(components)")
    }
  }
}
