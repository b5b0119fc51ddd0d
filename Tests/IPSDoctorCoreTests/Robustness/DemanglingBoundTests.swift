import Foundation
import Testing

@testable import IPSDoctorDiagnosis
@testable import IPSDoctorReport

/// Mangled symbols whose substitutions expand exponentially are refused before the runtime prints
/// them: the frame keeps its mangled name and a note says why.
@Suite("Hostile input: mangled symbols that expand")
struct DemanglingBoundTests {
  /// `$sSaySiG` then `SayA<c>_A<c>tG` for `groups` successive substitutions `c` (`AA`, `AB`, …):
  /// each group is an array of a pair of the previous type, so the demangled text doubles a group.
  static func doubling(groups: Int) -> String {
    var symbol = "$sSaySiG"
    for group in 0..<groups {
      let letter = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(group)))
      symbol += "SayA\(letter)_A\(letter)tG"
    }
    return symbol + "D"
  }

  @Test("The 249-byte doubling symbol is refused with a note; 12 groups are bounded too")
  func pathologicalSymbol() {
    let symbol = Self.doubling(groups: 24)
    #expect(symbol.utf8.count == 249)
    for groups in [12, 24] {
      let name = SymbolName(Self.doubling(groups: groups))
      #expect((name.full?.utf8.count ?? 0) <= SwiftDemangler.maxDemangledBytes)
      #expect(name.display.utf8.count <= SwiftDemangler.maxDemangledBytes)
    }
    let name = SymbolName(symbol)
    #expect(name.full == nil && name.display == symbol)
    #expect(name.note?.contains("substitutions") == true, "\(name.note ?? "no note")")
  }

  @Test("Small doubling chains and ordinary symbols still demangle")
  func ordinarySymbols() {
    let pair = "Swift.Array<(Swift.Array<Swift.Int>, Swift.Array<Swift.Int>)>"
    let full = SymbolName(Self.doubling(groups: 3)).full
    #expect(full?.hasPrefix("Swift.Array<Swift.Int>" + pair) == true, "\(full ?? "nil")")
    let bridge =
      "$s7ChatApp24PushNotificationDelegateC04userC6Center_10didReceiveySo06UNUserC6CenterC_So22UNNotificationResponseCtYaFTY0_"
    #expect(SymbolName(bridge).full != nil)
    #expect(SymbolName(bridge).note == nil)
    let generic = "$s7SwiftUI4ViewPAAE05_makeC04view6inputsAA01_C7OutputsVAA11_GraphValueVyxG_AA01_C6InputsVtFZ"
    #expect(SwiftDemangler.demangledSizeBound(generic, limit: SwiftDemangler.maxEstimatedBytes) != nil)
  }

  @Test("A report with the symbol in its crashed thread diagnoses to bounded output")
  func wholeReport() throws {
    let symbol = Self.doubling(groups: 24)
    let header = #"{"app_name":"Amp","bug_type":"309","os_version":"iPhone OS 26.6 (23G80)","name":"Amp"}"#
    var body =
      #"{"procName":"Amp","exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","subtype":"KERN_INVALID_ADDRESS at 0x10"},"#
    body += #""faultingThread":0,"threads":[{"triggered":true,"frames":["#
    body += #"{"imageOffset":4096,"imageIndex":0,"symbol":""# + symbol + #"","symbolLocation":8},"#
    body += #"{"imageOffset":8192,"imageIndex":0}]}],"#
    body +=
      #""usedImages":[{"base":4294967296,"size":65536,"name":"Amp","path":"/private/var/containers/Bundle/Application/X/Amp.app/Amp"}]}"#
    let input = header + "\n" + body + "\n"
    let directory = try CLITest.temporaryDirectory()
    defer { CLITest.cleanUp(directory) }
    let file = directory.appendingPathComponent("doubling.ips")
    try Data(input.utf8).write(to: file)
    for format in ["text", "json"] {
      let run = CLITest.run([file.path, "--format", format])
      #expect(run.stdout.utf8.count <= 20 * input.utf8.count, "\(format): \(run.stdout.utf8.count) bytes")
      #expect(run.stdout.contains(symbol) || format == "text", "\(format): the mangled name is kept")
    }
    let shown = CLITest.run(["show", file.path])
    #expect(shown.stdout.contains(symbol))
  }
}
